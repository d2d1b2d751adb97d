// Regression suites (drivevp regress, testbench/experiment/regress.h): the expectation grammar
// and its evaluation at exact boundaries, the reference tolerance, every suite-file error with its
// exact message, the JUnit report against the Jenkins xunit schema (testbench/tests/data/junit/),
// and the command end to end with the real drivevp binary: a case that must fail fails and its
// JUnit entry says why, --update rewrites a changed reference and shows the change, exit statuses.
#include <catch2/catch_test_macros.hpp>

#include <sys/stat.h>

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include <pugixml.hpp>

#include "sim_test_util.h"
#include "source_paths.h"  // generated: DRIVEVP_DATA_DIR, DRIVEVP_SOURCE_DIR
#include "testbench/experiment/regress.h"
#include "testbench/experiment/results.h"

namespace drivevp {
namespace {

using namespace simtest;
using namespace experiment;

const std::string kSchema = std::string(DRIVEVP_SOURCE_DIR) + "/testbench/tests/data/junit/junit-10.xsd";

/// xmllint's verdict on `xml_path` against the shipped JUnit schema: true when it validates.
bool validates(const fs::path& xml_path) {
  const std::string cmd =
      "xmllint --noout --schema '" + kSchema + "' '" + xml_path.string() + "' >/dev/null 2>&1 </dev/null";
  return std::system(cmd.c_str()) == 0;
}

std::string expectation_error(const std::string& text) {
  try {
    (void)parse_expectation(text, "S:3: case 'a': expect[0]");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "<no error>";
}

/// A base scenario without a workload kind switch: synthetic, HP 97560, 300 requests.
const char* kBaseScenario =
    "[device]\npreset = \"hp97560\"\n[firmware]\npolicy = \"sptf\"\n[workload]\nkind = \"synthetic\"\n"
    "rate_per_s = 30.0\nsize_blocks = 8\n[run]\nseed = 5\nrequests = 300\n";

/// Writes `suite` as DIR/suite.toml (with DIR/base.toml beside it) and loads it; the error
/// message with DIR replaced by "D", or "<no error>".
std::string suite_error(const std::string& suite) {
  static TempDir dir("regress-suite");
  static int n = 0;
  const fs::path path = dir / ("suite" + std::to_string(n++) + ".toml");
  write_text(dir / "base.toml", kBaseScenario);
  write_text(dir / "broken.toml", "[device]\npreset = \n");
  write_text(path, suite);
  try {
    (void)load_suite(path.string());
  } catch (const ConfigError& e) {
    std::string m = e.what();
    for (auto at = m.find(path.string()); at != std::string::npos; at = m.find(path.string()))
      m.replace(at, path.string().size(), "FILE");
    for (auto at = m.find(dir.path().string()); at != std::string::npos; at = m.find(dir.path().string()))
      m.replace(at, dir.path().string().size(), "D");
    return m;
  }
  return "<no error>";
}

TEST_CASE("regress: Expectations parse every operator, blanks, signs and exponents", "[sim][regress]") {
  struct Want {
    const char* text;
    const char* path;
    Expectation::Op op;
    double value;
  };
  const Want wants[] = {
      {"metrics.response_p99_ms <= 80", "metrics.response_p99_ms", Expectation::Op::LessEqual, 80},
      {"metrics.a<1.5", "metrics.a", Expectation::Op::Less, 1.5},
      {"  requests.completed   ==   2000  ", "requests.completed", Expectation::Op::Equal, 2000},
      {"x >= -3e2", "x", Expectation::Op::GreaterEqual, -300},
      {"x > +.5", "x", Expectation::Op::Greater, 0.5},
      {"a.b-c.0.d_e != 7.", "a.b-c.0.d_e", Expectation::Op::NotEqual, 7},
      {"x\t<=\t1E-3", "x", Expectation::Op::LessEqual, 0.001},
  };
  for (const Want& w : wants) {
    const Expectation e = parse_expectation(w.text, "W");
    CHECK(e.path == w.path);
    CHECK(e.op == w.op);
    CHECK(e.value == w.value);
    CHECK(e.where == "W");
  }
  CHECK(parse_expectation("  a <= 1 ", "W").text == "a <= 1");
  CHECK_FALSE(parse_expectation("a <= 1", "W").boolean.has_value());
  const Expectation t = parse_expectation("saturation.saturated == false", "W");
  CHECK(t.op == Expectation::Op::Equal);
  REQUIRE(t.boolean.has_value());
  CHECK_FALSE(*t.boolean);
  CHECK(*parse_expectation("checks.passed != true", "W").boolean);
  CHECK(std::string(to_string(Expectation::Op::NotEqual)) == "!=");
}

TEST_CASE("regress: A malformed expectation names the wrong part", "[sim][regress]") {
  const std::string path_msg =
      "S:3: case 'a': expect[0]: expected \"PATH OP NUMBER\" with PATH a dotted summary.json path such as "
      "metrics.response_p99_ms, found '";
  const std::string op_msg =
      "S:3: case 'a': expect[0]: expected \"PATH OP NUMBER\" with OP one of <, <=, >, >=, ==, !=, found '";
  const std::string num_msg =
      "S:3: case 'a': expect[0]: expected \"PATH OP NUMBER\" with NUMBER a finite decimal number (or true / false "
      "after == and !=), found '";
  const std::string bool_msg =
      "S:3: case 'a': expect[0]: expected \"PATH OP NUMBER\" with true or false only after == or !=, found '";
  CHECK(expectation_error("<= 80") == path_msg + "<= 80'");
  CHECK(expectation_error("") == path_msg + "'");
  CHECK(expectation_error("metrics..x <= 1") == path_msg + "metrics..x <= 1'");
  CHECK(expectation_error("metrics. <= 1") == path_msg + "metrics. <= 1'");
  CHECK(expectation_error("metrics.response_p99_ms =< 80") == op_msg + "metrics.response_p99_ms =< 80'");
  CHECK(expectation_error("metrics.x = 80") == op_msg + "metrics.x = 80'");
  CHECK(expectation_error("metrics x <= 1") == op_msg + "metrics x <= 1'");
  CHECK(expectation_error("metrics.x") == op_msg + "metrics.x'");
  CHECK(expectation_error("metrics.x <= 80ms") == num_msg + "metrics.x <= 80ms'");
  CHECK(expectation_error("metrics.x <== 80") == num_msg + "metrics.x <== 80'");
  CHECK(expectation_error("metrics.x <=") == num_msg + "metrics.x <='");
  CHECK(expectation_error("metrics.x <= inf") == num_msg + "metrics.x <= inf'");
  CHECK(expectation_error("metrics.x <= nan") == num_msg + "metrics.x <= nan'");
  CHECK(expectation_error("metrics.x <= 1e999") == num_msg + "metrics.x <= 1e999'");
  CHECK(expectation_error("metrics.x <= 1 2") == num_msg + "metrics.x <= 1 2'");
  CHECK(expectation_error("metrics.x <= 1e") == num_msg + "metrics.x <= 1e'");
  CHECK(expectation_error("metrics.x <= .") == num_msg + "metrics.x <= .'");
  CHECK(expectation_error("metrics.x == True") == num_msg + "metrics.x == True'");
  CHECK(expectation_error("metrics.x <= true") == bool_msg + "metrics.x <= true'");
  CHECK(expectation_error("metrics.x > false") == bool_msg + "metrics.x > false'");
}

TEST_CASE("regress: Every operator is evaluated exactly at its boundary", "[sim][regress]") {
  const nlohmann::json summary = nlohmann::json::parse(
      R"({"metrics": {"p99": 80.0, "n": 2000, "neg": -1, "none": null, "flag": true, "arr": [1.5, 2.5]},
          "requests": {"completed": 2000}})");
  auto passes = [&](const std::string& text) {
    return evaluate_expectation(parse_expectation(text, "W"), summary).passed;
  };
  // value 80: below, at and above the bound for every operator.
  CHECK(passes("metrics.p99 < 80.000000000001"));
  CHECK_FALSE(passes("metrics.p99 < 80"));
  CHECK(passes("metrics.p99 <= 80"));
  CHECK_FALSE(passes("metrics.p99 <= 79.99999999999"));
  CHECK(passes("metrics.p99 > 79.99999999999"));
  CHECK_FALSE(passes("metrics.p99 > 80"));
  CHECK(passes("metrics.p99 >= 80"));
  CHECK_FALSE(passes("metrics.p99 >= 80.000000000001"));
  CHECK(passes("metrics.p99 == 80"));
  CHECK(passes("metrics.p99 == 8e1"));
  CHECK_FALSE(passes("metrics.p99 == 80.00000000001"));
  CHECK(passes("metrics.p99 != 80.00000000001"));
  CHECK_FALSE(passes("metrics.p99 != 80"));
  CHECK(passes("requests.completed == 2000"));
  CHECK(passes("metrics.neg < 0"));
  CHECK(passes("metrics.arr.1 == 2.5"));

  const ExpectationResult failed = evaluate_expectation(parse_expectation("metrics.p99 <= 79.5", "W"), summary);
  CHECK_FALSE(failed.passed);
  REQUIRE(failed.found.has_value());
  CHECK(*failed.found == 80.0);
  CHECK(failed.message == "metrics.p99 <= 79.5: found 80");
  CHECK(evaluate_expectation(parse_expectation("metrics.n < 10", "W"), summary).message ==
        "metrics.n < 10: found 2000");
  auto message = [&](const std::string& text) {
    const ExpectationResult r = evaluate_expectation(parse_expectation(text, "W"), summary);
    CHECK_FALSE(r.passed);
    CHECK_FALSE(r.found.has_value());
    return r.message;
  };
  CHECK(message("metrics.p98 <= 1") == "metrics.p98 <= 1: metrics.p98 is not in summary.json");
  CHECK(message("metrics.arr.2 <= 1") == "metrics.arr.2 <= 1: metrics.arr.2 is not in summary.json");
  CHECK(message("metrics.p99.x <= 1") == "metrics.p99.x <= 1: metrics.p99.x is not in summary.json");
  CHECK(message("metrics.none <= 1") == "metrics.none <= 1: metrics.none is null in summary.json (nothing measured)");
  CHECK(message("metrics.flag == 1") == "metrics.flag == 1: metrics.flag is not a number in summary.json, found true");
  CHECK(message("metrics.n == true") == "metrics.n == true: metrics.n is not a boolean in summary.json, found 2000");
  CHECK(message("metrics.none != false") ==
        "metrics.none != false: metrics.none is null in summary.json (nothing measured)");
  CHECK(passes("metrics.flag == true"));
  CHECK(passes("metrics.flag != false"));
  CHECK_FALSE(passes("metrics.flag != true"));
  CHECK(evaluate_expectation(parse_expectation("metrics.flag == false", "W"), summary).message ==
        "metrics.flag == false: found true");
  CHECK(message("requests != 1") ==
        "requests != 1: requests is not a number in summary.json, found {\"completed\":2000}");
}

TEST_CASE("regress: The reference tolerance is |v - r| <= absolute + relative * |r|, boundary included",
          "[sim][regress]") {
  // Exactly representable boundaries: 2 + 0.5 and 4 * 0.25.
  CHECK(within_tolerance(2.5, 2.0, {0, 0.5}));
  CHECK(within_tolerance(1.5, 2.0, {0, 0.5}));
  CHECK_FALSE(within_tolerance(2.5000000000000004, 2.0, {0, 0.5}));
  CHECK(within_tolerance(5.0, 4.0, {0.25, 0}));
  CHECK(within_tolerance(-5.0, -4.0, {0.25, 0}));
  CHECK_FALSE(within_tolerance(5.000000000000001, 4.0, {0.25, 0}));
  CHECK(within_tolerance(5.5, 4.0, {0.25, 0.5}));
  CHECK_FALSE(within_tolerance(5.500000000000001, 4.0, {0.25, 0.5}));
  CHECK(within_tolerance(3.0, 3.0, {0, 0}));
  CHECK_FALSE(within_tolerance(std::nextafter(3.0, 4.0), 3.0, {0, 0}));
  // The default: relative 1e-9, absolute 0.
  CHECK(within_tolerance(1000.000001, 1000.0, {}));
  CHECK_FALSE(within_tolerance(1000.0000011, 1000.0, {}));

  const nlohmann::json summary =
      nlohmann::json::parse(R"({"metrics": {"a": 2.5, "b": 7, "c": null, "by": {"x": [1, 2]}, "s": "t"}})");
  // Default: every number under "metrics" (nulls and strings are not compared).
  CHECK(numbers_under(summary, "metrics") ==
        std::map<std::string, nlohmann::json>{
            {"metrics.a", 2.5}, {"metrics.b", 7}, {"metrics.by.x.0", 1}, {"metrics.by.x.1", 2}});
  const nlohmann::json ref = nlohmann::json::parse(
      R"({"metrics.a": 2.0, "metrics.b": 7, "metrics.by.x.0": 1, "metrics.by.x.1": 2, "metrics.gone": 1})");
  ReferenceComparison cmp = compare_with_reference(summary, ref, {}, {0, 0.5});
  CHECK(cmp.differences == std::vector<std::string>{"metrics.gone: not in summary.json, reference 1"});
  CHECK(cmp.values.size() == 4);
  cmp = compare_with_reference(summary, ref, {}, {0, 0.4999});
  CHECK(cmp.differences == std::vector<std::string>{"metrics.a: 2.5, reference 2 (difference 0.5, allowed 0.4999)",
                                                    "metrics.gone: not in summary.json, reference 1"});
  // Explicit paths: only those; null on both sides matches; a path the reference lacks differs.
  cmp = compare_with_reference(summary, nlohmann::json::parse(R"({"metrics.b": 8, "metrics.c": null})"),
                               {"metrics.b", "metrics.c", "metrics.by.x.1"}, {0, 1});
  CHECK(cmp.differences == std::vector<std::string>{"metrics.by.x.1: 2, not in the reference"});
  CHECK(cmp.values == nlohmann::json::parse(R"({"metrics.b": 7, "metrics.c": null, "metrics.by.x.1": 2})"));
  cmp = compare_with_reference(summary, nlohmann::json::parse(R"({"metrics.c": 3})"), {"metrics.c"}, {});
  CHECK(cmp.differences == std::vector<std::string>{"metrics.c: null, reference 3"});

  // Reference files: sorted keys, shortest round-trip numbers, integers stay integers.
  CHECK(reference_text(nlohmann::json::parse(R"({"z": 0.1, "a": 7, "m": 1e-9})")) ==
        "{\n  \"a\": 7,\n  \"m\": 1e-09,\n  \"z\": 0.1\n}\n");
  const nlohmann::json old_values = nlohmann::json::parse(R"({"a": 1, "b": 2.5, "c": 3})");
  CHECK(reference_changes(nullptr, old_values) == std::vector<std::string>{"new reference"});
  CHECK(reference_changes(&old_values, old_values).empty());
  CHECK(reference_changes(&old_values, nlohmann::json::parse(R"({"a": 1, "b": 2.75, "d": 4})")) ==
        std::vector<std::string>{"b: 2.5 -> 2.75", "c: 3 -> (none)", "d: (none) -> 4"});
}

TEST_CASE("regress: A case's outcome from its exit status, summary.json and reference; --update still checks bounds",
          "[sim][regress]") {
  RegressCase c;
  c.name = "c";
  c.expectations = {parse_expectation("metrics.p99 <= 80", "S:9")};
  c.reference = "/abs/r.json";
  c.reference_as_written = "r.json";
  c.compare = {"metrics.p99"};
  const nlohmann::json fast = nlohmann::json::parse(R"({"metrics": {"p99": 80}, "checks": {"passed": true}})");
  const nlohmann::json slow = nlohmann::json::parse(R"({"metrics": {"p99": 81.5}, "checks": {"passed": true}})");
  const nlohmann::json ref = nlohmann::json::parse(R"({"metrics.p99": 80})");
  using Status = CaseResult::Status;

  CaseResult r = evaluate_case(c, 0, "", fast, &ref, false, nullptr);
  CHECK(r.status == Status::Passed);
  CHECK(r.problems.empty());
  CHECK(r.exit_status == 0);

  r = evaluate_case(c, 0, "", slow, &ref, false, nullptr);
  CHECK(r.status == Status::Failed);
  REQUIRE(r.problems.size() == 2);
  CHECK(r.problems[0].type == "expectation");
  CHECK(r.problems[0].message == "metrics.p99 <= 80: found 81.5");
  CHECK(r.problems[0].details == "expect \"metrics.p99 <= 80\" (S:9): found 81.5");
  CHECK(r.problems[1].type == "reference");
  CHECK(r.problems[1].message ==
        "1 of 1 compared values differ from r.json: metrics.p99: 81.5, reference 80 (difference 1.5, allowed 8e-08)");
  CHECK(r.problems[1].details ==
        "reference r.json (tolerance: relative 1e-09, absolute 0):\nmetrics.p99: 81.5, reference 80 (difference 1.5, "
        "allowed 8e-08)");

  // --update: the reference is replaced (no reference failure), the bound still fails.
  nlohmann::json fresh;
  r = evaluate_case(c, 0, "", slow, &ref, true, &fresh);
  CHECK(r.status == Status::Failed);
  REQUIRE(r.problems.size() == 1);
  CHECK(r.problems[0].type == "expectation");
  CHECK(fresh == nlohmann::json::parse(R"({"metrics.p99": 81.5})"));

  r = evaluate_case(c, 0, "", fast, nullptr, false, nullptr);
  REQUIRE(r.problems.size() == 1);
  CHECK(r.problems[0].message == "no reference; run drivevp regress --update");
  const nlohmann::json not_object = nlohmann::json::parse("[1, 2]");
  r = evaluate_case(c, 0, "", fast, &not_object, false, nullptr);
  REQUIRE(r.problems.size() == 1);
  CHECK(r.problems[0].message == "r.json: expected a JSON object of metric values; run drivevp regress --update");

  // Exit statuses other than 0 and 1 are run errors; nothing else is evaluated.
  for (int status : {2, 3, 130, -1}) {
    r = evaluate_case(c, status, "drivevp: boom", nlohmann::json(), &ref, true, &fresh);
    CHECK(r.status == Status::Error);
    REQUIRE(r.problems.size() == 1);
    CHECK(r.problems[0].type == "run-error");
    CHECK(r.problems[0].message == fmt::format("drivevp run exited with status {}: drivevp: boom", status));
  }
  r = evaluate_case(c, 0, "cannot read S/summary.json: No such file or directory", nlohmann::json(), &ref, false,
                    nullptr);
  CHECK(r.status == Status::Error);
  CHECK(r.problems.at(0).message == "no summary.json: cannot read S/summary.json: No such file or directory");

  // Checker outcomes.
  c.expectations.clear();
  c.reference.clear();
  const nlohmann::json failed_checks = nlohmann::json::parse(
      R"({"checks": {"conservation": {"violations": 0, "first": []},
                     "data_integrity": {"violations": 3, "first": ["LBA 7 read back stale data", "x"]},
                     "media_errors": 2, "passed": false}})");
  r = evaluate_case(c, 1, "", failed_checks, nullptr, false, nullptr);
  CHECK(r.status == Status::Failed);
  REQUIRE(r.problems.size() == 1);
  CHECK(r.problems[0].type == "checks");
  CHECK(r.problems[0].message ==
        "checks failed: data_integrity 3 violation(s) (first: LBA 7 read back stale data); 2 media error(s)");
  c.checks_must_fail = true;
  CHECK(evaluate_case(c, 1, "", failed_checks, nullptr, false, nullptr).status == Status::Passed);
  r = evaluate_case(c, 0, "", fast, nullptr, false, nullptr);
  CHECK(r.status == Status::Failed);
  CHECK(r.problems.at(0).message == "checks = \"fail\": expected a checker to fail, every checker passed");
}

