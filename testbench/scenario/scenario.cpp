#include "testbench/scenario/scenario.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <toml++/toml.h>

#include "hw_models/disk/disk_keys.h"
#include "hw_models/mems/mems_keys.h"
#include "hw_models/mems/mems_layout.h"
#include "source_paths.h"                         // generated: DRIVEVP_DATA_DIR, DRIVEVP_SOURCE_DIR
#include "testbench/scenario/default_scenario.h"  // generated from configs/default.toml

namespace drivevp {
namespace {

using Entry = ScenarioEntry;

/// A key the scenario accepts.
struct KeySpec {
  std::string key;
  std::string type;     ///< for messages: "an integer", "a number", "a string", ...
  std::string allowed;  ///< for messages and `drivevp keys`
  std::string description;
  std::function<void(const toml::node&, Scenario&)> apply;  ///< throws Invalid
};

/// Thrown by value readers; load_scenario() adds the location and key.
struct Invalid {
  std::string expected;
  std::string found;
};

/// A key or a --set argument as a message quotes it: printable and at most 80 bytes.
std::string clip(const std::string& s) { return printable_text(s, 80); }

/// Deepest table nesting a scenario may use. The deepest real key is device.seek_curve.x (3);
/// the limit stops a header such as [a.a.a...] 200,000 levels deep before toml++ recurses on it.
constexpr int kMaxKeyDepth = 16;

/// Checks every table header and key of `text` for nesting deeper than kMaxKeyDepth, counting
/// the dots of the header or of the key before '=' outside quotes. Throws ConfigError naming the
/// line. (A line inside a multi-line string is checked too; no real scenario has such a line.)
void check_nesting(std::string_view text, const std::string& file) {
  std::size_t line_no = 0;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t nl = std::min(text.find('\n', pos), text.size());
    const std::string_view line = text.substr(pos, nl - pos);
    pos = nl + 1;
    ++line_no;
    std::size_t i = line.find_first_not_of(" \t");
    if (i == std::string_view::npos || line[i] == '#') continue;
    const bool header = line[i] == '[';
    int depth = 1;
    char quote = 0;
    for (; i < line.size(); ++i) {
      const char c = line[i];
      if (quote != 0) {
        if (c == quote) quote = 0;
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '.') {
        ++depth;
      } else if ((header && c == ']' && i + 1 < line.size() && line[i + 1] != ']') || (!header && c == '=')) {
        break;
      }
    }
    if (depth > kMaxKeyDepth)
      throw ConfigError(fmt::format("{}:{}: expected a table header or key at most {} levels deep, found {} levels",
                                    file, line_no, kMaxKeyDepth, depth));
    if (nl == text.size()) break;
  }
}

std::int64_t get_int(const toml::node& n, std::int64_t lo, std::int64_t hi) {
  const auto v = n.value_exact<std::int64_t>();
  const std::string range = fmt::format("an integer in [{}, {}]", lo, hi);
  if (!v) throw Invalid{range, describe_toml_value(n)};
  if (*v < lo || *v > hi) throw Invalid{range, describe_toml_value(n)};
  return *v;
}

double get_float(const toml::node& n, double lo, double hi, bool lo_open = false) {
  const auto v =
      n.is_integer() ? std::optional<double>(static_cast<double>(*n.value<std::int64_t>())) : n.value_exact<double>();
  const std::string range = fmt::format("a number in {}{}, {}]", lo_open ? "(" : "[", lo, hi);
  if (!v || !std::isfinite(*v)) throw Invalid{range, describe_toml_value(n)};
  if (*v < lo || (lo_open && *v == lo) || *v > hi) throw Invalid{range, describe_toml_value(n)};
  return *v;
}

bool get_bool(const toml::node& n) {
  const auto v = n.value_exact<bool>();
  if (!v) throw Invalid{"true or false", describe_toml_value(n)};
  return *v;
}

std::string one_of_text(const std::vector<std::string>& allowed) {
  std::string s = "one of ";
  for (std::size_t i = 0; i < allowed.size(); ++i) s += (i ? ", " : "") + allowed[i];
  return s;
}

std::string get_choice(const toml::node& n, const std::vector<std::string>& allowed) {
  const auto v = n.value_exact<std::string>();
  if (!v || std::find(allowed.begin(), allowed.end(), *v) == allowed.end())
    throw Invalid{one_of_text(allowed), describe_toml_value(n)};
  return *v;
}

std::string get_string(const toml::node& n) {
  const auto v = n.value_exact<std::string>();
  if (!v || v->empty()) throw Invalid{"a non-empty string", describe_toml_value(n)};
  return *v;
}

/// A duration: a number of seconds, or a string "<number> <unit>" with unit ps, ns, us, ms, s.
Time get_time(const toml::node& n) {
  const std::string expected = "a duration: seconds as a number, or a string such as \"250 ms\" (ps, ns, us, ms, s)";
  if (n.is_number()) {
    const double s = n.is_integer() ? static_cast<double>(*n.value<std::int64_t>()) : *n.value<double>();
    if (!std::isfinite(s) || s < 0 || s > 9.0e6) throw Invalid{expected + ", >= 0", describe_toml_value(n)};
    return from_s(s);
  }
  const auto str = n.value_exact<std::string>();
  if (!str) throw Invalid{expected, describe_toml_value(n)};
  std::istringstream is(*str);
  double v = 0;
  std::string unit;
  if (!(is >> v) || !(is >> unit) || !is.eof() || v < 0 || !std::isfinite(v)) {
    is.clear();
    throw Invalid{expected, describe_toml_value(n)};
  }
  static const std::map<std::string, double> to_s_factor = {
      {"ps", 1e-12}, {"ns", 1e-9}, {"us", 1e-6}, {"ms", 1e-3}, {"s", 1.0}};
  auto it = to_s_factor.find(unit);
  if (it == to_s_factor.end() || v * it->second > 9.0e6) throw Invalid{expected, describe_toml_value(n)};
  return from_s(v * it->second);
}

std::vector<std::string> keys_of_policies() {
  std::vector<std::string> k;
  for (const PolicyInfo& p : policy_registry()) k.push_back(p.key);
  return k;
}

std::vector<std::string> device_preset_names() {
  std::vector<std::string> names = disk_preset_names();
  for (const std::string& m : mems::mems_preset_names()) names.push_back(m);
  return names;
}

bool is_mems_preset(const std::string& name) {
  const std::vector<std::string> m = mems::mems_preset_names();
  return std::find(m.begin(), m.end(), name) != m.end();
}

/// The declared key "device.<name>" of a device's table (hw_models/param_keys.h), or nullptr.
template <class P>
const ParamKey<P>* find_device_key(const std::vector<ParamKey<P>>& keys, std::string_view dotted) {
  if (dotted.rfind("device.", 0) != 0) return nullptr;
  const std::string_view name = dotted.substr(7);
  for (const ParamKey<P>& k : keys)
    if (k.name == name) return &k;
  return nullptr;
}
/// The disk's own keys (hw_models/disk/disk_keys.h).
const ParamKey<DiskParams>* find_disk_key(std::string_view dotted) {
  return find_device_key(disk_param_keys(), dotted);
}
/// The MEMS device's own keys (hw_models/mems/mems_keys.h), and the MEMS-only device.seek_method.
const ParamKey<mems::MemsParams>* find_mems_key(std::string_view dotted) {
  return find_device_key(mems::mems_param_keys(), dotted);
}
constexpr const char* kMemsSeekMethodKey = "device.seek_method";

/// `value` as a message quotes it, or its item `item` (KeyValueError::kWholeValue: all of it).
std::string describe_item(const toml::node& value, std::size_t item) {
  const toml::array* a = value.as_array();
  if (item == KeyValueError::kWholeValue || !a || item >= a->size()) return describe_toml_value(value);
  return describe_toml_value(*a->get(item));
}

/// Reads a declared key's value (hw_models/param_keys.h) with its type and range; throws Invalid.
KeyValue read_declared(const toml::node& n, const KeyDecl& k) {
  KeyValue v;
  switch (k.type) {
    case KeyType::Integer:
      v.number = static_cast<double>(get_int(n, static_cast<std::int64_t>(k.min), static_cast<std::int64_t>(k.max)));
      break;
    case KeyType::Number:
      v.number = get_float(n, k.min, k.max, k.min_open);
      break;
    case KeyType::Boolean:
      v.number = get_bool(n) ? 1 : 0;
      break;
    case KeyType::Enum:
      v.text = get_choice(n, k.choices);
      break;
    case KeyType::List: {
      const toml::array* a = n.as_array();
      if (k.columns.empty()) {
        const std::string expected =
            fmt::format("an array of {} to {} numbers in [{}, {}]", k.min_items, k.max_items, k.min, k.max);
        if (!a || a->size() < k.min_items || a->size() > k.max_items) throw Invalid{expected, describe_toml_value(n)};
        for (const toml::node& e : *a) v.list.push_back(get_float(e, k.min, k.max));
        break;
      }
      // A List of tuples: the count, then item by item its shape and its columns in order, the
      // key's rule across items after each column (param_keys.h).
      std::string count_expected = k.shape;
      if (k.max_items != KeyDecl::kUnbounded)
        count_expected += fmt::format(", {} to {} {}", k.min_items, k.max_items, k.unit);
      if (!a || a->size() < k.min_items || a->size() > k.max_items)
        throw Invalid{count_expected, describe_toml_value(n)};
      for (const toml::node& e : *a) {
        const toml::array* t = e.as_array();
        if (!t || t->size() != k.columns.size()) throw Invalid{k.shape, describe_toml_value(e)};
        v.rows.emplace_back();
        for (std::size_t c = 0; c < k.columns.size(); ++c) {
          const KeyColumn& col = k.columns[c];
          const toml::node& x = *t->get(c);
          v.rows.back().push_back(col.type == KeyType::Integer
                                      ? static_cast<double>(get_int(x, static_cast<std::int64_t>(col.min),
                                                                    static_cast<std::int64_t>(col.max)))
                                      : get_float(x, col.min, col.max));
          if (!k.check) continue;
          try {
            k.check(v.rows);
          } catch (const KeyValueError& err) {
            throw Invalid{err.expected, describe_item(n, err.item)};
          }
        }
      }
      break;
    }
  }
  return v;
}

/// Reads the declared key `<section>.<k.name>` of `entry` and sets it in `p`; throws ConfigError
/// naming the place, the key, what was expected and what was found.
template <class P>
void apply_declared(const ParamKey<P>& k, const std::string& section, const Entry& entry, P& p) {
  try {
    k.set(p, read_declared(*entry.node, k));
  } catch (const Invalid& inv) {
    throw ConfigError(
        fmt::format("{}: {}.{}: expected {}, found {}", entry.where, section, k.name, inv.expected, inv.found));
  } catch (const KeyValueError& err) {
    throw ConfigError(fmt::format("{}: {}.{}: expected {}, found {}", entry.where, section, k.name, err.expected,
                                  describe_item(*entry.node, err.item)));
  } catch (const std::invalid_argument& ex) {
    throw ConfigError(fmt::format("{}: {}.{}: {}", entry.where, section, k.name, ex.what()));
  }
}

std::string declared_type(KeyType t) {
  switch (t) {
    case KeyType::Integer:
      return "integer";
    case KeyType::Number:
      return "number";
    case KeyType::Boolean:
      return "boolean";
    case KeyType::Enum:
      return "string";
    case KeyType::List:
      return "array";
  }
  return "?";
}

/// A declared key's accepted values for `drivevp keys`: range and unit, choices, or items.
std::string declared_range(const KeyDecl& k) {
  auto with_unit = [](std::string s, const std::string& unit) { return unit.empty() ? s : s + " " + unit; };
  switch (k.type) {
    case KeyType::Integer:
    case KeyType::Number:
      return with_unit(fmt::format("{}{}, {}]", k.min_open ? "(" : "[", k.min, k.max), k.unit);
    case KeyType::Boolean:
      return "true or false";
    case KeyType::Enum:
      return one_of_text(k.choices);
    case KeyType::List: {
      if (k.columns.empty())
        return with_unit(fmt::format("{} to {} numbers in [{}, {}]", k.min_items, k.max_items, k.min, k.max), k.unit);
      std::string s = k.shape;
      if (k.max_items != KeyDecl::kUnbounded) s += fmt::format(", {} to {} {}", k.min_items, k.max_items, k.unit);
      for (std::size_t c = 0; c < k.columns.size(); ++c) {
        const KeyColumn& col = k.columns[c];
        s += fmt::format("{}{} {} in {}", c == 0 ? "; " : ", ", col.name, declared_type(col.type),
                         with_unit(fmt::format("[{}, {}]", col.min, col.max), col.unit));
      }
      return s;
    }
  }
  return "?";
}

/// A policy parameter's checked value as PolicyParams holds it (firmware/policy.h).
double policy_value(const PolicyParameter& p, const KeyValue& v) {
  switch (p.type) {
    case KeyType::Enum:
      return static_cast<double>(std::find(p.choices.begin(), p.choices.end(), v.text) - p.choices.begin());
    case KeyType::List:
      throw std::logic_error("policy parameter '" + p.name + "' is a List, which PolicyParams cannot hold");
    default:
      return v.number;
  }
}

/// A policy parameter's default as `drivevp keys` shows it.
std::string policy_default(const PolicyParameter& p) {
  if (p.type == KeyType::Boolean) return p.default_value != 0 ? "true" : "false";
  if (p.type == KeyType::Enum) {
    const auto i = static_cast<std::size_t>(p.default_value);
    return i < p.choices.size() ? p.choices[i] : "?";
  }
  return fmt::format("{}", p.default_value);
}

/// Range text and reader of a relative deadline key: (0, 10^9] ms (kMaxRelativeDeadlineMs).
constexpr const char* kDeadlineRange = "(0, 1000000000]";
double get_deadline_ms(const toml::node& n) { return get_float(n, 0, kMaxRelativeDeadlineMs, true); }

std::vector<KeySpec> build_schema() {
  std::vector<KeySpec> s;
  auto add = [&s](std::string key, std::string type, std::string allowed, std::string desc,
                  std::function<void(const toml::node&, Scenario&)> apply) {
    s.push_back({std::move(key), std::move(type), std::move(allowed), std::move(desc), std::move(apply)});
  };
  // [device] — the preset; the device's own keys are declared beside its parameters
  // (hw_models/disk/disk_keys.h, hw_models/mems/mems_keys.h) and applied right after it.
  add("device.preset", "string", one_of_text(device_preset_names()),
      "device preset: a disk (hw_models/disk/disk_params.h) or a MEMS device (hw_models/mems/mems_params.h)",
      [](const toml::node& n, Scenario& sc) {
        const std::string name = get_choice(n, device_preset_names());
        if (is_mems_preset(name)) {
          sc.device_kind = "mems";
          sc.mems = mems::mems_preset(name);
        } else {
          sc.device_kind = "disk";
          sc.device = disk_preset(name);
        }
      });
  add("device.drive", "string", "a drive file (drives/NAME.toml, docs/models/drives.md), relative to the scenario",
      "a real drive's description instead of device.preset: zoned layout with spares, mechanics, cache, overheads, "
      "interface; the disk's own device.* keys still apply after it",
      [](const toml::node& n, Scenario& sc) {
        std::string path = get_string(n);
        if (!path.empty() && path[0] != '/') path = sc.base_dir + "/" + path;
        try {
          DriveSpec d = load_drive_spec(path);
          sc.device_kind = "disk";
          sc.device = d.disk_params();
          sc.drive = std::move(d);
        } catch (const DriveSpecError& e) {
          throw std::invalid_argument(e.what());
        }
      });
  // [firmware]
  add("firmware.policy", "string", one_of_text(keys_of_policies()), "scheduling policy (firmware/policies/)",
      [](const toml::node& n, Scenario& sc) { sc.policy = get_choice(n, keys_of_policies()); });
  add("firmware.queue_depth", "integer", "[1, 65536]", "commands the firmware holds (NCQ depth)",
      [](const toml::node& n, Scenario& sc) {
        sc.controller.queue_depth = static_cast<std::uint32_t>(get_int(n, 1, 65536));
      });
  // [workload]
  add("workload.kind", "string", "one of synthetic, trace, rate_tasks, rounds",
      "where requests come from (rate_tasks: periodic real-time tasks of paper 004, testbench/workload/rate_tasks.h; "
      "rounds: continuous streams and D-requests of paper 003, testbench/workload/rounds.h)",
      [](const toml::node& n, Scenario& sc) {
        const std::string k = get_choice(n, {"synthetic", "trace", "rate_tasks", "rounds"});
        sc.workload_kind = k == "trace"        ? Scenario::WorkloadKind::Trace
                           : k == "rate_tasks" ? Scenario::WorkloadKind::RateTasks
                           : k == "rounds"     ? Scenario::WorkloadKind::Rounds
                                               : Scenario::WorkloadKind::Synthetic;
      });
  add("workload.loop", "string", "one of open, closed",
      "open: submit at arrival times; closed: keep `outstanding` in flight", [](const toml::node& n, Scenario& sc) {
        sc.host.closed_loop = get_choice(n, {"open", "closed"}) == "closed";
      });
  add("workload.outstanding", "integer", "[1, 65536]", "closed loop: commands kept in flight (<= firmware.queue_depth)",
      [](const toml::node& n, Scenario& sc) {
        sc.host.outstanding = static_cast<std::uint32_t>(get_int(n, 1, 65536));
      });
  // synthetic
  add("workload.arrival", "string", "one of poisson, fixed", "synthetic: arrival process",
      [](const toml::node& n, Scenario& sc) {
        sc.synthetic.arrival = *parse_arrival_process(get_choice(n, {"poisson", "fixed"}));
      });
  add("workload.rate_per_s", "number", "(0, 1e9]", "synthetic: mean arrival rate, requests per second",
      [](const toml::node& n, Scenario& sc) { sc.synthetic.rate_per_s = get_float(n, 0, 1e9, true); });
  add("workload.address", "string", "one of uniform, zipf", "synthetic: address distribution",
      [](const toml::node& n, Scenario& sc) {
        sc.synthetic.address = *parse_address_distribution(get_choice(n, {"uniform", "zipf"}));
      });
  add("workload.zipf_theta", "number", "(0, 100]", "synthetic: Zipf exponent",
      [](const toml::node& n, Scenario& sc) { sc.synthetic.zipf_theta = get_float(n, 0, 100, true); });
  add("workload.alignment_blocks", "integer", "[1, 1048576]", "synthetic: start LBNs are multiples of this",
      [](const toml::node& n, Scenario& sc) {
        sc.synthetic.alignment_blocks = static_cast<std::uint32_t>(get_int(n, 1, 1 << 20));
      });
  add("workload.size", "string", "one of constant, uniform, exponential, normal, gamma", "synthetic: size distribution",
      [](const toml::node& n, Scenario& sc) {
        sc.synthetic.size =
            *parse_size_distribution(get_choice(n, {"constant", "uniform", "exponential", "normal", "gamma"}));
      });
  add("workload.size_blocks", "integer", "[1, 65536]", "synthetic: constant size, blocks",
      [](const toml::node& n, Scenario& sc) {
        sc.synthetic.size_blocks = static_cast<std::uint32_t>(get_int(n, 1, kMaxCommandBlocks));
      });
  add("workload.size_min_blocks", "integer", "[1, 65536]", "synthetic: uniform size lower bound, blocks",
      [](const toml::node& n, Scenario& sc) {
        sc.synthetic.size_min_blocks = static_cast<std::uint32_t>(get_int(n, 1, kMaxCommandBlocks));
      });
  add("workload.size_max_blocks", "integer", "[1, 65536]", "synthetic: uniform size upper bound, blocks",
      [](const toml::node& n, Scenario& sc) {
        sc.synthetic.size_max_blocks = static_cast<std::uint32_t>(get_int(n, 1, kMaxCommandBlocks));
      });
  add("workload.size_mean_blocks", "number", "(0, 1048576]",
      "synthetic: mean size (exponential, normal, gamma), blocks",
      [](const toml::node& n, Scenario& sc) { sc.synthetic.size_mean_blocks = get_float(n, 0, 1 << 20, true); });
  add("workload.size_stddev_blocks", "number", "[0, 1048576]",
      "synthetic: size standard deviation (normal, gamma), blocks",
      [](const toml::node& n, Scenario& sc) { sc.synthetic.size_stddev_blocks = get_float(n, 0, 1 << 20); });
  add("workload.max_blocks", "integer", "[1, 65536]",
      "synthetic: upper clamp of every size, blocks (65,536: the firmware's largest transfer)",
      [](const toml::node& n, Scenario& sc) {
        sc.synthetic.max_blocks = static_cast<std::uint32_t>(get_int(n, 1, kMaxCommandBlocks));
      });
  add("workload.read_fraction", "number", "[0, 1]", "synthetic: probability that a request is a read",
      [](const toml::node& n, Scenario& sc) { sc.synthetic.read_fraction = get_float(n, 0, 1); });
  // trace
  add("workload.path", "string or array of strings", "existing trace file(s); several fio job logs are merged",
      "trace: file(s), relative to the scenario file", [](const toml::node& n, Scenario& sc) {
        sc.trace.paths.clear();
        if (const toml::array* a = n.as_array()) {
          if (a->empty()) throw Invalid{"a non-empty string or array of strings", describe_toml_value(n)};
          for (const toml::node& e : *a) sc.trace.paths.push_back(get_string(e));
        } else {
          sc.trace.paths.push_back(get_string(n));
        }
      });
  add("workload.format", "string", "one of auto, disksim, spc, msr, fio, blkparse, ftrace, ssdsim, mqsim, validate",
      "trace: format (auto: detected from the content; validate, DiskSim's traces of real drives with measured "
      "service times, is never detected and needs workload.loop = \"closed\")",
      [](const toml::node& n, Scenario& sc) {
        sc.trace.format = *parse_trace_format(get_choice(
            n, {"auto", "disksim", "spc", "msr", "fio", "blkparse", "ftrace", "ssdsim", "mqsim", "validate"}));
      });
  add("workload.time_scale", "number", "(0, 1000000]",
      "inter-arrival times are divided by this: a trace's, or an open-loop synthetic workload's (the rate is "
      "multiplied by it); 002 §4's trace scaling factor s",
      [](const toml::node& n, Scenario& sc) { sc.trace.time_scale = get_float(n, 0, 1e6, true); });
  add("workload.capacity", "string", "one of error, wrap, scale", "trace: addresses beyond the capacity",
      [](const toml::node& n, Scenario& sc) {
        sc.trace.capacity = *parse_capacity_policy(get_choice(n, {"error", "wrap", "scale"}));
      });
  add("workload.device", "integer or \"all\"", "[0, 4294967295] or \"all\"",
      "trace: keep only this device / ASU; \"all\" (the default) keeps every device",
      [](const toml::node& n, Scenario& sc) {
        if (n.value_exact<std::string>() == std::optional<std::string>("all")) {
          sc.trace.device.reset();
          return;
        }
        if (!n.is_integer()) throw Invalid{"an integer in [0, 4294967295] or \"all\"", describe_toml_value(n)};
        sc.trace.device = static_cast<std::uint32_t>(get_int(n, 0, 4294967295LL));
      });
  // The trace clock is int64 picoseconds from the trace start: 9,223,371 s (106 days).
  add("workload.start_s", "number", "[0, 9223371]", "trace: window start, trace seconds",
      [](const toml::node& n, Scenario& sc) { sc.trace.start_s = get_float(n, 0, 9'223'371); });
  add("workload.stop_s", "number", "[0, 9223371]", "trace: window end, trace seconds",
      [](const toml::node& n, Scenario& sc) { sc.trace.stop_s = get_float(n, 0, 9'223'371); });
  add("workload.skip_requests", "integer", "[0, 1e15]", "trace: drop the first N kept requests",
      [](const toml::node& n, Scenario& sc) {
        sc.trace.skip_requests = static_cast<std::uint64_t>(get_int(n, 0, 1'000'000'000'000'000));
      });
  add("workload.lenient", "boolean", "true or false", "trace: skip malformed lines, count and report them",
      [](const toml::node& n, Scenario& sc) { sc.trace.lenient = get_bool(n); });
  // rate_tasks (paper 004; testbench/workload/rate_tasks.h)
  add("workload.tasks_path", "string", "an existing TOML file of [[task]] tables, or a .csv file with a header row",
      "rate_tasks: the task list (relative to the scenario file); without it the set is generated",
      [](const toml::node& n, Scenario& sc) { sc.rate_tasks.tasks_path = get_string(n); });
  add("workload.tasks", "integer", "[1, 10000]", "rate_tasks: number of generated tasks n (default 10)",
      [](const toml::node& n, Scenario& sc) {
        sc.rate_tasks.generation.count = static_cast<std::uint32_t>(get_int(n, 1, 10000));
      });
  add("workload.period_mean_ms", "number", "[1, 1e9]",
      "rate_tasks: mean period P_i of generated tasks, ms (004 §4: 5000)",
      [](const toml::node& n, Scenario& sc) { sc.rate_tasks.generation.period_mean_ms = get_float(n, 1, 1e9); });
  add("workload.period_stddev_ms", "number", "[0, 1e9]",
      "rate_tasks: standard deviation of generated periods, ms (004 §4: variance 1000 ms², so 31.623)",
      [](const toml::node& n, Scenario& sc) { sc.rate_tasks.generation.period_stddev_ms = get_float(n, 0, 1e9); });
  add("workload.buffer_mean_bytes", "number", "(0, 1e9]",
      "rate_tasks: mean buffer B_i of generated tasks, bytes (004 §4: 56 KB = 57344)",
      [](const toml::node& n, Scenario& sc) {
        sc.rate_tasks.generation.buffer_mean_bytes = get_float(n, 0, 1e9, true);
      });
  add("workload.buffer_stddev_bytes", "number", "[0, 1e9]",
      "rate_tasks: standard deviation of generated buffers, bytes (004 §4: variance 28 KB², so 5418.6)",
      [](const toml::node& n, Scenario& sc) { sc.rate_tasks.generation.buffer_stddev_bytes = get_float(n, 0, 1e9); });
  add("workload.block_bytes", "integer", "[512, 1048576], a multiple of 512",
      "rate_tasks: block size C, bytes (004 Table 2: 4096)", [](const toml::node& n, Scenario& sc) {
        const auto c = get_int(n, 512, 1 << 20);
        if (c % 512 != 0) throw Invalid{"a multiple of 512 in [512, 1048576]", describe_toml_value(n)};
        sc.rate_tasks.options.block_bytes = static_cast<std::uint32_t>(c);
      });
  // workload.placement and workload.round_ms are shared by rate_tasks and rounds (below); each kind
  // accepts its own values (checked after loading, against workload.kind).
  add("workload.placement", "string", "rate_tasks: one of auto, contiguous, random; rounds: one of random, striped",
      "rate_tasks: a task's data: contiguous (004 §3.2 compaction) or random blocks (§3.1); auto: random for "
      "wrr_scan_r, contiguous otherwise. rounds: where C-fragments lie (random: uniform, 003 §2.1; striped: each "
      "stream's fragments back to back in its own region)",
      [](const toml::node& n, Scenario& sc) {
        const std::string p = get_choice(n, {"auto", "contiguous", "random", "striped"});
        if (p == "random" || p == "contiguous")
          sc.rate_tasks.options.placement = p == "random" ? TaskPlacement::Random : TaskPlacement::Contiguous;
        if (p == "random" || p == "striped")
          sc.rounds.placement = p == "random" ? FragmentPlacement::Random : FragmentPlacement::Striped;
      });
  add("workload.job_commands", "string", "one of auto, block, job",
      "rate_tasks: a job as one command per block of C bytes or one command; auto: block for the WRR-SCAN "
      "policies, job otherwise",
      [](const toml::node& n, Scenario& sc) {
        const std::string p = get_choice(n, {"auto", "block", "job"});
        if (p != "auto") sc.rate_tasks.options.per_block = p == "block";
      });
  add("workload.aperiodic_interarrival_ms", "number", "[0, 1e9]",
      "rate_tasks: mean of the exponential aperiodic inter-arrival time, ms (004 §4: 35); 0: none",
      [](const toml::node& n, Scenario& sc) { sc.rate_tasks.options.aperiodic_mean_ms = get_float(n, 0, 1e9); });
  add("workload.aperiodic_blocks", "integer", "[1, 65536]",
      "rate_tasks: blocks of C bytes per aperiodic request (004 §4: 1)", [](const toml::node& n, Scenario& sc) {
        sc.rate_tasks.options.aperiodic_blocks = static_cast<std::uint32_t>(get_int(n, 1, 65536));
      });
  add("workload.aperiodic_weight_blocks", "integer", "[1, 65536]",
      "rate_tasks: x_a, the aperiodic server's blocks per round (004 eq. 4; default 2; WRR-SCAN only)",
      [](const toml::node& n, Scenario& sc) {
        sc.rate_tasks.aperiodic_weight = static_cast<std::uint32_t>(get_int(n, 1, 65536));
      });
  add("workload.round_ms", "number", "rate_tasks: [0, 3600000]; rounds: (0, 3600000]",
      "rate_tasks: WRR-SCAN round length R, ms; 0: the largest the admission test allows (004 §3.1; WRR-SCAN "
      "only). rounds: round length T, ms (003 §3.3: 1000)",
      [](const toml::node& n, Scenario& sc) {
        sc.rate_tasks.round_ms = get_float(n, 0, 3.6e6);
        if (sc.rate_tasks.round_ms > 0) sc.rounds.round_ms = sc.rate_tasks.round_ms;
      });
  add("workload.admission", "string", "one of strict, online",
      "rate_tasks: strict: a task set failing the WRR-SCAN admission test is an error; online: tasks are "
      "admitted one by one and those failing are rejected (004 §3.1; WRR-SCAN only, other policies admit all)",
      [](const toml::node& n, Scenario& sc) {
        sc.rate_tasks.online_admission = get_choice(n, {"strict", "online"}) == "online";
      });
  add("workload.duration_s", "number", "(0, 1e6]",
      "rate_tasks: jobs and aperiodic requests are released in [0, this), s",
      [](const toml::node& n, Scenario& sc) { sc.rate_tasks.options.duration_s = get_float(n, 0, 1e6, true); });
  // deadlines (testbench/workload/deadline.h), synthetic or trace
  // rounds (paper 003 §3.1, Table 2; testbench/workload/rounds.h)
  add("workload.streams", "integer", "[0, 10000]",
      "rounds: N, continuous streams, one C-request each per round (003: 25, 35)",
      [](const toml::node& n, Scenario& sc) { sc.rounds.streams = static_cast<std::uint32_t>(get_int(n, 0, 10000)); });
  add("workload.streams_path", "string", "an existing TOML file of [[stream]] tables, or a .csv file with a header row",
      "rounds: the streams, one [[stream]] table (CSV: row) each with optional fragment_bytes (a constant fragment "
      "size) and "
      "start_block (fragments back to back from there); their number is N (testbench/workload/rounds.h)",
      [](const toml::node& n, Scenario& sc) { sc.streams_path = get_string(n); });
  add("workload.rounds", "integer", "[1, 10000000]", "rounds: rounds to simulate (003 §3.1: 40,000 per run)",
      [](const toml::node& n, Scenario& sc) {
        sc.rounds.rounds = static_cast<std::uint64_t>(get_int(n, 1, 10'000'000));
      });
  add("workload.lambda_d", "number", "[0, 1000000]", "rounds: D-request arrival rate, requests per round (Poisson)",
      [](const toml::node& n, Scenario& sc) { sc.rounds.lambda_d = get_float(n, 0, 1e6); });
  add("workload.fragment_size", "string", "one of gamma, constant",
      "rounds: C-fragment size distribution (003 Table 2: gamma)", [](const toml::node& n, Scenario& sc) {
        sc.rounds.fragment_size =
            get_choice(n, {"gamma", "constant"}) == "gamma" ? FragmentSize::Gamma : FragmentSize::Constant;
      });
  add("workload.fragment_mean_bytes", "number", "[512, 4194304]",
      "rounds: C-fragment mean size (constant: the size), bytes (003 Table 2: 200000)",
      [](const toml::node& n, Scenario& sc) { sc.rounds.fragment_mean_bytes = get_float(n, 512, 4194304); });
  add("workload.fragment_sd_bytes", "number", "(0, 4194304]",
      "rounds: C-fragment size standard deviation (gamma), bytes (003 Table 2: 100000)",
      [](const toml::node& n, Scenario& sc) { sc.rounds.fragment_sd_bytes = get_float(n, 0, 4194304, true); });
  add("workload.d_mean_bytes", "number", "[512, 4194304]", "rounds: D-request mean size, bytes (003 Table 2: 70000)",
      [](const toml::node& n, Scenario& sc) { sc.rounds.d_mean_bytes = get_float(n, 512, 4194304); });
  add("workload.d_sd_bytes", "number", "[0, 4194304]",
      "rounds: D-request size standard deviation (normal), bytes (003 Table 2: 20000)",
      [](const toml::node& n, Scenario& sc) { sc.rounds.d_sd_bytes = get_float(n, 0, 4194304); });
  add("workload.deadline", "string", "one of none, relative, uniform, exponential",
      "each request's deadline = arrival + a relative deadline from this rule (none: no deadlines)",
      [](const toml::node& n, Scenario& sc) {
        sc.host.deadline.kind = *parse_deadline_kind(get_choice(n, {"none", "relative", "uniform", "exponential"}));
      });
  add("workload.deadline_ms", "number", kDeadlineRange,
      "relative: relative deadline of every request not matched by stream or direction, ms",
      [](const toml::node& n, Scenario& sc) { sc.host.deadline.relative_ms = get_deadline_ms(n); });
  add("workload.deadline_read_ms", "number", kDeadlineRange, "relative: relative deadline of reads, ms",
      [](const toml::node& n, Scenario& sc) { sc.host.deadline.read_ms = get_deadline_ms(n); });
  add("workload.deadline_write_ms", "number", kDeadlineRange, "relative: relative deadline of writes, ms",
      [](const toml::node& n, Scenario& sc) { sc.host.deadline.write_ms = get_deadline_ms(n); });
  add("workload.deadline_streams", "array of [stream, ms] pairs",
      "streams in [0, 4294967295], each listed once; ms in (0, 1000000000]",
      "relative: per-stream relative deadlines (Command::stream: trace pid / ASU / device), before direction",
      [](const toml::node& n, Scenario& sc) {
        const std::string expected =
            "an array of [stream, ms] pairs, streams in [0, 4294967295] each listed once, ms in (0, 1000000000]";
        const toml::array* a = n.as_array();
        if (!a) throw Invalid{expected, describe_toml_value(n)};
        sc.host.deadline.streams.clear();
        for (const toml::node& item : *a) {
          const toml::array* pair = item.as_array();
          if (!pair || pair->size() != 2) throw Invalid{expected, describe_toml_value(item)};
          const auto stream = static_cast<std::uint32_t>(get_int(*pair->get(0), 0, 4294967295LL));
          const double ms = get_deadline_ms(*pair->get(1));
          for (const auto& listed : sc.host.deadline.streams)
            if (listed.first == stream) throw Invalid{expected, describe_toml_value(item) + " (stream listed twice)"};
          sc.host.deadline.streams.emplace_back(stream, ms);
        }
      });
  add("workload.deadline_min_ms", "number", "[0, 1000000000]", "uniform: lower bound of the relative deadline, ms",
      [](const toml::node& n, Scenario& sc) { sc.host.deadline.min_ms = get_float(n, 0, kMaxRelativeDeadlineMs); });
  add("workload.deadline_max_ms", "number", kDeadlineRange, "uniform: upper bound of the relative deadline, ms",
      [](const toml::node& n, Scenario& sc) { sc.host.deadline.max_ms = get_deadline_ms(n); });
  add("workload.deadline_mean_ms", "number", kDeadlineRange, "exponential: mean relative deadline, ms",
      [](const toml::node& n, Scenario& sc) { sc.host.deadline.mean_ms = get_deadline_ms(n); });
  // QoS vectors (testbench/workload/qos.h; paper 001 §2, §5.1), synthetic or trace
  add("workload.qos_dims", "integer", "[0, 16]",
      "QoS dimensions D drawn per request (independent, uniform levels, one byte each in the command; 0 = none; "
      "001 §5.1)",
      [](const toml::node& n, Scenario& sc) { sc.host.qos.dims = static_cast<unsigned>(get_int(n, 0, kMaxQosDims)); });
  add("workload.qos_levels", "integer", "[2, 256]", "QoS levels N per dimension (default 16; 001 §5.2.1)",
      [](const toml::node& n, Scenario& sc) {
        sc.host.qos.levels = static_cast<unsigned>(get_int(n, 2, kMaxQosLevels));
      });
  // [run]
  add("run.seed", "integer", "[0, 9223372036854775807]", "random seed",
      [](const toml::node& n, Scenario& sc) { sc.seed = static_cast<std::uint64_t>(get_int(n, 0, INT64_MAX)); });
  add("run.requests", "integer", "[0, 1e12]", "synthetic: requests to generate (>= 1); trace: limit, 0 = whole trace",
      [](const toml::node& n, Scenario& sc) {
        sc.requests = static_cast<std::uint64_t>(get_int(n, 0, 1'000'000'000'000));
      });
  add("run.warmup_requests", "integer", "[0, 1e12]", "completions left out of summary metrics",
      [](const toml::node& n, Scenario& sc) {
        sc.warmup_requests = static_cast<std::uint64_t>(get_int(n, 0, 1'000'000'000'000));
      });
  add("run.check_data", "boolean", "true or false", "write patterns and check read data",
      [](const toml::node& n, Scenario& sc) { sc.host.check_data = get_bool(n); });
  add("run.store_payload", "boolean", "true or false",
      "media store keeps written bytes (default: compact, a few bytes per block)",
      [](const toml::node& n, Scenario& sc) { sc.store_payload = get_bool(n); });
  add("run.progress", "boolean", "true or false", "progress line on a terminal's stderr",
      [](const toml::node& n, Scenario& sc) { sc.progress = get_bool(n); });
  add("run.expect_hiccup_free", "boolean", "true or false",
      "rounds: fail the run (checks FAILED, exit 1) if any C-request misses its round (a hiccup, 003 section 1)",
      [](const toml::node& n, Scenario& sc) { sc.expect_hiccup_free = get_bool(n); });
  // [trace]
  add("trace.enabled", "boolean", "true or false", "write waves.vcd and waves.gtkw",
      [](const toml::node& n, Scenario& sc) { sc.tracing = get_bool(n); });
  add("trace.groups", "array of strings", "any of mechanics, firmware, bus, host, sled, rounds",
      "signal groups to trace (sled: the MEMS device's sled; mechanics: the disk's; rounds: the rounds of the "
      "rounds and rate_tasks workloads)",
      [](const toml::node& n, Scenario& sc) {
        const toml::array* a = n.as_array();
        if (!a || a->empty())
          throw Invalid{"a non-empty array of mechanics, firmware, bus, host, sled, rounds", describe_toml_value(n)};
        sc.trace_groups.clear();
        for (const toml::node& e : *a) {
          const std::string g = get_choice(e, {"mechanics", "firmware", "bus", "host", "sled", "rounds"});
          const TraceGroup tg = g == "mechanics"  ? TraceGroup::Mechanics
                                : g == "firmware" ? TraceGroup::Firmware
                                : g == "bus"      ? TraceGroup::Bus
                                : g == "sled"     ? TraceGroup::Sled
                                : g == "rounds"   ? TraceGroup::Rounds
                                                  : TraceGroup::Host;
          if (std::find(sc.trace_groups.begin(), sc.trace_groups.end(), tg) == sc.trace_groups.end())
            sc.trace_groups.push_back(tg);
        }
      });
  add("trace.start", "duration", "seconds, or a string with a unit", "trace window start (simulated time)",
      [](const toml::node& n, Scenario& sc) { sc.trace_start = get_time(n); });
  add("trace.stop", "duration", "seconds, or a string with a unit; 0 = until the end", "trace window end",
      [](const toml::node& n, Scenario& sc) { sc.trace_stop = get_time(n); });
  add("trace.fst", "boolean", "true or false", "also convert the VCD to waves.fst with vcd2fst",
      [](const toml::node& n, Scenario& sc) { sc.trace_fst = get_bool(n); });
  // [output]
  add("output.dir", "string", "a directory path", "where summary.json, requests.csv, ... go",
      [](const toml::node& n, Scenario& sc) { sc.output_dir = get_string(n); });
  add("output.plots", "boolean", "true or false", "response-time histogram and CDF PNGs",
      [](const toml::node& n, Scenario& sc) { sc.plots = get_bool(n); });
  add("output.requests_csv", "boolean", "true or false",
      "write requests.csv, one row per request (false: summary.json, rounds.csv and the histogram "
      "are unchanged)",
      [](const toml::node& n, Scenario& sc) { sc.requests_csv = get_bool(n); });
  return s;
}

const std::vector<KeySpec>& schema() {
  static const std::vector<KeySpec> s = build_schema();
  return s;
}

/// The keys an unknown key's message lists for its section, in `drivevp keys` order: the
/// schema's, with a disk's own keys right after device.preset (a MEMS device's unknown keys have
/// their own message).
const std::vector<std::string>& general_keys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> k;
    for (const KeySpec& s : schema()) {
      k.push_back(s.key);
      if (s.key == "device.drive")
        for (const ParamKey<DiskParams>& d : disk_param_keys()) k.push_back("device." + d.name);
    }
    return k;
  }();
  return keys;
}

void flatten(const toml::table& t, const std::string& prefix, const std::string& file,
             std::map<std::string, Entry>& out) {
  for (auto&& [k, v] : t) {
    const std::string key = prefix.empty() ? std::string(k.str()) : prefix + "." + std::string(k.str());
    if (const toml::table* sub = v.as_table()) {
      flatten(*sub, key, file, out);
    } else {
      out[key] = {&v, fmt::format("{}:{}", file, v.source().begin.line)};
    }
  }
}

/// The deadline rule (workload.deadline) a deadline key belongs to, or nullptr for other keys.
const char* deadline_rule_of(const std::string& k) {
  if (k == "workload.deadline_ms" || k == "workload.deadline_read_ms" || k == "workload.deadline_write_ms" ||
      k == "workload.deadline_streams")
    return "relative";
  if (k == "workload.deadline_min_ms" || k == "workload.deadline_max_ms") return "uniform";
  if (k == "workload.deadline_mean_ms") return "exponential";
  return nullptr;
}

bool is_trace_key(const std::string& k) {
  static const std::vector<std::string> keys = {"workload.path",          "workload.format",  "workload.capacity",
                                                "workload.device",        "workload.start_s", "workload.stop_s",
                                                "workload.skip_requests", "workload.lenient"};
  return std::find(keys.begin(), keys.end(), k) != keys.end();
}
bool is_rate_tasks_key(const std::string& k) {
  static const std::vector<std::string> keys = {"workload.tasks_path",        "workload.tasks",
                                                "workload.period_mean_ms",    "workload.period_stddev_ms",
                                                "workload.buffer_mean_bytes", "workload.buffer_stddev_bytes",
                                                "workload.block_bytes",       "workload.placement",
                                                "workload.job_commands",      "workload.aperiodic_interarrival_ms",
                                                "workload.aperiodic_blocks",  "workload.aperiodic_weight_blocks",
                                                "workload.round_ms",          "workload.admission",
                                                "workload.duration_s"};
  return std::find(keys.begin(), keys.end(), k) != keys.end();
}
bool is_synthetic_key(const std::string& k) {
  static const std::vector<std::string> keys = {
      "workload.arrival",          "workload.rate_per_s",         "workload.address",
      "workload.zipf_theta",       "workload.alignment_blocks",   "workload.size",
      "workload.size_blocks",      "workload.size_min_blocks",    "workload.size_max_blocks",
      "workload.size_mean_blocks", "workload.size_stddev_blocks", "workload.max_blocks",
      "workload.read_fraction"};
  return std::find(keys.begin(), keys.end(), k) != keys.end();
}

/// Resolves the rate_tasks workload (paper 004): the task set (file or generated), placement and
/// job commands by policy, and for a WRR-SCAN policy the admission test (strict: an error naming
/// the failing inequality; online: failing tasks rejected) and the CA release alignment. Other
/// policies (SCAN-EDF, the baseline) have no admission test: every task is admitted and the
/// admission keys are ignored, so that one experiment can sweep all of them.
void resolve_rate_tasks(Scenario& sc, const std::map<std::string, Entry>& entries, const std::string& file,
                        const std::function<std::string(const std::string&)>& where) {
  RateTasksScenario& rt = sc.rate_tasks;
  RateTasksOptions& o = rt.options;
  if (sc.host.closed_loop)
    throw ConfigError(
        fmt::format("{}: workload.loop: expected \"open\" for workload.kind = \"rate_tasks\" (jobs "
                    "are released at their release times), found \"closed\"",
                    where("workload.loop")));
  const std::optional<wrr::Variant> variant = wrr::variant_of_policy(sc.policy);
  if (!entries.count("workload.placement"))
    o.placement = variant == wrr::Variant::R ? TaskPlacement::Random : TaskPlacement::Contiguous;
  if (!entries.count("workload.job_commands")) o.per_block = variant.has_value();
  rt.generation.block_bytes = o.block_bytes;
  // The generated set has its own generator: run.seed with a fixed salt ("ratetask" in ASCII).
  rt.generation.seed = sc.seed ^ 0x726174657461736bULL;
  try {
    if (!rt.tasks_path.empty()) {
      if (rt.tasks_path[0] != '/') rt.tasks_path = sc.base_dir + "/" + rt.tasks_path;
      o.tasks = read_rate_tasks(rt.tasks_path, o.block_bytes);
    } else {
      o.tasks = generate_rate_tasks(rt.generation);
    }
  } catch (const std::invalid_argument& ex) {
    throw ConfigError(fmt::format("{}: workload.tasks_path: {}", where("workload.tasks_path"), ex.what()));
  }
  rt.offered = o.tasks.size();
  if (variant) {
    if (!o.per_block)
      throw ConfigError(
          fmt::format("{}: workload.job_commands: expected \"block\" or \"auto\" for {} (it serves "
                      "x_i blocks of a job per round, 004 §3), found \"job\"",
                      where("workload.job_commands"), wrr::paper_name(*variant)));
    wrr::DiskBounds bounds;
    bounds.block_bytes = o.block_bytes;
    std::vector<wrr::TaskDemand> demand;
    for (const RateTaskSpec& t : o.tasks) demand.push_back({t.period_ms, t.buffer_blocks});
    try {
      if (rt.online_admission && rt.round_ms == 0) {
        const std::vector<std::size_t> keep = wrr::admit_online(*variant, demand, rt.aperiodic_weight, bounds);
        std::vector<RateTaskSpec> admitted;
        std::vector<wrr::TaskDemand> set;
        std::size_t next = 0;
        for (std::size_t i = 0; i < o.tasks.size(); ++i) {
          if (next < keep.size() && keep[next] == i) {
            admitted.push_back(o.tasks[i]);
            set.push_back(demand[i]);
            ++next;
            continue;
          }
          std::vector<wrr::TaskDemand> with = set;
          with.push_back(demand[i]);
          rt.rejected.push_back(
              fmt::format("task {}: {}", o.tasks[i].id, wrr::plan(*variant, with, rt.aperiodic_weight, bounds).reason));
        }
        if (admitted.empty())
          throw ConfigError(fmt::format("{}: workload: admission control ({}) admits none of the {} tasks; first: {}",
                                        file, wrr::paper_name(*variant), o.tasks.size(), rt.rejected.front()));
        o.tasks = std::move(admitted);
        demand = std::move(set);
      } else if (rt.online_admission) {
        throw ConfigError(
            fmt::format("{}: workload.round_ms: online admission chooses R per admitted set; expected "
                        "0 with workload.admission = \"online\", found {}",
                        where("workload.round_ms"), rt.round_ms));
      }
      rt.plan = wrr::plan(*variant, demand, rt.aperiodic_weight, bounds, rt.round_ms);
    } catch (const std::invalid_argument& ex) {
      throw ConfigError(fmt::format("{}: workload: {}", file, ex.what()));
    }
    if (!rt.plan->admitted)
      throw ConfigError(fmt::format("{}: workload: admission control ({}) rejects the set of {} tasks: {}", file,
                                    wrr::paper_name(*variant), o.tasks.size(), rt.plan->reason));
    if (*variant == wrr::Variant::CA) o.align_round_ms = rt.plan->round_ms;  // 004 §3.3
  }
  o.seed = sc.seed;
  o.capacity_blocks = sc.capacity_blocks();
  try {
    o.validate();
  } catch (const std::invalid_argument& ex) {
    throw ConfigError(fmt::format("{}: workload: {}", file, ex.what()));
  }
}

bool is_rounds_key(const std::string& k) {
  static const std::vector<std::string> keys = {"workload.streams",
                                                "workload.round_ms",
                                                "workload.rounds",
                                                "workload.streams_path",
                                                "workload.lambda_d",
                                                "workload.fragment_size",
                                                "workload.fragment_mean_bytes",
                                                "workload.fragment_sd_bytes",
                                                "workload.placement",
                                                "workload.d_mean_bytes",
                                                "workload.d_sd_bytes"};
  return std::find(keys.begin(), keys.end(), k) != keys.end();
}

std::string data_dir() {
  if (const char* d = std::getenv("DRIVEVP_DATA_DIR"); d && *d) return d;
  return DRIVEVP_DATA_DIR;
}

}  // namespace

