// Small list files of the round workloads: the stream list (workload.streams_path,
// testbench/workload/rounds.h) and the task list (workload.tasks_path, testbench/workload/rate_tasks.h).
// Plain C++.
//
// Two formats, chosen by the file's extension:
//  * ".csv" (any letter case): a header row naming the columns (the list's keys, each at most
//    once, in any order, a subset of the allowed keys), then one entry per row with the same
//    number of comma-separated fields; an empty field leaves that key unset; blank lines and lines
//    starting with '#' are skipped; no quoting (the values are numbers);
//  * anything else: TOML with exactly one key, the array of tables `[[<table>]]`, one table per
//    entry.
// Either way the list must hold at least one entry and at most `max_entries`, and every key must
// be one of the allowed keys.
//
// CSV parsing: the trace readers' comma splitter (testbench/trace/trace_reader.h split_commas),
// not Debian's libfccp (io::CSVReader), for the reasons testbench/trace/trace_csv.cpp gives: its
// column count is fixed at compile time, and its errors are its own exception types without the
// character column, which every message here names.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace drivevp {

/// One value of a list entry, with where it is written.
struct ListValue {
  std::size_t line = 0;                 ///< 1-based line in the file
  std::size_t column = 0;               ///< 1-based character column where the value starts
  std::optional<std::int64_t> integer;  ///< set when the value is an integer
  std::optional<double> number;         ///< set when the value is a finite number (integers included)
  std::string found;                    ///< the value as written (CSV) or described (TOML), for messages
};

/// One entry of a list: a [[table]] of a TOML list or a data row of a CSV list.
struct ListEntry {
  std::size_t line = 0, column = 0;         ///< where the entry starts
  std::map<std::string, ListValue> values;  ///< set keys only
  const ListValue* get(const std::string& key) const {
    auto it = values.find(key);
    return it == values.end() ? nullptr : &it->second;
  }
};

/// Reads the list at `path` (format by extension, see above): entries named `table` (TOML
/// [[table]]; the name used in messages) with keys from `keys`. Throws std::invalid_argument
/// "<path>:<line>:<column>: expected ..., found ..." for a missing file, a TOML syntax error, a
/// key other than `table` at the TOML top level, a missing CSV header, an unknown or repeated
/// column or key, a row with another number of fields than the header, an empty list, or more than
/// `max_entries` entries (file-level problems without a line: "<path>: expected ..., found ...").
std::vector<ListEntry> read_list_file(const std::string& path, const std::string& table,
                                      const std::vector<std::string>& keys, std::size_t max_entries);

/// Throws std::invalid_argument "<path>:<line>:<column>: <table>.<key>: expected <expected>,
/// found <value.found>".
[[noreturn]] void throw_list_value_error(const std::string& path, const std::string& table, const std::string& key,
                                         const ListValue& value, const std::string& expected);

}  // namespace drivevp
