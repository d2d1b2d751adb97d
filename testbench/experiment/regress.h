// Regression suites (`drivevp regress SUITE.toml`): scenarios run as child processes, each with
// expectations on its results (checker outcome, bounds on summary.json values, comparison with a
// stored reference within a tolerance), one line per case, a JUnit XML report for CI.
// Suite format and semantics: docs/experiments.md "Regression suites".
#pragma once

#include <cstddef>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace drivevp::experiment {

/// A bound on one summary.json value: "PATH OP NUMBER", e.g. "metrics.response_p99_ms <= 80", or
/// a boolean test "PATH == true|false" / "PATH != true|false", e.g. "saturation.saturated == false".
struct Expectation {
  enum class Op { Less, LessEqual, Greater, GreaterEqual, Equal, NotEqual };
  std::string text;  ///< as written (trimmed)
  std::string path;  ///< dotted path into summary.json; a segment of digits indexes an array
  Op op = Op::Equal;
  double value = 0;             ///< finite (unused when `boolean` is set)
  std::optional<bool> boolean;  ///< a true / false operand (op is Equal or NotEqual)
  std::string where;            ///< "suite.toml:LINE" of the string in the suite file
};

/// The operator's spelling ("<=", ...).
const char* to_string(Expectation::Op op);

/// Parses "PATH OP NUMBER": PATH is one or more segments of [A-Za-z0-9_-] joined by '.', OP one of
/// < <= > >= == !=, NUMBER a decimal number (optional sign, fraction, exponent; finite), or true /
/// false after == or !=; blanks around the parts are allowed. `where` prefixes errors ("suite.toml:12: case 'x':
/// expect[1]"). Throws ConfigError "<where>: expected <what>, found '<text>'" naming the part that is wrong.
Expectation parse_expectation(const std::string& text, const std::string& where);

/// The value at dotted `path` in `doc`, or nullptr when a segment is missing (an object without
/// the key, an array index out of range, a segment under a scalar).
const nlohmann::json* find_path(const nlohmann::json& doc, const std::string& path);

/// The outcome of one expectation on one summary.json.
struct ExpectationResult {
  bool passed = false;
  std::optional<double> found;  ///< the value, when it was a number
  std::string message;          ///< on failure: "<text>: found <value>" or why there is no value
};

/// Evaluates `e` on `summary`: the value must be a JSON number (not null, a boolean or missing)
/// and satisfy the comparison exactly (IEEE double comparison, no tolerance); for a true / false
/// operand it must be a JSON boolean.
ExpectationResult evaluate_expectation(const Expectation& e, const nlohmann::json& summary);

/// Tolerance of a reference comparison: a value v matches the reference r when
/// |v - r| <= absolute + relative * |r|. Both >= 0 and finite.
struct Tolerance {
  double relative = 1e-9;
  double absolute = 0;
};

/// True when `value` matches `reference` within `tol` (see Tolerance).
bool within_tolerance(double value, double reference, const Tolerance& tol);

/// Every number under `doc[root]` by dotted path ("metrics.response_mean_ms",
/// "metrics.by_class.read.requests", array elements as ".<index>"), sorted by path; the values
/// keep their JSON type (integers stay integers).
std::map<std::string, nlohmann::json> numbers_under(const nlohmann::json& doc, const std::string& root);

/// The comparison of a summary with a reference file's values.
struct ReferenceComparison {
  std::vector<std::string> differences;  ///< one line per metric that does not match, in path order
  nlohmann::json values;                 ///< the compared values now (object: path -> number or null)
};

/// Compares `summary` with `reference` (an object: path -> number or null). `compare` empty:
/// every number under "metrics" on both sides (a path only one side has is a difference);
/// otherwise exactly those paths (a null on both sides matches; a path the reference lacks is
/// a difference).
ReferenceComparison compare_with_reference(const nlohmann::json& summary, const nlohmann::json& reference,
                                           const std::vector<std::string>& compare, const Tolerance& tol);

/// Reference file text: `values` as pretty JSON (sorted keys, shortest round-trip numbers) plus a
/// final newline.
std::string reference_text(const nlohmann::json& values);

/// The lines --update prints for a reference going from `old_values` (nullptr: no reference yet)
/// to `new_values`: {"new reference"}, {} when nothing changed, else one "PATH: OLD -> NEW" per
/// changed, added ("(none) -> NEW") or removed ("OLD -> (none)") path, in path order.
std::vector<std::string> reference_changes(const nlohmann::json* old_values, const nlohmann::json& new_values);

