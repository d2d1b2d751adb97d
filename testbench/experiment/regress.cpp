#include "testbench/experiment/regress.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <ostream>
#include <set>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>
#include <toml++/toml.h>
#include <pugixml.hpp>

#include "testbench/experiment/experiment.h"
#include "testbench/experiment/results.h"
#include "testbench/experiment/runner.h"
#include "testbench/scenario/scenario.h"
#include "testbench/trace/trace_reader.h"  // printable_text

namespace drivevp::experiment {
namespace {

namespace fs = std::filesystem;

/// A value as a message quotes it (as the scenario loader does).
std::string show(const toml::node& n) { return describe_toml_value(n); }

std::string line_of(const std::string& file, const toml::node& n) {
  return fmt::format("{}:{}", file, n.source().begin.line);
}

/// A JSON number as the reports print it: integers exactly, doubles in shortest round-trip form.
std::string show_number(const nlohmann::json& v) {
  if (v.is_number_unsigned()) return fmt::format("{}", v.get<std::uint64_t>());
  if (v.is_number_integer()) return fmt::format("{}", v.get<std::int64_t>());
  if (v.is_number_float()) return fmt::format("{}", v.get<double>());
  return printable_text(v.dump(), 60);
}

bool is_segment_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

/// True when `s` is a decimal number: [+-]? (D+ (. D*)? | . D+) ([eE] [+-]? D+)?
bool is_decimal(std::string_view s) {
  std::size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  std::size_t digits = 0;
  while (i < s.size() && is_digit(s[i])) ++i, ++digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && is_digit(s[i])) ++i, ++digits;
  }
  if (digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    std::size_t exp_digits = 0;
    while (i < s.size() && is_digit(s[i])) ++i, ++exp_digits;
    if (exp_digits == 0) return false;
  }
  return i == s.size();
}

/// Throws ConfigError "<where>: expected a readable scenario file, found '<path>' (<reason>)".
void check_readable(const std::string& path, const std::string& where) {
  std::ifstream probe(path, std::ios::binary);
  if (!probe)
    throw ConfigError(fmt::format("{}: expected a readable scenario file, found '{}' ({})", where,
                                  printable_text(path, 200), std::strerror(errno)));
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

/// A suite or case name: [A-Za-z0-9_.-]+ not starting with '.' (it names a directory; no "..").
constexpr const char* kNameRule = "letters, digits, '_', '-' and '.', not starting with '.'";
bool valid_name(const std::string& s) {
  return !s.empty() && s.front() != '.' &&
         std::all_of(s.begin(), s.end(), [](char c) { return is_segment_char(c) || c == '.'; });
}

/// Reads a JSON file; nullptr-like (a discarded value) when missing or malformed, with `error` set.
nlohmann::json read_json(const std::string& path, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = fmt::format("cannot read {}: {}", printable_text(path, 200), std::strerror(errno));
    return nlohmann::json(nlohmann::json::value_t::discarded);
  }
  nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) error = fmt::format("{} is not valid JSON", printable_text(path, 200));
  return j;
}

std::string describe_failed_checks(const nlohmann::json& summary) {
  std::vector<std::string> parts;
  const nlohmann::json* checks = find_path(summary, "checks");
  if (checks && checks->is_object()) {
    for (const auto& [name, v] : checks->items()) {
      if (!v.is_object() || !v.contains("violations") || !v["violations"].is_number()) continue;
      if (v["violations"].get<double>() <= 0) continue;
      std::string part = fmt::format("{} {} violation(s)", name, show_number(v["violations"]));
      if (v.contains("first") && v["first"].is_array() && !v["first"].empty() && v["first"][0].is_string())
        part += fmt::format(" (first: {})", printable_text(v["first"][0].get<std::string>(), 200));
      parts.push_back(part);
    }
    if (checks->contains("media_errors") && (*checks)["media_errors"].is_number() &&
        (*checks)["media_errors"].get<double>() > 0)
      parts.push_back(fmt::format("{} media error(s)", show_number((*checks)["media_errors"])));
  }
  if (parts.empty()) return "a checker failed";
  std::string s;
  for (const std::string& p : parts) s += (s.empty() ? "" : "; ") + p;
  return s;
}

std::string join(const std::vector<std::string>& lines, const std::string& sep) {
  std::string s;
  for (const std::string& l : lines) s += (s.empty() ? "" : sep) + l;
  return s;
}

/// Appends the UTF-8 encoding of `cp` to `out`.
void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

}  // namespace

const char* to_string(Expectation::Op op) {
  switch (op) {
    case Expectation::Op::Less:
      return "<";
    case Expectation::Op::LessEqual:
      return "<=";
    case Expectation::Op::Greater:
      return ">";
    case Expectation::Op::GreaterEqual:
      return ">=";
    case Expectation::Op::Equal:
      return "==";
    case Expectation::Op::NotEqual:
      return "!=";
  }
  return "?";
}

