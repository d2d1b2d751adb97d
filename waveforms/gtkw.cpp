#include "waveforms/gtkw.h"

#include <fmt/format.h>
#include <spawn.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

extern char** environ;

namespace drivevp::gtkw {
namespace {

std::atomic<int> g_running_child{0};

// Trace flags of a GTKWave save file ("@<hex>" lines). Values as GTKWave 3.3.118 writes them
// when the matching menu entries are used; the comments name the entry.
constexpr std::uint32_t kHex = 0x2;                     // Data Format/Hex
constexpr std::uint32_t kDecimal = 0x4;                 // Data Format/Decimal
constexpr std::uint32_t kBinary = 0x8;                  // Data Format/Binary
constexpr std::uint32_t kRightJustify = 0x20;           // set on every trace GTKWave adds
constexpr std::uint32_t kBlank = 0x200;                 // comment/label line ("-text")
constexpr std::uint32_t kSigned = 0x400;                // Data Format/Signed Decimal
constexpr std::uint32_t kFileTranslated = 0x2000;       // Data Format/Translate Filter File/Enable
constexpr std::uint32_t kAnalogStep = 0x8000;           // Data Format/Analog/Step
constexpr std::uint32_t kAnalogInterpolated = 0x10000;  // Data Format/Analog/Interpolated
constexpr std::uint32_t kAnalogExtension = 0x20000;     // Insert Analog Height Extension
constexpr std::uint32_t kGroupClosed = 0x400000;        // Toggle Group Open|Close
constexpr std::uint32_t kGroupBegin = 0x800000;         // Create Group: header line
constexpr std::uint32_t kGroupEnd = 0x1000000;          // Create Group: closing line
constexpr std::uint32_t kCollapsed = 0x1000;            // set on the end line of a closed group

// GTKWave shows 2^(-zoom) / kZoomUnitsPerPixelDivisor dump time units per pixel; measured on
// 3.3.118 by loading save files with zoom -20, -25, -28.49 and asking getUnitTimePixels.
constexpr double kZoomUnitsPerPixelDivisor = 200.0;

// Pixels of the main window that are neither signal pane nor wave pane: the signal-search-tree
// pane (GTKWave widens it to at least ~276 px whatever [sst_width] says) plus borders and the
// scrollbar. Overestimated on purpose so the window shown covers TimeWindow::end.
constexpr unsigned kSstWidthPx = 280;
constexpr unsigned kChromeWidthPx = 32;

// The number of named markers (A..Z) on the zoom line after the primary marker.
constexpr int kNamedMarkers = 26;

// GTKWave splits save-file lines on white space and reads quoted paths up to the next quote, so
// names and paths must be printable, without quotes, and names without white space.
void check_text(const std::string& text, const char* what, bool allow_space) {
  if (text.empty()) {
    throw std::invalid_argument(fmt::format("gtkw: empty {}", what));
  }
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f || c == '"' || (!allow_space && c == ' ')) {
      throw std::invalid_argument(
          fmt::format("gtkw: {} \"{}\" contains a character GTKWave cannot read back "
                      "(control character, quote{})",
                      what, text, allow_space ? "" : " or space"));
    }
  }
}

std::uint32_t trace_flags(const Signal& s) {
  const std::uint32_t number = s.is_signed ? kSigned : kDecimal;
  switch (s.format) {
    case Format::hex:
      return kRightJustify | kHex;
    case Format::decimal:
      return kRightJustify | number;
    case Format::binary:
      return kRightJustify | kBinary;
    case Format::analog_step:
      return kRightJustify | number | kAnalogStep;
    case Format::analog_interpolated:
      return kRightJustify | number | kAnalogInterpolated;
  }
  throw std::invalid_argument("gtkw: unknown Format value");
}

bool is_analog(Format f) { return f == Format::analog_step || f == Format::analog_interpolated; }

void check_signal(const Signal& s, const std::string& group) {
  check_text(s.name, "signal name", false);
  if (s.name.front() == '.' || s.name.back() == '.' || s.name.find("..") != std::string::npos) {
    throw std::invalid_argument(
        fmt::format("gtkw: signal name \"{}\" has an empty scope (leading, trailing or double "
                    "'.')",
                    s.name));
  }
  if (s.width == 0) {
    throw std::invalid_argument(fmt::format("gtkw: signal \"{}\" in group \"{}\" has width 0", s.name, group));
  }
  if (!s.translate_filter.empty()) {
    check_text(s.translate_filter, "translate filter path", true);
    if (is_analog(s.format)) {
      throw std::invalid_argument(
          fmt::format("gtkw: signal \"{}\" has a translate filter but an analog format; GTKWave draws analog "
                      "traces without text",
                      s.name));
    }
  }
  constexpr unsigned kMaxAnalogRows = 64;
  if (is_analog(s.format) ? (s.analog_rows < 1 || s.analog_rows > kMaxAnalogRows) : s.analog_rows != 1) {
    throw std::invalid_argument(
        fmt::format("gtkw: signal \"{}\" has analog_rows {}; expected 1..{} for an analog format and 1 "
                    "otherwise",
                    s.name, s.analog_rows, kMaxAnalogRows));
  }
}

