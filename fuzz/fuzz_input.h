// Shared by the libFuzzer harnesses in fuzz/: the fuzz input as a file that path-based APIs
// (open_trace, detect_trace_format, load_scenario) can open, without touching the disk.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace drivevp::fuzz {

/// An anonymous in-memory file (memfd_create(2)) rewritten for every input. Its path,
/// "/proc/self/fd/N", opens a fresh description at offset 0 each time (fopen, std::ifstream).
class InputFile {
 public:
  InputFile() {
    fd_ = memfd_create("drivevp-fuzz-input", 0);
    if (fd_ < 0) {
      std::perror("memfd_create");
      std::abort();
    }
    path_ = "/proc/self/fd/" + std::to_string(fd_);
  }
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;
  ~InputFile() { close(fd_); }

  /// Replaces the file's content with `data` and returns its path.
  const std::string& write(const std::uint8_t* data, std::size_t size) {
    if (ftruncate(fd_, 0) != 0) std::abort();
    std::size_t done = 0;
    while (done < size) {
      const ssize_t n = pwrite(fd_, data + done, size - done, static_cast<off_t>(done));
      if (n <= 0) std::abort();
      done += static_cast<std::size_t>(n);
    }
    return path_;
  }
  const std::string& path() const { return path_; }

 private:
  int fd_ = -1;
  std::string path_;
};

/// Stops the fuzzer with a message: an invariant of the API under test does not hold.
[[noreturn]] inline void invariant_failed(const char* what) {
  std::fprintf(stderr, "drivevp fuzz: invariant violated: %s\n", what);
  std::abort();
}

}  // namespace drivevp::fuzz