Expectation parse_expectation(const std::string& text, const std::string& where) {
  const std::string_view s = trim(text);
  auto fail = [&](const char* part) {
    throw ConfigError(
        fmt::format("{}: expected \"PATH OP NUMBER\" with {}, found '{}'", where, part, printable_text(text, 80)));
  };
  Expectation e;
  e.text = std::string(s);
  e.where = where;
  std::size_t i = 0;
  for (;;) {  // PATH: segments joined by '.'
    const std::size_t start = i;
    while (i < s.size() && is_segment_char(s[i])) ++i;
    if (i == start) fail("PATH a dotted summary.json path such as metrics.response_p99_ms");
    if (i < s.size() && s[i] == '.') {
      ++i;
      continue;
    }
    break;
  }
  e.path = std::string(s.substr(0, i));
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  const std::string_view rest = s.substr(i);
  static const std::pair<const char*, Expectation::Op> kOps[] = {
      {"<=", Expectation::Op::LessEqual}, {">=", Expectation::Op::GreaterEqual}, {"==", Expectation::Op::Equal},
      {"!=", Expectation::Op::NotEqual},  {"<", Expectation::Op::Less},          {">", Expectation::Op::Greater}};
  std::size_t op_len = 0;
  for (const auto& [spelling, op] : kOps) {
    if (rest.substr(0, std::strlen(spelling)) == spelling) {
      e.op = op;
      op_len = std::strlen(spelling);
      break;
    }
  }
  if (op_len == 0) fail("OP one of <, <=, >, >=, ==, !=");
  const std::string_view number = trim(rest.substr(op_len));
  if (number == "true" || number == "false") {
    if (e.op != Expectation::Op::Equal && e.op != Expectation::Op::NotEqual) fail("true or false only after == or !=");
    e.boolean = number == "true";
    return e;
  }
  if (!is_decimal(number)) fail("NUMBER a finite decimal number (or true / false after == and !=)");
  const char* first = number.data() + (number.front() == '+' ? 1 : 0);
  const auto [end, ec] = std::from_chars(first, number.data() + number.size(), e.value);
  if (ec != std::errc() || end != number.data() + number.size() || !std::isfinite(e.value))
    fail("NUMBER a finite decimal number (or true / false after == and !=)");
  return e;
}

const nlohmann::json* find_path(const nlohmann::json& doc, const std::string& path) {
  const nlohmann::json* at = &doc;
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t dot = path.find('.', start);
    const std::string seg = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (at->is_object()) {
      auto it = at->find(seg);
      if (it == at->end()) return nullptr;
      at = &*it;
    } else if (at->is_array() && !seg.empty() && std::all_of(seg.begin(), seg.end(), is_digit) && seg.size() < 10) {
      const std::size_t index = std::stoul(seg);
      if (index >= at->size()) return nullptr;
      at = &(*at)[index];
    } else {
      return nullptr;
    }
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return at;
}

ExpectationResult evaluate_expectation(const Expectation& e, const nlohmann::json& summary) {
  ExpectationResult r;
  const nlohmann::json* v = find_path(summary, e.path);
  if (!v) {
    r.message = fmt::format("{}: {} is not in summary.json", e.text, e.path);
    return r;
  }
  if (v->is_null()) {
    r.message = fmt::format("{}: {} is null in summary.json (nothing measured)", e.text, e.path);
    return r;
  }
  if (e.boolean) {
    if (!v->is_boolean()) {
      r.message = fmt::format("{}: {} is not a boolean in summary.json, found {}", e.text, e.path,
                              printable_text(v->dump(), 60));
      return r;
    }
    r.passed = (v->get<bool>() == *e.boolean) == (e.op == Expectation::Op::Equal);
    if (!r.passed) r.message = fmt::format("{}: found {}", e.text, v->get<bool>() ? "true" : "false");
    return r;
  }
  if (!v->is_number()) {
    r.message =
        fmt::format("{}: {} is not a number in summary.json, found {}", e.text, e.path, printable_text(v->dump(), 60));
    return r;
  }
  const double x = v->get<double>();
  r.found = x;
  switch (e.op) {
    case Expectation::Op::Less:
      r.passed = x < e.value;
      break;
    case Expectation::Op::LessEqual:
      r.passed = x <= e.value;
      break;
    case Expectation::Op::Greater:
      r.passed = x > e.value;
      break;
    case Expectation::Op::GreaterEqual:
      r.passed = x >= e.value;
      break;
    case Expectation::Op::Equal:
      r.passed = x == e.value;
      break;
    case Expectation::Op::NotEqual:
      r.passed = x != e.value;
      break;
  }
  if (!r.passed) r.message = fmt::format("{}: found {}", e.text, show_number(*v));
  return r;
}

