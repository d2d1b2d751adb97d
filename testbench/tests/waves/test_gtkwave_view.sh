#!/usr/bin/env bash
# Waveform view test: a short traced run with every signal group, a trace window and FST on,
# then checks the outputs the way an engineer would use them:
#   1. waves.vcd + waves.gtkw open in GTKWave (headless, waveforms/check_gtkwave.sh) and show
#      every traced signal of every group, with traces drawn; the same for waves.fst;
#   2. waves.gtkw shows drive.actuator.cylinder and drive.spindle.angle_mdeg as analog traces;
#   3. the VCD's $timescale is 1 ps;
#   4. the VCD records no value change outside the window [trace.start, trace.stop] except the
#      initial dump at time 0, and has changes inside it;
#   5. the VCD is small (below MAX_VCD_BYTES);
#   6. inside the window the VCD agrees with requests.csv (check_waves_vs_requests.py);
#   7. the VCD ends at the window's end (its last line is "#<trace.stop in ps>"), so GTKWave's
#      time range of the VCD and of the FST is [0, trace.stop], not the whole run;
#   8. GTKWave shows firmware.state as text (Idle, Seeking, Transferring) through the translate
#      filter file waves.firmware.state.txt that waves.gtkw names, checked at the marker just
#      after state changes found in the VCD.
#
# Usage: test_gtkwave_view.sh DRIVEVP_BINARY SOURCE_DIR
#   DRIVEVP_BINARY  the drivevp executable
#   SOURCE_DIR      the repository root (for configs/ and waveforms/check_gtkwave.sh)
# Environment: KEEP_DIR (keep the GTKWave screenshots and logs there), RUN_TIMEOUT (seconds for
# the simulation, default 300), CHECK_GTKWAVE_TIMEOUT (per GTKWave run, default 60),
# MAX_VCD_BYTES (default 4000000).
# Exit status: 0 pass; 1 a check failed; 2 usage error or missing tool.
# Needs no display: GTKWave runs under xvfb-run. Every external command is bounded by timeout.
set -euo pipefail

me=test_gtkwave_view
# shellcheck source=testbench/tests/waves/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
check_gtkwave=$src/waveforms/check_gtkwave.sh
checker=$src/testbench/tests/waves/check_waves_vs_requests.py
scenario=$src/configs/synthetic-hp97560.toml
[[ -r $check_gtkwave ]] || usage "missing $check_gtkwave"
[[ -r $checker ]] || usage "missing $checker"
[[ -r $scenario ]] || usage "missing $scenario"
for tool in timeout awk python3 vcd2fst; do
  command -v "$tool" > /dev/null || usage "'$tool' not found on PATH"
done
run_timeout=${RUN_TIMEOUT:-300}
max_vcd_bytes=${MAX_VCD_BYTES:-4000000}

make_workdir

# The trace window, in seconds of simulated time, and the same in ps (the VCD time unit).
# The synthetic scenario runs at 30 requests/s: 300 requests are about 10 s of simulated time.
start_s=2
stop_s=3.5
start_ps=2000000000000
stop_ps=3500000000000
half_ps=2750000000000

t0=$(date +%s.%N)
set +e
SC_COPYRIGHT_MESSAGE=DISABLE timeout --kill-after=10 "$run_timeout" "$drivevp" run "$scenario" --out "$out" \
  --set run.requests=300 --set run.warmup_requests=0 \
  --set trace.enabled=true \
  --set 'trace.groups=["mechanics","firmware","bus","host"]' \
  --set "trace.start=$start_s" --set "trace.stop=$stop_s" \
  --set trace.fst=true --set output.plots=false > "$work/run.log" 2>&1
status=$?
set -e
t1=$(date +%s.%N)
if [[ $status -eq 124 || $status -eq 137 ]]; then
  fail "drivevp did not finish within ${run_timeout}s; log tail: $(tail -n 5 "$work/run.log" | tr '\n' ' ')"
fi
[[ $status -eq 0 ]] || fail "drivevp exited with status $status; log tail: $(tail -n 10 "$work/run.log" | tr '\n' ' ')"
for f in waves.vcd waves.gtkw waves.fst requests.csv waves.firmware.state.txt; do
  [[ -s $out/$f ]] || fail "drivevp did not write $out/$f (files: $(cd "$out" && echo *))"
done
echo "$me: simulation took $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s"

