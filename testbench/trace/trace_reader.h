// Streaming readers for real block-I/O traces (formats in ../shared/traces/README.md).
// Plain C++: no SystemC.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "testbench/source.h"

namespace drivevp {

/// Trace formats understood by the readers.
enum class TraceFormat { Auto, DiskSim, Spc, Msr, Fio, Blkparse, Ftrace, SsdSim, MqSim };

/// Scenario spelling of a format ("disksim", "spc", "msr", "fio", "blkparse", "ftrace",
/// "ssdsim", "mqsim", "auto").
std::string to_string(TraceFormat f);
/// Parses the scenario spelling; std::nullopt if unknown.
std::optional<TraceFormat> parse_trace_format(const std::string& s);

/// What to do with a request whose blocks lie beyond the modelled capacity.
enum class CapacityPolicy {
  Error,  ///< stop with an error naming the line (default)
  Wrap,   ///< lbn' = lbn mod capacity (and the request shortened to fit if it still overruns)
  Scale,  ///< lbn' = floor(lbn * capacity / trace_extent), trace_extent = max end LBN in the trace
};

/// A malformed trace: names the file, the line (1-based; 0 when not line-specific), what was
/// expected and what was found. The message reads
/// "<file>:<line>: expected <expected>, found '<found>'".
class TraceError : public std::runtime_error {
 public:
  TraceError(std::string file, std::uint64_t line, std::string expected, std::string found);
  const std::string& file() const { return file_; }
  std::uint64_t line() const { return line_; }
  const std::string& expected() const { return expected_; }
  const std::string& found() const { return found_; }

 private:
  std::string file_;
  std::uint64_t line_;
  std::string expected_;
  std::string found_;
};

/// Options of a trace replay (scenario keys under [workload]).
struct TraceOptions {
  std::vector<std::string> paths;   ///< one file, or several fio job logs merged in time order
  TraceFormat format = TraceFormat::Auto;
  double time_scale = 1.0;          ///< inter-arrival times are divided by this (paper 002 §4), > 0
  std::optional<std::uint32_t> device;  ///< keep only this device / ASU / maj,min index; all if unset
  double start_s = 0;               ///< window: drop requests arriving before (trace time, s)
  double stop_s = -1;               ///< window: drop requests arriving after (trace time, s); <0: none
  std::uint64_t skip_requests = 0;  ///< window: drop the first N kept requests
  std::uint64_t max_requests = 0;   ///< window: stop after N requests; 0: no limit
  CapacityPolicy capacity = CapacityPolicy::Error;
  std::uint64_t capacity_blocks = 0;  ///< the modelled capacity in 512 B blocks, > 0
  bool lenient = false;             ///< skip malformed lines instead of stopping
};

/// Counters a replay reports in summary.json.
struct TraceStats {
  std::uint64_t lines = 0;           ///< lines read
  std::uint64_t requests = 0;        ///< requests yielded
  std::uint64_t filtered = 0;        ///< dropped by the device filter or the window
  std::uint64_t skipped_malformed = 0;  ///< lenient mode only
  std::vector<std::string> first_malformed;  ///< up to 5 messages, lenient mode only
  std::uint64_t wrapped = 0;         ///< requests moved by CapacityPolicy::Wrap
  std::uint64_t scaled = 0;          ///< requests moved by CapacityPolicy::Scale
  std::uint64_t truncated = 0;       ///< requests shortened to fit the capacity
  std::uint64_t trace_extent_blocks = 0;  ///< max end LBN seen (for Scale)
};

/// Detects the format of `path` from its first non-comment lines. Throws TraceError when no
/// format matches.
TraceFormat detect_trace_format(const std::string& path);

/// Opens a streaming trace source. Validates the whole trace first (one streaming pass, flat
/// memory) so that a malformed line stops the run before anything is simulated or written;
/// throws TraceError then (strict mode). Memory stays flat in the trace length.
std::unique_ptr<WorkloadSource> open_trace(const TraceOptions& options, TraceStats* stats);

}  // namespace drivevp
