// libFuzzer harness: command-line overrides on the embedded default scenario,
// load_scenario("", {"KEY=VALUE", ...}). The input is split at '\n' into one override per line
// (a line is what one `--set` argument carries); a byte 0x01 inside a line stands for a newline
// within that argument, so that values with line breaks (which must be refused, not injected)
// are generated too. ConfigError is the documented error; any other exception is a finding.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz/fuzz_input.h"
#include "testbench/scenario/scenario.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> overrides;
  std::string current;
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == '\n') {
      overrides.push_back(current);
      current.clear();
    } else {
      current.push_back(data[i] == 0x01 ? '\n' : static_cast<char>(data[i]));
    }
  }
  if (!current.empty() || overrides.empty()) overrides.push_back(current);
  try {
    (void)drivevp::load_scenario("", overrides);
  } catch (const drivevp::ConfigError&) {
  }
  return 0;
}
