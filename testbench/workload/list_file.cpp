#include "testbench/workload/list_file.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>
#include <toml++/toml.h>

#include "testbench/trace/trace_reader.h"

namespace drivevp {

namespace {

[[noreturn]] void fail_at(const std::string& path, std::size_t line, std::size_t column, const std::string& what) {
  throw std::invalid_argument(fmt::format("{}:{}:{}: {}", path, line, column, what));
}

std::string allowed(const std::vector<std::string>& keys) {
  std::string s;
  for (const std::string& k : keys) s += (s.empty() ? "" : ", ") + k;
  return s;
}

bool known(const std::vector<std::string>& keys, const std::string& k) {
  return std::find(keys.begin(), keys.end(), k) != keys.end();
}

bool is_csv(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext == ".csv";
}

std::string describe(const toml::node& n) {
  if (auto v = n.value_exact<std::int64_t>()) return std::to_string(*v);
  if (auto v = n.value_exact<double>()) return fmt::format("{}", *v);
  if (auto v = n.value_exact<std::string>()) return "'" + *v + "'";
  if (auto v = n.value_exact<bool>()) return *v ? "true" : "false";
  if (n.is_table()) return "a table";
  if (n.is_array()) return "an array";
  return "a date or time";
}

ListValue toml_value(const toml::node& n) {
  ListValue v;
  v.line = n.source().begin.line;
  v.column = n.source().begin.column;
  v.integer = n.value_exact<std::int64_t>();
  if (n.is_number()) {
    const double d = *n.value<double>();
    if (std::isfinite(d)) v.number = d;
  }
  v.found = describe(n);
  return v;
}

ListValue csv_value(std::string_view text, std::size_t line, std::size_t column) {
  ListValue v;
  v.line = line;
  v.column = column;
  v.found = "'" + std::string(text) + "'";
  std::int64_t i = 0;
  if (trace_detail::parse_i64(text, i)) v.integer = i;
  double d = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), d);
  if (!text.empty() && text.front() != '+' && r.ec == std::errc{} && r.ptr == text.data() + text.size() &&
      std::isfinite(d))
    v.number = d;
  return v;
}

std::vector<ListEntry> read_toml(const std::string& path, const std::string& table,
                                 const std::vector<std::string>& keys) {
  toml::table root;
  try {
    root = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    fail_at(path, e.source().begin.line, e.source().begin.column,
            fmt::format("expected TOML, found a syntax error: {}", e.description()));
  }
  for (auto&& [k, v] : root)
    if (k.str() != table)
      fail_at(path, k.source().begin.line, k.source().begin.column,
              fmt::format("expected only [[{}]] tables, found key '{}'", table, k.str()));
  const toml::array* list = root[table].as_array();
  if (!list || list->empty())
    throw std::invalid_argument(fmt::format("{}: expected [[{}]] tables, found none", path, table));
  std::vector<ListEntry> entries;
  for (const toml::node& node : *list) {
    const toml::table* t = node.as_table();
    if (!t)
      fail_at(path, node.source().begin.line, node.source().begin.column,
              fmt::format("expected a [[{}]] table, found {}", table, describe(node)));
    ListEntry e;
    e.line = node.source().begin.line;
    e.column = node.source().begin.column;
    for (auto&& [k, v] : *t) {
      const std::string key(k.str());
      if (!known(keys, key))
        fail_at(path, k.source().begin.line, k.source().begin.column,
                fmt::format("expected a {} key ({}), found '{}.{}'", table, allowed(keys), table, key));
      e.values[key] = toml_value(v);
    }
    entries.push_back(std::move(e));
  }
  return entries;
}

std::vector<ListEntry> read_csv(const std::string& path, const std::string& table,
                                const std::vector<std::string>& keys) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument(fmt::format("{}: expected a readable CSV file, found none", path));
  // At most one field more than the allowed keys: a longer header is an error anyway.
  std::vector<std::string_view> fields(keys.size() + 1);
  std::vector<std::string> header;
  std::vector<ListEntry> entries;
  std::string line;
  std::size_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (trace_detail::is_comment_or_blank(line)) continue;
    const std::size_t n = trace_detail::split_commas(line, fields.data(), fields.size());
    auto column = [&](std::size_t i) { return static_cast<std::size_t>(fields[i].data() - line.data()) + 1; };
    if (header.empty()) {
      if (n > keys.size())
        fail_at(path, number, 1,
                fmt::format("expected a header of at most {} columns ({}), found more", keys.size(), allowed(keys)));
      for (std::size_t i = 0; i < n; ++i) {
        const std::string k(fields[i]);
        if (!known(keys, k))
          fail_at(path, number, column(i),
                  fmt::format("expected a header row of {} columns ({}), found '{}'", table, allowed(keys), k));
        if (std::find(header.begin(), header.end(), k) != header.end())
          fail_at(path, number, column(i), fmt::format("expected each column once, found '{}' again", k));
        header.push_back(k);
      }
      continue;
    }
    if (n != header.size())
      fail_at(path, number, 1,
              fmt::format("expected {} comma-separated fields (as the header), found {}", header.size(),
                          n > keys.size() ? fmt::format("more than {}", keys.size()) : std::to_string(n)));
    ListEntry e;
    e.line = number;
    e.column = 1;
    for (std::size_t i = 0; i < n; ++i)
      if (!fields[i].empty()) e.values[header[i]] = csv_value(fields[i], number, column(i));
    entries.push_back(std::move(e));
  }
  if (in.bad()) throw std::invalid_argument(fmt::format("{}: expected a readable CSV file, found a read error", path));
  if (header.empty()) throw std::invalid_argument(fmt::format("{}: expected a CSV header row, found none", path));
  if (entries.empty()) throw std::invalid_argument(fmt::format("{}: expected {} rows, found none", path, table));
  return entries;
}

}  // namespace

std::vector<ListEntry> read_list_file(const std::string& path, const std::string& table,
                                      const std::vector<std::string>& keys, std::size_t max_entries) {
  if (!std::filesystem::is_regular_file(path))
    throw std::invalid_argument(
        fmt::format("{}: expected an existing list file (TOML [[{}]] tables, or CSV), found none", path, table));
  std::vector<ListEntry> entries = is_csv(path) ? read_csv(path, table, keys) : read_toml(path, table, keys);
  if (entries.size() > max_entries)
    throw std::invalid_argument(
        fmt::format("{}: expected at most {} {} entries, found {}", path, max_entries, table, entries.size()));
  return entries;
}

void throw_list_value_error(const std::string& path, const std::string& table, const std::string& key,
                            const ListValue& value, const std::string& expected) {
  fail_at(path, value.line, value.column,
          fmt::format("{}.{}: expected {}, found {}", table, key, expected, value.found));
}

}  // namespace drivevp
