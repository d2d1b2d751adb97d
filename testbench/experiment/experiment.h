// Experiment files (experiments/*.toml): a base scenario, axes crossed and zipped, replications
// with derived seeds, the metrics to collect and the figures to draw; optionally several parts
// ([[part]]), each its own grid and figures over the shared scenario and metrics. Every point is validated
// through the scenario loader before anything runs. Format: docs/experiments.md.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "testbench/scenario/scenario.h"

namespace drivevp::experiment {

/// A stack of scenario layers, later layers overriding earlier ones, each leaf remembering where
/// it came from ("file:line" or "--set KEY=VALUE") so that a bad value is reported there.
/// The bottom layer is a scenario file, or the embedded default scenario when none is given.
class ScenarioLayers {
 public:
  /// Starts from `scenario_path` ("" = the embedded default scenario). Relative paths inside that
  /// file (workload.path) resolve against its directory. Throws ConfigError (unreadable file,
  /// TOML syntax, nesting).
  explicit ScenarioLayers(const std::string& scenario_path);

  /// Adds the scenario sections (device, firmware, workload, run, trace, output) of `table`,
  /// parsed from `file`; other top-level keys are ignored. Relative workload paths resolve
  /// against `base_dir`. The table is shared, not copied (a copy would lose its source lines).
  void add_sections(const std::shared_ptr<const toml::table>& table, const std::string& file,
                    const std::string& base_dir);
  /// Adds one key, e.g. ("firmware.policy", node, "exp.toml:12"). A relative workload.path
  /// resolves against `base_dir`. `value` is shared (it may alias a parsed file's table).
  void set(const std::string& key, const std::shared_ptr<const toml::node>& value, const std::string& where,
           const std::string& base_dir);
  /// Adds one "KEY=VALUE" override as `drivevp run --set` reads it. Throws ConfigError.
  void set_override(const std::string& key_equals_value, const std::string& base_dir);

  /// Validates the stack through the scenario loader (same checks and messages as drivevp run).
  /// Throws ConfigError.
  Scenario validate() const;
  /// The resolved scenario as TOML text: every key set by any layer, workload paths absolute,
  /// sections and keys in sorted order. Deterministic; its SHA-256 identifies the point.
  std::string resolved_toml() const;

 private:
  std::string base_file_;
  bool default_base_ = false;                       ///< the bottom layer is the embedded default
  std::vector<std::shared_ptr<const void>> owned_;  ///< keeps the nodes alive
  std::map<std::string, ScenarioEntry> entries_;
  std::map<std::string, std::string> path_base_;  ///< key -> directory its relative paths resolve against
};

/// One axis value with its TOML text (for CSV cells and seed derivation).
struct AxisValue {
  std::shared_ptr<const toml::node> node;
  std::string text;   ///< as a CSV cell shows it: strings bare, numbers shortest round-trip
  std::string where;  ///< "exp.toml:LINE"
};

/// One swept key. Keys of a [[zip]] group share a `zip` index and advance together.
struct Axis {
  std::string key;
  std::vector<AxisValue> values;
  int zip = -1;            ///< -1: crossed on its own; else the [[zip]] group's index
  std::uint32_t line = 0;  ///< line of the key in the experiment file (axes keep file order)
};

/// A metric column: a dotted path into summary.json.
struct Metric {
  std::string name;
  std::string path;
};

/// A figure: mean of `y` over replications against `x`, one series per value of `series`, one
/// panel per value of `panels`, with 95 % confidence intervals (reports/plot_experiment.py).
struct Figure {
  std::string name, x, y;
  std::optional<std::string> series, panels;
  std::string title, xlabel, ylabel;
  bool logx = false, logy = false;
  std::string kind = "line";  ///< "line" (lines with markers) or "bar" (grouped bars per x category)
  /// The panels drawn, in this order: indices into the panels axis' values; empty = every value.
  std::vector<std::size_t> panel_values;
  bool sharey = true;  ///< the panels share one y axis
};

/// One point of the grid: one value of every axis.
struct Point {
  std::size_t index = 0;
  std::string id;                     ///< "p0007"
  std::vector<std::size_t> value_of;  ///< per axis: index into Axis::values
  std::string resolved_toml;          ///< the point's resolved scenario (without the seed)
  std::string scenario_sha256;        ///< hex SHA-256 of resolved_toml
  std::string assignment;             ///< "key=value;..." in axis order (seed derivation)
};

/// A parsed, expanded and validated experiment.
struct Experiment {
  std::string file;      ///< as given
  std::string file_abs;  ///< absolute path
  std::string text;      ///< the file's bytes
  std::string name, description;
  /// The [[part]] this experiment is ("" for a file without parts); its name is then
  /// "<experiment>.<part>" and its sweep directory DIR/<part> (docs/experiments.md "Parts").
  std::string part;
  int replications = 1;  ///< [1, 1000]
  bool common_seeds = false;
  std::uint64_t base_seed = 1;  ///< run.seed of the resolved base scenario
  std::vector<Axis> axes;
  std::vector<Metric> metrics;
  std::vector<Figure> figures;
  std::vector<Point> points;
};

/// Loads `path`, applies `overrides` ("KEY=VALUE", applied to every point, above the axes),
/// expands the grid and validates every point through the scenario loader. Throws ConfigError
/// naming the file, line and key, what is allowed and what was found; nothing is run or written.
/// A file with [[part]] tables gives one Experiment per part, in file order: each shares the
/// file's [experiment] settings, scenario sections and [metrics], and has its own axes, zip
/// groups, figures and `set` (scenario keys above the file's sections, below --set and the
/// axes); a file without parts gives one. Every part is validated before any is returned.
std::vector<Experiment> load_experiments(const std::string& path, const std::vector<std::string>& overrides);
/// load_experiments for a file without [[part]] tables; throws ConfigError for a file with parts.
Experiment load_experiment(const std::string& path, const std::vector<std::string>& overrides);

/// The seed of replication `k` of `point` (see docs/experiments.md "Seeds"): the first 8 bytes
/// of SHA-256("drivevp-seed/1|<base_seed>|<assignment>|<k>"), big-endian, masked to 63 bits;
/// the assignment is "" for common random numbers.
std::uint64_t derive_seed(std::uint64_t base_seed, const std::string& assignment, int k);

/// Hex SHA-256 of `bytes` (OpenSSL).
std::string sha256_hex(const std::string& bytes);

}  // namespace drivevp::experiment
