// libFuzzer harness: the disksim trace reader through open_trace() with workload.format = "disksim".
#include <cstddef>
#include <cstdint>

#include "fuzz/trace_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  drivevp::fuzz::fuzz_trace(drivevp::TraceFormat::DiskSim, data, size);
  return 0;
}
