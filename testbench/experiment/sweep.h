// `drivevp sweep`: runs an experiment's points as child processes here (N at a time) or as a
// Slurm job array, then writes results.csv, summary.csv and the figures (docs/experiments.md).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace drivevp::experiment {

struct SweepOptions {
  std::string experiment;                 ///< EXPERIMENT.toml (not needed with collect / slurm_task)
  std::vector<std::string> sets;          ///< --set KEY=VALUE, applied to every point
  std::size_t jobs = 0;                   ///< runs at a time; 0 = the number of online cores
  std::string out;                        ///< output directory; "" = out/sweeps/<experiment name>
  bool resume = false;                    ///< require an earlier sweep of the same experiment in `out`
  bool dry_run = false;                   ///< validate and list the points; run and write nothing
  double timeout_s = 0;                   ///< per-run wall-clock limit, seconds; 0 = none
  std::string collect;                    ///< --collect DIR: tables and figures from finished runs
  std::string slurm;                      ///< "" no Slurm; "submit"; "script" (write the script only)
  std::string partition, time_limit;      ///< sbatch --partition / --time ("" = cluster defaults)
  std::size_t array_chunk = 1;            ///< points per array task (>= 1)
  std::optional<std::size_t> slurm_task;  ///< --slurm-task I (an array task; positional = DIR)
};

/// Runs the command; returns the exit status: 0 every run succeeded; 1 some run failed or is
/// missing (the others ran; the failures are listed); 2 bad input (nothing ran or was written);
/// 3 an I/O error or the figures could not be drawn (tables written).
int sweep_main(const SweepOptions& options);

}  // namespace drivevp::experiment
