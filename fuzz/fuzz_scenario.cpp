// libFuzzer harness: the scenario loader on a scenario file (load_scenario(path, {})).
// ConfigError is the loader's documented error; any other exception escapes and is a finding.
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_input.h"
#include "testbench/scenario/scenario.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static drivevp::fuzz::InputFile file;
  const std::string& path = file.write(data, size);
  try {
    const drivevp::Scenario sc = drivevp::load_scenario(path, {});
    if (sc.source != path) drivevp::fuzz::invariant_failed("Scenario::source is not the file loaded");
  } catch (const drivevp::ConfigError&) {
  }
  return 0;
}