bool within_tolerance(double value, double reference, const Tolerance& tol) {
  if (value == reference) return true;
  return std::fabs(value - reference) <= tol.absolute + tol.relative * std::fabs(reference);
}

std::map<std::string, nlohmann::json> numbers_under(const nlohmann::json& doc, const std::string& root) {
  std::map<std::string, nlohmann::json> out;
  const nlohmann::json* start = find_path(doc, root);
  if (!start) return out;
  struct Walk {
    std::map<std::string, nlohmann::json>& out;
    void operator()(const nlohmann::json& j, const std::string& path) const {
      if (j.is_number()) {
        out[path] = j;
      } else if (j.is_object()) {
        for (const auto& [k, v] : j.items()) (*this)(v, path + "." + k);
      } else if (j.is_array()) {
        for (std::size_t i = 0; i < j.size(); ++i) (*this)(j[i], path + "." + std::to_string(i));
      }
    }
  };
  Walk{out}(*start, root);
  return out;
}

ReferenceComparison compare_with_reference(const nlohmann::json& summary, const nlohmann::json& reference,
                                           const std::vector<std::string>& compare, const Tolerance& tol) {
  ReferenceComparison r;
  r.values = nlohmann::json::object();
  std::set<std::string> paths;
  if (compare.empty()) {
    for (auto& [path, v] : numbers_under(summary, "metrics")) {
      r.values[path] = v;
      paths.insert(path);
    }
    for (const auto& [path, v] : reference.items()) paths.insert(path);
  } else {
    for (const std::string& path : compare) {
      const nlohmann::json* v = find_path(summary, path);
      r.values[path] = v && v->is_number() ? *v : nlohmann::json(nullptr);
      paths.insert(path);
    }
  }
  for (const std::string& path : paths) {
    const nlohmann::json* now = find_path(summary, path);
    // Keys of the reference are whole dotted paths, not nested objects.
    const auto ref_it = reference.find(path);
    const bool in_summary = now != nullptr && (now->is_number() || now->is_null());
    const bool in_reference = ref_it != reference.end();
    if (!in_summary && !in_reference) {
      r.differences.push_back(fmt::format("{}: not in summary.json nor in the reference", path));
    } else if (!in_summary) {
      r.differences.push_back(fmt::format("{}: not in summary.json, reference {}", path, show_number(*ref_it)));
    } else if (!in_reference) {
      r.differences.push_back(fmt::format("{}: {}, not in the reference", path, show_number(*now)));
    } else if (now->is_null() || ref_it->is_null()) {
      if (!(now->is_null() && ref_it->is_null()))
        r.differences.push_back(fmt::format("{}: {}, reference {}", path, now->is_null() ? "null" : show_number(*now),
                                            ref_it->is_null() ? "null" : show_number(*ref_it)));
    } else if (!ref_it->is_number()) {
      r.differences.push_back(fmt::format("{}: {}, reference {} (not a number)", path, show_number(*now),
                                          printable_text(ref_it->dump(), 60)));
    } else {
      const double v = now->get<double>(), ref = ref_it->get<double>();
      if (!within_tolerance(v, ref, tol))
        r.differences.push_back(fmt::format("{}: {}, reference {} (difference {}, allowed {})", path, show_number(*now),
                                            show_number(*ref_it), std::fabs(v - ref),
                                            tol.absolute + tol.relative * std::fabs(ref)));
    }
  }
  return r;
}

std::string reference_text(const nlohmann::json& values) { return values.dump(2) + "\n"; }

std::vector<std::string> reference_changes(const nlohmann::json* old_values, const nlohmann::json& new_values) {
  if (!old_values || !old_values->is_object()) return {"new reference"};
  std::set<std::string> paths;
  for (const auto& [k, v] : old_values->items()) paths.insert(k);
  for (const auto& [k, v] : new_values.items()) paths.insert(k);
  std::vector<std::string> lines;
  for (const std::string& p : paths) {
    const auto o = old_values->find(p);
    const auto n = new_values.find(p);
    const bool has_old = o != old_values->end(), has_new = n != new_values.end();
    if (has_old && has_new && *o == *n) continue;
    lines.push_back(
        fmt::format("{}: {} -> {}", p, has_old ? show_number(*o) : "(none)", has_new ? show_number(*n) : "(none)"));
  }
  return lines;
}