std::string describe_toml_value(const toml::node& n) {
  std::ostringstream os;
  if (n.is_string())
    os << '\'' << *n.value<std::string>() << '\'';
  else if (n.is_table())
    os << "a table";
  else if (const toml::array* a = n.as_array())
    os << *a;
  else if (n.is_integer())
    os << *n.value<std::int64_t>();
  else if (n.is_floating_point())
    os << *n.value<double>();
  else if (n.is_boolean())
    os << (*n.value<bool>() ? "true" : "false");
  else
    os << "a " << n.type();
  return printable_text(os.str(), 60);
}

const char* default_scenario_text() { return kDefaultScenarioToml; }

toml::table read_scenario_table(const std::string& path) {
  const std::string file = path.empty() ? "<default scenario>" : path;
  std::string text;
  if (path.empty()) {
    text = kDefaultScenarioToml;
  } else {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ConfigError(fmt::format("{}: cannot read the scenario: {}", clip(file), std::strerror(errno)));
    // A scenario is a few kB; the bound keeps a wrong path (a trace, an image) from being read whole.
    constexpr std::size_t kMaxScenarioBytes = 1 << 20;
    char chunk[16384];
    while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
      text.append(chunk, static_cast<std::size_t>(in.gcount()));
      if (text.size() > kMaxScenarioBytes)
        throw ConfigError(
            fmt::format("{}: expected a scenario file of at most 1 MiB, found a larger file", clip(file)));
    }
    if (in.bad()) throw ConfigError(fmt::format("{}: cannot read the scenario: {}", clip(file), std::strerror(errno)));
  }
  check_nesting(text, file);
  try {
    return toml::parse(std::string_view(text), std::string_view(file));
  } catch (const toml::parse_error& e) {
    throw ConfigError(fmt::format("{}:{}: TOML syntax error: {}", clip(file), e.source().begin.line,
                                  printable_text(e.description(), 200)));
  }
}

