// libFuzzer harness: the DiskSim validate trace reader through open_trace() with
// workload.format = "validate".
#include <cstddef>
#include <cstdint>

#include "fuzz/trace_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  drivevp::fuzz::fuzz_trace(drivevp::TraceFormat::Validate, data, size);
  return 0;
}