TEST_CASE("regress: Bad suite files give file:line, key, what was expected and what was found", "[sim][regress]") {
  const std::string ok_case = "[[case]]\nname = \"a\"\n";          // lines n+1, n+2
  const std::string head = "[suite]\nscenario = \"base.toml\"\n";  // lines 1-2
  CHECK(suite_error(head + ok_case) == "<no error>");
  CHECK(suite_error("[suit]\nname = \"x\"\n" + ok_case) ==
        "FILE:1: unknown key 'suit'; allowed: suite, case, device, firmware, workload, run, trace, output");
  CHECK(suite_error(head) == "FILE: case: expected at least one [[case]], found none");
  CHECK(suite_error("case = 3\n" + head) == "FILE:1: case: expected [[case]] tables, found 3");
  CHECK(suite_error("[suite]\nname = \"a b\"\n" + ok_case) ==
        "FILE:2: suite.name: expected a name of letters, digits, '_', '-' and '.', not starting with '.', found 'a b'");
  CHECK(suite_error("[suite]\nname = \"..\"\n" + ok_case) ==
        "FILE:2: suite.name: expected a name of letters, digits, '_', '-' and '.', not starting with '.', found '..'");
  CHECK(suite_error("[suite]\nscenario = 3\n" + ok_case) ==
        "FILE:2: suite.scenario: expected a scenario file path, found 3");
  CHECK(suite_error("[suite]\nnmae = \"x\"\n" + ok_case) ==
        "FILE:2: suite: unknown key 'nmae'; allowed: name, scenario, description");
  CHECK(
      suite_error(head + "[[case]]\nchecks = \"pass\"\n") ==
      "FILE:3: case #0: name: expected a case name of letters, digits, '_', '-' and '.', not starting with '.', found "
      "none");
  CHECK(
      suite_error(head + "[[case]]\nname = \"a/b\"\n") ==
      "FILE:4: case #0: name: expected a case name of letters, digits, '_', '-' and '.', not starting with '.', found "
      "'a/b'");
  CHECK(
      suite_error(head + "[[case]]\nname = \"..\"\n") ==
      "FILE:4: case #0: name: expected a case name of letters, digits, '_', '-' and '.', not starting with '.', found "
      "'..'");
  CHECK(suite_error(head + ok_case + ok_case) ==
        "FILE:6: case 'a': name: expected a name no other case has, found the name of the case at FILE:3");
  CHECK(suite_error(head + ok_case + "checks = \"maybe\"\n") ==
        "FILE:5: case 'a': checks: expected \"pass\" or \"fail\", found 'maybe'");
  CHECK(suite_error(head + ok_case + "expects = []\n") ==
        "FILE:5: case 'a': unknown key 'expects'; allowed: name, description, scenario, set, checks, expect, "
        "reference, tolerance, compare");
  CHECK(suite_error(head + ok_case + "expect = \"metrics.x <= 1\"\n") ==
        "FILE:5: case 'a': expect: expected an array of strings \"PATH OP NUMBER\", found 'metrics.x <= 1'");
  CHECK(suite_error(head + ok_case + "expect = [\"metrics.x <= 1\",\n  80]\n") ==
        "FILE:6: case 'a': expect[1]: expected a string \"PATH OP NUMBER\", found 80");
  CHECK(suite_error(head + ok_case + "expect = [\n  \"metrics.response_p99_ms =< 80\"]\n") ==
        "FILE:6: case 'a': expect[0]: expected \"PATH OP NUMBER\" with OP one of <, <=, >, >=, ==, !=, found "
        "'metrics.response_p99_ms =< 80'");
  CHECK(suite_error(head + ok_case + "reference = \"r.json\"\ntolerance = { relative = -1 }\n") ==
        "FILE:6: case 'a': tolerance.relative: expected a finite number >= 0, found -1");
  CHECK(suite_error(head + ok_case + "reference = \"r.json\"\ntolerance = { relative = \"1%\" }\n") ==
        "FILE:6: case 'a': tolerance.relative: expected a finite number >= 0, found '1%'");
  CHECK(suite_error(head + ok_case + "reference = \"r.json\"\ntolerance = { rel = 1 }\n") ==
        "FILE:6: case 'a': tolerance: unknown key 'rel'; allowed: relative, absolute");
  CHECK(suite_error(head + ok_case + "tolerance = { relative = 1 }\n") ==
        "FILE:5: case 'a': tolerance: applies only with a reference = \"FILE\"");
  CHECK(suite_error(head + ok_case + "compare = [\"metrics.a\"]\n") ==
        "FILE:5: case 'a': compare: applies only with a reference = \"FILE\"");
  CHECK(suite_error(head + ok_case + "reference = \"r.json\"\ncompare = [\"metrics..a\"]\n") ==
        "FILE:6: case 'a': compare[0]: expected a dotted summary.json path such as metrics.response_mean_ms, found "
        "'metrics..a'");
  CHECK(suite_error(head + ok_case + "reference = \"r.json\"\n[[case]]\nname = \"b\"\nreference = \"./r.json\"\n") ==
        "FILE:8: case 'b': reference: expected a file no other case uses, found the reference of the case at FILE:3");
  CHECK(suite_error(head + ok_case + "set = \"firmware.policy=clook\"\n") ==
        "FILE:5: case 'a': set: expected a table of scenario keys such as { \"firmware.policy\" = \"clook\" }, found "
        "'firmware.policy=clook'");
  CHECK(suite_error("x = = 1\n") ==
        "FILE:1: TOML syntax error: Error while parsing value: could not determine value type");
  CHECK(suite_error("[suite]\nscenario = \"base.toml\"\n" + ok_case + "set = { \"firmware.policy\" = \"fifo\" }\n") ==
        "FILE:5: firmware.policy: expected one of fcfs, sstf, scan, look, cscan, clook, sptf, aged_sptf, noop, "
        "deadline, anticipatory, cfq, bfq, nstep_scan, fscan, edf, scan_edf, parallel_deadline, sfc, psptf, pasptf, "
        "zsptf, zscan_psptf, zpsptf, wrr_scan_r, wrr_scan_c, wrr_scan_ca, tps_scan_scan, tps_scan_scan_ci_opt, "
        "ops_famish, ops_scan_ci_sptf, ops_scan_ci_opt, ops_scan_clust_req, ops_scan_clust_cyl, sptf_glitch_guard, "
        "found 'fifo' "
        "(in case 'a' at FILE:3)");
  // Nested tables in `set` are dotted keys too; the suite's inline sections apply to every case.
  CHECK(suite_error(head + "[firmware]\nqueue_depth = 0\n" + ok_case) ==
        "FILE:4: firmware.queue_depth: expected an integer in [1, 65536], found 0 (in case 'a' at FILE:5)");
  CHECK(
      suite_error(head + ok_case + "set = { firmware = { polcy = \"x\" } }\n") ==
      "FILE:5: unknown key 'firmware.polcy': policy 'sptf' accepts firmware.policy, firmware.queue_depth (in case 'a' "
      "at FILE:3)");
  CHECK(suite_error(head + ok_case + "scenario = \"missing.toml\"\n") ==
        "FILE:5: case 'a': scenario: expected a readable scenario file, found 'D/missing.toml' (No such file or "
        "directory)");
  CHECK(suite_error("[suite]\nscenario = \"nobase.toml\"\n" + ok_case) ==
        "FILE:2: suite.scenario: expected a readable scenario file, found 'D/nobase.toml' (No such file or directory)");
  // A scenario file that is not TOML: the loader's message, then the case.
  CHECK(
      suite_error(head + ok_case + "scenario = \"broken.toml\"\n") ==
      "D/broken.toml:2: TOML syntax error: Error while parsing key-value pair: expected value, saw '\\n' (in case 'a' "
      "at FILE:3)");

  try {
    (void)load_suite("/nonexistent/suite.toml");
    FAIL("no error");
  } catch (const ConfigError& e) {
    CHECK(std::string(e.what()) == "/nonexistent/suite.toml: cannot read the suite: No such file or directory");
  }
}

