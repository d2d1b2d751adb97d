#!/usr/bin/env bash
# A sweep killed with SIGKILL mid-way loses no finished run and leaves nothing a later run would
# trust: every result record left behind parses, the killed sweep's runs stop on their own
# (PR_SET_PDEATHSIG), and a rerun into the same directory runs only what is missing and writes
# results.csv and summary.csv byte-identical to an uninterrupted sweep's.
#   test_sweep_kill.sh DRIVEVP_BINARY
set -euo pipefail
[ -n "${DEBUG:-}" ] && set -x
drivevp=$1
tmp=$(mktemp -d)
trap 'pkill -KILL -f "$tmp/" 2>/dev/null || true; rm -rf "$tmp"' EXIT
export SC_COPYRIGHT_MESSAGE=DISABLE
cat >"$tmp/kill.toml" <<'TOML'
[experiment]
name = "kill"
replications = 3
[device]
preset = "hp97560"
[workload]
kind = "synthetic"
rate_per_s = 30.0
[run]
requests = 3000
[axes]
"firmware.policy" = ["fcfs", "sstf", "clook", "sptf"]
"workload.rate_per_s" = [20, 30, 40]
[metrics]
mean_ms = "metrics.response_mean_ms"
p99_ms = "metrics.response_p99_ms"
TOML
total=36
"$drivevp" sweep "$tmp/kill.toml" --jobs 2 --out "$tmp/ref" >/dev/null 2>&1

for round in 1 2; do
  out=$tmp/killed$round
  "$drivevp" sweep "$tmp/kill.toml" --jobs 2 --out "$out" >/dev/null 2>&1 &
  pid=$!
  # Kill it once some runs (round 1: 6, round 2: 15) have finished and others are running.
  want=$((round == 1 ? 6 : 15))
  for _ in $(seq 600); do
    n=$( (find "$out/points" -name "rep-*.result.json" 2>/dev/null || true) | wc -l)
    [ "$n" -ge "$want" ] && break
    sleep 0.05
  done
  kill -KILL "$pid"
  wait "$pid" 2>/dev/null || true
  # The killed sweep's runs end by themselves (SIGTERM from PR_SET_PDEATHSIG).
  for _ in $(seq 200); do pgrep -f "$out/points" >/dev/null || break; sleep 0.05; done
  if pgrep -f "$out/points" >/dev/null; then echo "FAIL: runs of the killed sweep still running"; exit 1; fi
  [ ! -e "$out/results.csv" ] || { echo "FAIL: the killed sweep wrote results.csv"; exit 1; }
  done_before=$(python3 - "$out" <<'PY'
import json, pathlib, sys
ok = 0
for f in pathlib.Path(sys.argv[1], "points").glob("*/rep-*.result.json"):
    rec = json.loads(f.read_text())          # a half-written record would not parse
    assert rec["status"] == "ok", f
    assert (f.parent / f.name.replace(".result.json", "") / "summary.json").is_file(), f
    ok += 1
print(ok)
PY
)
  [ "$done_before" -ge "$want" ] && [ "$done_before" -lt "$total" ] ||
    { echo "FAIL: round $round: $done_before runs finished before the kill (wanted $want..$((total - 1)))"; exit 1; }
  log=$("$drivevp" sweep "$tmp/kill.toml" --jobs 2 --out "$out" 2>/dev/null)
  grep -q "$done_before done earlier, $((total - done_before)) to run" <<<"$log" ||
    { echo "FAIL: round $round: the rerun did not run exactly the $((total - done_before)) missing runs:"; echo "$log"; exit 1; }
  cmp "$tmp/ref/results.csv" "$out/results.csv"
  cmp "$tmp/ref/summary.csv" "$out/summary.csv"
  echo "round $round: killed after $done_before of $total runs; the rerun ran the other $((total - done_before)); tables identical"
done
echo PASS
