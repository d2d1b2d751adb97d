#!/usr/bin/env bash
# A real Slurm job array runs drivevp: a single-node cluster on localhost (slurm_cluster.sh, in a
# temporary directory, stopped on exit), a 3-task array job whose task I runs
#   drivevp run configs/synthetic-hp97560.toml --set run.requests=300 --set run.warmup_requests=100
#           --set run.seed=<42 + I> --set output.plots=false --out <shared>/task-I
# then checks that every task completed (state and exit code from scontrol), that its
# summary.json and requests.csv are byte-identical to a local run of the same command, and that
# the three tasks' results differ (each task ran its own index).
#
# Usage: test_slurm_cluster.sh DRIVEVP SOURCE_DIR
# Exit status: 0 pass; 1 a check failed; 2 usage error; 77 skipped (the daemons cannot run here:
# the reason is printed).
set -euo pipefail

me=test_slurm_cluster
fail() {
  echo "$me: FAIL: $*" >&2
  exit 1
}
[[ $# -eq 2 && -x $1 && -d $2 ]] || {
  echo "usage: $me.sh DRIVEVP SOURCE_DIR" >&2
  exit 2
}
drivevp=$(realpath "$1")
src=$(realpath "$2")
cluster_sh=$src/testbench/tests/slurm/slurm_cluster.sh
work=$(mktemp -d "${TMPDIR:-/tmp}/$me.XXXXXX")
cleanup() {
  bash "$cluster_sh" stop "$work/cluster" || echo "$me: warning: the cluster did not stop cleanly" >&2
  rm -rf "$work"
}
trap cleanup EXIT

# --- the cluster ----------------------------------------------------------------------------------
status=0
env_line=$(bash "$cluster_sh" start "$work/cluster") || status=$?
if [ $status -eq 77 ]; then
  echo "$me: skipped: the Slurm daemons cannot run here (see above)" >&2
  exit 77
fi
[ $status -eq 0 ] || fail "the cluster did not start (exit status $status)"
eval "$env_line"
[ -f "$SLURM_CONF" ] || fail "start printed no usable SLURM_CONF: '$env_line'"

# --- the array job (the "shared" directory is the storage every node sees) -------------------------
shared=$work/shared
mkdir -p "$shared"
scenario=$src/configs/synthetic-hp97560.toml
run_args=(run "$scenario" --set run.requests=300 --set run.warmup_requests=100 --set output.plots=false)
{
  echo '#!/bin/bash'
  echo "#SBATCH --job-name=$me"
  echo '#SBATCH --array=0-2'
  echo '#SBATCH --ntasks=1'
  echo '#SBATCH --cpus-per-task=1'
  echo "#SBATCH --output=\"$shared/task-%a.log\""
  echo "#SBATCH --chdir=\"$shared\""
  printf 'exec %q' "$drivevp"
  printf ' %q' "${run_args[@]}"
  # shellcheck disable=SC2016  # expanded by the job, not here
  printf ' --set "run.seed=$((42 + SLURM_ARRAY_TASK_ID))" --out %q/"task-$SLURM_ARRAY_TASK_ID"\n' "$shared"
} >"$shared/array.sbatch"
job=$(sbatch --parsable "$shared/array.sbatch") || fail "sbatch refused the job"
job=${job%%;*}
echo "$me: submitted array job $job"

states=$(bash "$cluster_sh" wait "$work/cluster" "$job" 300) || {
  echo "$states" >&2
  for f in "$shared"/task-*.log; do
    [ -f "$f" ] && { echo "--- $f" && tail -n 20 "$f"; } >&2
  done
  fail "array job $job did not complete"
}
[ "$states" = $'0 COMPLETED 0:0\n1 COMPLETED 0:0\n2 COMPLETED 0:0' ] ||
  fail "expected tasks 0-2 COMPLETED with exit code 0:0, found: $states"

# --- the results against local runs ---------------------------------------------------------------
for i in 0 1 2; do
  [ -f "$shared/task-$i/summary.json" ] || fail "task $i wrote no summary.json (log: $(cat "$shared/task-$i.log"))"
  "$drivevp" "${run_args[@]}" --set "run.seed=$((42 + i))" --out "$work/local-$i" >/dev/null ||
    fail "the local run $i failed"
  for f in summary.json requests.csv; do
    cmp "$shared/task-$i/$f" "$work/local-$i/$f" >&2 || fail "task $i: $f differs from the local run's"
  done
done
if cmp -s "$shared/task-0/summary.json" "$shared/task-1/summary.json" ||
  cmp -s "$shared/task-1/summary.json" "$shared/task-2/summary.json"; then
  fail "array tasks produced identical results: they did not run with their own index"
fi
echo "$me: PASS: array job $job: 3 tasks on Slurm, results byte-identical to local runs"
