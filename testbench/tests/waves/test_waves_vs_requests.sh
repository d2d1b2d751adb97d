#!/usr/bin/env bash
# Waveforms against requests.csv: a traced run without a window (a few hundred requests), then
# check_waves_vs_requests.py checks every request row against the VCD (cylinder reached by
# transfer_start, transferring high during the transfer, current_id at transfer_start).
# A negative self-test then corrupts one row's cylinder in a copy of requests.csv and requires
# the checker to fail and name that row, so the check cannot pass vacuously.
#
# Usage: test_waves_vs_requests.sh DRIVEVP_BINARY SOURCE_DIR
# Environment: RUN_TIMEOUT (seconds for the simulation, default 300), CHECK_TIMEOUT (seconds per
# checker run, default 120).
# Exit status: 0 pass; 1 a check failed; 2 usage error or missing tool.
set -euo pipefail

me=test_waves_vs_requests
# shellcheck source=testbench/tests/waves/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
checker=$src/testbench/tests/waves/check_waves_vs_requests.py
scenario=$src/configs/synthetic-hp97560.toml
[[ -r $checker ]] || usage "missing $checker"
[[ -r $scenario ]] || usage "missing $scenario"
for tool in timeout awk python3; do
  command -v "$tool" > /dev/null || usage "'$tool' not found on PATH"
done
run_timeout=${RUN_TIMEOUT:-300}
check_timeout=${CHECK_TIMEOUT:-120}

make_workdir

t0=$(date +%s.%N)
set +e
SC_COPYRIGHT_MESSAGE=DISABLE timeout --kill-after=10 "$run_timeout" "$drivevp" run "$scenario" --out "$out" \
  --set run.requests=400 --set run.warmup_requests=0 \
  --set trace.enabled=true \
  --set 'trace.groups=["mechanics","firmware","bus","host"]' \
  --set output.plots=false > "$work/run.log" 2>&1
status=$?
set -e
t1=$(date +%s.%N)
if [[ $status -eq 124 || $status -eq 137 ]]; then
  fail "drivevp did not finish within ${run_timeout}s; log tail: $(tail -n 5 "$work/run.log" | tr '\n' ' ')"
fi
[[ $status -eq 0 ]] || fail "drivevp exited with status $status; log tail: $(tail -n 10 "$work/run.log" | tr '\n' ' ')"
for f in waves.vcd requests.csv; do
  [[ -s $out/$f ]] || fail "drivevp did not write $out/$f"
done
rows=$(($(wc -l < "$out/requests.csv") - 1))
[[ $rows -ge 300 ]] || fail "requests.csv has $rows rows, expected at least 300"
echo "$me: simulation took $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s, $rows rows, VCD $(wc -c < "$out/waves.vcd") bytes"

# Positive check.
set +e
timeout --kill-after=10 "$check_timeout" python3 "$checker" "$out/waves.vcd" "$out/requests.csv" > "$work/check.log" 2>&1
status=$?
set -e
cat "$work/check.log"
[[ $status -eq 0 ]] || fail "check_waves_vs_requests.py exited with status $status on the real run"
grep -q "OK: [0-9]* rows checked" "$work/check.log" || fail "checker printed no summary"
checked=$(sed -n 's/.*OK: \([0-9]*\) rows checked.*/\1/p' "$work/check.log")
[[ $checked -eq $rows ]] || fail "checker checked $checked of $rows rows (expected all: no trace window)"

# Negative self-test: change the cylinder of a row in the middle (column "cylinder", located by
# the header) to a value the actuator never had at that time, in a copy of the CSV.
victim_line=$((rows / 2 + 1)) # 1-based line in the file (line 1 is the header)
awk -F, -v OFS=, -v victim="$victim_line" '
  NR == 1 { for (i = 1; i <= NF; i++) if ($i == "cylinder") col = i; if (!col) exit 3 }
  NR == victim { id = $1; $col = $col + 7 }
  { print }
  END { if (col) print id > "/dev/stderr" }' "$out/requests.csv" > "$work/corrupt.csv" 2> "$work/victim_id" ||
  fail "could not corrupt a copy of requests.csv (no 'cylinder' column?)"
victim_id=$(cat "$work/victim_id")
cmp -s "$out/requests.csv" "$work/corrupt.csv" && fail "corrupting requests.csv changed nothing"
set +e
timeout --kill-after=10 "$check_timeout" python3 "$checker" "$out/waves.vcd" "$work/corrupt.csv" > "$work/neg.log" 2>&1
status=$?
set -e
if [[ $status -eq 0 ]]; then
  cat "$work/neg.log"
  fail "negative self-test: the checker accepted a requests.csv with the cylinder of line $victim_line (id $victim_id) changed"
fi
[[ $status -eq 1 ]] || { cat "$work/neg.log"; fail "negative self-test: checker exited with status $status, expected 1"; }
grep -q "corrupt.csv:$victim_line: request id $victim_id .*drive.actuator.cylinder" "$work/neg.log" || {
  cat "$work/neg.log"
  fail "negative self-test: the checker failed but did not name line $victim_line (id $victim_id) and the cylinder"
}
echo "$me: negative self-test: checker rejected line $victim_line (id $victim_id) with a corrupted cylinder: $(head -n 1 "$work/neg.log")"
echo "$me: OK"
