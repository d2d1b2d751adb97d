// The drivevp command line.
//
//   drivevp run [SCENARIO.toml] [--set KEY=VALUE ...] [--out DIR] [--lenient] [--trace]
//   drivevp sweep EXPERIMENT.toml [--jobs N] [--out DIR] [--set KEY=VALUE ...] [--resume] [--dry-run]
//                 [--timeout S]
//   drivevp sweep EXPERIMENT.toml --slurm[=script] [--partition P] [--time T] [--array-chunk K] [--out DIR]
//   drivevp sweep --collect DIR
//   drivevp keys
//   drivevp admission [--tasks N] [--seed S] [--aperiodic-weight XA] [--tasks-path FILE]
//   drivevp regress SUITE.toml [--jobs N] [--out DIR] [--junit FILE] [--update] [--timeout S]
//   drivevp import-disksim X.parv|X.diskspecs [--out drives/NAME.toml]
//
// Exit status: 0 run completed and every checker passed; 1 a checker failed; 2 bad input
// (command line, scenario, trace) or the output directory is in use by another run — nothing was
// simulated or written; 3 a simulation or I/O error (earlier outputs unchanged); 128 + N killed by
// signal N after removing the run's partial files (SIGINT 130, SIGTERM 143, SIGHUP 129).
// drivevp regress: 0 every case passed; 1 a case failed; 2 bad input (nothing run); 3 I/O error.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <systemc>

#include "firmware/rounds/wrr_admission.h"
#include "hw_models/disk/disksim_import.h"
#include "testbench/experiment/regress.h"
#include "testbench/experiment/sweep.h"
#include "testbench/scenario/scenario.h"
#include "testbench/sim/output_dir.h"
#include "testbench/sim/platform.h"
#include "testbench/sim/sanitizer_stack.h"
#include "testbench/trace/trace_reader.h"