# Every traced signal, as GTKWave names it: "SystemC." + sc_trace name, "[w-1:0]" for vectors
# (reals and 1-bit signals have no range).
expected=(
  # mechanics
  'SystemC.drive.actuator.cylinder[31:0]'
  'SystemC.drive.actuator.head[31:0]'
  'SystemC.drive.actuator.seeking'
  'SystemC.drive.actuator.arm_position'
  'SystemC.drive.spindle.angle_mdeg[31:0]'
  'SystemC.drive.spindle.sector_under_head[31:0]'
  'SystemC.drive.channel.transferring'
  'SystemC.drive.channel.lbn[63:0]'
  'SystemC.drive.channel.command_id[63:0]'
  # firmware
  'SystemC.firmware.queue_depth[31:0]'
  'SystemC.firmware.current_id[63:0]'
  'SystemC.firmware.current_lbn[63:0]'
  'SystemC.firmware.state[7:0]'
  'SystemC.firmware.decisions[63:0]'
  'SystemC.firmware.predicted_positioning_ms'
  # bus
  'SystemC.bus.accesses[63:0]'
  'SystemC.bus.last_address[63:0]'
  'SystemC.bus.last_was_write'
  'SystemC.bus.irq.seek_done'
  'SystemC.bus.irq.transfer_done'
  'SystemC.bus.irq.completion'
  # host
  'SystemC.host.outstanding[31:0]'
  'SystemC.host.completions[63:0]'
)

# 5. Size (first, so that the parsing below stays quick).
vcd_bytes=$(wc -c < "$out/waves.vcd")
[[ $vcd_bytes -le $max_vcd_bytes ]] || fail "VCD is $vcd_bytes bytes, more than $max_vcd_bytes for a ${start_s}..${stop_s} s window"
echo "$me: VCD is $vcd_bytes bytes (limit $max_vcd_bytes), FST $(wc -c < "$out/waves.fst") bytes"

