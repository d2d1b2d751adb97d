#include "testbench/experiment/experiment.h"

#include <openssl/evp.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "testbench/trace/trace_reader.h"  // printable_text

namespace drivevp::experiment {
namespace fs = std::filesystem;
namespace {

const std::vector<std::string> kScenarioSections = {"device", "firmware", "workload", "run", "trace", "output"};
const std::vector<std::string> kExperimentSections = {"experiment", "axes", "zip", "metrics", "figures", "part"};
/// First components a metric path may start with: the sections of summary.json that hold
/// results (testbench/sim/platform.cpp).
/// `deadlines` exists in runs with deadlines (workload.deadline) and rate_tasks runs, `energy` in
/// MEMS runs, `sfc` in runs with QoS vectors (workload.qos_dims > 0;
/// testbench/metrics/qos_metrics.h), `rate_tasks` in rate_tasks runs (paper 004), `rounds` in round
/// workloads (workload.kind = "rounds"), `validation` in replays of validate traces
/// (testbench/metrics/demerit.h).
const std::vector<std::string> kMetricRoots = {
    "metrics",   "requests", "checks", "saturation", "trace",  "memory",    "simulated_time_ms",
    "deadlines", "energy",   "sfc",    "rate_tasks", "rounds", "validation"};
constexpr std::size_t kMaxPoints = 100000;
constexpr int kMaxReplications = 1000;

std::string clip(const std::string& s) { return printable_text(s, 80); }

std::string join(const std::vector<std::string>& v, const char* sep = ", ") {
  std::string out;
  for (const std::string& s : v) out += (out.empty() ? "" : sep) + s;
  return out;
}

std::string absolute_dir(const std::string& dir) { return fs::absolute(fs::path(dir)).lexically_normal().string(); }

std::string where_of(const std::string& file, const toml::node& n) {
  return fmt::format("{}:{}", file, n.source().begin.line);
}

/// What a value looks like in a message (as the scenario loader quotes it).
std::string shown(const toml::node& n) { return describe_toml_value(n); }

/// A value as a CSV cell and in the seed's assignment string: strings bare, numbers in
/// shortest round-trip form, booleans true/false, arrays in TOML form.
std::string cell_text(const toml::node& n) {
  if (const auto s = n.value_exact<std::string>()) return *s;
  if (const auto i = n.value_exact<std::int64_t>()) return fmt::format("{}", *i);
  if (const auto d = n.value_exact<double>()) return fmt::format("{}", *d);
  if (const auto b = n.value_exact<bool>()) return *b ? "true" : "false";
  std::ostringstream os;
  if (const toml::array* a = n.as_array())
    os << toml::toml_formatter{*a};
  else
    os << toml::toml_formatter{n};
  return os.str();
}

/// "where: key: expected ..., found ..." as every loader error reads.
[[noreturn]] void fail(const std::string& where, const std::string& key, const std::string& expected,
                       const std::string& found) {
  throw ConfigError(fmt::format("{}: {}: expected {}, found {}", where, key, expected, found));
}

bool valid_name(const std::string& s, bool allow_dot) {
  // [A-Za-z0-9_-]+, with '.' too when allowed (std::regex trips GCC 12's -Wmaybe-uninitialized
  // under the sanitizers).
  return !s.empty() && s.size() <= 100 && std::all_of(s.begin(), s.end(), [&](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || (allow_dot && c == '.');
  });
}

std::string read_file_bounded(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(fmt::format("{}: cannot read the experiment: {}", clip(path), std::strerror(errno)));
  std::string text;
  char chunk[16384];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    text.append(chunk, static_cast<std::size_t>(in.gcount()));
    if (text.size() > (1u << 20))
      throw ConfigError(
          fmt::format("{}: expected an experiment file of at most 1 MiB, found a larger file", clip(path)));
  }
  return text;
}

/// Values of a range table { from, to, step } or { from, to, count [, scale] }.
std::vector<std::shared_ptr<const toml::node>> expand_range(const toml::table& t, const std::string& file,
                                                            const std::string& key) {
  const std::string where = where_of(file, t);
  for (auto&& [k, v] : t) {
    const std::string name(k.str());
    if (name != "from" && name != "to" && name != "step" && name != "count" && name != "scale")
      fail(where_of(file, v), key, "a range with keys from, to and step or count (and scale)",
           "key '" + clip(name) + "'");
  }
  auto number = [&](const char* name) -> std::optional<double> {
    const toml::node* n = t.get(name);
    if (!n) return std::nullopt;
    if (!n->is_number()) fail(where_of(file, *n), key + "." + name, "a number", shown(*n));
    return n->value<double>();
  };
  const auto from = number("from"), to = number("to"), step = number("step");
  const toml::node* count_node = t.get("count");
  if (!from || !to) fail(where, key, "a range with both 'from' and 'to'", "a table without them");
  if (step.has_value() == (count_node != nullptr))
    fail(where, key, "a range with exactly one of 'step' and 'count'", step ? "both" : "neither");
  std::string scale = "linear";
  if (const toml::node* s = t.get("scale")) {
    const auto v = s->value_exact<std::string>();
    if (!v || (*v != "linear" && *v != "log")) fail(where_of(file, *s), key + ".scale", "'linear' or 'log'", shown(*s));
    scale = *v;
  }
  if (*to < *from) fail(where, key + ".to", fmt::format("a value >= from ({})", *from), fmt::format("{}", *to));
  // Integer endpoints (and step) give integer values, rounded (a log range of counts).
  const bool integral =
      t.get("from")->is_integer() && t.get("to")->is_integer() && (!step || t.get("step")->is_integer());
  std::vector<double> values;
  if (step) {
    if (!(*step > 0)) fail(where_of(file, *t.get("step")), key + ".step", "a number > 0", fmt::format("{}", *step));
    if (scale == "log")
      fail(where_of(file, *t.get("scale")), key + ".scale", "'linear' with 'step' ('log' needs 'count')", "'log'");
    const double n = std::floor((*to - *from) / *step + 1e-9) + 1;
    if (n > static_cast<double>(kMaxPoints))
      fail(where, key, fmt::format("at most {} values", kMaxPoints), fmt::format("{:.0f}", n));
    for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i)
      values.push_back(*from + static_cast<double>(i) * *step);
  } else {
    const auto c = count_node->value_exact<std::int64_t>();
    if (!c || *c < 1 || *c > static_cast<std::int64_t>(kMaxPoints))
      fail(where_of(file, *count_node), key + ".count", fmt::format("an integer in [1, {}]", kMaxPoints),
           shown(*count_node));
    if (scale == "log" && !(*from > 0))
      fail(where, key + ".from", "a number > 0 for scale = 'log'", fmt::format("{}", *from));
    for (std::int64_t i = 0; i < *c; ++i) {
      const double f = *c == 1 ? 0.0 : static_cast<double>(i) / static_cast<double>(*c - 1);
      values.push_back(scale == "log" ? *from * std::pow(*to / *from, f) : *from + f * (*to - *from));
    }
  }
  std::vector<std::shared_ptr<const toml::node>> out;
  for (double v : values) {
    if (integral) {
      out.push_back(std::make_shared<toml::value<std::int64_t>>(static_cast<std::int64_t>(std::llround(v))));
    } else {
      // 12 significant digits: 0.1 + 2 * 0.1 is 0.3, not 0.30000000000000004.
      out.push_back(std::make_shared<toml::value<double>>(std::stod(fmt::format("{:.12g}", v))));
    }
  }
  return out;
}

