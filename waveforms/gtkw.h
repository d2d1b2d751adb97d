// GTKWave save files (.gtkw) for the platform's VCD traces, and VCD-to-FST conversion.
// Plain C++, no SystemC.
//
// A save file tells GTKWave which dump to open, which signals to show in which order and
// format, how to group them and which time window to show. The syntax written here is the one
// GTKWave 3.3.118 itself writes (checked by saving files from gtkwave and reading them back):
//
//   [dumpfile] "waves.vcd"              the dump to open when the save file is opened alone
//   [savefile] "waves.gtkw"             lets GTKWave find a relative dumpfile next to the save file
//   [timestart] 1000000                 left edge of the wave pane, in dump time units
//   [size] 1400 800                     main window size in pixels
//   *-18.200000 -1 -1 ... (27 x -1)     zoom, primary marker, named markers A..Z (-1 = unset)
//   @800200                             flags of the following lines: group start (open)
//   -Mechanics                          a line starting with '-' is a comment/group label
//   @8024                               analog step, decimal, right-justified
//   SystemC.drive.actuator.cylinder[31:0]
//   @20000                              analog height extension: one more row per '-' line
//   -
//   @1000200                            group end
//   -Mechanics
//   @2024                               a trace with a translate filter file (0x2000) ...
//   ^1 waves.firmware.state.txt         ... filter 1 is this file: value text -> name
//   SystemC.firmware.state[7:0]
//
// A translate filter file (render_translate_filter) maps the value text GTKWave would show to a
// name, one "VALUE NAME" pair per line. GTKWave 3.3.118 opens a relative filter path from the save
// file's directory (measured: the names show with the working directory elsewhere), so the save
// file can name a filter file beside it without an absolute path.
//
// What this does not cover: colours, markers, process and transaction filters, and signals
// GTKWave derives (bit slices, aliases). The zoom assumes the window keeps the size
// written here and a signal-search-tree pane of at most 280 px (GTKWave 3.3.118 under Xvfb
// makes it 276 px): the window shown then starts at `TimeWindow::start` and ends about 1% after
// `TimeWindow::end`. A window manager that resizes the window changes how much is shown.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace drivevp::gtkw {

/// How GTKWave draws a signal.
enum class Format {
  hex,                 ///< vector value in hexadecimal
  decimal,             ///< vector value in decimal (signed if Signal::is_signed)
  binary,              ///< vector value in binary; a 1-bit signal is drawn as a logic trace
  analog_step,         ///< analog plot, held between changes (counters, cylinder numbers)
  analog_interpolated  ///< analog plot, straight lines between samples (angles, positions)
};

/// One traced variable as it appears in the VCD.
struct Signal {
  /// The name passed to sc_trace, e.g. "drive.actuator.cylinder". SystemC 2.3.4 turns every
  /// '.' into a VCD scope, so GTKWave shows it as "<top_scope>.drive.actuator.cylinder[31:0]".
  std::string name;
  /// The VCD $var size: 1 for bool and for double (SystemC writes reals as `$var real 1`),
  /// 32 for int, N for sc_uint<N>. Vectors (width > 1) get GTKWave's "[width-1:0]" suffix.
  unsigned width = 1;
  Format format = Format::hex;
  /// Display height in rows for the analog formats (>= 1); must be 1 for the others.
  unsigned analog_rows = 1;
  /// Interpret the bits as two's complement for decimal and analog display (C++ signed types).
  bool is_signed = false;
  /// Path of a translate filter file that names the values (enum signals; written with
  /// render_translate_filter in the signal's format), relative to the save file's directory or
  /// absolute; empty: none. Not for the analog formats.
  std::string translate_filter;
};

/// One line of a translate filter file: `value` exactly as GTKWave displays it in the signal's
/// format (e.g. "2" for Format::decimal, "02" for an 8-bit Format::hex), `name` shown instead.
struct TranslateEntry {
  std::string value;
  std::string name;
};