# 3. Timescale: the $timescale ... $end command, possibly over several lines, must say 1 ps.
timescale=$(awk '
  /\$timescale/ { on = 1 }
  on { line = line " " $0 }
  on && /\$end/ { exit }
  END { gsub(/\$timescale|\$end/, "", line); gsub(/[ \t]+/, "", line); print line }' "$out/waves.vcd")
[[ $timescale == 1ps ]] || fail "VCD \$timescale is '$timescale', expected '1ps'"

# 4. Window: every value change after $enddefinitions happens at time 0 (the initial dump) or
# within [start_ps, stop_ps]. Times can exceed 2^53, so compare them as decimal strings padded
# with zeros to equal length rather than as awk numbers.
# window_counts LO HI VCD prints: changes-outside first-outside-time changes-inside all last-time
window_counts() {
  awk -v lo="$1" -v hi="$2" '
  function pad(s) { while (length(s) < 30) s = "0" s; return s }
  BEGIN { plo = pad(lo); phi = pad(hi); t = "0"; body = 0; outside = 0; inside = 0; n = 0; first = "-" }
  !body { if ($0 ~ /\$enddefinitions/) body = 1; next }
  /^#/ { t = substr($1, 2); next }
  /^\$/ { next }
  NF == 0 { next }
  /^[01xXzZbBrR]/ {
    n++
    if (t == "0") next
    pt = pad(t)
    if (pt < plo || pt > phi) { outside++; if (first == "-") first = t }
    else inside++
  }
  END { print outside, first, inside, n, t }' "$3"
}
read -r outside first_outside inside changes last_time < <(window_counts "$start_ps" "$stop_ps" "$out/waves.vcd")
[[ $outside -eq 0 ]] || fail "VCD has $outside value changes outside the window [$start_ps, $stop_ps] ps, the first at #$first_outside"
[[ $inside -gt 0 ]] || fail "VCD has no value changes inside the window [$start_ps, $stop_ps] ps ($changes changes in all, last time #$last_time)"
# Self-test of the window check: with the upper half of the window declared outside, it must
# find changes there.
read -r outside_half _ < <(window_counts "$start_ps" "$half_ps" "$out/waves.vcd")
[[ $outside_half -gt 0 ]] || fail "window check self-test: no changes found after $half_ps ps with the window [$start_ps, $half_ps] ps"
echo "$me: VCD timescale 1 ps; $inside value changes inside the window [$start_ps, $stop_ps] ps, none outside (apart from the dump at #0)"

# 2. Analog display of cylinder and angle in the save file: the "@<hex flags>" line before the
# signal line must have Analog/Step (0x8000) or Analog/Interpolated (0x10000) set.
for sig in 'drive.actuator.cylinder[31:0]' 'drive.spindle.angle_mdeg[31:0]'; do
  flags=$(awk -v want="SystemC.$sig" '/^@/ { f = substr($0, 2) } $0 == want { print f; exit }' "$out/waves.gtkw")
  [[ -n $flags ]] || fail "waves.gtkw has no line 'SystemC.$sig'"
  (((16#$flags & 0x18000) != 0)) || fail "waves.gtkw shows SystemC.$sig with flags @$flags, not analog (0x8000 or 0x10000)"
done

# 6. Inside the window the dump agrees with requests.csv (the traced copies are synchronised
# when the window opens): check_waves_vs_requests.py on the rows whose transfer lies inside it.
set +e
timeout --kill-after=10 120 python3 "$checker" --start-ps "$start_ps" --stop-ps "$stop_ps" \
  "$out/waves.vcd" "$out/requests.csv" > "$work/xcheck.log" 2>&1
status=$?
set -e
cat "$work/xcheck.log"
[[ $status -eq 0 ]] || fail "check_waves_vs_requests.py disagrees inside the window (status $status)"

# 7. The VCD ends at the window's end: SystemC writes the close time as the last line.
last_line=$(tail -n 1 "$out/waves.vcd")
[[ $last_line == "#$stop_ps" ]] || fail "the VCD's last line is '$last_line', expected '#$stop_ps' (the window's end)"

# 8. State changes inside the window, from the VCD: the first change to 1, 2 and 0 after the
# window opens, each as "TIME VALUE" (the firmware.state variable is found through its scope).
state_changes=$(awk -v lo="$start_ps" -v hi="$stop_ps" '
  function pad(s) { while (length(s) < 30) s = "0" s; return s }
  BEGIN { depth = 0; body = 0; t = "0" }
  !body && $1 == "$scope" { scope[++depth] = $3; next }
  !body && $1 == "$upscope" { depth--; next }
  !body && $1 == "$var" && $5 == "state" && scope[depth] == "firmware" { id = $4; next }
  !body && /\$enddefinitions/ { body = 1; next }
  !body { next }
  /^#/ { t = substr($1, 2); next }
  $2 == id && /^b/ {
    v = substr($1, 2) + 0
    if (v == 10) v = 2; else if (v == 11) v = 3
    if (pad(t) > pad(lo) && pad(t) < pad(hi) && !(v in seen)) { seen[v] = 1; print t, v }
  }' "$out/waves.vcd")
names=(Idle Seeking Transferring Repositioning)
value_args=()
while read -r t v; do
  [[ -n $t ]] || continue
  # The marker 1 ps after the change (no state lasts only 1 ps).
  value_args+=(--value-at "$((t + 1))" 'SystemC.firmware.state[7:0]' "${names[$v]}")
done <<< "$state_changes"
for want in Idle Seeking Transferring; do
  printf '%s\n' "${value_args[@]}" | grep -qx "$want" || fail "no change of firmware.state to $want inside the window in the VCD (changes: $(tr '\n' ' ' <<< "$state_changes"))"
done

# 1. GTKWave, on the VCD and on the FST. The save file names waves.vcd as its dump; the dump
# given on the command line takes precedence.
export CHECK_GTKWAVE_TIMEOUT=${CHECK_GTKWAVE_TIMEOUT:-60}
for dump in waves.vcd waves.fst; do
  keep=()
  if [[ -n ${KEEP_DIR:-} ]]; then keep=(--keep "$KEEP_DIR/${dump##*.}"); fi
  set +e
  timeout --kill-after=10 $((CHECK_GTKWAVE_TIMEOUT + 30)) \
    bash "$check_gtkwave" ${keep[@]+"${keep[@]}"} --time-range 0 "$stop_ps" "${value_args[@]}" \
    "$out/$dump" "$out/waves.gtkw" "${expected[@]}" > "$work/check.log" 2>&1
  status=$?
  set -e
  cat "$work/check.log"
  [[ $status -ne 2 ]] || usage "check_gtkwave.sh on $dump reports a usage error or a missing tool (status 2)"
  [[ $status -eq 0 ]] || fail "check_gtkwave.sh on $dump exited with status $status"
done

echo "$me: OK: ${#expected[@]} signals in 4 groups shown by GTKWave from waves.vcd and waves.fst, time range [0, $stop_ps] ps, firmware.state as text"
