#!/usr/bin/env bash
# MEMS waveform test (issue 8): a short traced run on the MEMS G1 device under PA-SPTF, then
#   1. waves.vcd + waves.gtkw open in the real GTKWave (headless, waveforms/check_gtkwave.sh) and
#      show the sled's signals in their own group "Sled" — X and Y position, settling, active
#      tips, transferring, power state, startup — with the firmware's and the bus's, traces drawn;
#   2. waves.gtkw shows sled X and Y as interpolated analog traces (ramps between exact points,
#      flag 0x10000), in a group of their own;
#   3. the sled's Y position is exact at the sweeps: for every request of requests.csv, Y has a
#      value change at its transfer start and at its transfer end (the sweep's ends, where the
#      ramp's exact points are), and "transferring" rises and falls at those times;
#   4. GTKWave shows the power state and the firmware state as text (translate filters): Active
#      during an access, Accessing in the firmware.
#
# Usage: test_gtkwave_mems.sh DRIVEVP_BINARY SOURCE_DIR
# Exit status: 0 pass; 1 a check failed; 2 usage error or missing tool.
set -euo pipefail

me=test_gtkwave_mems
# shellcheck source=testbench/tests/waves/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
check_gtkwave=$src/waveforms/check_gtkwave.sh
[[ -r $check_gtkwave ]] || usage "missing $check_gtkwave"
for tool in timeout awk python3; do
  command -v "$tool" > /dev/null || usage "'$tool' not found on PATH"
done
make_workdir

SC_COPYRIGHT_MESSAGE=DISABLE timeout --kill-after=10 300 "$drivevp" run --out "$out" \
  --set device.preset=mems_g1 --set firmware.policy=pasptf \
  --set workload.kind=synthetic --set workload.arrival=poisson --set workload.rate_per_s=200 \
  --set workload.size=exponential --set workload.size_mean_blocks=8 --set run.requests=200 \
  --set trace.enabled=true --set output.plots=false > "$work/run.log" 2>&1 ||
  fail "drivevp failed: $(tail -n 5 "$work/run.log" | tr '\n' ' ')"
for f in waves.vcd waves.gtkw requests.csv waves.mems.sled.power_state.txt waves.firmware.state.txt; do
  [[ -s $out/$f ]] || fail "drivevp did not write $out/$f (files: $(cd "$out" && echo *))"
done

# 2. The Sled group and the analog ramps.
awk '/^-Sled$/ { n++ } END { exit n == 2 ? 0 : 1 }' "$out/waves.gtkw" || fail "waves.gtkw has no group 'Sled' (open and close lines)"
for sig in mems.sled.x_nm mems.sled.y_nm; do
  flags=$(awk -v want="SystemC.$sig" '/^@/ { f = substr($0, 2) } $0 == want { print f; exit }' "$out/waves.gtkw")
  [[ -n $flags ]] || fail "waves.gtkw has no line 'SystemC.$sig'"
  (((16#$flags & 0x10000) != 0)) || fail "waves.gtkw shows SystemC.$sig with flags @$flags, not analog interpolated (0x10000)"
done

# 3. Y changes and transfer edges at every request's transfer start and end (from requests.csv,
# ms with 9 decimals = exact ps).
python3 - "$out/waves.vcd" "$out/requests.csv" <<'PY' || fail "the sled's waveforms disagree with requests.csv"
import csv, sys
vcd, req = sys.argv[1], sys.argv[2]
ids, changes, body, t = {}, {}, False, 0
scope = []
with open(vcd) as f:
    for line in f:
        w = line.split()
        if not w:
            continue
        if not body:
            if w[0] == "$scope":
                scope.append(w[2])
            elif w[0] == "$upscope":
                scope.pop()
            elif w[0] == "$var" and scope[-2:] == ["mems", "sled"]:
                ids[w[3]] = w[4]
            elif w[0] == "$enddefinitions":
                body = True
            continue
        if w[0].startswith("#"):
            t = int(w[0][1:])
        elif w[0][0] in "rb" and len(w) == 2 and w[1] in ids:
            changes.setdefault(ids[w[1]], {})[t] = w[0][1:]
        elif w[0][0] in "01" and w[0][1:] in ids:
            changes.setdefault(ids[w[0][1:]], {})[t] = w[0][0]
def ps(ms):
    whole, _, frac = ms.partition(".")
    return int(whole) * 10**9 + int((frac + "000000000")[:9])
bad = 0
rows = list(csv.DictReader(open(req)))
for r in rows:
    ts, te = ps(r["transfer_start_ms"]), ps(r["transfer_end_ms"])
    for name, at, want in (("y_nm", ts, None), ("y_nm", te, None), ("transferring", ts, "1"), ("transferring", te, "0")):
        got = changes.get(name, {}).get(at)
        if got is None or (want is not None and got != want):
            bad += 1
            if bad <= 5:
                print(f"request {r['id']}: {name} at {at} ps: {got!r}, expected a change{' to ' + want if want else ''}")
print(f"{len(rows)} requests, {sum(len(v) for v in changes.values())} sled value changes, {bad} mismatches")
sys.exit(1 if bad else 0)
PY

# 4 and 1. GTKWave: the signals, and the text of the power and firmware states inside an access
# (1 ps after the first transfer start).
first_ts=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } NR == 2 { print $c["transfer_start_ms"]; exit }' "$out/requests.csv")
at_ps=$(python3 -c "import sys; w, _, f = sys.argv[1].partition('.'); print(int(w) * 10**9 + int((f + '0' * 9)[:9]) + 1)" "$first_ts")
expected=(
  'SystemC.mems.sled.x_nm' 'SystemC.mems.sled.y_nm' 'SystemC.mems.sled.settling'
  'SystemC.mems.sled.active_tips[31:0]' 'SystemC.mems.sled.transferring'
  'SystemC.mems.sled.power_state[7:0]' 'SystemC.mems.sled.startup'
  'SystemC.firmware.state[7:0]' 'SystemC.bus.irq.mems_done' 'SystemC.bus.irq.completion'
)
export CHECK_GTKWAVE_TIMEOUT=${CHECK_GTKWAVE_TIMEOUT:-60}
set +e
timeout --kill-after=10 $((CHECK_GTKWAVE_TIMEOUT + 30)) bash "$check_gtkwave" \
  --value-at "$at_ps" 'SystemC.mems.sled.power_state[7:0]' Active \
  --value-at "$at_ps" 'SystemC.firmware.state[7:0]' Accessing \
  "$out/waves.vcd" "$out/waves.gtkw" "${expected[@]}" > "$work/check.log" 2>&1
status=$?
set -e
cat "$work/check.log"
[[ $status -ne 2 ]] || usage "check_gtkwave.sh reports a usage error or a missing tool (status 2)"
[[ $status -eq 0 ]] || fail "check_gtkwave.sh exited with status $status"
echo "$me: OK: the sled group in GTKWave, X/Y ramps exact at every sweep, power and firmware states as text"