TEST_CASE("regress: A suite's cases resolve base file, inline sections, case file and set in that order",
          "[sim][regress]") {
  TempDir dir("regress-layers");
  write_text(dir / "base.toml", kBaseScenario);
  write_text(dir / "deep.toml", "[firmware]\npolicy = \"look\"\nqueue_depth = 8\n");
  write_text(dir / "suite.toml",
             "[suite]\nscenario = \"base.toml\"\n[firmware]\npolicy = \"fcfs\"\nqueue_depth = 16\n"
             "[[case]]\nname = \"inline\"\n"
             "[[case]]\nname = \"file\"\nscenario = \"deep.toml\"\n"
             "[[case]]\nname = \"set\"\nscenario = \"deep.toml\"\nset = { \"firmware.policy\" = \"clook\" }\n");
  const RegressSuite suite = load_suite((dir / "suite.toml").string());
  CHECK(suite.name == "suite");
  REQUIRE(suite.cases.size() == 3);
  auto has = [](const std::string& toml, const std::string& text) { return toml.find(text) != std::string::npos; };
  CHECK(has(suite.cases[0].resolved_toml, "policy = 'fcfs'"));
  CHECK(has(suite.cases[0].resolved_toml, "queue_depth = 16"));
  CHECK(has(suite.cases[1].resolved_toml, "policy = 'look'"));
  CHECK(has(suite.cases[1].resolved_toml, "queue_depth = 8"));
  CHECK(has(suite.cases[2].resolved_toml, "policy = 'clook'"));
  CHECK(has(suite.cases[2].resolved_toml, "queue_depth = 8"));
  for (const RegressCase& c : suite.cases) {
    CHECK(has(c.resolved_toml, "plots = false"));
    CHECK(has(c.resolved_toml, "progress = false"));
    CHECK(c.expectations.empty());
    CHECK_FALSE(c.checks_must_fail);
    CHECK(c.reference.empty());
  }
}