RegressSuite load_suite(const std::string& path) {
  RegressSuite suite;
  suite.file = path;
  {  // A clear message for a missing file before the TOML reader's.
    std::ifstream probe(path, std::ios::binary);
    if (!probe)
      throw ConfigError(fmt::format("{}: cannot read the suite: {}", printable_text(path, 200), std::strerror(errno)));
  }
  // Shared: the scenario layers keep pointers into it (with its source lines, which errors name).
  const auto root_ptr = std::make_shared<const toml::table>(read_scenario_table(path));  // size, nesting, syntax
  const toml::table& root = *root_ptr;
  const fs::path suite_path(path);
  const std::string suite_dir = suite_path.has_parent_path() ? suite_path.parent_path().string() : ".";
  auto resolve = [&](const std::string& p) {
    return fs::path(p).is_absolute() ? p : (fs::path(suite_dir) / p).lexically_normal().string();
  };
  static const std::set<std::string> kSections = {"device", "firmware", "workload", "run", "trace", "output"};
  for (auto&& [k, v] : root) {
    const std::string key(k.str());
    if (key == "suite" || key == "case" || kSections.count(key)) continue;
    throw ConfigError(
        fmt::format("{}: unknown key '{}'; allowed: suite, case, device, firmware, workload, run, trace, "
                    "output",
                    line_of(path, v), printable_text(key, 80)));
  }

  // [suite]
  suite.name = suite_path.stem().string();
  std::string base_scenario;
  if (const toml::node* s = root.get("suite")) {
    const toml::table* t = s->as_table();
    if (!t) throw ConfigError(fmt::format("{}: suite: expected a table, found {}", line_of(path, *s), show(*s)));
    for (auto&& [k, v] : *t) {
      const std::string key(k.str());
      if (key == "name") {
        const auto name = v.value_exact<std::string>();
        if (!name || !valid_name(*name))
          throw ConfigError(
              fmt::format("{}: suite.name: expected a name of {}, found {}", line_of(path, v), kNameRule, show(v)));
        suite.name = *name;
      } else if (key == "scenario") {
        const auto p = v.value_exact<std::string>();
        if (!p || p->empty())
          throw ConfigError(
              fmt::format("{}: suite.scenario: expected a scenario file path, found {}", line_of(path, v), show(v)));
        base_scenario = resolve(*p);
        check_readable(base_scenario, line_of(path, v) + ": suite.scenario");
      } else if (key == "description") {
        if (!v.is_string())
          throw ConfigError(
              fmt::format("{}: suite.description: expected a string, found {}", line_of(path, v), show(v)));
      } else {
        throw ConfigError(fmt::format("{}: suite: unknown key '{}'; allowed: name, scenario, description",
                                      line_of(path, v), printable_text(key, 80)));
      }
    }
  }
  if (!valid_name(suite.name))
    throw ConfigError(fmt::format("{}: suite.name: expected a name of {} (the file name is not one), found none",
                                  printable_text(path, 200), kNameRule));

  // [[case]]
  const toml::node* cases_node = root.get("case");
  const toml::array* cases = cases_node ? cases_node->as_array() : nullptr;
  if (cases_node && (!cases || !cases->is_array_of_tables()))
    throw ConfigError(
        fmt::format("{}: case: expected [[case]] tables, found {}", line_of(path, *cases_node), show(*cases_node)));
  if (!cases || cases->empty())
    throw ConfigError(fmt::format("{}: case: expected at least one [[case]], found none", printable_text(path, 200)));
  std::map<std::string, std::string> names, references;  // -> where
  std::size_t index = 0;
  for (const toml::node& node : *cases) {
    const toml::table& t = *node.as_table();
    RegressCase c;
    c.where = line_of(path, t);
    const std::string label_fallback = fmt::format("case #{}", index++);
    const toml::node* name_node = t.get("name");
    if (!name_node)
      throw ConfigError(
          fmt::format("{}: {}: name: expected a case name of {}, found none", c.where, label_fallback, kNameRule));
    const auto name = name_node->value_exact<std::string>();
    if (!name || !valid_name(*name))
      throw ConfigError(fmt::format("{}: {}: name: expected a case name of {}, found {}", line_of(path, *name_node),
                                    label_fallback, kNameRule, show(*name_node)));
    c.name = *name;
    const std::string label = "case '" + c.name + "'";
    if (auto it = names.find(c.name); it != names.end())
      throw ConfigError(fmt::format("{}: {}: name: expected a name no other case has, found the name of the case at {}",
                                    line_of(path, *name_node), label, it->second));
    names[c.name] = c.where;

    std::string case_scenario;
    const toml::table* set = nullptr;
    bool has_tolerance = false, has_compare = false;
    for (auto&& [k, v] : t) {
      const std::string key(k.str());
      const std::string at = line_of(path, v);
      if (key == "name" || key == "description") {
        if (!v.is_string())
          throw ConfigError(fmt::format("{}: {}: {}: expected a string, found {}", at, label, key, show(v)));
      } else if (key == "scenario") {
        const auto p = v.value_exact<std::string>();
        if (!p || p->empty())
          throw ConfigError(
              fmt::format("{}: {}: scenario: expected a scenario file path, found {}", at, label, show(v)));
        case_scenario = resolve(*p);
        check_readable(case_scenario, at + ": " + label + ": scenario");
      } else if (key == "set") {
        set = v.as_table();
        if (!set)
          throw ConfigError(
              fmt::format("{}: {}: set: expected a table of scenario keys such as "
                          "{{ \"firmware.policy\" = \"clook\" }}, found {}",
                          at, label, show(v)));
      } else if (key == "checks") {
        const auto s = v.value_exact<std::string>();
        if (!s || (*s != "pass" && *s != "fail"))
          throw ConfigError(fmt::format("{}: {}: checks: expected \"pass\" or \"fail\", found {}", at, label, show(v)));
        c.checks_must_fail = *s == "fail";
      } else if (key == "expect") {
        const toml::array* a = v.as_array();
        if (!a)
          throw ConfigError(fmt::format("{}: {}: expect: expected an array of strings \"PATH OP NUMBER\", found {}", at,
                                        label, show(v)));
        for (std::size_t i = 0; i < a->size(); ++i) {
          const toml::node& item = *a->get(i);
          const std::string item_where = fmt::format("{}: {}: expect[{}]", line_of(path, item), label, i);
          const auto text = item.value_exact<std::string>();
          if (!text)
            throw ConfigError(
                fmt::format("{}: expected a string \"PATH OP NUMBER\", found {}", item_where, show(item)));
          Expectation e = parse_expectation(*text, item_where);
          e.where = line_of(path, item);
          c.expectations.push_back(std::move(e));
        }
      } else if (key == "reference") {
        const auto p = v.value_exact<std::string>();
        if (!p || p->empty())
          throw ConfigError(
              fmt::format("{}: {}: reference: expected a reference file path, found {}", at, label, show(v)));
        c.reference_as_written = *p;
        c.reference = resolve(*p);
        if (auto it = references.find(c.reference); it != references.end())
          throw ConfigError(fmt::format(
              "{}: {}: reference: expected a file no other case uses, found the reference of the case at {}", at, label,
              it->second));
        references[c.reference] = c.where;
      } else if (key == "tolerance") {
        has_tolerance = true;
        const toml::table* tt = v.as_table();
        if (!tt)
          throw ConfigError(fmt::format(
              "{}: {}: tolerance: expected a table {{ relative = R, absolute = A }}, found {}", at, label, show(v)));
        for (auto&& [tk, tv] : *tt) {
          const std::string tkey(tk.str());
          if (tkey != "relative" && tkey != "absolute")
            throw ConfigError(fmt::format("{}: {}: tolerance: unknown key '{}'; allowed: relative, absolute",
                                          line_of(path, tv), label, printable_text(tkey, 80)));
          const auto x = tv.value<double>();  // integers too
          if (!(tv.is_number() && x && std::isfinite(*x) && *x >= 0))
            throw ConfigError(fmt::format("{}: {}: tolerance.{}: expected a finite number >= 0, found {}",
                                          line_of(path, tv), label, tkey, show(tv)));
          (tkey == "relative" ? c.tolerance.relative : c.tolerance.absolute) = *x;
        }
      } else if (key == "compare") {
        has_compare = true;
        const toml::array* a = v.as_array();
        if (!a || a->empty())
          throw ConfigError(fmt::format("{}: {}: compare: expected a non-empty array of summary.json paths, found {}",
                                        at, label, show(v)));
        for (std::size_t i = 0; i < a->size(); ++i) {
          const toml::node& item = *a->get(i);
          const auto p = item.value_exact<std::string>();
          const bool ok = p && !p->empty() && p->front() != '.' && p->back() != '.' &&
                          p->find("..") == std::string::npos &&
                          std::all_of(p->begin(), p->end(), [](char ch) { return is_segment_char(ch) || ch == '.'; });
          if (!ok)
            throw ConfigError(fmt::format(
                "{}: {}: compare[{}]: expected a dotted summary.json path such as metrics.response_mean_ms, found {}",
                line_of(path, item), label, i, show(item)));
          c.compare.push_back(*p);
        }
      } else {
        throw ConfigError(
            fmt::format("{}: {}: unknown key '{}'; allowed: name, description, scenario, set, checks, "
                        "expect, reference, tolerance, compare",
                        at, label, printable_text(key, 80)));
      }
    }
    if ((has_tolerance || has_compare) && c.reference.empty()) {
      const toml::node& n = *t.get(has_tolerance ? "tolerance" : "compare");
      throw ConfigError(fmt::format("{}: {}: {}: applies only with a reference = \"FILE\"", line_of(path, n), label,
                                    has_tolerance ? "tolerance" : "compare"));
    }

    // The case's scenario: base file, the suite's inline sections, the case's file, its `set`.
    try {
      ScenarioLayers layers(base_scenario);
      layers.add_sections(root_ptr, path, suite_dir);
      if (!case_scenario.empty())
        layers.add_sections(std::make_shared<const toml::table>(read_scenario_table(case_scenario)), case_scenario,
                            scenario_base_dir(case_scenario));
      if (set) {
        struct Flatten {
          ScenarioLayers& layers;
          const std::shared_ptr<const toml::table>& root;
          const std::string& file;
          const std::string& dir;
          void operator()(const toml::table& tab, const std::string& prefix) const {
            for (auto&& [sk, sv] : tab) {
              const std::string key = prefix.empty() ? std::string(sk.str()) : prefix + "." + std::string(sk.str());
              if (const toml::table* sub = sv.as_table())
                (*this)(*sub, key);
              else
                layers.set(key, std::shared_ptr<const toml::node>(root, &sv), line_of(file, sv), dir);
            }
          }
        };
        Flatten{layers, root_ptr, path, suite_dir}(*set, "");
      }
      // A regression case's run draws no plots and no progress line (docs/experiments.md).
      const auto off = std::make_shared<const toml::value<bool>>(false);
      layers.set("output.plots", off, "drivevp regress", suite_dir);
      layers.set("run.progress", off, "drivevp regress", suite_dir);
      (void)layers.validate();
      c.resolved_toml = layers.resolved_toml();
    } catch (const ConfigError& e) {
      throw ConfigError(fmt::format("{} (in {} at {})", e.what(), label, c.where));
    }
    suite.cases.push_back(std::move(c));
  }
  return suite;
}

