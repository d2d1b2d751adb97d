#!/usr/bin/env bash
# Round waveforms (trace group "rounds", testbench/sim/rounds_trace.h) against the run's own tables:
#   1. paper 003's mixed-media rounds (configs/mixed-media-003.toml, a few rounds): the VCD's
#      rounds.round / rounds.boundary change exactly at every round start of rounds.csv, rounds.period
#      is C for exactly c_period_ms from the start and D for the rest, rounds.serving follows
#      requests.csv (C / D from dispatch to completion, idle between), rounds.pending_c and
#      rounds.slack_ms change only at dispatch times (check_rounds_waves.py);
#   2. a negative self-test: a copy of rounds.csv with one round's C-period shortened by 1 µs must
#      be rejected, naming that line;
#   3. the generated waves.gtkw with its "Rounds" group opens in the real GTKWave (headless,
#      waveforms/check_gtkwave.sh) with every rounds signal shown and drawn, and the signal pane
#      shows rounds.period and rounds.serving as text (C, D, idle) through their translate filters;
#   4. paper 004's rate-based tasks under WRR-SCAN-C: rounds.serving follows requests.csv (periodic /
#      aperiodic), rounds.round, rounds.pending_c and rounds.slack_ms change only at dispatch times,
#      the slack the firmware predicts never exceeds the plan's round length R (summary.json),
#      rounds.period turns D exactly where each round's c_period_ms of its rounds.csv ends (a copy
#      with one C-period 1 µs short is rejected), and the run's waves.gtkw "Rounds" group opens in
#      GTKWave with rounds.period and rounds.slack_ms shown and drawn.
#
# Usage: test_rounds_waves.sh DRIVEVP_BINARY SOURCE_DIR
# Environment: RUN_TIMEOUT (seconds per simulation, default 300), CHECK_TIMEOUT (seconds per checker
# run, default 120), CHECK_GTKWAVE_TIMEOUT (per GTKWave run, default 60), KEEP_DIR (keep GTKWave's
# screenshot and logs there).
# Exit status: 0 pass; 1 a check failed; 2 usage error or missing tool.
set -euo pipefail

me=test_rounds_waves
# shellcheck source=testbench/tests/waves/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
checker=$src/testbench/tests/waves/check_rounds_waves.py
check_gtkwave=$src/waveforms/check_gtkwave.sh
scenario=$src/configs/mixed-media-003.toml
for f in "$checker" "$check_gtkwave" "$scenario"; do
  [[ -r $f ]] || usage "missing $f"
done
for tool in timeout awk python3; do
  command -v "$tool" > /dev/null || usage "'$tool' not found on PATH"
done
run_timeout=${RUN_TIMEOUT:-300}
check_timeout=${CHECK_TIMEOUT:-120}

make_workdir

# run OUT_DIR SCENARIO [--set ...]: a traced run of the rounds group only.
run() {
  local dir=$1 file=$2
  shift 2
  set +e
  SC_COPYRIGHT_MESSAGE=DISABLE timeout --kill-after=10 "$run_timeout" "$drivevp" run "$file" --out "$dir" \
    --set run.warmup_requests=0 --set trace.enabled=true --set 'trace.groups=["rounds"]' \
    --set output.plots=false "$@" > "$work/run.log" 2>&1
  local status=$?
  set -e
  [[ $status -eq 0 ]] || fail "drivevp run $file exited with status $status; log tail: $(tail -n 10 "$work/run.log" | tr '\n' ' ')"
}

# gtkwave WHAT LOG ARGS...: runs waveforms/check_gtkwave.sh ARGS, shows its log, fails naming WHAT.
gtkwave() {
  local what=$1 log=$2
  shift 2
  set +e
  timeout --kill-after=10 $((CHECK_GTKWAVE_TIMEOUT + 30)) bash "$check_gtkwave" ${keep[@]+"${keep[@]}"} "$@" > "$log" 2>&1
  local status=$?
  set -e
  cat "$log"
  [[ $status -ne 2 ]] || usage "check_gtkwave.sh reports a usage error or a missing tool (status 2)"
  [[ $status -eq 0 ]] || fail "check_gtkwave.sh exited with status $status on $what"
}