/// Collects the axes under `table` (dotted keys; a leaf is an array or a range table).
void collect_axes(const toml::table& table, const std::shared_ptr<const toml::table>& root, const std::string& prefix,
                  const std::string& file, int zip, std::vector<Axis>& out) {
  for (auto&& [k, v] : table) {
    const std::string key = prefix.empty() ? std::string(k.str()) : prefix + "." + std::string(k.str());
    const std::string where = where_of(file, v);
    Axis axis;
    axis.key = key;
    axis.zip = zip;
    axis.line = v.source().begin.line;
    if (const toml::table* sub = v.as_table()) {
      if (!sub->contains("from") && !sub->contains("to")) {
        collect_axes(*sub, root, key, file, zip, out);
        continue;
      }
      if (zip >= 0) fail(where, "zip." + key, "an array of values (ranges are for [axes])", "a range");
      for (auto& node : expand_range(*sub, file, key)) axis.values.push_back({node, cell_text(*node), where});
    } else if (const toml::array* arr = v.as_array()) {
      if (arr->empty()) fail(where, key, "a non-empty array of values", "[]");
      for (const toml::node& e : *arr) {
        if (e.is_table() || e.is_array_of_tables())
          fail(where, key, "values (strings, numbers, booleans, arrays)", "a table");
        // Aliases into the parsed file: the nodes keep their source lines.
        axis.values.push_back({std::shared_ptr<const toml::node>(root, &e), cell_text(e), where});
      }
    } else {
      fail(where, key, "an array of values or a range table { from, to, step | count }", shown(v));
    }
    for (std::size_t i = 0; i < axis.values.size(); ++i)
      for (std::size_t j = 0; j < i; ++j)
        if (axis.values[i].text == axis.values[j].text)
          fail(where, key, "distinct values", fmt::format("'{}' twice", clip(axis.values[i].text)));
    out.push_back(std::move(axis));
  }
}

std::string expect_string(const toml::table& t, const char* name, const std::string& file, const std::string& section) {
  const toml::node* n = t.get(name);
  const auto v = n->value_exact<std::string>();
  if (!v) fail(where_of(file, *n), section + "." + name, "a string", shown(*n));
  return *v;
}

}  // namespace

// --- ScenarioLayers ---------------------------------------------------------------------------