CaseResult evaluate_case(const RegressCase& c, int exit_status, const std::string& run_error,
                         const nlohmann::json& summary, const nlohmann::json* reference, bool update,
                         nlohmann::json* new_reference) {
  CaseResult r;
  r.exit_status = exit_status;
  using Status = CaseResult::Status;
  if (exit_status != 0 && exit_status != 1) {
    r.status = Status::Error;
    r.problems.push_back({"run-error", fmt::format("drivevp run exited with status {}: {}", exit_status, run_error),
                          fmt::format("exit status {}\n{}", exit_status, run_error)});
    return r;
  }
  if (!summary.is_object()) {
    r.status = Status::Error;
    r.problems.push_back({"run-error", fmt::format("no summary.json: {}", run_error), run_error});
    return r;
  }
  if (exit_status == 1 && !c.checks_must_fail) {
    const std::string why = describe_failed_checks(summary);
    r.problems.push_back(
        {"checks", "checks failed: " + why, "checks = \"pass\" expected every checker to pass: " + why});
  } else if (exit_status == 0 && c.checks_must_fail) {
    r.problems.push_back({"checks", "checks = \"fail\": expected a checker to fail, every checker passed",
                          "checks = \"fail\" expected a checker to fail (drivevp run exit status 1); every checker "
                          "passed (exit status 0)"});
  }
  for (const Expectation& e : c.expectations) {
    const ExpectationResult x = evaluate_expectation(e, summary);
    if (!x.passed)
      r.problems.push_back(
          {"expectation", x.message,
           fmt::format("expect \"{}\" ({}): {}", e.text, e.where, x.message.substr(e.text.size() + 2))});
  }
  if (!c.reference.empty()) {
    static const nlohmann::json kEmpty = nlohmann::json::object();
    const bool usable = reference && reference->is_object();
    const ReferenceComparison cmp =
        compare_with_reference(summary, usable ? *reference : kEmpty, c.compare, c.tolerance);
    if (update) {
      if (new_reference) *new_reference = cmp.values;
    } else if (!reference) {
      r.problems.push_back({"reference", "no reference; run drivevp regress --update",
                            fmt::format("{}: no reference; run drivevp regress --update", c.reference_as_written)});
    } else if (!usable) {
      r.problems.push_back({"reference",
                            fmt::format("{}: expected a JSON object of metric values; run drivevp regress --update",
                                        c.reference_as_written),
                            ""});
    } else if (!cmp.differences.empty()) {
      r.problems.push_back(
          {"reference",
           fmt::format("{} of {} compared values differ from {}: {}", cmp.differences.size(), cmp.values.size(),
                       c.reference_as_written, cmp.differences.front()),
           fmt::format("reference {} (tolerance: relative {}, absolute {}):\n{}", c.reference_as_written,
                       c.tolerance.relative, c.tolerance.absolute, join(cmp.differences, "\n"))});
    }
  }
  if (!r.problems.empty()) r.status = Status::Failed;
  return r;
}