/// The text of a GTKWave translate filter file: a '#' comment line per line of `comment`, then
/// "VALUE NAME" per entry. GTKWave compares values case-insensitively and strips white space
/// around the name. Throws std::invalid_argument on an empty value or name, white space in a
/// value, a line break or control character anywhere, a value starting with '#', or a repeated
/// value.
std::string render_translate_filter(const std::vector<TranslateEntry>& entries, const std::string& comment);

/// A collapsible group of signals, shown under a header line in GTKWave's signal pane.
struct SignalGroup {
  std::string name;  ///< header text; printable, no line breaks
  std::vector<Signal> signals;
  bool closed = false;  ///< start collapsed (GTKWave's "Toggle Group Open|Close")
};

/// The time range the wave pane shows on opening, in dump time units (the VCD $timescale unit
/// times its multiplier; the platform traces with 1 ps, so picoseconds). end > start.
struct TimeWindow {
  std::uint64_t start = 0;
  std::uint64_t end = 0;
};

/// Layout of the GTKWave main window, used to compute the zoom that fits the time window.
struct SaveFileLayout {
  /// Scope SystemC's VCD writer puts every trace under ($scope module SystemC).
  std::string top_scope = "SystemC";
  unsigned window_width_px = 1400;  ///< [size] width
  unsigned window_height_px = 800;  ///< [size] height
  unsigned signals_width_px = 300;  ///< [signals_width]: the signal-name pane
};

/// The facility name GTKWave shows for `signal` in a SystemC VCD, e.g.
/// "SystemC.drive.actuator.cylinder[31:0]" for {"drive.actuator.cylinder", 32}.
std::string gtkwave_signal_name(const Signal& signal, const std::string& top_scope = "SystemC");

/// The zoom value GTKWave needs so that `window` spans `wave_width_px` pixels. GTKWave shows
/// 2^(-zoom) / 200 dump time units per pixel (measured on 3.3.118, independent of $timescale).
double zoom_for_window(TimeWindow window, unsigned wave_width_px);

/// Everything a save file says: which dump to open, the groups in display order, the window.
struct SaveFile {
  /// The dump to open, written as given. A relative path works from any working directory as
  /// long as it is relative to the save file's directory: GTKWave 3.3.118 falls back to the save
  /// file's directory when the path does not open from the working directory and a [savefile]
  /// line is present, which render_save_file always writes.
  std::string dumpfile;
  TimeWindow window;
  std::vector<SignalGroup> groups;
  SaveFileLayout layout;
};

/// The text of a save file for `view`, to be stored at `savefile_path` (only its last
/// component is written, as [savefile], so the text does not depend on the output directory).
/// Deterministic: no dates, sizes or modification times of the dump are written.
/// Throws std::invalid_argument on an empty or malformed name, a quote or line break in a path
/// or name, a zero width, an empty group, an empty window, analog_rows out of range, or a
/// translate filter on an analog signal.
std::string render_save_file(const SaveFile& view, const std::string& savefile_path);

/// Writes render_save_file(view, path) to `path` atomically (a temporary file in the same
/// directory, then rename). Throws std::runtime_error naming the path if it cannot be written.
void write_save_file(const std::string& path, const SaveFile& view);

/// Runs `vcd2fst <vcd_path> <fst_path>` (GTKWave's converter, found on PATH) without a shell.
/// Throws std::runtime_error with the command line and its exit status or signal on failure,
/// including when vcd2fst cannot be started.
void convert_vcd_to_fst(const std::string& vcd_path, const std::string& fst_path);

/// Runs args[0] (looked up in PATH) with the arguments args[1..], without a shell, and waits for
/// it. The child starts with no signal blocked and default signal actions, whatever the caller
/// blocks. Throws std::runtime_error naming the quoted command and its exit status or signal when
/// it cannot be started or does not exit with status 0.
void run_program(std::vector<std::string> args);

/// The process id of the child run_program() is waiting for, or 0 when none runs (read by the
/// command line's interrupt cleanup, which kills it).
int running_child();

}  // namespace drivevp::gtkw