ScenarioLayers::ScenarioLayers(const std::string& scenario_path)
    : base_file_(scenario_path), default_base_(scenario_path.empty()) {
  auto table = std::make_shared<const toml::table>(read_scenario_table(scenario_path));
  owned_.push_back(table);
  flatten_scenario(*table, scenario_path.empty() ? "<default scenario>" : scenario_path, entries_);
  const std::string dir = absolute_dir(scenario_base_dir(scenario_path));
  for (const auto& [key, e] : entries_) path_base_[key] = dir;
}

void ScenarioLayers::add_sections(const std::shared_ptr<const toml::table>& table, const std::string& file,
                                  const std::string& base_dir) {
  owned_.push_back(table);
  for (const std::string& section : kScenarioSections) {
    const toml::node* n = table->get(section);
    if (!n) continue;
    // The section's keys with the section's name as their prefix.
    std::function<void(const toml::table&, const std::string&)> walk = [&](const toml::table& t,
                                                                           const std::string& prefix) {
      for (auto&& [k, v] : t) {
        const std::string key = prefix + "." + std::string(k.str());
        if (const toml::table* sub = v.as_table())
          walk(*sub, key);
        else
          set(key, std::shared_ptr<const toml::node>(table, &v), where_of(file, v), base_dir);
      }
    };
    if (const toml::table* t = n->as_table())
      walk(*t, section);
    else
      fail(where_of(file, *n), section, "a table [" + section + "]", shown(*n));
  }
}

void ScenarioLayers::set(const std::string& key, const std::shared_ptr<const toml::node>& value,
                         const std::string& where, const std::string& base_dir) {
  // As drivevp run: naming a workload of your own drops the embedded default's [workload].
  if (default_base_ && (key == "workload.path" || key == "workload.kind")) {
    for (auto it = entries_.begin(); it != entries_.end();)
      it = it->first.rfind("workload.", 0) == 0 && it->second.where.rfind("<default scenario>", 0) == 0
               ? entries_.erase(it)
               : std::next(it);
    default_base_ = false;
  }
  owned_.push_back(value);
  entries_[key] = {value.get(), where};
  path_base_[key] = absolute_dir(base_dir);
}

void ScenarioLayers::set_override(const std::string& key_equals_value, const std::string& base_dir) {
  auto [key, table] = parse_scenario_override(key_equals_value);
  auto owned = std::make_shared<const toml::table>(std::move(table));
  set(key, std::shared_ptr<const toml::node>(owned, owned->get("v")), "--set " + clip(key_equals_value), base_dir);
}

Scenario ScenarioLayers::validate() const {
  // Relative trace paths resolve against the layer that set them: give the loader absolute ones.
  std::vector<std::shared_ptr<toml::node>> rewritten;
  ScenarioEntries entries = entries_;
  auto it = entries.find("workload.path");
  if (it != entries.end()) {
    const std::string& dir = path_base_.at("workload.path");
    auto absolutize = [&](const std::string& p) { return p.empty() || p[0] == '/' ? p : dir + "/" + p; };
    if (const auto s = it->second.node->value_exact<std::string>()) {
      rewritten.push_back(std::make_shared<toml::value<std::string>>(absolutize(*s)));
    } else if (const toml::array* a = it->second.node->as_array()) {
      auto arr = std::make_shared<toml::array>();
      for (const toml::node& e : *a) {
        if (const auto es = e.value_exact<std::string>())
          arr->push_back(absolutize(*es));
        else
          arr->push_back(e);  // not a string: the loader reports it
      }
      rewritten.push_back(arr);
    }
    if (!rewritten.empty()) it->second.node = rewritten.back().get();
  }
  // A drive file, likewise (device.drive).
  if (auto d = entries.find("device.drive"); d != entries.end()) {
    if (const auto s = d->second.node->value_exact<std::string>(); s && !s->empty() && (*s)[0] != '/') {
      rewritten.push_back(std::make_shared<toml::value<std::string>>(path_base_.at("device.drive") + "/" + *s));
      d->second.node = rewritten.back().get();
    }
  }
  return resolve_scenario(entries, base_file_.empty() ? "<default scenario>" : base_file_,
                          absolute_dir(scenario_base_dir(base_file_)));
}

