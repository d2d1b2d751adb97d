// The drivevp command line.
//
//   drivevp run [SCENARIO.toml] [--set KEY=VALUE ...] [--out DIR] [--lenient] [--trace]
//   drivevp keys
//
// Exit status: 0 run completed and every checker passed; 1 a checker failed; 2 bad input
// (command line, scenario, trace) — nothing was simulated or written; 3 a simulation or I/O error.
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <systemc>

#include "testbench/scenario/scenario.h"
#include "testbench/sim/platform.h"
#include "testbench/trace/trace_reader.h"

int main(int argc, char** argv) {
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
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int status = app.exit(e);  // prints help or the error
    return status == 0 ? 0 : 2;
  }

  if (app.got_subcommand("keys")) {
    std::cout << drivevp::describe_scenario_keys();
    return 0;
  }
  if (!out_dir.empty()) sets.push_back("output.dir=" + nlohmann::json(out_dir).dump());
  if (lenient) sets.push_back("workload.lenient=true");
  if (trace) sets.insert(sets.begin(), "trace.enabled=true");
  sc_core::sc_report_handler::set_actions(sc_core::SC_ERROR, sc_core::SC_THROW | sc_core::SC_LOG);
  // sc_stop() at the end of the workload is the normal end of a run, not news.
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  try {
    const drivevp::Scenario sc = drivevp::load_scenario(scenario_path, sets);
    const drivevp::RunResult r = drivevp::run_scenario(sc);
    std::cout << drivevp::format_summary(r) << "  outputs      " << sc.output_dir << "/summary.json, requests.csv"
              << (r.summary["files"]["response_cdf_png"].is_string() ? ", response_histogram.png, response_cdf.png"
                                                                     : "")
              << (sc.tracing ? ", waves.vcd, waves.gtkw" : "") << (sc.trace_fst ? ", waves.fst" : "") << "\n";
    return r.checks_passed ? 0 : 1;
  } catch (const drivevp::ConfigError& e) {
    fmt::print(stderr, "drivevp: configuration error: {}\n", e.what());
    return 2;
  } catch (const drivevp::TraceError& e) {
    fmt::print(stderr, "drivevp: trace error: {}\n", e.what());
    return 2;
  } catch (const sc_core::sc_report& e) {
    fmt::print(stderr, "drivevp: simulation error: {}\n", e.what());
    return 3;
  } catch (const std::exception& e) {
    fmt::print(stderr, "drivevp: error: {}\n", e.what());
    return 3;
  }
}