namespace {

/// `drivevp admission`: the WRR-SCAN admission tests (paper 004 eqs. 7, 8, 10) on a task set, per
/// policy: the largest n whose first n tasks pass together, the tasks online admission takes, and
/// the inequality that stops the first failing prefix.
int admission_main(const drivevp::RateTaskGeneration& g, const std::string& tasks_path, std::uint32_t x_a) {
  using namespace drivevp;
  const std::vector<RateTaskSpec> tasks =
      tasks_path.empty() ? generate_rate_tasks(g) : read_rate_tasks(tasks_path, g.block_bytes);
  std::vector<wrr::TaskDemand> demand;
  for (const RateTaskSpec& t : tasks) demand.push_back({t.period_ms, t.buffer_blocks});
  wrr::DiskBounds bounds;
  bounds.block_bytes = g.block_bytes;
  if (tasks_path.empty())
    fmt::print(
        "task set: {} generated tasks (P_i ~ Normal({}, {}) ms, B_i ~ Normal({}, {}) B, seed {}), C = {} B, x_a = {}\n",
        tasks.size(), g.period_mean_ms, g.period_stddev_ms, g.buffer_mean_bytes, g.buffer_stddev_bytes, g.seed,
        g.block_bytes, x_a);
  else
    fmt::print("task set: {} tasks from {}, C = {} B, x_a = {}\n", tasks.size(), tasks_path, g.block_bytes, x_a);
  fmt::print("bounds (004 Table 2): t_s = {} ms, t_r = {} ms, V = {} B/s, C/V = {:.4g} ms\n", bounds.t_s_ms,
             bounds.t_r_ms, bounds.v_bytes_per_s, bounds.block_ms());
  fmt::print("{:<12} {:<9} {:>12} {:>16}  {}\n", "policy", "test", "max prefix", "online admitted",
             "first failing prefix");
  for (const char* key : {"wrr_scan_r", "wrr_scan_c", "wrr_scan_ca"}) {
    const wrr::Variant v = *wrr::variant_of_policy(key);
    const std::size_t prefix = wrr::max_admitted_prefix(v, demand, x_a, bounds);
    const std::size_t online = wrr::admit_online(v, demand, x_a, bounds).size();
    std::string why = "none: every prefix passes";
    if (prefix < demand.size()) {
      const std::vector<wrr::TaskDemand> first(demand.begin(),
                                               demand.begin() + static_cast<std::ptrdiff_t>(prefix) + 1);
      why = fmt::format("n = {}: {}", prefix + 1, wrr::plan(v, first, x_a, bounds).reason);
    }
    fmt::print("{:<12} {:<9} {:>12} {:>16}  {}\n", key, wrr::equation(v), prefix,
               fmt::format("{} of {}", online, demand.size()), why);
  }
  return 0;
}

/// The command line's exit: no signal may change the outcome from here on.
int finish(int status) {
  drivevp::finish_interrupt_cleanup();
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  // First, before any thread exists: SIGINT/SIGTERM/SIGHUP remove the run's partial files.
  drivevp::install_interrupt_cleanup();
  CLI::App app{"drivevp: SystemC/TLM-2.0 virtual platform of a storage drive"};
  app.require_subcommand(1);
  std::string scenario_path, out_dir;
  std::vector<std::string> sets;
  bool lenient = false, trace = false;
  CLI::App* run = app.add_subcommand("run", "run a scenario (the embedded default when no file is given)");
  run->add_option("scenario", scenario_path, "scenario TOML file")->check(CLI::ExistingFile);
  run->add_option("--set", sets, "override a scenario key, e.g. --set firmware.policy=clook (repeatable)")
      ->type_name("KEY=VALUE");
  run->add_option("--out", out_dir, "output directory (overrides output.dir)");
  run->add_flag("--lenient", lenient, "skip malformed trace lines, count and report them");
  run->add_flag("--trace", trace, "write waveforms (same as --set trace.enabled=true)");
  app.add_subcommand("keys", "list every scenario key with its type and range");
  std::string disksim_path, drive_out;
  CLI::App* import_disksim = app.add_subcommand(
      "import-disksim",
      "convert a DiskSim 4.0 disk description (.parv or .diskspecs) into a drive TOML (docs/models/drives.md)");
  import_disksim->add_option("file", disksim_path, "the .parv or .diskspecs file")->required();
  import_disksim->add_option("--out", drive_out, "write the drive TOML here (default: standard output)");
  drivevp::RateTaskGeneration generation;
  generation.count = 100;
  std::string admission_tasks_path;
  std::uint32_t admission_x_a = 2;
  CLI::App* admission =
      app.add_subcommand("admission", "WRR-SCAN admission tests (paper 004 eqs. 7, 8, 10): tasks admitted per policy");
  admission->add_option("--tasks", generation.count, "tasks to generate (004 §4 distributions; default 100)")
      ->check(CLI::Range(1, 10000));
  admission->add_option("--seed", generation.seed, "seed of the generated task set (default 1)");
  admission
      ->add_option("--period-stddev-ms", generation.period_stddev_ms,
                   "standard deviation of the periods, ms (default 31.623: 004 §4's \"1000-ms variance\")")
      ->check(CLI::Range(0.0, 1e9));
  admission
      ->add_option("--buffer-stddev-bytes", generation.buffer_stddev_bytes,
                   "standard deviation of the buffers, bytes (default 5418.6: 004 §4's \"28-KB variance\")")
      ->check(CLI::Range(0.0, 1e9));
  admission->add_option("--aperiodic-weight", admission_x_a, "x_a, the aperiodic server's blocks per round (default 2)")
      ->check(CLI::Range(1, 65536));
  admission->add_option("--tasks-path", admission_tasks_path, "a TOML task list instead of a generated set")
      ->check(CLI::ExistingFile);
  drivevp::experiment::SweepOptions sw;
  CLI::App* sweep = app.add_subcommand("sweep", "run an experiment's points (docs/experiments.md)");
  sweep->add_option("experiment", sw.experiment, "experiment TOML file (a sweep directory with --slurm-task)");
  sweep->add_option("--set", sw.sets, "override a scenario key at every point (repeatable)")->type_name("KEY=VALUE");
  sweep->add_option("--jobs,-j", sw.jobs, "runs at a time (default: the number of cores)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{4096}));
  sweep->add_option("--out", sw.out, "output directory (default: out/sweeps/<experiment name>)");
  sweep->add_flag("--resume", sw.resume, "continue an earlier sweep in --out (a plain rerun does the same)");
  sweep->add_option("--timeout", sw.timeout_s, "stop and fail a run still running after SECONDS")
      ->type_name("SECONDS")
      ->check(CLI::Range(0.001, 1e7));
  sweep->add_flag("--dry-run", sw.dry_run, "validate every point and list them; run and write nothing");
  CLI::Option* slurm =
      sweep->add_option("--slurm", sw.slurm, "run as a Slurm job array (=script: only write the script)")
          ->expected(0, 1)
          ->type_name("[=script]");
  sweep->add_option("--partition", sw.partition, "Slurm partition (default: the cluster's default)");
  sweep->add_option("--time", sw.time_limit, "Slurm time limit per array task, e.g. 30:00 or 1-00:00:00");
  sweep->add_option("--array-chunk", sw.array_chunk, "points per Slurm array task (default 1)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1000000}));
  std::size_t slurm_task = 0;
  CLI::Option* task =
      sweep->add_option("--slurm-task", slurm_task, "run one array task (written into the script)")->group("");
  sweep->add_option("--collect", sw.collect, "write the tables and figures of a finished (Slurm) sweep in DIR")
      ->type_name("DIR");
  drivevp::experiment::RegressOptions regress_options;
  CLI::App* regress = app.add_subcommand("regress", "run a regression suite (docs/experiments.md)");
  regress->add_option("suite", regress_options.suite, "suite TOML file")->required();
  regress->add_option("--jobs", regress_options.jobs, "runs at a time (default: the number of cores)")
      ->check(CLI::Range(1, 4096));
  regress->add_option("--out", regress_options.out_dir, "output directory (default: out/regress/<suite name>)");
  regress->add_option("--junit", regress_options.junit, "write a JUnit XML report to FILE")->type_name("FILE");
  regress->add_option("--timeout", regress_options.timeout_s, "fail a case still running after SECONDS")
      ->type_name("SECONDS")
      ->check(CLI::Range(0.001, 1e7));
  regress->add_flag("--update", regress_options.update, "rewrite the reference files, showing what changed");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int status = app.exit(e);  // prints help or the error
    return finish(status == 0 ? 0 : 2);
  }

  if (app.got_subcommand("keys")) {
    std::cout << drivevp::describe_scenario_keys();
    return finish(0);
  }
  if (app.got_subcommand("import-disksim")) {
    try {
      const std::string toml = drivevp::write_drive_toml(drivevp::disksim::import_drive(disksim_path));
      if (drive_out.empty()) {
        std::cout << toml;
      } else {
        std::ofstream out(drive_out);
        out << toml;
        if (!out) {
          fmt::print(stderr, "drivevp import-disksim: cannot write {}\n", drive_out);
          return finish(3);
        }
      }
      return finish(0);
    } catch (const std::exception& e) {
      fmt::print(stderr, "drivevp import-disksim: {}\n", e.what());
      return finish(2);
    }
  }
  if (app.got_subcommand("admission")) {
    try {
      return finish(admission_main(generation, admission_tasks_path, admission_x_a));
    } catch (const std::invalid_argument& e) {
      fmt::print(stderr, "drivevp admission: {}\n", e.what());
      return finish(2);
    }
  }
  if (app.got_subcommand("sweep")) {
    if (slurm->count() > 0 && sw.slurm.empty()) sw.slurm = "submit";
    if (task->count() > 0) sw.slurm_task = slurm_task;
    if (sw.experiment.empty() && sw.collect.empty()) {
      fmt::print(stderr, "drivevp sweep: expected EXPERIMENT.toml or --collect DIR, found neither\n");
      return finish(2);
    }
    try {
      return finish(drivevp::experiment::sweep_main(sw));
    } catch (const drivevp::ConfigError& e) {
      fmt::print(stderr, "drivevp sweep: configuration error: {}\n", e.what());
      return finish(2);
    } catch (const std::exception& e) {
      fmt::print(stderr, "drivevp sweep: error: {}\n", e.what());
      return finish(3);
    }
  }
  if (app.got_subcommand("regress"))
    return finish(drivevp::experiment::regress_main(regress_options, std::cout, std::cerr));
  if (lenient) sets.push_back("workload.lenient=true");
  if (trace) sets.insert(sets.begin(), "trace.enabled=true");
  sc_core::sc_report_handler::set_actions(sc_core::SC_ERROR, sc_core::SC_THROW | sc_core::SC_LOG);
  // sc_stop() at the end of the workload is the normal end of a run, not news.
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  try {
    drivevp::Scenario sc = drivevp::load_scenario(scenario_path, sets);
    // --out is a path, not a TOML value: applied as given (it need not be valid UTF-8).
    if (!out_dir.empty()) sc.output_dir = out_dir;
    const drivevp::RunResult r = drivevp::run_scenario(sc);
    std::cout << drivevp::format_summary(r) << "  outputs      " << sc.output_dir << "/summary.json"
              << (sc.requests_csv ? ", requests.csv" : "")
              << (r.summary["files"]["response_cdf_png"].is_string() ? ", response_histogram.png, response_cdf.png"
                                                                     : "")
              << (r.summary["files"].contains("validation_cdf_csv") ? ", validation_cdf.csv" : "")
              << (r.summary["files"].value("validation_cdf_png", nlohmann::json()).is_string() ? ", validation_cdf.png"
                                                                                               : "")
              << (sc.tracing ? ", waves.vcd, waves.gtkw" : "") << (sc.trace_fst ? ", waves.fst" : "") << "\n";
    std::cout.flush();
    if (!r.saturation_warning.empty()) fmt::print(stderr, "drivevp: warning: {}\n", r.saturation_warning);
    return finish(r.checks_passed ? 0 : 1);
  } catch (const drivevp::ConfigError& e) {
    drivevp::forget_unwound_frames();
    fmt::print(stderr, "drivevp: configuration error: {}\n", e.what());
    return finish(2);
  } catch (const drivevp::TraceError& e) {
    drivevp::forget_unwound_frames();
    fmt::print(stderr, "drivevp: trace error: {}\n", e.what());
    return finish(2);
  } catch (const drivevp::OutputBusyError& e) {
    drivevp::forget_unwound_frames();
    fmt::print(stderr, "drivevp: {}\n", e.what());
    return finish(2);
  } catch (const drivevp::OutputError& e) {
    drivevp::forget_unwound_frames();
    fmt::print(stderr, "drivevp: output error: {}\n", e.what());
    return finish(3);
  } catch (const sc_core::sc_report& e) {
    drivevp::forget_unwound_frames();
    fmt::print(stderr, "drivevp: simulation error: {}\n", e.what());
    return finish(3);
  } catch (const std::exception& e) {
    drivevp::forget_unwound_frames();
    fmt::print(stderr, "drivevp: error: {}\n", e.what());
    return finish(3);
  }
}