std::string xml_safe(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  for (std::size_t i = 0; i < n;) {
    const unsigned char b = s[i];
    char32_t cp = 0;
    std::size_t len = 0;
    if (b < 0x80) {
      cp = b, len = 1;
    } else if (b >= 0xC2 && b <= 0xDF) {
      cp = b & 0x1F, len = 2;
    } else if (b >= 0xE0 && b <= 0xEF) {
      cp = b & 0x0F, len = 3;
    } else if (b >= 0xF0 && b <= 0xF4) {
      cp = b & 0x07, len = 4;
    }
    bool ok = len > 0 && i + len <= n;
    for (std::size_t k = 1; ok && k < len; ++k) {
      if ((s[i + k] & 0xC0) != 0x80) ok = false;
      cp = (cp << 6) | (s[i + k] & 0x3F);
    }
    // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8.
    if (ok &&
        ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF)))
      ok = false;
    if (!ok) {
      append_utf8(out, 0xFFFD);
      ++i;
      continue;
    }
    i += len;
    if ((cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') || cp == 0xFFFE || cp == 0xFFFF) continue;
    append_utf8(out, cp);
  }
  return out;
}

std::string junit_xml(const RegressSuite& suite, const std::vector<CaseResult>& results, double seconds,
                      const std::string& timestamp, const std::string& hostname) {
  std::size_t failures = 0, errors = 0;
  for (const CaseResult& r : results) {
    if (r.status == CaseResult::Status::Failed) ++failures;
    if (r.status == CaseResult::Status::Error) ++errors;
  }
  const std::string tests = std::to_string(results.size());
  const std::string time = fmt::format("{:.3f}", seconds);
  pugi::xml_document doc;
  pugi::xml_node decl = doc.append_child(pugi::node_declaration);
  decl.append_attribute("version") = "1.0";
  decl.append_attribute("encoding") = "UTF-8";
  pugi::xml_node suites = doc.append_child("testsuites");
  suites.append_attribute("name") = xml_safe(suite.name).c_str();
  suites.append_attribute("tests") = tests.c_str();
  suites.append_attribute("failures") = std::to_string(failures).c_str();
  suites.append_attribute("errors") = std::to_string(errors).c_str();
  suites.append_attribute("time") = time.c_str();
  pugi::xml_node ts = suites.append_child("testsuite");
  ts.append_attribute("name") = xml_safe(suite.name).c_str();
  ts.append_attribute("tests") = tests.c_str();
  ts.append_attribute("failures") = std::to_string(failures).c_str();
  ts.append_attribute("errors") = std::to_string(errors).c_str();
  ts.append_attribute("skipped") = "0";
  ts.append_attribute("time") = time.c_str();
  ts.append_attribute("timestamp") = timestamp.c_str();
  ts.append_attribute("hostname") = xml_safe(hostname).c_str();
  pugi::xml_node props = ts.append_child("properties");
  auto property = [&](const char* name, const std::string& value) {
    pugi::xml_node p = props.append_child("property");
    p.append_attribute("name") = name;
    p.append_attribute("value") = xml_safe(value).c_str();
  };
  property("suite_file", suite.file);
  property("drivevp_version", DRIVEVP_VERSION);
  for (std::size_t i = 0; i < suite.cases.size() && i < results.size(); ++i) {
    const CaseResult& r = results[i];
    pugi::xml_node tc = ts.append_child("testcase");
    tc.append_attribute("classname") = xml_safe(suite.name).c_str();
    tc.append_attribute("name") = xml_safe(suite.cases[i].name).c_str();
    tc.append_attribute("time") = fmt::format("{:.3f}", r.seconds).c_str();
    for (const CaseResult::Problem& p : r.problems) {
      pugi::xml_node f = tc.append_child(p.type == "run-error" ? "error" : "failure");
      f.append_attribute("message") = xml_safe(p.message).c_str();
      f.append_attribute("type") = p.type.c_str();
      if (!p.details.empty()) f.text().set(xml_safe(p.details).c_str());
    }
    if (r.status != CaseResult::Status::Passed && !r.log_tail.empty())
      tc.append_child("system-out").text().set(xml_safe(r.log_tail).c_str());
  }
  std::ostringstream os;
  doc.save(os, "  ", pugi::format_default, pugi::encoding_utf8);
  return os.str();
}