std::string ScenarioLayers::resolved_toml() const {
  toml::table root;
  for (const auto& [key, e] : entries_) {
    if (key == "device.preset" && entries_.count("device.drive")) continue;  // the drive replaces the preset
    toml::table* t = &root;
    std::size_t start = 0;
    for (std::size_t dot = key.find('.'); dot != std::string::npos; dot = key.find('.', start)) {
      const std::string part = key.substr(start, dot - start);
      t = t->emplace<toml::table>(part).first->second.as_table();
      start = dot + 1;
    }
    const std::string leaf = key.substr(start);
    if (key == "device.drive") {
      if (const auto s = e.node->value_exact<std::string>(); s && !s->empty() && (*s)[0] != '/') {
        t->insert_or_assign(leaf, fs::path(path_base_.at(key) + "/" + *s).lexically_normal().string());
        continue;
      }
    }
    if (key == "workload.path") {
      const std::string& dir = path_base_.at(key);
      auto absolutize = [&](const std::string& p) {
        return p.empty() || p[0] == '/' ? p : fs::path(dir + "/" + p).lexically_normal().string();
      };
      if (const auto s = e.node->value_exact<std::string>()) {
        t->insert_or_assign(leaf, absolutize(*s));
        continue;
      }
      if (const toml::array* a = e.node->as_array()) {
        toml::array arr;
        for (const toml::node& x : *a) {
          if (const auto xs = x.value_exact<std::string>())
            arr.push_back(absolutize(*xs));
          else
            arr.push_back(x);
        }
        t->insert_or_assign(leaf, std::move(arr));
        continue;
      }
    }
    e.node->visit([&](auto&& v) { t->insert_or_assign(leaf, v); });
  }
  std::ostringstream os;
  os << "# Resolved by drivevp: every key of the scenario, trace paths absolute.\n"
     << toml::toml_formatter{root, toml::toml_formatter::default_flags & ~toml::format_flags::indentation} << "\n";
  return os.str();
}

// --- experiment files -------------------------------------------------------------------------

std::string sha256_hex(const std::string& bytes) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), md, &len, EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("SHA-256 failed (OpenSSL EVP_Digest)");
  std::string hex;
  for (unsigned int i = 0; i < len; ++i) hex += fmt::format("{:02x}", md[i]);
  return hex;
}

