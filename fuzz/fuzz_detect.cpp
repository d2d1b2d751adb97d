// libFuzzer harness: format detection (detect_trace_format) on one file, then, when a format is
// detected, the replay open_trace() does with workload.format = "auto", consumed to the end.
// The first input byte picks the file name, which breaks the SSDsim/MQSim/DiskSim tie: a plain
// name, one containing "mqsim", or one containing "disksim" (symbolic links to the same memfd).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "fuzz/fuzz_input.h"
#include "testbench/trace/trace_reader.h"

namespace {

struct Names {
  drivevp::fuzz::InputFile file;
  std::string dir;
  std::string names[3];
  Names() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "drivevp-fuzz-detect-XXXXXX").string();
    if (mkdtemp(tmpl.data()) == nullptr) std::abort();
    dir = tmpl;
    const char* leaf[3] = {"/trace.txt", "/websearch.mqsim.trace", "/example.disksim"};
    for (int i = 0; i < 3; ++i) {
      names[i] = dir + leaf[i];
      if (symlink(file.path().c_str(), names[i].c_str()) != 0) std::abort();
    }
  }
  ~Names() {
    for (const std::string& n : names) unlink(n.c_str());
    rmdir(dir.c_str());
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static Names names;
  const std::size_t which = size > 0 ? data[0] % 3 : 0;
  names.file.write(data, size);
  const std::string& path = names.names[which];
  try {
    const drivevp::TraceFormat f = drivevp::detect_trace_format(path);
    if (f == drivevp::TraceFormat::Auto) drivevp::fuzz::invariant_failed("detection returned 'auto'");
    drivevp::TraceOptions o;
    o.paths = {path};
    o.capacity_blocks = std::uint64_t{1} << 40;
    o.lenient = true;
    drivevp::TraceStats stats;
    const auto source = drivevp::open_trace(o, &stats);
    drivevp::SourceRequest r;
    std::uint64_t yielded = 0;
    while (source->next(r)) ++yielded;
    if (yielded != stats.requests) drivevp::fuzz::invariant_failed("stats.requests differs from the requests yielded");
  } catch (const drivevp::TraceError&) {
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