std::string scenario_base_dir(const std::string& path) {
  if (path.empty()) return data_dir();
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

void flatten_scenario(const toml::table& table, const std::string& file, ScenarioEntries& out) {
  flatten(table, "", file, out);
}

std::pair<std::string, toml::table> parse_scenario_override(const std::string& o) {
  const auto eq = o.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ConfigError(fmt::format("--set {}: expected KEY=VALUE, found no '='", clip(o)));
  const std::string key = o.substr(0, eq);
  const std::string value = o.substr(eq + 1);
  const std::string where = "--set " + clip(o);
  // One TOML value on one line: a newline would let the value inject (or hide) other keys.
  if (value.find_first_of("\r\n") != std::string::npos)
    throw ConfigError(fmt::format("{}: {}: expected one TOML value on one line, found a line break", where, clip(key)));
  toml::table t;
  try {
    t = toml::parse("v = " + value);
  } catch (const toml::parse_error&) {
    t = toml::table{{"v", value}};  // not a TOML value: the text itself, as a string
  }
  if (t.size() != 1 || !t.contains("v"))
    throw ConfigError(fmt::format("{}: {}: expected one TOML value, found more than one", where, clip(key)));
  return {key, std::move(t)};
}

Scenario load_scenario(const std::string& path, const std::vector<std::string>& overrides) {
  const toml::table root = read_scenario_table(path);
  const std::string file = path.empty() ? "<default scenario>" : path;
  std::map<std::string, Entry> entries;
  flatten(root, "", file, entries);
  // The embedded default replays a DiskSim trace (device 14, format disksim). A user who names
  // their own workload on the command line (workload.path or workload.kind) means that workload,
  // not the default's with a different file: the default's [workload] settings are dropped.
  if (path.empty() && std::any_of(overrides.begin(), overrides.end(), [](const std::string& o) {
        return o.rfind("workload.path=", 0) == 0 || o.rfind("workload.kind=", 0) == 0;
      })) {
    for (auto it = entries.begin(); it != entries.end();)
      it = it->first.rfind("workload.", 0) == 0 ? entries.erase(it) : std::next(it);
  }
  std::vector<toml::table> override_tables;
  override_tables.reserve(overrides.size());
  for (const std::string& o : overrides) {
    auto [key, table] = parse_scenario_override(o);
    override_tables.push_back(std::move(table));
    entries[key] = {override_tables.back().get("v"), "--set " + clip(o)};
  }
  return resolve_scenario(entries, file, scenario_base_dir(path));
}

Scenario resolve_scenario(const ScenarioEntries& entries, const std::string& file, const std::string& base_dir) {
  Scenario sc;
  sc.device = hp97560();
  sc.trace_groups = {TraceGroup::Mechanics, TraceGroup::Firmware, TraceGroup::Bus,
                     TraceGroup::Host,      TraceGroup::Sled,     TraceGroup::Rounds};
  sc.source = file;
  sc.base_dir = base_dir;
  // workload.kind defaults to "trace" when a trace path is given, "synthetic" otherwise.
  if (entries.count("workload.path") && !entries.count("workload.kind"))
    sc.workload_kind = Scenario::WorkloadKind::Trace;

  // Unknown keys first: nothing is applied if any key is wrong.
  const std::string policy_key = [&] {
    auto it = entries.find("firmware.policy");
    if (it == entries.end()) return sc.policy;
    const auto v = it->second.node->value_exact<std::string>();
    return v ? *v : std::string();
  }();
  const PolicyInfo* policy_info = find_policy(policy_key);
  // The device kind decides which device.* keys exist: a disk's (hw_models/disk/disk_keys.cpp) or
  // a MEMS device's (hw_models/mems/mems_keys.cpp), each declared beside the device's parameters.
  const auto preset_entry = entries.find("device.preset");
  const std::string preset_name = [&] {
    if (preset_entry == entries.end()) return std::string("hp97560");
    const auto v = preset_entry->second.node->value_exact<std::string>();
    return v ? *v : std::string();
  }();
  const bool mems_device = is_mems_preset(preset_name);
  auto mems_keys_text = [] {
    std::string s = "device.preset, " + std::string(kMemsSeekMethodKey);
    for (const auto& k : mems::mems_param_keys()) s += ", device." + k.name;
    return s;
  };
  // A drive replaces the embedded default scenario's preset (an experiment's base); a preset and a
  // drive both given by the user are an error.
  const bool drive_given = entries.count("device.drive") > 0;
  if (preset_entry != entries.end() && drive_given && preset_entry->second.where.rfind("<default scenario>", 0) != 0)
    throw ConfigError(
        fmt::format("{}: device.drive: expected either device.preset or device.drive, found both "
                    "(device.preset at {})",
                    entries.at("device.drive").where, preset_entry->second.where));
  for (const auto& [key, e] : entries) {
    if (key.rfind("device.", 0) == 0 && key != "device.preset" && key != "device.drive") {
      const bool disk_key = find_disk_key(key) != nullptr;
      const bool mems_key = find_mems_key(key) != nullptr || key == kMemsSeekMethodKey;
      if (mems_device) {
        if (mems_key) continue;
        if (disk_key)
          throw ConfigError(
              fmt::format("{}: {} applies only to a disk; device.preset '{}' is a MEMS device (its keys: {})", e.where,
                          clip(key), preset_name, mems_keys_text()));
        throw ConfigError(fmt::format("{}: unknown key '{}'; a MEMS device (device.preset '{}') accepts: {}", e.where,
                                      clip(key), preset_name, mems_keys_text()));
      }
      if (disk_key) continue;
      if (mems_key)
        throw ConfigError(
            fmt::format("{}: {} applies only to a MEMS device (device.preset one of {}); device.preset "
                        "'{}' is a disk",
                        e.where, clip(key), fmt::join(mems::mems_preset_names(), ", "), preset_name));
    }
    if (std::any_of(schema().begin(), schema().end(), [&wanted = key](const KeySpec& k) { return k.key == wanted; }))
      continue;
    if (key.rfind("firmware.", 0) == 0 && policy_info) {
      const std::string param = key.substr(9);
      if (std::any_of(policy_info->params.begin(), policy_info->params.end(),
                      [&](const PolicyParameter& p) { return p.name == param; }))
        continue;
      std::string allowed;
      for (const PolicyParameter& p : policy_info->params) allowed += ", firmware." + p.name;
      throw ConfigError(fmt::format("{}: unknown key '{}': policy '{}' accepts firmware.policy, firmware.queue_depth{}",
                                    e.where, clip(key), policy_info->key, allowed));
    }
    const std::string section = clip(key.substr(0, key.find('.')));
    std::string allowed;
    for (const std::string& k : general_keys())
      if (k.rfind(section + ".", 0) == 0) allowed += (allowed.empty() ? "" : ", ") + k;
    if (allowed.empty()) allowed = "sections device, firmware, workload, run, trace, output";
    throw ConfigError(fmt::format("{}: unknown key '{}'; allowed: {}", e.where, clip(key), allowed));
  }

  for (const KeySpec& k : schema()) {
    if (k.key == "device.preset" && drive_given) continue;
    if (auto it = entries.find(k.key); it != entries.end()) {
      try {
        k.apply(*it->second.node, sc);
      } catch (const Invalid& inv) {
        throw ConfigError(
            fmt::format("{}: {}: expected {}, found {}", it->second.where, k.key, inv.expected, inv.found));
      } catch (const std::invalid_argument& ex) {
        throw ConfigError(fmt::format("{}: {}: {}", it->second.where, k.key, ex.what()));
      }
    }
    // A disk's own keys right after the preset or drive, in their declaration order
    // (device.cylinders before device.sectors_per_track and device.zones, which read it).
    if (k.key == "device.drive" && !mems_device) {
      for (const ParamKey<DiskParams>& d : disk_param_keys())
        if (auto it = entries.find("device." + d.name); it != entries.end())
          apply_declared(d, "device", it->second, sc.device);
    }
  }
  // The MEMS device's own keys, in their declaration order.
  if (mems_device) {
    for (const ParamKey<mems::MemsParams>& k : mems::mems_param_keys())
      if (auto it = entries.find("device." + k.name); it != entries.end())
        apply_declared(k, "device", it->second, sc.mems);
    if (auto it = entries.find(kMemsSeekMethodKey); it != entries.end()) {
      try {
        sc.mems_seek_method = get_choice(*it->second.node, {"exact", "disksim"}) == "exact"
                                  ? mems::SeekMethod::Exact
                                  : mems::SeekMethod::DiskSimChunks;
      } catch (const Invalid& inv) {
        throw ConfigError(fmt::format("{}: {}: expected {}, found {}", it->second.where, kMemsSeekMethodKey,
                                      inv.expected, inv.found));
      }
    }
  }
  // Policy parameters, declared by the policy (firmware/policy.h PolicyParameter).
  if (policy_info) {
    for (const PolicyParameter& p : policy_info->params) {
      auto it = entries.find("firmware." + p.name);
      if (it == entries.end()) continue;
      try {
        sc.policy_params[p.name] = policy_value(p, read_declared(*it->second.node, p));
      } catch (const Invalid& inv) {
        throw ConfigError(
            fmt::format("{}: firmware.{}: expected {}, found {}", it->second.where, p.name, inv.expected, inv.found));
      }
    }
  }

  // Keys that do not apply to the chosen workload kind are errors (set but never used).
  for (const auto& [key, e] : entries) {
    if (sc.workload_kind == Scenario::WorkloadKind::RateTasks &&
        (is_synthetic_key(key) || is_trace_key(key) || key == "run.requests" || key == "workload.time_scale" ||
         key.rfind("workload.deadline", 0) == 0))
      throw ConfigError(fmt::format(
          "{}: {} does not apply to workload.kind = \"rate_tasks\" (its jobs carry their own deadlines; its length "
          "is workload.duration_s)",
          e.where, key));
    if (sc.workload_kind == Scenario::WorkloadKind::Synthetic && is_trace_key(key))
      throw ConfigError(fmt::format("{}: {} applies only to workload.kind = \"trace\"", e.where, key));
    if (sc.workload_kind != Scenario::WorkloadKind::Synthetic && is_synthetic_key(key))
      throw ConfigError(fmt::format("{}: {} applies only to workload.kind = \"synthetic\"", e.where, key));
    if (sc.workload_kind != Scenario::WorkloadKind::RateTasks && is_rate_tasks_key(key) &&
        !(sc.workload_kind == Scenario::WorkloadKind::Rounds && is_rounds_key(key)))
      throw ConfigError(fmt::format("{}: {} applies only to workload.kind = \"rate_tasks\"", e.where, key));
    if (sc.workload_kind == Scenario::WorkloadKind::Rounds && is_trace_key(key))
      throw ConfigError(fmt::format("{}: {} applies only to workload.kind = \"trace\"", e.where, key));
    if (sc.workload_kind != Scenario::WorkloadKind::Rounds && is_rounds_key(key) &&
        !(sc.workload_kind == Scenario::WorkloadKind::RateTasks && is_rate_tasks_key(key)))
      throw ConfigError(fmt::format("{}: {} applies only to workload.kind = \"rounds\"", e.where, key));
    if (sc.workload_kind != Scenario::WorkloadKind::Rounds && key == "run.expect_hiccup_free")
      throw ConfigError(fmt::format("{}: run.expect_hiccup_free applies only to workload.kind = \"rounds\"", e.where));
    if (sc.workload_kind == Scenario::WorkloadKind::Rounds && key == "run.requests")
      throw ConfigError(fmt::format(
          "{}: run.requests does not apply to workload.kind = \"rounds\" (its length is workload.rounds)", e.where));
    if (!sc.host.closed_loop && key == "workload.outstanding")
      throw ConfigError(fmt::format("{}: workload.outstanding applies only to workload.loop = \"closed\"", e.where));
    if (!sc.tracing && key.rfind("trace.", 0) == 0 && key != "trace.enabled")
      throw ConfigError(fmt::format("{}: {} has no effect unless trace.enabled = true", e.where, key));
    if (const char* rule = deadline_rule_of(key); rule && rule != std::string(to_string(sc.host.deadline.kind)))
      throw ConfigError(fmt::format("{}: {} applies only to workload.deadline = \"{}\" (found \"{}\")", e.where, key,
                                    rule, to_string(sc.host.deadline.kind)));
  }

  // Cross-key checks.
  auto where = [&](const std::string& key) {
    auto it = entries.find(key);
    return it == entries.end() ? file : it->second.where;
  };
  // The deadline rule's draws have their own generator: run.seed with a fixed salt ("deadline" in
  // ASCII), so that they do not replay the synthetic source's sequence.
  sc.host.deadline.seed = sc.seed ^ 0x646561646c696e65ULL;
  // The QoS draws likewise: run.seed with the salt "qosqosqo" in ASCII.
  sc.host.qos.seed = sc.seed ^ 0x716f73716f73716fULL;
  // The sfc policy (paper 001) reads the first firmware.qos_dims levels of each request's vector
  // with firmware.levels levels; unset, they follow the workload (workload.qos_dims, _levels).
  if (policy_info && policy_info->key == "sfc") {
    auto& pp = sc.policy_params;
    if (!pp.count("qos_dims")) pp["qos_dims"] = sc.host.qos.dims;
    if (!pp.count("levels")) pp["levels"] = sc.host.qos.levels;
    const auto fw_dims = static_cast<unsigned>(pp.at("qos_dims"));
    const auto fw_levels = static_cast<unsigned>(pp.at("levels"));
    if (fw_dims > sc.host.qos.dims)
      throw ConfigError(fmt::format("{}: firmware.qos_dims: expected at most workload.qos_dims ({}), found {}",
                                    where("firmware.qos_dims"), sc.host.qos.dims, fw_dims));
    if (fw_dims > 0 && fw_levels != sc.host.qos.levels)
      throw ConfigError(
          fmt::format("{}: firmware.levels: expected workload.qos_levels ({}): the curve reads the workload's levels, "
                      "found {}",
                      where("firmware.levels"), sc.host.qos.levels, fw_levels));
  }
  if (sc.host.deadline.kind == DeadlineKind::Uniform && sc.host.deadline.min_ms > sc.host.deadline.max_ms)
    throw ConfigError(
        fmt::format("{}: workload.deadline_min_ms: expected at most workload.deadline_max_ms ({}), found {}",
                    where("workload.deadline_min_ms"), sc.host.deadline.max_ms, sc.host.deadline.min_ms));
  try {
    if (sc.device_kind == "mems")
      sc.mems.validate();
    else
      sc.device.validate();
  } catch (const std::invalid_argument& ex) {
    throw ConfigError(fmt::format("{}: {}", file, ex.what()));
  }
  if (policy_info && !policy_info->applies_to(sc.device_kind)) {
    std::vector<std::string> fit;
    for (const PolicyInfo& p : policy_registry())
      if (p.applies_to(sc.device_kind)) fit.push_back(p.key);
    throw ConfigError(fmt::format(
        "{}: firmware.policy: policy '{}' ({}) does not apply to a {} device (device.preset '{}'); expected one of {}",
        where("firmware.policy"), policy_info->key, policy_info->paper_name, sc.device_kind, preset_name,
        fmt::join(fit, ", ")));
  }
  if (sc.device_kind == "mems") {
    // The zone policies' zones must fit the device's grid (cylinders x rows per column).
    const mems::MemsLayout layout(sc.mems);
    for (const auto& [name, limit] : {std::pair<std::string, std::uint32_t>{"zones_x", layout.cylinders()},
                                      std::pair<std::string, std::uint32_t>{"zones_y", layout.rows_per_column()}}) {
      auto it = sc.policy_params.find(name);
      if (it != sc.policy_params.end() && (it->second > limit || it->second != std::floor(it->second)))
        throw ConfigError(fmt::format(
            "{}: firmware.{}: expected an integer in [1, {}] ({} of device '{}'), found {}", where("firmware." + name),
            name, limit, name == "zones_x" ? "the cylinders" : "the rows per column", preset_name, it->second));
    }
  }
  if (sc.host.closed_loop && sc.host.outstanding > sc.controller.queue_depth)
    throw ConfigError(fmt::format("{}: workload.outstanding: expected at most firmware.queue_depth ({}), found {}",
                                  where("workload.outstanding"), sc.controller.queue_depth, sc.host.outstanding));
  if (sc.tracing && sc.trace_stop > Time{0} && sc.trace_stop <= sc.trace_start)
    throw ConfigError(fmt::format("{}: trace.stop: expected a time after trace.start, or 0", where("trace.stop")));
  const std::uint64_t capacity = sc.capacity_blocks();
  if (sc.workload_kind == Scenario::WorkloadKind::Synthetic) {
    if (sc.requests == 0)
      throw ConfigError(fmt::format("{}: run.requests: expected an integer >= 1 for a synthetic workload, found 0",
                                    where("run.requests")));
    if (entries.count("workload.time_scale")) {
      // 002 §4: the scaling factor s divides the inter-arrival times, i.e. multiplies the rate.
      if (sc.host.closed_loop)
        throw ConfigError(
            fmt::format("{}: workload.time_scale applies only to an open loop (or a trace): a closed "
                        "loop has no arrival times",
                        where("workload.time_scale")));
      const double scaled = sc.synthetic.rate_per_s * sc.trace.time_scale;
      if (!(scaled <= 1e9))
        throw ConfigError(
            fmt::format("{}: workload.time_scale: expected workload.rate_per_s x workload.time_scale "
                        "<= 1e9 requests per second, found {} x {} = {:.6g}",
                        where("workload.time_scale"), sc.synthetic.rate_per_s, sc.trace.time_scale, scaled));
      sc.synthetic.rate_per_s = scaled;
    }
    // Simulated time must hold the last arrival (open loop): the expected last arrival is
    // requests / rate; half the limit leaves room for the Poisson spread (a guard in the source
    // stops a run whose draws still exceed it).
    if (!sc.host.closed_loop && static_cast<double>(sc.requests) / sc.synthetic.rate_per_s > to_s(kMaxArrival) / 2)
      throw ConfigError(fmt::format(
          "{}: workload.rate_per_s: expected at least run.requests / {} s = {:.6g} requests per second, so that "
          "the last arrival stays within the simulated-time limit of {} s (53.4 days; int64 picoseconds), found {}",
          where("workload.rate_per_s"), kMaxArrival.count() / 2'000'000'000'000,
          static_cast<double>(sc.requests) / (to_s(kMaxArrival) / 2), kMaxArrival.count() / 1'000'000'000'000,
          sc.synthetic.rate_per_s));
    sc.synthetic.arrivals_used = !sc.host.closed_loop;
    sc.synthetic.seed = sc.seed;
    sc.synthetic.requests = sc.requests;
    sc.synthetic.capacity_blocks = capacity;
    if (sc.synthetic.max_blocks > capacity) sc.synthetic.max_blocks = static_cast<std::uint32_t>(capacity);
    try {
      sc.synthetic.validate();
    } catch (const std::invalid_argument& ex) {
      throw ConfigError(fmt::format("{}: workload: {}", file, ex.what()));
    }
  } else if (sc.workload_kind == Scenario::WorkloadKind::RateTasks) {
    if (auto it = entries.find("workload.placement");
        it != entries.end() && it->second.node->value_or(std::string()) == "striped")
      throw ConfigError(fmt::format(
          "{}: workload.placement: expected one of auto, contiguous, random for workload.kind = \"rate_tasks\", "
          "found 'striped'",
          it->second.where));
    resolve_rate_tasks(sc, entries, file, where);
  } else if (sc.workload_kind == Scenario::WorkloadKind::Rounds) {
    if (auto it = entries.find("workload.placement"); it != entries.end()) {
      const std::string p = it->second.node->value_or(std::string());
      if (p != "random" && p != "striped")
        throw ConfigError(fmt::format(
            "{}: workload.placement: expected one of random, striped for workload.kind = \"rounds\", found '{}'",
            it->second.where, p));
    }
    if (auto it = entries.find("workload.round_ms"); it != entries.end() && sc.rate_tasks.round_ms == 0)
      throw ConfigError(fmt::format(
          "{}: workload.round_ms: expected a number in (0, 3600000] for workload.kind = \"rounds\", found 0",
          it->second.where));
    // Rounds need arrival times and their own deadlines (each C-request's is its round's end).
    if (sc.host.closed_loop)
      throw ConfigError(
          fmt::format("{}: workload.loop: expected \"open\" for workload.kind = \"rounds\" (C-requests "
                      "arrive at round starts), found \"closed\"",
                      where("workload.loop")));
    if (sc.host.deadline.enabled())
      throw ConfigError(
          fmt::format("{}: workload.deadline: expected \"none\" for workload.kind = \"rounds\" (a "
                      "C-request's deadline is its round's end), found \"{}\"",
                      where("workload.deadline"), to_string(sc.host.deadline.kind)));
    if (!sc.streams_path.empty()) {
      if (sc.streams_path[0] != '/') sc.streams_path = sc.base_dir + "/" + sc.streams_path;
      try {
        sc.rounds.stream_specs = read_stream_list(sc.streams_path);
      } catch (const std::invalid_argument& ex) {
        throw ConfigError(fmt::format("{}: workload.streams_path: {}", where("workload.streams_path"), ex.what()));
      }
      const auto n = static_cast<std::uint32_t>(sc.rounds.stream_specs.size());
      if (entries.count("workload.streams") && sc.rounds.streams != n)
        throw ConfigError(fmt::format(
            "{}: workload.streams: expected {} (the streams listed in workload.streams_path) or unset, found {}",
            where("workload.streams"), n, sc.rounds.streams));
      sc.rounds.streams = n;
    }
    sc.rounds.seed = sc.seed;
    sc.rounds.capacity_blocks = capacity;
    try {
      sc.rounds.validate();
    } catch (const std::invalid_argument& ex) {
      throw ConfigError(fmt::format("{}: workload: {}", file, ex.what()));
    }
    // A round policy's firmware.round_ms is the workload's round unless set (then they must agree).
    if (policy_info && std::any_of(policy_info->params.begin(), policy_info->params.end(),
                                   [](const PolicyParameter& p) { return p.name == "round_ms"; })) {
      auto it = sc.policy_params.find("round_ms");
      if (it == sc.policy_params.end())
        sc.policy_params["round_ms"] = sc.rounds.round_ms;
      else if (it->second != sc.rounds.round_ms)
        throw ConfigError(fmt::format("{}: firmware.round_ms: expected workload.round_ms ({}), found {}",
                                      where("firmware.round_ms"), sc.rounds.round_ms, it->second));
    }
  } else {
    if (sc.trace.paths.empty())
      throw ConfigError(
          fmt::format("{}: workload.path: expected a trace file for workload.kind = \"trace\", found none", file));
    for (std::string& p : sc.trace.paths)
      if (!p.empty() && p[0] != '/') p = sc.base_dir + "/" + p;
    // A validate trace is replayed as DiskSim replays it: one request outstanding, each issued
    // its predecessor's recorded gap after the predecessor completed (../shared/drives/README.md).
    if (sc.trace.format == TraceFormat::Validate && (!sc.host.closed_loop || sc.host.outstanding != 1))
      throw ConfigError(fmt::format(
          "{}: workload.format = \"validate\": expected workload.loop = \"closed\" with workload.outstanding = 1 "
          "(the trace's gaps follow completions), found workload.loop = \"{}\", workload.outstanding = {}",
          where("workload.format"), sc.host.closed_loop ? "closed" : "open", sc.host.outstanding));
    if (sc.trace.stop_s >= 0 && entries.count("workload.stop_s") && sc.trace.stop_s <= sc.trace.start_s)
      throw ConfigError(fmt::format("{}: workload.stop_s: expected a time after workload.start_s ({}), found {}",
                                    where("workload.stop_s"), sc.trace.start_s, sc.trace.stop_s));
    if (!entries.count("workload.stop_s")) sc.trace.stop_s = -1;
    sc.trace.max_requests = sc.requests;
    if (!entries.count("run.requests")) sc.trace.max_requests = 0;
    sc.trace.capacity_blocks = capacity;
  }
  try {
    (void)make_policy(sc.policy, sc.policy_params, sc.device_kind);
  } catch (const std::invalid_argument& ex) {
    throw ConfigError(fmt::format("{}: firmware: {}", file, ex.what()));
  }
  return sc;
}

std::uint64_t Scenario::capacity_blocks() const {
  return device_kind == "mems" ? mems::MemsLayout(mems).capacity() : device.geometry().capacity_blocks();
}

std::string describe_scenario_keys() {
  std::string out;
  auto line = [&out](const std::string& key, const std::string& type, const std::string& allowed,
                     const std::string& description) {
    out += fmt::format("{:<38} {:<10} {}\n{:<49} {}\n", key, type, allowed, "", description);
  };
  const DiskParams hp = hp97560();
  for (const KeySpec& k : schema()) {
    line(k.key, k.type, k.allowed, k.description);
    if (k.key != "device.drive") continue;
    for (const ParamKey<DiskParams>& d : disk_param_keys())
      line("device." + d.name, declared_type(d.type),
           fmt::format("{} (disk, hp97560 {})", declared_range(d), d.show(hp)), d.description);
  }
  const mems::MemsParams g1 = mems::mems_g1();
  line(kMemsSeekMethodKey, "string", "one of exact, disksim",
       "MEMS: seek integration (exact spring motion, or DiskSim 4.0's chunked scheme; default exact)");
  for (const ParamKey<mems::MemsParams>& k : mems::mems_param_keys())
    line("device." + k.name, declared_type(k.type), fmt::format("{} (MEMS, mems_g1 {})", declared_range(k), k.show(g1)),
         k.description);
  for (const PolicyInfo& p : policy_registry())
    for (const PolicyParameter& q : p.params)
      line("firmware." + q.name, declared_type(q.type),
           fmt::format("{} (policy {}, default {})", declared_range(q), p.key, policy_default(q)), q.description);
  return out;
}

}  // namespace drivevp