namespace {

int regress(const RegressOptions& options, std::ostream& out, std::ostream& err) {
  using Clock = std::chrono::steady_clock;
  const auto started = Clock::now();
  const std::time_t started_wall = std::time(nullptr);
  RegressSuite suite;
  try {
    suite = load_suite(options.suite);
  } catch (const ConfigError& e) {
    err << "drivevp regress: configuration error: " << e.what() << "\n";
    return 2;
  }
  const std::string dir = options.out_dir.empty() ? "out/regress/" + suite.name : options.out_dir;
  const std::string program = options.program.empty() ? self_executable() : options.program;
  const std::size_t parallel = options.jobs == 0 ? default_jobs() : options.jobs;

  // Every case's resolved scenario, then the runs.
  std::vector<Job> jobs;
  std::vector<std::string> summaries;
  try {
    for (const RegressCase& c : suite.cases) {
      const std::string case_dir = (fs::path(dir) / "cases" / c.name).string();
      const std::string scenario = case_dir + "/scenario.toml";
      write_file_atomic(scenario, c.resolved_toml);
      jobs.push_back(
          {{program, "run", scenario, "--out", case_dir + "/out"}, case_dir + "/run.log", options.timeout_s});
      summaries.push_back(case_dir + "/out/summary.json");
    }
  } catch (const std::exception& e) {
    err << "drivevp regress: output error: " << e.what() << "\n";
    return 3;
  }

  std::vector<CaseResult> results(suite.cases.size());
  std::vector<bool> done(suite.cases.size(), false);
  std::size_t next_to_print = 0, passed = 0, updated = 0;
  bool io_error = false;
  auto print_ready = [&] {
    for (; next_to_print < results.size() && done[next_to_print]; ++next_to_print) {
      const RegressCase& c = suite.cases[next_to_print];
      const CaseResult& r = results[next_to_print];
      if (r.status == CaseResult::Status::Passed) {
        out << fmt::format("PASS {} ({:.2f} s)\n", c.name, r.seconds);
      } else {
        std::vector<std::string> why;
        for (const CaseResult::Problem& p : r.problems) why.push_back(p.message);
        out << fmt::format("FAIL {}: {}\n", c.name, join(why, "; "));
      }
      for (const std::string& line : r.reference_updates) out << "  " << line << "\n";
    }
    out.flush();
  };
  run_jobs(jobs, parallel, [&](std::size_t i, const JobResult& jr) {
    const RegressCase& c = suite.cases[i];
    nlohmann::json summary;  // null unless the run completed
    std::string run_error = jr.error;
    if (jr.exit_status == 0 || jr.exit_status == 1) {
      std::string error;
      summary = read_json(summaries[i], error);
      if (summary.is_discarded()) {
        summary = nullptr;
        run_error = error;
      }
    }
    std::optional<nlohmann::json> reference;
    if (!c.reference.empty() && fs::exists(c.reference)) {
      std::string error;
      nlohmann::json ref = read_json(c.reference, error);
      reference = ref.is_discarded() ? nlohmann::json(nullptr) : ref;
    }
    nlohmann::json new_reference;
    CaseResult r = evaluate_case(c, jr.exit_status, run_error, summary, reference ? &*reference : nullptr,
                                 options.update, &new_reference);
    r.seconds = jr.wall.count();
    if (r.status != CaseResult::Status::Passed) r.log_tail = file_tail(jobs[i].log_path, 40, 8192);
    if (options.update && !c.reference.empty() && summary.is_object()) {
      const std::vector<std::string> changes = reference_changes(reference ? &*reference : nullptr, new_reference);
      const std::string shown = c.reference_as_written;
      try {
        if (!changes.empty()) {
          write_file_atomic(c.reference, reference_text(new_reference));
          ++updated;
        }
        if (changes.size() == 1 && changes[0] == "new reference") {
          r.reference_updates.push_back(fmt::format("reference {}: new reference", shown));
        } else if (!changes.empty()) {
          r.reference_updates.push_back(
              fmt::format("reference {}: {} value{} changed", shown, changes.size(), changes.size() == 1 ? "" : "s"));
          for (const std::string& ch : changes) r.reference_updates.push_back("  " + ch);
        }
      } catch (const std::exception& e) {
        io_error = true;
        r.status = CaseResult::Status::Error;
        r.problems.push_back({"run-error", e.what(), e.what()});
      }
    }
    if (r.status == CaseResult::Status::Passed) ++passed;
    results[i] = std::move(r);
    done[i] = true;
    print_ready();
  });
  const double seconds = std::chrono::duration<double>(Clock::now() - started).count();
  const std::size_t failed = suite.cases.size() - passed;
  std::string line = fmt::format("{}: {} case{}, {} passed, {} failed ({:.2f} s)", suite.name, suite.cases.size(),
                                 suite.cases.size() == 1 ? "" : "s", passed, failed, seconds);
  if (options.update) line += fmt::format("; {} reference{} written", updated, updated == 1 ? "" : "s");

  if (!options.junit.empty()) {
    char host[256] = {};
    if (::gethostname(host, sizeof host - 1) != 0 || host[0] == '\0') std::strcpy(host, "localhost");
    std::tm tm{};
    gmtime_r(&started_wall, &tm);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
    try {
      write_file_atomic(options.junit, junit_xml(suite, results, seconds, stamp, host));
      line += "; JUnit report " + options.junit;
    } catch (const std::exception& e) {
      err << "drivevp regress: output error: " << e.what() << "\n";
      io_error = true;
    }
  }
  out << line << "\n";
  out.flush();
  if (io_error) return 3;
  return failed == 0 ? 0 : 1;
}

}  // namespace

int regress_main(const RegressOptions& options, std::ostream& out, std::ostream& err) {
  try {
    return regress(options, out, err);
  } catch (const std::exception& e) {  // fork() failing, /proc/self/exe unreadable
    err << "drivevp regress: error: " << e.what() << "\n";
    return 3;
  }
}

}  // namespace drivevp::experiment