/// One case of a suite, parsed and validated.
struct RegressCase {
  std::string name;               ///< unique in the suite, [A-Za-z0-9_.-]+
  std::string where;              ///< "suite.toml:LINE" of the [[case]] table
  bool checks_must_fail = false;  ///< checks = "fail": a checker must fail (run exit status 1)
  std::vector<Expectation> expectations;
  std::string reference;  ///< path of the reference file ("" = none), resolved against the suite's directory
  std::string reference_as_written;
  Tolerance tolerance;
  std::vector<std::string> compare;  ///< empty: every number under "metrics"
  std::string resolved_toml;         ///< the case's resolved scenario (ScenarioLayers::resolved_toml)
};

/// A parsed suite: every case's scenario validated.
struct RegressSuite {
  std::string file;  ///< as given
  std::string name;  ///< [suite] name, default: the file's stem
  std::vector<RegressCase> cases;
};

/// Loads and validates a suite file: the [suite] table, every [[case]], every expectation, and
/// every case's scenario (base file, the suite's inline sections, the case's scenario file, its
/// `set` keys) through the scenario loader. Throws ConfigError "file:line: key: expected ...,
/// found ..." on the first problem; nothing is run or written.
RegressSuite load_suite(const std::string& path);

/// How one case ended.
struct CaseResult {
  enum class Status { Passed, Failed, Error };
  struct Problem {
    std::string type;     ///< "checks", "expectation", "reference", or "run-error" (Status::Error)
    std::string message;  ///< one line
    std::string details;  ///< may span lines
  };
  Status status = Status::Passed;
  std::vector<Problem> problems;               ///< empty iff passed
  double seconds = 0;                          ///< wall-clock time of the run
  int exit_status = -1;                        ///< the run's exit status
  std::string log_tail;                        ///< last lines of the run's log (for the JUnit report on failure)
  std::vector<std::string> reference_updates;  ///< lines printed by --update
};

/// Evaluates a finished run of `c`: `exit_status` of `drivevp run` (0 checks passed, 1 a checker
/// failed, other: error with `run_error`), `summary` its summary.json (null when there is none),
/// the reference file's values (nullptr when the file is missing). With `update` the reference
/// comparison is replaced by writing `*new_reference` (the caller writes the file).
CaseResult evaluate_case(const RegressCase& c, int exit_status, const std::string& run_error,
                         const nlohmann::json& summary, const nlohmann::json* reference, bool update,
                         nlohmann::json* new_reference);

/// Text that XML 1.0 accepts: invalid UTF-8 bytes become U+FFFD, characters XML forbids (C0
/// controls other than tab, LF, CR; U+FFFE, U+FFFF) are dropped.
std::string xml_safe(const std::string& text);

/// The JUnit XML report (the Jenkins xunit plugin's junit-10.xsd; testbench/tests/data/junit/):
/// testsuites > testsuite (name = suite name) > testcase (classname = suite name, name, time),
/// one <failure> per failed expectation (message, type), an <error> when the run itself failed,
/// and the log tail in <system-out> for every case that did not pass. `timestamp` is
/// "YYYY-MM-DDTHH:MM:SS" (UTC), `hostname` the machine's name.
std::string junit_xml(const RegressSuite& suite, const std::vector<CaseResult>& results, double seconds,
                      const std::string& timestamp, const std::string& hostname);

/// `drivevp regress` options.
struct RegressOptions {
  std::string suite;     ///< the suite file
  std::size_t jobs = 0;  ///< runs at a time; 0 = the number of cores
  std::string out_dir;   ///< "" = out/regress/<suite name>
  std::string junit;     ///< "" = no JUnit report
  bool update = false;   ///< rewrite the references of the cases that ran
  std::string program;   ///< the drivevp binary the cases run; "" = this executable
  double timeout_s = 0;  ///< per-case wall-clock limit, seconds; 0 = none (a case past it fails)
};

/// Runs `drivevp regress`: validates the suite (ConfigError: message on `err`, exit 2, nothing
/// run or written), writes DIR/cases/<name>/scenario.toml, runs every case as
/// `<program> run DIR/cases/<name>/scenario.toml --out DIR/cases/<name>/out` (log in
/// DIR/cases/<name>/run.log), prints one line per case in suite order and a summary on `out`,
/// writes the references (--update) and the JUnit report. Returns 0 when every case passed, 1
/// when any failed, 2 on bad input, 3 on an I/O error (DIR, a reference, the report).
int regress_main(const RegressOptions& options, std::ostream& out, std::ostream& err);

}  // namespace drivevp::experiment