TEST_CASE("regress: xml_safe keeps valid XML characters and replaces or drops the rest", "[sim][regress]") {
  CHECK(xml_safe("a<b>&\"c\"\t\n\r") == "a<b>&\"c\"\t\n\r");
  CHECK(xml_safe("\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80") == "\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80");
  CHECK(xml_safe(std::string("a\0b\x01\x1B[0mc", 9)) == "ab[0mc");
  CHECK(xml_safe("\xFF\xC3") == "\xEF\xBF\xBD\xEF\xBF\xBD");                  // stray bytes
  CHECK(xml_safe("\xC0\xAF") == "\xEF\xBF\xBD\xEF\xBF\xBD");                  // overlong '/'
  CHECK(xml_safe("\xED\xA0\x80") == "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a surrogate
  CHECK(xml_safe("\xEF\xBF\xBE\xEF\xBF\xBFz") == "z");                        // U+FFFE, U+FFFF
}

TEST_CASE("regress: The JUnit report has one failure per failed expectation and validates against junit-10.xsd",
          "[sim][regress][junit]") {
  TempDir dir("regress-junit");
  RegressSuite suite;
  suite.file = "regress/x.toml";
  suite.name = "x";
  suite.cases.resize(3);
  suite.cases[0].name = "ok";
  suite.cases[1].name = "bad<&>";
  suite.cases[2].name = "err";
  std::vector<CaseResult> results(3);
  results[0].seconds = 1.2345;
  results[1].status = CaseResult::Status::Failed;
  results[1].seconds = 0.5;
  results[1].problems = {{"expectation", "metrics.p99 <= 1: found 2.5", "expect \"metrics.p99 <= 1\" (x.toml:9)"},
                         {"reference", "no reference; run drivevp regress --update", "r.json: no reference"}};
  results[1].log_tail = std::string("line \x01 with a control byte and \xFF\n]]> end\n");
  results[2].status = CaseResult::Status::Error;
  results[2].problems = {{"run-error", "drivevp run exited with status 3: boom", "exit status 3\nboom"}};
  results[2].log_tail = "boom\n";
  const std::string xml = junit_xml(suite, results, 2.0, "2024-01-02T03:04:05", "host");
  write_text(dir / "r.xml", xml);
  CHECK(validates(dir / "r.xml"));

  pugi::xml_document doc;
  REQUIRE(doc.load_string(xml.c_str()));
  const pugi::xml_node ts = doc.child("testsuites").child("testsuite");
  CHECK(std::string(doc.child("testsuites").attribute("tests").value()) == "3");
  CHECK(std::string(ts.attribute("name").value()) == "x");
  CHECK(std::string(ts.attribute("failures").value()) == "1");
  CHECK(std::string(ts.attribute("errors").value()) == "1");
  CHECK(std::string(ts.attribute("time").value()) == "2.000");
  CHECK(std::string(ts.attribute("timestamp").value()) == "2024-01-02T03:04:05");
  std::vector<pugi::xml_node> cases;
  for (pugi::xml_node tc : ts.children("testcase")) cases.push_back(tc);
  REQUIRE(cases.size() == 3);
  CHECK(std::string(cases[0].attribute("classname").value()) == "x");
  CHECK(std::string(cases[0].attribute("name").value()) == "ok");
  CHECK(std::string(cases[0].attribute("time").value()) == "1.234");
  CHECK(!cases[0].first_child());
  CHECK(std::string(cases[1].attribute("name").value()) == "bad<&>");
  std::vector<pugi::xml_node> failures;
  for (pugi::xml_node f : cases[1].children("failure")) failures.push_back(f);
  REQUIRE(failures.size() == 2);
  CHECK(std::string(failures[0].attribute("message").value()) == "metrics.p99 <= 1: found 2.5");
  CHECK(std::string(failures[0].attribute("type").value()) == "expectation");
  CHECK(std::string(failures[0].text().get()) == "expect \"metrics.p99 <= 1\" (x.toml:9)");
  CHECK(std::string(failures[1].attribute("type").value()) == "reference");
  CHECK(std::string(cases[1].child("system-out").text().get()) ==
        "line  with a control byte and \xEF\xBF\xBD\n]]> end\n");
  CHECK(std::string(cases[2].child("error").attribute("message").value()) == "drivevp run exited with status 3: boom");
  CHECK(std::string(cases[2].child("error").attribute("type").value()) == "run-error");
  CHECK(!cases[2].child("failure"));

  // The schema check can fail: a testcase without its required name does not validate.
  write_text(dir / "bad.xml",
             "<testsuites><testsuite tests=\"1\"><testcase classname=\"x\"/></testsuite></testsuites>");
  CHECK_FALSE(validates(dir / "bad.xml"));
}

/// A suite of three short synthetic cases on `base.toml`: one that passes with bounds, one whose
/// expectation must fail, one with checks = "fail" whose checkers pass.
void write_three_case_suite(const TempDir& dir) {
  write_text(dir / "base.toml", kBaseScenario);
  write_text(dir / "suite.toml",
             "[suite]\n"                                                                    // 1
             "name = \"three\"\n"                                                           // 2
             "scenario = \"base.toml\"\n"                                                   // 3
             "\n"                                                                           // 4
             "[[case]]\n"                                                                   // 5
             "name = \"good\"\n"                                                            // 6
             "set = { \"firmware.policy\" = \"clook\" }\n"                                  // 7
             "expect = [\"requests.completed == 300\", \"metrics.response_p99_ms > 0\"]\n"  // 8
             "\n"                                                                           // 9
             "[[case]]\n"                                                                   // 10
             "name = \"too-slow\"\n"                                                        // 11
             "expect = [\"requests.completed == 300\",\n"                                   // 12
             "          \"metrics.response_p99_ms <= 0.001\"]\n"                            // 13
             "\n"                                                                           // 14
             "[[case]]\n"                                                                   // 15
             "name = \"must-fail-checks\"\n"                                                // 16
             "checks = \"fail\"\n");                                                        // 17
}

TEST_CASE("regress: A case that must fail fails, and its JUnit entry names the expectation and the value found",
          "[sim][regress][junit]") {
  TempDir dir("regress-e2e");
  write_three_case_suite(dir);
  const fs::path out = dir / "out";
  const CommandResult r = run_drivevp(dir.path(), {"regress", (dir / "suite.toml").string(), "--out", out.string(),
                                                   "--jobs", "2", "--junit", (dir / "report.xml").string()});
  CHECK(r.status == 1);
  CHECK(r.err.empty());
  // The resolved scenarios and each run's outputs.
  for (const char* name : {"good", "too-slow", "must-fail-checks"}) {
    CHECK(fs::exists(out / "cases" / name / "scenario.toml"));
    CHECK(fs::exists(out / "cases" / name / "run.log"));
    CHECK(fs::exists(out / "cases" / name / "out" / "summary.json"));
    CHECK_FALSE(fs::exists(out / "cases" / name / "out" / "response_cdf.png"));  // output.plots = false
  }
  const nlohmann::json slow = nlohmann::json::parse(read_text(out / "cases" / "too-slow" / "out" / "summary.json"));
  const double p99 = slow["metrics"]["response_p99_ms"].get<double>();
  REQUIRE(p99 > 0.001);
  const std::string slow_message = fmt::format("metrics.response_p99_ms <= 0.001: found {}", p99);
  const std::string checks_message = "checks = \"fail\": expected a checker to fail, every checker passed";

  // One line per case in suite order, then the summary.
  std::istringstream lines(r.out);
  std::vector<std::string> got;
  for (std::string line; std::getline(lines, line);) got.push_back(line);
  REQUIRE(got.size() == 4);
  CHECK(got[0].rfind("PASS good (", 0) == 0);
  CHECK(got[0].substr(got[0].size() - 3) == " s)");
  CHECK(got[1] == "FAIL too-slow: " + slow_message);
  CHECK(got[2] == "FAIL must-fail-checks: " + checks_message);
  CHECK(got[3].rfind("three: 3 cases, 1 passed, 2 failed (", 0) == 0);
  CHECK(got[3].find("; JUnit report " + (dir / "report.xml").string()) != std::string::npos);

  CHECK(validates(dir / "report.xml"));
  pugi::xml_document doc;
  REQUIRE(doc.load_file((dir / "report.xml").c_str()));
  const pugi::xml_node ts = doc.child("testsuites").child("testsuite");
  CHECK(std::string(ts.attribute("tests").value()) == "3");
  CHECK(std::string(ts.attribute("failures").value()) == "2");
  CHECK(std::string(ts.attribute("errors").value()) == "0");
  const pugi::xml_node slow_case = ts.find_child_by_attribute("testcase", "name", "too-slow");
  REQUIRE(slow_case);
  CHECK(std::string(slow_case.attribute("classname").value()) == "three");
  std::vector<pugi::xml_node> failures;
  for (pugi::xml_node f : slow_case.children("failure")) failures.push_back(f);
  REQUIRE(failures.size() == 1);
  CHECK(std::string(failures[0].attribute("message").value()) == slow_message);
  CHECK(std::string(failures[0].attribute("type").value()) == "expectation");
  CHECK(
      std::string(failures[0].text().get()) ==
      fmt::format("expect \"metrics.response_p99_ms <= 0.001\" ({}:13): found {}", (dir / "suite.toml").string(), p99));
  // The log tail: the run's own report.
  CHECK(std::string(slow_case.child("system-out").text().get()).find("checks       passed") != std::string::npos);
  const pugi::xml_node checks_case = ts.find_child_by_attribute("testcase", "name", "must-fail-checks");
  CHECK(std::string(checks_case.child("failure").attribute("message").value()) == checks_message);
  CHECK(std::string(checks_case.child("failure").attribute("type").value()) == "checks");
  const pugi::xml_node good = ts.find_child_by_attribute("testcase", "name", "good");
  CHECK(!good.child("failure"));
  CHECK(!good.child("system-out"));
}

/// A stand-in for `drivevp run` that writes a summary.json whose checkers failed (exit status 1)
/// for a case named checker-fails, and fails with status 3 for a case named broken.
const char* kFakeRun = R"(#!/bin/sh
# argv: run SCENARIO --out DIR
out="$4"
mkdir -p "$out"
case "$out" in
  */broken/out) echo "drivevp: simulation error: the disk caught fire" >&2; exit 3 ;;
