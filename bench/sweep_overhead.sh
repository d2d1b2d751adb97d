#!/usr/bin/env bash
# Sweep overhead per point (docs/performance.md "Sweeps"): what `drivevp sweep` adds to each
# point beyond the point's own run — the child's process start, validation of the point,
# writing its scenario and result record, and collecting results.csv / summary.csv.
#
#   bench/sweep_overhead.sh [-n REPS] [BINARY]     (default: build/drivevp, 5 repetitions)
#
# The experiment has 200 trivial points (one request each, one replication, --jobs 1). Each
# repetition times, side by side in this invocation:
#   A  `drivevp sweep` of the 200 points (wall time of the whole command);
#   B  the same 200 runs as plain `drivevp run` processes started one after another from the
#      shell (the points' own runs, process start included);
# Overhead per point = A / 200 (everything the sweep costs per trivial point), and
# (A - B) / 200 (what the sweep adds beyond starting each run as its own process). Prints the
# medians over the repetitions.
set -euo pipefail
reps=5
if [ "${1:-}" = "-n" ]; then reps=$2; shift 2; fi
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=${1:-$root/build/drivevp}
[ -x "$bin" ] || { echo "$0: not an executable: $bin (build first: scripts/build.sh)" >&2; exit 2; }
export SC_COPYRIGHT_MESSAGE=DISABLE
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/trivial.toml" <<'TOML'
[experiment]
name = "trivial"
[device]
preset = "hp97560"
[workload]
kind = "synthetic"
rate_per_s = 10.0
[run]
requests = 1
check_data = false
[axes]
"run.warmup_requests" = { from = 0, to = 199, step = 1 }
[metrics]
completed = "requests.completed"
mean_ms = "metrics.response_mean_ms"
TOML
now() { date +%s%N; }
a_list=() b_list=()
for r in $(seq "$reps"); do
  rm -rf "$tmp/sweep"
  t0=$(now)
  "$bin" sweep "$tmp/trivial.toml" --jobs 1 --out "$tmp/sweep" >/dev/null 2>&1
  t1=$(now)
  [ "$(grep -c ',ok,' "$tmp/sweep/results.csv")" = 200 ] || { echo "$0: the sweep did not run 200 points" >&2; exit 1; }
  t2=$(now)
  for p in "$tmp"/sweep/points/*/; do
    "$bin" run "$p/scenario.toml" --set run.seed=1 --out "$tmp/plain" >/dev/null 2>&1
  done
  t3=$(now)
  a=$(( (t1 - t0) / 1000 )) b=$(( (t3 - t2) / 1000 ))
  a_list+=("$a") b_list+=("$b")
  awk -v r="$r" -v a="$a" -v b="$b" 'BEGIN {
    printf "rep %d: sweep %.3f s (%.2f ms/point); plain runs %.3f s (%.2f ms/point); added %.2f ms/point\n",
      r, a / 1e6, a / 2e5, b / 1e6, b / 2e5, (a - b) / 2e5 }'
done
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
am=$(median "${a_list[@]}") bm=$(median "${b_list[@]}")
d_list=()
for i in "${!a_list[@]}"; do d_list+=($(( a_list[i] - b_list[i] ))); done
dm=$(median "${d_list[@]}")
awk -v n="$reps" -v a="$am" -v b="$bm" -v d="$dm" 'BEGIN {
  printf "median of %d: sweep %.2f ms/point; plain runs %.2f ms/point; the sweep adds %.2f ms/point\n",
    n, a / 2e5, b / 2e5, d / 2e5 }'