std::uint64_t derive_seed(std::uint64_t base_seed, const std::string& assignment, int k) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  const std::string input = fmt::format("drivevp-seed/1|{}|{}|{}", base_seed, assignment, k);
  if (EVP_Digest(input.data(), input.size(), md, &len, EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("SHA-256 failed (OpenSSL EVP_Digest)");
  std::uint64_t seed = 0;
  for (int i = 0; i < 8; ++i) seed = (seed << 8) | md[i];
  return seed & 0x7fff'ffff'ffff'ffffULL;
}

namespace {

/// The axes, zipped groups and figures of `src` (the file's top level, or one [[part]] table, both
/// inside `root`), checked against `base` (the scenario layers with a part's set and --set
/// applied) and ex.metrics, and the grid of points: fills ex.axes, ex.figures, ex.points and ex.base_seed.
/// `override_keys` (key, --set argument) and `set_keys` (key, where: a part's set) may not be axes.
void build_grid(Experiment& ex, const toml::table& src, const std::shared_ptr<const toml::table>& root,
                const ScenarioLayers& base, const std::vector<std::pair<std::string, std::string>>& override_keys,
                const std::vector<std::pair<std::string, std::string>>& set_keys, const std::string& file,
                const std::string& dir) {
  // Axes and zipped groups.
  if (const toml::node* a = src.get("axes")) {
    if (!a->is_table()) fail(where_of(file, *a), "axes", "a table [axes]", shown(*a));
    collect_axes(*a->as_table(), root, "", file, -1, ex.axes);
  }
  if (const toml::node* z = src.get("zip")) {
    const toml::array* groups = z->as_array();
    if (!groups || !groups->is_array_of_tables())
      fail(where_of(file, *z), "zip", "[[zip]] tables of equal-length arrays", shown(*z));
    int gi = 0;
    for (const toml::node& g : *groups) {
      const std::size_t first = ex.axes.size();
      collect_axes(*g.as_table(), root, "", file, gi, ex.axes);
      if (ex.axes.size() - first < 2)
        fail(where_of(file, g), "zip", "a group of at least two keys that vary together",
             fmt::format("{} key", ex.axes.size() - first));
      for (std::size_t i = first + 1; i < ex.axes.size(); ++i)
        if (ex.axes[i].values.size() != ex.axes[first].values.size())
          fail(ex.axes[i].values[0].where, "zip." + ex.axes[i].key,
               fmt::format("{} values, as many as zip.{}", ex.axes[first].values.size(), ex.axes[first].key),
               fmt::format("{}", ex.axes[i].values.size()));
      ++gi;
    }
  }
  // File order (toml++ tables are sorted): axes by their first value's line.
  std::stable_sort(ex.axes.begin(), ex.axes.end(), [](const Axis& x, const Axis& y) { return x.line < y.line; });
  for (std::size_t i = 0; i < ex.axes.size(); ++i) {
    const Axis& ax = ex.axes[i];
    if (ax.key == "run.seed")
      fail(ax.values[0].where, "run.seed", "not an axis (replications derive the seeds; set experiment.replications)",
           "an axis");
    if (ax.key == "output.dir")
      fail(ax.values[0].where, "output.dir", "not an axis (each point writes under DIR/points/<id>/)", "an axis");
    for (std::size_t j = 0; j < i; ++j)
      if (ex.axes[j].key == ax.key) fail(ax.values[0].where, ax.key, "one axis per key", "a second axis for it");
    for (const auto& [k, arg] : override_keys)
      if (k == ax.key)
        throw ConfigError(
            fmt::format("--set {}: {} is an axis of the experiment ({}); remove it from the axes or "
                        "from --set",
                        clip(arg), ax.key, ax.values[0].where));
    for (const auto& [k, where] : set_keys)
      if (k == ax.key)
        fail(where, "part.set." + k, "a key that is not an axis of the part (a part's axis overrides its set)",
             "the axis at " + ax.values[0].where);
  }

  // Figures.
  auto axis_index = [&](const std::string& key) -> int {
    for (std::size_t i = 0; i < ex.axes.size(); ++i)
      if (ex.axes[i].key == key) return static_cast<int>(i);
    return -1;
  };
  std::vector<std::string> axis_keys;
  for (const Axis& a : ex.axes) axis_keys.push_back(a.key);
  if (const toml::node* f = src.get("figures")) {
    const toml::array* figs = f->as_array();
    if (!figs || !figs->is_array_of_tables()) fail(where_of(file, *f), "figures", "[[figures]] tables", shown(*f));
    std::set<std::string> names;
    for (const toml::node& fn : *figs) {
      const toml::table& t = *fn.as_table();
      Figure fig;
      const toml::array* panel_values = nullptr;
      const std::string fw = where_of(file, fn);
      for (auto&& [k, v] : t) {
        const std::string key(k.str());
        const std::string w = where_of(file, v);
        auto str = [&]() {
          const auto s = v.value_exact<std::string>();
          if (!s) fail(w, "figures." + key, "a string", shown(v));
          return *s;
        };
        auto boolean = [&]() {
          const auto b = v.value_exact<bool>();
          if (!b) fail(w, "figures." + key, "true or false", shown(v));
          return *b;
        };
        if (key == "name")
          fig.name = str();
        else if (key == "x")
          fig.x = str();
        else if (key == "y")
          fig.y = str();
        else if (key == "series")
          fig.series = str();
        else if (key == "panels")
          fig.panels = str();
        else if (key == "title")
          fig.title = str();
        else if (key == "xlabel")
          fig.xlabel = str();
        else if (key == "ylabel")
          fig.ylabel = str();
        else if (key == "logx")
          fig.logx = boolean();
        else if (key == "logy")
          fig.logy = boolean();
        else if (key == "kind") {
          fig.kind = str();
          if (fig.kind != "line" && fig.kind != "bar") fail(w, "figures.kind", "'line' or 'bar'", shown(v));
        } else if (key == "panel_values") {
          const toml::array* a = v.as_array();
          if (!a || a->empty())
            fail(w, "figures.panel_values", "a non-empty array of values of the panels axis", shown(v));
          panel_values = a;
        } else if (key == "sharey")
          fig.sharey = boolean();
        else
          throw ConfigError(
              fmt::format("{}: unknown key 'figures.{}'; allowed: name, x, y, series, panels, title, "
                          "xlabel, ylabel, logx, logy, kind, panel_values, sharey",
                          w, clip(key)));
      }
      auto line_of = [&](const char* key) {
        const toml::node* n = t.get(key);
        return n ? where_of(file, *n) : fw;
      };
      if (!valid_name(fig.name, true))
        fail(line_of("name"), "figures.name", "a file name of letters, digits, '_', '.', '-'",
             "'" + clip(fig.name) + "'");
      if (!names.insert(fig.name).second)
        fail(line_of("name"), "figures.name", "a name not used by another figure", "'" + fig.name + "' again");
      if (axis_index(fig.x) < 0)
        fail(line_of("x"), "figures.x",
             "an axis key (" + (axis_keys.empty() ? std::string("the experiment has no axes") : join(axis_keys)) + ")",
             "'" + clip(fig.x) + "'");
      if (std::none_of(ex.metrics.begin(), ex.metrics.end(), [&](const Metric& m) { return m.name == fig.y; })) {
        std::vector<std::string> mnames;
        for (const Metric& m : ex.metrics) mnames.push_back(m.name);
        fail(line_of("y"), "figures.y", "a metric name (" + join(mnames) + ")", "'" + clip(fig.y) + "'");
      }
      for (const char* role : {"series", "panels"}) {
        const std::optional<std::string>& k = std::string(role) == "series" ? fig.series : fig.panels;
        if (!k) continue;
        if (axis_index(*k) < 0)
          fail(line_of(role), std::string("figures.") + role, "an axis key (" + join(axis_keys) + ")",
               "'" + clip(*k) + "'");
        if (*k == fig.x || (std::string(role) == "panels" && fig.series && *fig.series == *k))
          fail(line_of(role), std::string("figures.") + role, "a key other than the figure's x and series",
               "'" + *k + "'");
      }
      if (panel_values) {
        const std::string w = line_of("panel_values");
        if (!fig.panels) fail(w, "figures.panel_values", "a figure with panels (figures.panels)", "no panels");
        const Axis& pa = ex.axes[static_cast<std::size_t>(axis_index(*fig.panels))];
        std::vector<std::string> allowed;
        for (const AxisValue& av : pa.values) allowed.push_back(av.text);
        for (const toml::node& e : *panel_values) {
          // The same value as the axis gives it: equal text, and a string only for a string.
          const bool is_string = e.is_string();
          std::size_t found = pa.values.size();
          for (std::size_t i = 0; i < pa.values.size(); ++i)
            if (pa.values[i].text == cell_text(e) && pa.values[i].node->is_string() == is_string) found = i;
          if (found == pa.values.size())
            fail(w, "figures.panel_values", "values of the axis " + pa.key + " (" + join(allowed) + ")", shown(e));
          if (std::count(fig.panel_values.begin(), fig.panel_values.end(), found))
            fail(w, "figures.panel_values", "distinct values", "'" + clip(pa.values[found].text) + "' twice");
          fig.panel_values.push_back(found);
        }
      }
      // Every other dimension must hold one value, or the figure would mix points.
      std::set<int> covered_zip;
      for (const std::optional<std::string>& k : {std::optional<std::string>(fig.x), fig.series, fig.panels})
        if (k && ex.axes[static_cast<std::size_t>(axis_index(*k))].zip >= 0)
          covered_zip.insert(ex.axes[static_cast<std::size_t>(axis_index(*k))].zip);
      for (const Axis& a : ex.axes) {
        if (a.key == fig.x || a.key == fig.series.value_or("") || a.key == fig.panels.value_or("")) continue;
        if (a.zip >= 0 && covered_zip.count(a.zip)) continue;
        if (a.values.size() > 1)
          fail(fw, "figures." + fig.name, "every axis with several values to be the figure's x, series or panels",
               fmt::format("axis {} with {} values", a.key, a.values.size()));
      }
      ex.figures.push_back(std::move(fig));
    }
  }

  // Expand the grid: crossed dimensions, first varies slowest; a zip group is one dimension.
  std::vector<std::vector<std::size_t>> dims;  // per dimension: the axes it moves
  std::vector<std::size_t> dim_size;
  {
    std::map<int, std::size_t> zip_dim;
    for (std::size_t i = 0; i < ex.axes.size(); ++i) {
      const int z = ex.axes[i].zip;
      if (z >= 0 && zip_dim.count(z)) {
        dims[zip_dim[z]].push_back(i);
        continue;
      }
      if (z >= 0) zip_dim[z] = dims.size();
      dims.push_back({i});
      dim_size.push_back(ex.axes[i].values.size());
    }
  }
  double total = 1;
  for (std::size_t s : dim_size) total *= static_cast<double>(s);
  if (total > static_cast<double>(kMaxPoints))
    throw ConfigError(fmt::format("{}: axes: expected at most {} points, found {:.0f} (the product of the axes' sizes)",
                                  file, kMaxPoints, total));
  const std::size_t count = static_cast<std::size_t>(total);
  const std::size_t width = std::max<std::size_t>(4, fmt::format("{}", count == 0 ? 0 : count - 1).size());

  for (std::size_t p = 0; p < count; ++p) {
    Point pt;
    pt.index = p;
    pt.id = fmt::format("p{:0{}}", p, width);
    pt.value_of.assign(ex.axes.size(), 0);
    std::size_t rest = p;
    for (std::size_t d = dims.size(); d-- > 0;) {
      const std::size_t v = rest % dim_size[d];
      rest /= dim_size[d];
      for (std::size_t a : dims[d]) pt.value_of[a] = v;
    }
    ScenarioLayers layers = base;
    for (std::size_t a = 0; a < ex.axes.size(); ++a) {
      const AxisValue& v = ex.axes[a].values[pt.value_of[a]];
      layers.set(ex.axes[a].key, v.node, v.where, dir);
      pt.assignment += (a ? ";" : "") + ex.axes[a].key + "=" + v.text;
    }
    // Sweep runs write no per-run plots and no progress line.
    for (const char* o : {"output.plots=false", "run.progress=false"}) layers.set_override(o, dir);
    const Scenario sc = layers.validate();
    ex.base_seed = sc.seed;  // run.seed is not an axis: the same at every point
    pt.resolved_toml = layers.resolved_toml();
    // The identity of a point is its scenario and the trace files it reads: an edited trace
    // (another size or modification time) makes the point run again on resume.
    std::string identity = pt.resolved_toml;
    for (const std::string& trace : sc.trace.paths) {
      std::error_code ec;
      const auto size = fs::file_size(trace, ec);
      const auto mtime = fs::last_write_time(trace, ec).time_since_epoch().count();
      identity += fmt::format("# trace file {} size {} mtime {}\n", trace, ec ? 0 : size, ec ? 0 : mtime);
    }
    pt.scenario_sha256 = sha256_hex(identity);
    ex.points.push_back(std::move(pt));
  }
}

}  // namespace

std::vector<Experiment> load_experiments(const std::string& path, const std::vector<std::string>& overrides) {
  Experiment ex;
  ex.file = path;
  ex.file_abs = fs::absolute(fs::path(path)).lexically_normal().string();
  ex.text = read_file_bounded(path);
  const std::string file = clip(path);
  const std::string dir = absolute_dir(scenario_base_dir(path));
  // The scenario loader's nesting check and TOML syntax errors, with this file's name.
  const auto root = std::make_shared<const toml::table>(read_scenario_table(path));

  // Top level: experiment sections and scenario sections only.
  for (auto&& [k, v] : *root) {
    const std::string name(k.str());
    const bool known = std::count(kScenarioSections.begin(), kScenarioSections.end(), name) ||
                       std::count(kExperimentSections.begin(), kExperimentSections.end(), name);
    if (!known)
      throw ConfigError(fmt::format("{}: unknown section '{}'; allowed: {}, and the scenario sections {}",
                                    where_of(file, v), clip(name), join(kExperimentSections), join(kScenarioSections)));
  }
  auto table_of = [&](const char* name) -> const toml::table* {
    const toml::node* n = root->get(name);
    if (!n) return nullptr;
    if (!n->is_table()) fail(where_of(file, *n), name, fmt::format("a table [{}]", name), shown(*n));
    return n->as_table();
  };

  // [experiment]
  std::string base_scenario;
  ex.name = fs::path(path).stem().string();
  if (const toml::table* e = table_of("experiment")) {
    for (auto&& [k, v] : *e) {
      const std::string key(k.str());
      const std::string w = where_of(file, v);
      if (key == "name") {
        ex.name = expect_string(*e, "name", file, "experiment");
        if (!valid_name(ex.name, true)) fail(w, "experiment.name", "letters, digits, '_', '.', '-' (1..100)", shown(v));
      } else if (key == "description") {
        ex.description = expect_string(*e, "description", file, "experiment");
      } else if (key == "scenario") {
        base_scenario = expect_string(*e, "scenario", file, "experiment");
        if (!base_scenario.empty() && base_scenario[0] != '/') base_scenario = dir + "/" + base_scenario;
        if (!fs::is_regular_file(base_scenario))
          fail(w, "experiment.scenario", "an existing scenario file (relative to the experiment file)", shown(v));
      } else if (key == "replications") {
        const auto r = v.value_exact<std::int64_t>();
        if (!r || *r < 1 || *r > kMaxReplications)
          fail(w, "experiment.replications", fmt::format("an integer in [1, {}]", kMaxReplications), shown(v));
        ex.replications = static_cast<int>(*r);
      } else if (key == "seeds") {
        const auto s = v.value_exact<std::string>();
        if (!s || (*s != "independent" && *s != "common"))
          fail(w, "experiment.seeds", "'independent' or 'common' (common random numbers)", shown(v));
        ex.common_seeds = *s == "common";
      } else {
        throw ConfigError(
            fmt::format("{}: unknown key 'experiment.{}'; allowed: experiment.name, "
                        "experiment.description, experiment.scenario, experiment.replications, "
                        "experiment.seeds",
                        w, clip(key)));
      }
    }
  }

  // Base: scenario file (or the default), inline sections; --set goes on top (of a part's set).
  ScenarioLayers base(base_scenario);
  base.add_sections(root, file, dir);
  std::vector<std::pair<std::string, std::string>> override_keys;  // key, argument (scenario keys)
  for (const std::string& o : overrides) {
    if (o.rfind("experiment.", 0) == 0) {
      // The experiment's own settings that a shortened run may change.
      auto [key, t] = parse_scenario_override(o);
      const toml::node& v = *t.get("v");
      const std::string where = "--set " + clip(o);
      if (key == "experiment.replications") {
        const auto r = v.value_exact<std::int64_t>();
        if (!r || *r < 1 || *r > kMaxReplications)
          fail(where, key, fmt::format("an integer in [1, {}]", kMaxReplications), shown(v));
        ex.replications = static_cast<int>(*r);
      } else if (key == "experiment.seeds") {
        const auto sv = v.value_exact<std::string>();
        if (!sv || (*sv != "independent" && *sv != "common"))
          fail(where, key, "'independent' or 'common' (common random numbers)", shown(v));
        ex.common_seeds = *sv == "common";
      } else {
        throw ConfigError(
            fmt::format("{}: unknown key '{}'; --set accepts experiment.replications, "
                        "experiment.seeds and scenario keys",
                        where, clip(key)));
      }
      continue;
    }
    override_keys.emplace_back(o.substr(0, o.find('=')), o);
  }

  // Metrics.
  if (const toml::table* m = table_of("metrics")) {
    for (auto&& [k, v] : *m) {
      const std::string name(k.str());
      const std::string w = where_of(file, v);
      if (!valid_name(name, false))
        fail(w, "metrics." + clip(name), "a column name of letters, digits, '_', '-'", "'" + clip(name) + "'");
      const auto p = v.value_exact<std::string>();
      if (!p)
        fail(w, "metrics." + name, "a dotted path into summary.json, e.g. \"metrics.response_mean_ms\"", shown(v));
      const std::string root_key = p->substr(0, p->find('.'));
      if (!std::count(kMetricRoots.begin(), kMetricRoots.end(), root_key))
        fail(w, "metrics." + name, "a path under one of " + join(kMetricRoots) + " (see summary.json)", shown(v));
      ex.metrics.push_back({name, *p});
    }
    std::stable_sort(ex.metrics.begin(), ex.metrics.end(), [&](const Metric& x, const Metric& y) {
      return m->get(x.name)->source().begin.line < m->get(y.name)->source().begin.line;
    });
  }
  if (ex.metrics.empty())
    ex.metrics = {{"response_mean_ms", "metrics.response_mean_ms"},
                  {"response_p99_ms", "metrics.response_p99_ms"},
                  {"response_scv", "metrics.response_scv"},
                  {"utilization", "metrics.utilization"}};

  // The grid: the file's own axes, or one experiment per [[part]] table (docs/experiments.md "Parts").
  std::vector<Experiment> out;
  auto with_overrides = [&](ScenarioLayers layers) {
    for (const auto& [key, arg] : override_keys) layers.set_override(arg, fs::current_path().string());
    return layers;
  };
  const toml::node* parts_node = root->get("part");
  if (!parts_node) {
    build_grid(ex, *root, root, with_overrides(base), override_keys, {}, file, dir);
    out.push_back(std::move(ex));
    return out;
  }
  for (const char* section : {"axes", "zip", "figures"})
    if (const toml::node* n = root->get(section))
      fail(where_of(file, *n), section,
           "no top-level axes, zip or figures beside [[part]] tables (each part has its own [part.axes], "
           "[[part.zip]], [[part.figures]])",
           fmt::format("top-level '{}'", section));
  const toml::array* parts = parts_node->as_array();
  if (!parts || !parts->is_array_of_tables())
    fail(where_of(file, *parts_node), "part", "[[part]] tables", shown(*parts_node));
  std::set<std::string> part_names;
  for (const toml::node& pn : *parts) {
    const toml::table& pt = *pn.as_table();
    const std::string pw = where_of(file, pn);
    Experiment px = ex;
    std::vector<std::pair<std::string, std::string>> set_keys;  // key, where
    ScenarioLayers layers = base;
    for (auto&& [k, v] : pt) {
      const std::string key(k.str());
      const std::string w = where_of(file, v);
      if (key == "name") {
        const auto n = v.value_exact<std::string>();
        if (!n || !valid_name(*n, false))
          fail(w, "part.name", "a name of letters, digits, '_', '-' (1..100; it names the part's directory)", shown(v));
        px.part = *n;
      } else if (key == "description") {
        const auto d = v.value_exact<std::string>();
        if (!d) fail(w, "part.description", "a string", shown(v));
        px.description = *d;
      } else if (key == "set") {
        const toml::table* t = v.as_table();
        if (!t) fail(w, "part.set", "a table of scenario keys such as { \"firmware.policy\" = \"clook\" }", shown(v));
        std::function<void(const toml::table&, const std::string&)> walk = [&](const toml::table& tab,
                                                                               const std::string& prefix) {
          for (auto&& [sk, sv] : tab) {
            const std::string sk_full = prefix.empty() ? std::string(sk.str()) : prefix + "." + std::string(sk.str());
            if (const toml::table* sub = sv.as_table()) {
              walk(*sub, sk_full);
              continue;
            }
            layers.set(sk_full, std::shared_ptr<const toml::node>(root, &sv), where_of(file, sv), dir);
            set_keys.emplace_back(sk_full, where_of(file, sv));
          }
        };
        walk(*t, "");
      } else if (key != "axes" && key != "zip" && key != "figures") {
        throw ConfigError(fmt::format(
            "{}: unknown key 'part.{}'; allowed: part.name, part.description, part.set, part.axes, part.zip, "
            "part.figures",
            w, clip(key)));
      }
    }
    if (px.part.empty()) fail(pw, "part.name", "a name for every [[part]] (it names the part's directory)", "none");
    if (!part_names.insert(px.part).second)
      fail(where_of(file, *pt.get("name")), "part.name", "a name not used by another part", "'" + px.part + "' again");
    px.name = ex.name + "." + px.part;
    build_grid(px, pt, root, with_overrides(layers), override_keys, set_keys, file, dir);
    out.push_back(std::move(px));
  }
  return out;
}

Experiment load_experiment(const std::string& path, const std::vector<std::string>& overrides) {
  std::vector<Experiment> v = load_experiments(path, overrides);
  if (v.size() != 1 || !v[0].part.empty())
    throw ConfigError(fmt::format("{}: has [[part]] tables; expected an experiment without parts here", clip(path)));
  return std::move(v[0]);
}

}  // namespace drivevp::experiment