esac
cat > "$out/summary.json" <<'JSON'
{"requests": {"completed": 10}, "metrics": {"response_mean_ms": 1.5},
 "checks": {"conservation": {"violations": 2, "first": ["request 7 completed twice"]},
            "data_integrity": {"violations": 0, "first": []}, "media_errors": 0, "passed": false}}
JSON
echo "checks       FAILED"
exit 1
)";

TEST_CASE("regress: checks = \"fail\" passes on a failed checker; a run error is a JUnit <error>",
          "[sim][regress][junit]") {
  TempDir dir("regress-fake");
  write_text(dir / "base.toml", kBaseScenario);
  write_text(dir / "fake-run", kFakeRun);
  ::chmod((dir / "fake-run").c_str(), 0755);
  write_text(dir / "suite.toml",
             "[suite]\nscenario = \"base.toml\"\n"
             "[[case]]\nname = \"checker-fails\"\nchecks = \"fail\"\nexpect = [\"metrics.response_mean_ms == 1.5\"]\n"
             "[[case]]\nname = \"broken\"\n");
  RegressOptions options;
  options.suite = (dir / "suite.toml").string();
  options.out_dir = (dir / "out").string();
  options.junit = (dir / "j" / "report.xml").string();
  options.program = (dir / "fake-run").string();
  options.jobs = 1;
  std::ostringstream out, err;
  CHECK(regress_main(options, out, err) == 1);
  std::istringstream lines(out.str());
  std::vector<std::string> got;
  for (std::string line; std::getline(lines, line);) got.push_back(line);
  REQUIRE(got.size() == 3);
  CHECK(got[0].rfind("PASS checker-fails (", 0) == 0);
  CHECK(got[1] == "FAIL broken: drivevp run exited with status 3: drivevp: simulation error: the disk caught fire");
  CHECK(validates(dir / "j" / "report.xml"));
  pugi::xml_document doc;
  REQUIRE(doc.load_file((dir / "j" / "report.xml").c_str()));
  const pugi::xml_node ts = doc.child("testsuites").child("testsuite");
  CHECK(std::string(ts.attribute("failures").value()) == "0");
  CHECK(std::string(ts.attribute("errors").value()) == "1");
  const pugi::xml_node broken = ts.find_child_by_attribute("testcase", "name", "broken");
  CHECK(std::string(broken.child("error").attribute("type").value()) == "run-error");
  CHECK(std::string(broken.child("system-out").text().get()) == "drivevp: simulation error: the disk caught fire\n");

  // The same checker failure where checks must pass: the failure names the checker and its first message.
  write_text(dir / "suite.toml", "[suite]\nscenario = \"base.toml\"\n[[case]]\nname = \"checker-fails\"\n");
  options.junit.clear();
  std::ostringstream out2, err2;
  CHECK(regress_main(options, out2, err2) == 1);
  CHECK(out2.str().rfind("FAIL checker-fails: checks failed: conservation 2 violation(s) (first: request 7 "
                         "completed twice)\n",
                         0) == 0);
}