# check LOG ARGS...: runs the checker; its status.
check() {
  local log=$1
  shift
  set +e
  timeout --kill-after=10 "$check_timeout" python3 "$checker" "$@" > "$log" 2>&1
  local status=$?
  set -e
  return $status
}

# 1. Paper 003: six 1 s rounds at lambda_D = 40 per round, hiccup-free (the scenario says so).
run "$out" "$scenario" --set workload.rounds=6
for f in waves.vcd waves.gtkw rounds.csv requests.csv waves.rounds.period.txt waves.rounds.serving.txt; do
  [[ -s $out/$f ]] || fail "drivevp did not write $out/$f (files: $(cd "$out" && echo *))"
done
check "$work/check.log" --rounds-csv "$out/rounds.csv" "$out/waves.vcd" "$out/requests.csv" ||
  { cat "$work/check.log"; fail "check_rounds_waves.py disagrees on the 003 run"; }
cat "$work/check.log"
grep -q "OK: 6 rounds (0 with hiccups" "$work/check.log" || fail "expected 6 hiccup-free rounds checked"

# 2. Negative self-test: round 3 (line 5)'s C-period 1 µs shorter, its D-period 1 µs longer.
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "c_period_ms") c = i; if ($i == "d_period_ms") d = i } }
  NR == 5 { $c = sprintf("%.9f", $c - 0.001); $d = sprintf("%.9f", $d + 0.001) }
  { print }' "$out/rounds.csv" > "$work/corrupt.csv"
cmp -s "$out/rounds.csv" "$work/corrupt.csv" && fail "corrupting rounds.csv changed nothing"
if check "$work/neg.log" --rounds-csv "$work/corrupt.csv" "$out/waves.vcd" "$out/requests.csv"; then
  fail "negative self-test: the checker accepted a rounds.csv whose round 3 C-period is 1 µs short"
fi
grep -q "corrupt.csv:5: round 3 .*C-period" "$work/neg.log" || {
  cat "$work/neg.log"
  fail "negative self-test: the checker failed without naming line 5 (round 3) and its C-period"
}
echo "$me: negative self-test: $(head -n 1 "$work/neg.log")"

# 3. GTKWave: the save file's Rounds group, its signals drawn, period and serving shown as text.
grep -qx -- "-Rounds" "$out/waves.gtkw" || fail "waves.gtkw has no Rounds group"
# Round 1 starts at 1 s (1e12 ps); its C-period ends c_period_ms later (rounds.csv line 3).
cp_ps=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "c_period_ms") c = i }
  NR == 3 { split($c, p, "."); printf "%d%s\n", p[1], substr(p[2] "000000000", 1, 9) }' "$out/rounds.csv" | sed 's/^0*//')
[[ -n $cp_ps && $cp_ps -gt 0 ]] || fail "round 1 has no C-period in rounds.csv"
d_at=$((1000000000000 + cp_ps + 1))
expected=(
  'SystemC.rounds.round[63:0]'
  'SystemC.rounds.boundary'
  'SystemC.rounds.period[7:0]'
  'SystemC.rounds.serving[7:0]'
  'SystemC.rounds.pending_c[31:0]'
  'SystemC.rounds.slack_ms'
)
keep=()
if [[ -n ${KEEP_DIR:-} ]]; then keep=(--keep "$KEEP_DIR"); fi
export CHECK_GTKWAVE_TIMEOUT=${CHECK_GTKWAVE_TIMEOUT:-60}
gtkwave "the 003 run" "$work/gtkwave.log" \
  --value-at 1000000000001 'SystemC.rounds.period[7:0]' C \
  --value-at "$d_at" 'SystemC.rounds.period[7:0]' D \
  --value-at 1000000000001 'SystemC.rounds.round[63:0]' 1 \
  "$out/waves.vcd" "$out/waves.gtkw" "${expected[@]}"