// Quotes an argument for display in an error message, the way a POSIX shell would read it.
std::string shell_quote(const std::string& arg) {
  if (!arg.empty() && arg.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                            "0123456789_-+=./:,@%") == std::string::npos) {
    return arg;
  }
  std::string quoted = "'";
  for (char c : arg) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

}  // namespace

std::string gtkwave_signal_name(const Signal& signal, const std::string& top_scope) {
  std::string name = top_scope.empty() ? signal.name : fmt::format("{}.{}", top_scope, signal.name);
  if (signal.width > 1) {
    name += fmt::format("[{}:0]", signal.width - 1);
  }
  return name;
}

double zoom_for_window(TimeWindow window, unsigned wave_width_px) {
  if (window.end <= window.start) {
    throw std::invalid_argument(
        fmt::format("gtkw: time window [{}, {}] is empty; end must be after start", window.start, window.end));
  }
  if (wave_width_px == 0) {
    throw std::invalid_argument("gtkw: wave pane width is 0 pixels");
  }
  const double units_per_pixel = static_cast<double>(window.end - window.start) / static_cast<double>(wave_width_px);
  return -std::log2(units_per_pixel * kZoomUnitsPerPixelDivisor);
}

std::string render_save_file(const SaveFile& view, const std::string& savefile_path) {
  const SaveFileLayout& layout = view.layout;
  check_text(view.dumpfile, "dump file path", true);
  const std::string::size_type slash = savefile_path.find_last_of('/');
  const std::string savefile_name = slash == std::string::npos ? savefile_path : savefile_path.substr(slash + 1);
  check_text(savefile_name, "save file name", true);
  if (!layout.top_scope.empty()) {
    check_text(layout.top_scope, "top scope", false);
  }
  const unsigned reserved = layout.signals_width_px + kSstWidthPx + kChromeWidthPx;
  if (layout.window_width_px <= reserved + 100) {
    throw std::invalid_argument(
        fmt::format("gtkw: window width {} px leaves no room for the wave pane (signal pane {} px, other "
                    "panes {} px, need at least 100 px of waves)",
                    layout.window_width_px, layout.signals_width_px, kSstWidthPx + kChromeWidthPx));
  }
  const double zoom = zoom_for_window(view.window, layout.window_width_px - reserved);

  fmt::memory_buffer out;
  auto sink = std::back_inserter(out);
  fmt::format_to(sink, "[*]\n");
  fmt::format_to(sink, "[*] drivevp waveform view; open with: gtkwave <this file>\n");
  fmt::format_to(sink, "[*]\n");
  fmt::format_to(sink, "[dumpfile] \"{}\"\n", view.dumpfile);
  fmt::format_to(sink, "[savefile] \"{}\"\n", savefile_name);
  fmt::format_to(sink, "[timestart] {}\n", view.window.start);
  fmt::format_to(sink, "[size] {} {}\n", layout.window_width_px, layout.window_height_px);
  fmt::format_to(sink, "[pos] -1 -1\n");
  std::string markers;
  for (int i = 0; i < 1 + kNamedMarkers; ++i) {
    markers += " -1";
  }
  fmt::format_to(sink, "*{:.6f}{}\n", zoom, markers);
  fmt::format_to(sink, "[sst_width] {}\n", kSstWidthPx);
  fmt::format_to(sink, "[signals_width] {}\n", layout.signals_width_px);
  fmt::format_to(sink, "[sst_expanded] 1\n");

  // Translate filter files, numbered from 1 in order of first use (the number only has to be
  // non-zero: GTKWave renumbers the files it loads).
  std::vector<std::string> filters;
  for (const SignalGroup& group : view.groups) {
    check_text(group.name, "group name", true);
    if (group.signals.empty()) {
      throw std::invalid_argument(fmt::format("gtkw: group \"{}\" has no signals", group.name));
    }
    const std::uint32_t closed = group.closed ? kGroupClosed : 0;
    fmt::format_to(sink, "@{:x}\n", kGroupBegin | closed | kBlank);
    fmt::format_to(sink, "-{}\n", group.name);
    for (const Signal& s : group.signals) {
      check_signal(s, group.name);
      if (s.translate_filter.empty()) {
        fmt::format_to(sink, "@{:x}\n", trace_flags(s));
      } else {
        auto it = std::find(filters.begin(), filters.end(), s.translate_filter);
        if (it == filters.end()) it = filters.insert(filters.end(), s.translate_filter);
        fmt::format_to(sink, "@{:x}\n", trace_flags(s) | kFileTranslated);
        fmt::format_to(sink, "^{} {}\n", (it - filters.begin()) + 1, s.translate_filter);
      }
      fmt::format_to(sink, "{}\n", gtkwave_signal_name(s, layout.top_scope));
      if (s.analog_rows > 1) {
        fmt::format_to(sink, "@{:x}\n", kAnalogExtension);
        for (unsigned row = 1; row < s.analog_rows; ++row) {
          fmt::format_to(sink, "-\n");
        }
      }
    }
    fmt::format_to(sink, "@{:x}\n", kGroupEnd | (group.closed ? (kGroupClosed | kCollapsed) : 0) | kBlank);
    fmt::format_to(sink, "-{}\n", group.name);
  }
  return fmt::to_string(out);
}