TEST_CASE("regress: --update writes new and changed references and reports the change; exit statuses",
          "[sim][regress]") {
  TempDir dir("regress-update");
  write_text(dir / "base.toml", kBaseScenario);
  write_text(dir / "suite.toml",
             "[suite]\nscenario = \"base.toml\"\n"
             "[[case]]\nname = \"all\"\nreference = \"refs/all.json\"\n"
             "[[case]]\nname = \"two\"\nreference = \"refs/two.json\"\n"
             "compare = [\"metrics.response_mean_ms\", \"requests.completed\"]\n"
             "tolerance = { relative = 0.001 }\n");
  const std::string suite = (dir / "suite.toml").string();
  const std::string out = (dir / "out").string();
  const fs::path all = dir / "refs" / "all.json";
  const fs::path two = dir / "refs" / "two.json";

  // No reference yet: each case fails saying how to make one.
  CommandResult r = run_drivevp(dir.path(), {"regress", suite, "--out", out, "--jobs", "2"});
  CHECK(r.status == 1);
  CHECK(r.out.find("FAIL all: no reference; run drivevp regress --update\n") == 0);
  CHECK(r.out.find("FAIL two: no reference; run drivevp regress --update\n") != std::string::npos);

  r = run_drivevp(dir.path(), {"regress", suite, "--out", out, "--update"});
  CHECK(r.status == 0);
  CHECK(r.out.find("  reference refs/all.json: new reference\n") != std::string::npos);
  CHECK(r.out.find("  reference refs/two.json: new reference\n") != std::string::npos);
  CHECK(r.out.find("; 2 references written") != std::string::npos);
  const nlohmann::json summary =
      nlohmann::json::parse(read_text(dir / "out" / "cases" / "two" / "out" / "summary.json"));
  const double mean = summary["metrics"]["response_mean_ms"].get<double>();
  // Only the compared values, exactly as summary.json has them.
  nlohmann::json want_two = {{"metrics.response_mean_ms", mean}, {"requests.completed", 300}};
  CHECK(read_text(two) == reference_text(want_two));
  const std::string all_text = read_text(all);
  const nlohmann::json all_json = nlohmann::json::parse(all_text);
  CHECK(all_json["metrics.response_mean_ms"] == summary["metrics"]["response_mean_ms"]);
  CHECK(all_json["metrics.requests"] == 300);
  CHECK(all_json.size() == numbers_under(summary, "metrics").size());

  r = run_drivevp(dir.path(), {"regress", suite, "--out", out});
  CHECK(r.status == 0);

  // A reference within the tolerance passes; one beyond it fails and names the metric (exact
  // boundaries: the tolerance test above).
  want_two["metrics.response_mean_ms"] = mean * (1 - 0.0009);
  write_text(two, reference_text(want_two));
  r = run_drivevp(dir.path(), {"regress", suite, "--out", out});
  CHECK(r.status == 0);
  want_two["metrics.response_mean_ms"] = mean * (1 - 0.0011);
  const std::string changed = reference_text(want_two);
  write_text(two, changed);
  r = run_drivevp(dir.path(), {"regress", suite, "--out", out});
  CHECK(r.status == 1);
  const double stale = want_two["metrics.response_mean_ms"].get<double>();
  CHECK(r.out.find(
            fmt::format("FAIL two: 1 of 2 compared values differ from refs/two.json: metrics.response_mean_ms: {}, "
                        "reference {} (difference {}, allowed {})\n",
                        mean, stale, std::fabs(mean - stale), 0.001 * std::fabs(stale))) != std::string::npos);
  CHECK(r.out.find("PASS all (") == 0);

  // --update rewrites only the changed reference and shows old -> new.
  r = run_drivevp(dir.path(), {"regress", suite, "--out", out, "--update"});
  CHECK(r.status == 0);
  CHECK(r.out.find(fmt::format("  reference refs/two.json: 1 value changed\n    metrics.response_mean_ms: {} -> {}\n",
                               stale, mean)) != std::string::npos);
  CHECK(r.out.find("refs/all.json") == std::string::npos);
  CHECK(r.out.find("; 1 reference written") != std::string::npos);
  CHECK(read_text(two) == reference_text({{"metrics.response_mean_ms", mean}, {"requests.completed", 300}}));
  CHECK(read_text(all) == all_text);

  // Exit 2: bad input, nothing run or written.
  write_text(dir / "bad.toml", "[suite]\nscenario = \"base.toml\"\n[[case]]\nname = \"x\"\nchecks = \"sometimes\"\n");
  r = run_drivevp(dir.path(), {"regress", (dir / "bad.toml").string(), "--out", (dir / "bad-out").string()});
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "drivevp regress: configuration error: " + (dir / "bad.toml").string() +
                     ":5: case 'x': checks: expected \"pass\" or \"fail\", found 'sometimes'\n");
  CHECK_FALSE(fs::exists(dir / "bad-out"));
  // Exit 3: the output directory cannot be created (a file is in the way).
  write_text(dir / "blocker", "");
  r = run_drivevp(dir.path(), {"regress", suite, "--out", (dir / "blocker" / "out").string()});
  CHECK(r.status == 3);
  CHECK(r.err.rfind("drivevp regress: output error: cannot create ", 0) == 0);
}

}  // namespace
}  // namespace drivevp
