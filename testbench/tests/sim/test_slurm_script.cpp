// The Slurm job-array script of `drivevp sweep --slurm` (testbench/experiment/slurm.h): its exact
// text, the compaction of array indices, the --time and --partition checks with their messages,
// the script's quoting as bash really reads it, and submission through a stand-in sbatch on PATH
// (the real cluster round trip is testbench/tests/slurm/test_slurm_cluster.sh).
#include <catch2/catch_test_macros.hpp>

#include <sys/stat.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "sim_test_util.h"
#include "testbench/experiment/slurm.h"

namespace drivevp::experiment {
namespace {

using simtest::read_text;
using simtest::TempDir;
using simtest::write_text;
using simtest::fs::path;

/// The message of the ConfigError `f` throws, or "<no error>".
template <typename F>
std::string config_error(F&& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "<no error>";
}

/// The message of the std::runtime_error `f` throws, or "<no error>".
template <typename F>
std::string runtime_error_of(F&& f) {
  try {
    f();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "<no error>";
}

SbatchOptions base_options() {
  SbatchOptions o;
  o.job_name = "hdd-policies";
  o.partition = "debug";
  o.time_limit = "1-12:00:00";
  o.array_chunk = 4;
  o.tasks = 5;
  o.drivevp = "/shared/bin/drivevp";
  o.sweep_dir = "/shared/sweeps/hdd";
  return o;
}

/// Makes `path` an executable shell script with `body`.
void write_script(const path& p, const std::string& body) {
  write_text(p, "#!/bin/sh\n" + body);
  REQUIRE(::chmod(p.c_str(), 0755) == 0);
}

TEST_CASE("slurm: the whole job-array script for every option", "[slurm]") {
  CHECK(sbatch_script(base_options()) ==
        "#!/bin/bash\n"
        "# A drivevp sweep as a Slurm job array, written by `drivevp sweep --slurm`: array task I runs\n"
        "# the incomplete runs of points [I*4, (I+1)*4) of the plan in the sweep directory.\n"
        "# Submit with: sbatch THIS_FILE (docs/experiments.md \"Running on Slurm\").\n"
        "#SBATCH --job-name=hdd-policies\n"
        "#SBATCH --array=0-4\n"
        "#SBATCH --partition=debug\n"
        "#SBATCH --time=1-12:00:00\n"
        "#SBATCH --ntasks=1\n"
        "#SBATCH --cpus-per-task=1\n"
        "#SBATCH --output=\"/shared/sweeps/hdd/slurm/task-%a.log\"\n"
        "#SBATCH --chdir=\"/shared/sweeps/hdd\"\n"
        "exec '/shared/bin/drivevp' sweep --slurm-task \"$SLURM_ARRAY_TASK_ID\" --array-chunk 4 "
        "'/shared/sweeps/hdd'\n");
}

TEST_CASE("slurm: resume script: only the given tasks, defaults left to Slurm, awkward names", "[slurm]") {
  SbatchOptions o = base_options();
  o.job_name = "hdd policies/v2 (büro)";
  o.partition.clear();
  o.time_limit.clear();
  o.array_chunk = 1;
  o.tasks = 13;
  o.task_indices = {12, 0, 1, 2, 3, 7, 9, 10, 11, 3};
  o.drivevp = "/opt/it's/drivevp";
  o.sweep_dir = "/data/50% load/";
  CHECK(sbatch_script(o) ==
        "#!/bin/bash\n"
        "# A drivevp sweep as a Slurm job array, written by `drivevp sweep --slurm`: array task I runs\n"
        "# the incomplete runs of points [I*1, (I+1)*1) of the plan in the sweep directory.\n"
        "# Submit with: sbatch THIS_FILE (docs/experiments.md \"Running on Slurm\").\n"
        "#SBATCH --job-name=hdd_policies_v2__b__ro_\n"
        "#SBATCH --array=0-3,7,9-12\n"
        "#SBATCH --ntasks=1\n"
        "#SBATCH --cpus-per-task=1\n"
        "#SBATCH --output=\"/data/50%% load/slurm/task-%a.log\"\n"
        "#SBATCH --chdir=\"/data/50% load/\"\n"
        "exec '/opt/it'\\''s/drivevp' sweep --slurm-task \"$SLURM_ARRAY_TASK_ID\" --array-chunk 1 "
        "'/data/50% load/'\n");
  o.job_name.clear();
  CHECK(sbatch_script(o).find("#SBATCH --job-name=drivevp-sweep\n") != std::string::npos);
}

TEST_CASE("slurm: bash runs the script's command with the paths intact", "[slurm]") {
  TempDir dir("slurm-bash");
  const path odd = dir / "a dir with 'quotes' and $HOME";
  simtest::fs::create_directories(odd);
  const path args = dir / "args.txt";
  // A stand-in drivevp: one argument per line, then the working directory.
  write_script(odd / "drivevp", "for a in \"$@\"; do printf '%s\\n' \"$a\"; done > '" + args.string() + "'\n");
  SbatchOptions o = base_options();
  o.drivevp = (odd / "drivevp").string();
  o.sweep_dir = odd.string();
  o.array_chunk = 3;
  write_text(dir / "job.sh", sbatch_script(o));
  const std::string cmd = "env SLURM_ARRAY_TASK_ID=17 bash '" + (dir / "job.sh").string() + "'";
  REQUIRE(std::system(cmd.c_str()) == 0);
  CHECK(read_text(args) == "sweep\n--slurm-task\n17\n--array-chunk\n3\n" + odd.string() + "\n");
}

TEST_CASE("slurm: array indices in Slurm's compact form", "[slurm]") {
  CHECK(compact_array_ranges({}) == "");
  CHECK(compact_array_ranges({5}) == "5");
  CHECK(compact_array_ranges({3, 1, 2}) == "1-3");
  CHECK(compact_array_ranges({0, 1, 2, 3, 7, 9, 10, 11, 12}) == "0-3,7,9-12");
  CHECK(compact_array_ranges({0, 0, 1, 3, 3}) == "0-1,3");
  CHECK(compact_array_ranges({0, 2, 4}) == "0,2,4");
  CHECK(compact_array_ranges({999, 1000, 1001, 5}) == "5,999-1001");
}

TEST_CASE("slurm: array tasks of a sweep and of its incomplete points", "[slurm]") {
  CHECK(array_task_count(10, 4) == 3);
  CHECK(array_task_count(8, 4) == 2);
  CHECK(array_task_count(1, 1) == 1);
  CHECK(array_task_count(0, 3) == 0);
  CHECK(array_tasks_of_points({9, 0, 1, 8, 3}, 4) == std::vector<std::size_t>{0, 2});
  CHECK(array_tasks_of_points({5, 6}, 1) == std::vector<std::size_t>{5, 6});
  CHECK(array_tasks_of_points({}, 2).empty());
  CHECK_THROWS_AS(array_task_count(4, 0), std::invalid_argument);
  CHECK_THROWS_AS(array_tasks_of_points({1}, 0), std::invalid_argument);
}

TEST_CASE("slurm: --time accepts Slurm's formats and names the bad value", "[slurm]") {
  for (const char* ok : {"0", "30", "30:15", "90:00", "1:30:00", "2-12", "2-12:30", "2-12:30:15", "UNLIMITED",
                         "infinite", "24855-03:14:07", "35791394"})
    CHECK(config_error([&] { validate_time_limit(ok); }) == "<no error>");
  const std::string formats =
      "--time: expected a time limit as MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS (decimal numbers) or "
      "UNLIMITED, found ";
  for (const char* bad :
       {"1h", "", "1:2:3:4", "1-2-3", "-5", "5-", ":30", "30:", "1-2:3:4:5", "1.5", " 30", "+30", "2-1x", "forever"})
    CHECK(config_error([&] { validate_time_limit(bad); }) == formats + "'" + bad + "'");
  CHECK(config_error([] { validate_time_limit("1\n2"); }) == formats + "'1\\x0A2'");
  const std::string too_long = "--time: expected a time limit of at most 24855-03:14:07 (2^31 - 1 seconds), found ";
  CHECK(config_error([] { validate_time_limit("24855-03:14:08"); }) == too_long + "'24855-03:14:08'");
  CHECK(config_error([] { validate_time_limit("35791395"); }) == too_long + "'35791395'");
  CHECK(config_error([] { validate_time_limit("99999999999999999999"); }) == too_long + "'99999999999999999999'");
}

TEST_CASE("slurm: --partition accepts names and lists and names the bad value", "[slurm]") {
  for (const char* ok : {"debug", "gpu,cpu", "long-q.v2", "A_1"})
    CHECK(config_error([&] { validate_partition(ok); }) == "<no error>");
  for (const char* bad : {"", "a b", "gpu,", ",gpu", "gpu,,cpu", "p;rm -rf", "q\"", "ü"})
    CHECK(config_error([&] { validate_partition(bad); }) ==
          std::string("--partition: expected a partition name or comma-separated names (letters, digits, '_', '-', "
                      "'.'), found '") +
              bad + "'");
}

TEST_CASE("slurm: the script refuses what it cannot write", "[slurm]") {
  SbatchOptions o = base_options();
  o.time_limit = "2 hours";
  CHECK(config_error([&] { (void)sbatch_script(o); }) ==
        "--time: expected a time limit as MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS (decimal numbers) or "
        "UNLIMITED, found '2 hours'");
  o = base_options();
  o.partition = "a b";
  CHECK(config_error([&] { (void)sbatch_script(o); }).rfind("--partition: expected", 0) == 0);
  o = base_options();
  o.sweep_dir = "sweeps/hdd";
  CHECK(config_error([&] { (void)sbatch_script(o); }) ==
        "sweep directory: expected an absolute path, found 'sweeps/hdd'");
  o = base_options();
  o.drivevp = "/bin/drive\"vp";
  CHECK(config_error([&] { (void)sbatch_script(o); }) ==
        "drivevp binary: expected a path without '\"', '\\' or control characters (an #SBATCH line cannot hold "
        "them), found '/bin/drive\"vp'");
  o = base_options();
  o.sweep_dir = "/data/a\nb";
  CHECK(config_error([&] { (void)sbatch_script(o); }) ==
        "sweep directory: expected a path without '\"', '\\' or control characters (an #SBATCH line cannot hold "
        "them), found '/data/a\\x0Ab'");
  o = base_options();
  o.task_indices = {0, 5};
  CHECK(config_error([&] { (void)sbatch_script(o); }) == "sbatch script: expected array task indices below 5, found 5");
  o = base_options();
  o.tasks = 0;
  CHECK(config_error([&] { (void)sbatch_script(o); }) == "sbatch script: expected at least one array task, found 0");
  o = base_options();
  o.array_chunk = 0;
  CHECK(config_error([&] { (void)sbatch_script(o); }) == "--array-chunk: expected an integer >= 1, found '0'");
}

TEST_CASE("slurm: write_sbatch_script creates <sweep>/slurm and an executable script", "[slurm]") {
  TempDir dir("slurm-write");
  SbatchOptions o = base_options();
  o.sweep_dir = (dir / "sweep").string();
  const std::string script = write_sbatch_script(o);
  CHECK(script == (dir / "sweep" / "slurm" / "sweep.sbatch").string());
  CHECK(read_text(script) == sbatch_script(o));
  struct stat st {};
  REQUIRE(::stat(script.c_str(), &st) == 0);
  CHECK((st.st_mode & 07777) == 0755);
  CHECK(simtest::list_dir(dir / "sweep" / "slurm") == std::vector<std::string>{"sweep.sbatch"});
}

TEST_CASE("slurm: submit_sbatch runs sbatch --parsable and returns the job id", "[slurm]") {
  TempDir dir("slurm-submit");
  const path args = dir / "args.txt";
  write_script(dir / "sbatch", "printf '%s|' \"$@\" > '" + args.string() + "'\necho '4242;cluster1'\n");
  REQUIRE(::setenv("PATH", dir.path().c_str(), 1) == 0);
  CHECK(submit_sbatch("/shared/sweeps/hdd/slurm/sweep.sbatch") == "4242");
  CHECK(read_text(args) == "--parsable|/shared/sweeps/hdd/slurm/sweep.sbatch|");

  write_script(dir / "sbatch", "echo 77\n");  // no cluster name
  CHECK(submit_sbatch("x") == "77");
}

TEST_CASE("slurm: submit_sbatch reports sbatch's error and a missing sbatch", "[slurm]") {
  TempDir dir("slurm-submit-fail");
  REQUIRE(::setenv("PATH", dir.path().c_str(), 1) == 0);
  CHECK(runtime_error_of([] { (void)submit_sbatch("job.sh"); }) ==
        "sbatch not found: install slurm-wlm or use --slurm=script");

  write_script(dir / "sbatch",
               "echo 'sbatch: error: invalid partition specified: nope' >&2\n"
               "echo 'sbatch: error: Batch job submission failed: Invalid partition name specified' >&2\nexit 1\n");
  CHECK(runtime_error_of([] { (void)submit_sbatch("job.sh"); }) ==
        "sbatch failed (exit status 1): sbatch: error: invalid partition specified: nope\n"
        "sbatch: error: Batch job submission failed: Invalid partition name specified");

  write_script(dir / "sbatch", "echo 'Submitted batch job 12'\n");  // not --parsable output
  CHECK(runtime_error_of([] { (void)submit_sbatch("job.sh"); }) ==
        "sbatch failed (exit status 0): printed 'Submitted batch job 12', not a job id");

  write_script(dir / "sbatch", "kill -TERM $$\n");
  CHECK(runtime_error_of([] { (void)submit_sbatch("job.sh"); }) == "sbatch failed (exit status 143): no output");
}

}  // namespace
}  // namespace drivevp::experiment