std::string render_translate_filter(const std::vector<TranslateEntry>& entries, const std::string& comment) {
  fmt::memory_buffer out;
  auto sink = std::back_inserter(out);
  std::istringstream lines(comment);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty()) check_text(line, "translate filter comment", true);
    fmt::format_to(sink, "#{}{}\n", line.empty() ? "" : " ", line);
  }
  std::vector<std::string> seen;
  for (const TranslateEntry& e : entries) {
    check_text(e.value, "translate filter value", false);
    check_text(e.name, "translate filter name", true);
    if (e.value.front() == '#') {
      throw std::invalid_argument(fmt::format(
          "gtkw: translate filter value \"{}\" starts with '#', which GTKWave reads as a comment", e.value));
    }
    for (const std::string& v : seen) {
      if (strcasecmp(v.c_str(), e.value.c_str()) == 0) {
        throw std::invalid_argument(fmt::format("gtkw: translate filter value \"{}\" appears twice", e.value));
      }
    }
    seen.push_back(e.value);
    fmt::format_to(sink, "{} {}\n", e.value, e.name);
  }
  return fmt::to_string(out);
}

void write_save_file(const std::string& path, const SaveFile& view) {
  const std::string text = render_save_file(view, path);
  const std::string temp = fmt::format("{}.tmp{}", path, ::getpid());
  {
    std::ofstream file(temp, std::ios::binary | std::ios::trunc);
    file.write(text.data(), static_cast<std::streamsize>(text.size()));
    file.close();
    if (!file) {
      std::remove(temp.c_str());
      throw std::runtime_error(fmt::format("gtkw: cannot write save file {}", temp));
    }
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    std::remove(temp.c_str());
    throw std::runtime_error(fmt::format("gtkw: cannot rename {} to {}: {}", temp, path, std::strerror(err)));
  }
}

void convert_vcd_to_fst(const std::string& vcd_path, const std::string& fst_path) {
  run_program({"vcd2fst", vcd_path, fst_path});
}

int running_child() { return g_running_child.load(); }

void run_program(std::vector<std::string> args) {
  const std::string program = args.at(0);
  std::string command;
  for (const std::string& a : args) {
    command += (command.empty() ? "" : " ") + shell_quote(a);
  }
  std::vector<char*> argv;
  for (std::string& a : args) {
    argv.push_back(a.data());
  }
  argv.push_back(nullptr);

  // The caller may block signals (the command line blocks SIGINT/SIGTERM/SIGHUP and handles them
  // in a thread); the child gets an empty mask and default actions, so it stays interruptible.
  posix_spawnattr_t attr;
  ::posix_spawnattr_init(&attr);
  sigset_t none;
  sigset_t all;
  sigemptyset(&none);
  sigfillset(&all);
  ::posix_spawnattr_setsigmask(&attr, &none);
  ::posix_spawnattr_setsigdefault(&attr, &all);
  ::posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  pid_t pid = 0;
  const int spawn_error = ::posix_spawnp(&pid, program.c_str(), nullptr, &attr, argv.data(), environ);
  ::posix_spawnattr_destroy(&attr);
  if (spawn_error != 0) {
    throw std::runtime_error(fmt::format("cannot run `{}`: {}", command, std::strerror(spawn_error)));
  }
  g_running_child.store(pid);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      const int err = errno;
      g_running_child.store(0);
      throw std::runtime_error(fmt::format("waiting for `{}` failed: {}", command, std::strerror(err)));
    }
  }
  g_running_child.store(0);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    return;
  }
  if (WIFSIGNALED(status)) {
    throw std::runtime_error(
        fmt::format("`{}` was killed by signal {} ({})", command, WTERMSIG(status), ::strsignal(WTERMSIG(status))));
  }
  throw std::runtime_error(fmt::format("`{}` failed with exit status {}", command, WEXITSTATUS(status)));
}

}  // namespace drivevp::gtkw
