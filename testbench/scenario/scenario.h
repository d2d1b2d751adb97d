// Scenario files: one TOML file describing a run ([device], [firmware], [workload], [run],
// [trace], [output]), validated completely before time zero.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "firmware/controller/controller.h"
#include "firmware/policy.h"
#include "firmware/rounds/wrr_admission.h"
#include "hw_models/disk/disk_params.h"
#include "hw_models/disk/drive_spec.h"
#include "hw_models/mems/mems_params.h"
#include "hw_models/mems/mems_seek.h"
#include "testbench/sim/host.h"
#include "testbench/trace/trace_reader.h"
#include "testbench/workload/rate_tasks.h"
#include "testbench/workload/rounds.h"
#include "testbench/workload/synthetic.h"
#include "waveforms/tracer.h"

namespace drivevp {

/// A configuration error. The message names the file (and line where known), the key, what is
/// allowed and what was found, e.g.
/// "scenario.toml:7: firmware.policy: expected one of fcfs, sstf, ...; found 'fifo'".
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The rate_tasks workload's scenario (paper 004; keys workload.* for workload.kind = "rate_tasks").
struct RateTasksScenario {
  std::string tasks_path;              ///< workload.tasks_path; empty: generated from `generation`
  RateTaskGeneration generation;       ///< workload.tasks, period_*, buffer_*
  std::uint32_t aperiodic_weight = 2;  ///< workload.aperiodic_weight_blocks: x_a (004 eq. 4)
  double round_ms = 0;                 ///< workload.round_ms: R; 0: the largest the test allows
  bool online_admission = false;       ///< workload.admission: strict (false) or online
  RateTasksOptions options;            ///< resolved: the admitted task set and the source options
  /// Resolved for a WRR-SCAN policy: the admission test's plan for the admitted set.
  std::optional<wrr::Plan> plan;
  std::vector<std::string> rejected;  ///< online admission: one line per rejected task
  std::size_t offered = 0;            ///< tasks offered to admission control
};

/// Everything a run needs, after validation.
struct Scenario {
  std::string source;    ///< file name, or "<default scenario>"
  std::string base_dir;  ///< directory relative paths in the scenario resolve against

  /// The device kind device.preset selects: "disk" (`device` holds its parameters) or "mems"
  /// (`mems` and `mems_seek_method`).
  std::string device_kind = "disk";
  DiskParams device;
  /// The drive description device.drive loaded (docs/models/drives.md), its [cache], [overheads]
  /// and [interface] sections for the models that read them; empty with a preset.
  std::optional<DriveSpec> drive;
  mems::MemsParams mems = mems::mems_g1();
  mems::SeekMethod mems_seek_method = mems::SeekMethod::Exact;
  /// Blocks the device holds.
  std::uint64_t capacity_blocks() const;
  std::string policy = "sptf";
  PolicyParams policy_params;
  ControllerParams controller;

  /// The workload carries service times measured on a real drive (a validate trace): requests.csv
  /// gets measured_service_ms and summary.json "validation" the demerit.
  bool has_measured_service_times() const {
    return workload_kind == WorkloadKind::Trace && trace.format == TraceFormat::Validate;
  }
  enum class WorkloadKind { Synthetic, Trace, RateTasks, Rounds } workload_kind = WorkloadKind::Synthetic;
  HostParams host;
  SyntheticOptions synthetic;
  RoundsOptions rounds;  ///< workload.kind = "rounds" (testbench/workload/rounds.h)
  /// workload.streams_path: a stream list (read_stream_list), relative to the scenario file; empty: none.
  std::string streams_path;
  TraceOptions trace;
  RateTasksScenario rate_tasks;  ///< workload.kind = "rate_tasks" (paper 004)

  std::uint64_t seed = 1;
  std::uint64_t requests = 10000;     ///< synthetic: count; trace: limit (0 = whole trace)
  std::uint64_t warmup_requests = 0;  ///< completions excluded from summary metrics (still in requests.csv)
  bool store_payload = false;         ///< run.store_payload: the media store keeps every written byte
  /// run.expect_hiccup_free (rounds workloads): a hiccup fails the run's checks (non-zero exit).
  bool expect_hiccup_free = false;

  bool tracing = false;
  std::vector<TraceGroup> trace_groups;
  Time trace_start{0};
  Time trace_stop{0};  ///< 0: until the end
  bool trace_fst = false;

  std::string output_dir = "out";
  bool plots = true;
  /// output.requests_csv: write requests.csv (one row per request). Off, nothing else changes:
  /// summary.json, rounds.csv and the histogram come from the same records (a long sweep point's
  /// requests.csv runs to hundreds of MB; paper 003's sweep at 10,000 rounds wrote about 60 GB).
  bool requests_csv = true;
  bool progress = true;
};

/// The embedded default scenario's TOML text (configs/default.toml).
const char* default_scenario_text();

/// Parses and validates a scenario. `path` empty: the embedded default. `overrides` are
/// "KEY=VALUE" strings (the command line's --set); VALUE is read as a TOML value, or as a string
/// when it is not one. Throws ConfigError on any problem: unreadable file, TOML syntax, unknown
/// key, wrong type, value out of range, a policy parameter the policy does not have.
Scenario load_scenario(const std::string& path, const std::vector<std::string>& overrides);

/// A scenario key's value with where it came from, for messages.
struct ScenarioEntry {
  const toml::node* node = nullptr;  ///< owned by the caller's table; must outlive the use
  std::string where;                 ///< "file:line" or "--set KEY=VALUE"
};
/// Dotted key ("firmware.policy") -> value.
using ScenarioEntries = std::map<std::string, ScenarioEntry>;

/// A TOML value as an error message quotes it ("found ..."): strings in single quotes, arrays in
/// TOML form, "a table" for a table; printable (printable_text) and at most 60 bytes.
std::string describe_toml_value(const toml::node& value);

/// Reads and parses a scenario file (`path` empty: the embedded default) without validating
/// its keys. Throws ConfigError: unreadable, larger than 1 MiB, nested deeper than 16 levels,
/// TOML syntax.
toml::table read_scenario_table(const std::string& path);
/// The directory relative paths in scenario `path` resolve against (the data directory for the
/// embedded default).
std::string scenario_base_dir(const std::string& path);
/// Adds every leaf of `table` to `out` as "file:line" entries (later calls override).
void flatten_scenario(const toml::table& table, const std::string& file, ScenarioEntries& out);
/// Parses one "KEY=VALUE" override as --set reads it: VALUE as one TOML value on one line, or as
/// a string when it is not one. Returns the key and a table holding the value under "v". Throws
/// ConfigError.
std::pair<std::string, toml::table> parse_scenario_override(const std::string& key_equals_value);
/// Validates `entries` as load_scenario() does (same checks, same messages). `file` names the
/// scenario in messages without a line; `base_dir` is where relative trace paths resolve.
Scenario resolve_scenario(const ScenarioEntries& entries, const std::string& file, const std::string& base_dir);

/// Every accepted key with its type, default and range, for `drivevp keys` and docs.
std::string describe_scenario_keys();

}  // namespace drivevp