# 4. Paper 004: ten generated rate-based tasks under WRR-SCAN-C for 20 s, aperiodic reads every 35 ms.
cat > "$work/rate.toml" << 'EOF'
[device]
preset = "hp97560"
[firmware]
policy = "wrr_scan_c"
queue_depth = 4096
[workload]
kind = "rate_tasks"
tasks = 10
duration_s = 20
aperiodic_interarrival_ms = 35
[run]
seed = 4004
check_data = false
EOF
run "$work/rate" "$work/rate.toml"
grep -q "aperiodic" "$work/rate/waves.rounds.serving.txt" || fail "the 004 run's serving filter names no aperiodic service"
round_ms=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["rate_tasks"]["admission"]["round_ms"])' \
  "$work/rate/summary.json") || fail "the 004 run's summary.json has no rate_tasks.admission.round_ms"
[[ -s $work/rate/rounds.csv ]] || fail "the 004 run wrote no rounds.csv"
check "$work/rate.log" --round-ms "$round_ms" --policy-rounds-csv "$work/rate/rounds.csv" \
  "$work/rate/waves.vcd" "$work/rate/requests.csv" ||
  { cat "$work/rate.log"; fail "check_rounds_waves.py disagrees on the 004 run"; }
cat "$work/rate.log"
# Negative self-test: a round length of 1 ms is below every traced slack.
if check "$work/rate-neg.log" --round-ms 1 "$work/rate/waves.vcd" "$work/rate/requests.csv"; then
  fail "negative self-test: the checker accepted slack above a 1 ms round"
fi
grep -q "rounds.slack_ms is .* more than the round length 1.0 ms" "$work/rate-neg.log" || {
  cat "$work/rate-neg.log"
  fail "negative self-test: the checker failed without naming rounds.slack_ms and the round length"
}
grep -q "changes to D, [1-9][0-9]* rounds' C-periods end where rounds.csv says" "$work/rate.log" ||
  fail "the 004 run's rounds.period was checked against no round's C-period"
# Negative self-test: the first round with a C-period, its C-period 1 µs short.
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "c_period_ms") c = i; if ($i == "hiccups") h = i } }
  NR > 1 && !done && $c + 0 > 0 && $h == 0 { $c = sprintf("%.9f", $c - 0.001); done = NR }
  { print }' "$work/rate/rounds.csv" > "$work/rate-corrupt.csv"
cmp -s "$work/rate/rounds.csv" "$work/rate-corrupt.csv" && fail "corrupting the 004 rounds.csv changed nothing"
if check "$work/rate-neg2.log" --round-ms "$round_ms" --policy-rounds-csv "$work/rate-corrupt.csv" \
  "$work/rate/waves.vcd" "$work/rate/requests.csv"; then
  fail "negative self-test: the checker accepted a WRR-SCAN rounds.csv with a C-period 1 µs short"
fi
grep -q "rate-corrupt.csv:[0-9]*: round .*C-period" "$work/rate-neg2.log" || {
  cat "$work/rate-neg2.log"
  fail "negative self-test: the checker failed without naming the WRR round and its C-period"
}
echo "$me: negative self-test (004): $(head -n 1 "$work/rate-neg2.log")"
grep -qx -- "-Rounds" "$work/rate/waves.gtkw" || fail "the 004 run's waves.gtkw has no Rounds group"
gtkwave "the 004 run" "$work/gtkwave-rate.log" "$work/rate/waves.vcd" "$work/rate/waves.gtkw" \
  'SystemC.rounds.round[63:0]' 'SystemC.rounds.boundary' 'SystemC.rounds.period[7:0]' 'SystemC.rounds.serving[7:0]' \
  'SystemC.rounds.pending_c[31:0]' 'SystemC.rounds.slack_ms'
echo "$me: OK"
