#!/usr/bin/env python3
"""Cross-checks the round waveforms (trace group "rounds") of a drivevp run against its
rounds.csv and requests.csv.

Usage: check_rounds_waves.py [--rounds-csv ROUNDS.csv | --round-ms R [--policy-rounds-csv ROUNDS.csv]]
                             WAVES.vcd REQUESTS.csv

With --rounds-csv (fixed rounds, workload.kind = "rounds", paper 003), for every round row r with
start s = start_ms, C-period cp = c_period_ms, round length T (start of row 1 less row 0's):
  1. rounds.round changes to r exactly at s (r >= 1; value 0 from time 0), and at no other time;
  2. rounds.boundary rises exactly at s (1 at s, 0 just before s for r >= 1);
  3. d_period_ms = T - cp (rounds.csv's own invariant), and in a hiccup-free round rounds.period is
     C (0) at s and changes to D (1) exactly at s + cp (D at s when cp = 0), with no other change
     before the round's end s + T.
For every request row (a C-request / periodic job has a deadline_ms, a D-request / aperiodic one
has none):
  4. rounds.serving equals the row's kind (1 C / periodic, 2 D / aperiodic) at dispatch_ms and
     does not change before completion_ms; between one media access's last completion and the
     next dispatch it is idle (0);
  5. rounds.pending_c, rounds.slack_ms (if traced) and, without --rounds-csv, rounds.round change
     only at dispatch times.
With --round-ms R (the policy's rounds, paper 004's WRR-SCAN with round length R ms):
  6. rounds.slack_ms is traced, changes at least once, and never exceeds R (the round's end less
     a predicted finish after the decision, which lies in the round).
With --round-ms and --policy-rounds-csv ROUNDS.csv (WRR-SCAN's rounds.csv over its own rounds):
  7. rounds.period changes to D only at a C-request's (periodic command's) completion time, and
     changes to C only at a dispatch time; for every round row with a C-period cp > 0 and no
     hiccup, rounds.period is C just before start + cp and, unless a C-request of a later round
     (dispatched at or after the next row's start) is in service then, D at start + cp (the
     round's last periodic completion ends its C-period).

Times: exact integer ps (requests.csv and rounds.csv print ms with 9 decimals; the VCD unit must
be 1 ps). Exit status: 0 all agree; 1 a check failed (the first failure is named, with its file
line); 2 usage or parse error. Python 3 standard library only.
"""

import argparse
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_waves_vs_requests import VcdError, ms_to_ps, parse_vcd  # noqa: E402

PROG = "check_rounds_waves"
ROUND, BOUNDARY, PERIOD, SERVING = "rounds.round", "rounds.boundary", "rounds.period", "rounds.serving"
PENDING, SLACK = "rounds.pending_c", "rounds.slack_ms"
C_PERIOD, D_PERIOD = 0, 1
IDLE, SERVING_C, SERVING_D = 0, 1, 2


class Fail(Exception):
    pass


def read_csv(path, need):
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        missing = need - set(reader.fieldnames or [])
        if missing:
            raise ValueError(f"{path} lacks columns {sorted(missing)}")
        return [(reader.line_num, row) for row in reader]


def check_rounds(path, rows, sig):
    if len(rows) < 2:
        raise Fail(f"{path}: need at least 2 rounds, found {len(rows)}")
    starts = [ms_to_ps(r["start_ms"]) for _, r in rows]
    length = starts[1] - starts[0]
    rnd, bnd, per = sig[ROUND], sig[BOUNDARY], sig[PERIOD]
    round_changes = [(t, v) for t, v in zip(rnd.times, rnd.values) if t > 0]
    if len(round_changes) != len(rows) - 1:
        raise Fail(f"{ROUND} changes {len(round_changes)} times after 0, expected {len(rows) - 1} (one per boundary)")
    skipped = 0
    for i, (line, row) in enumerate(rows):
        s = starts[i]
        where = f"{path}:{line}: round {row['round']} (start {row['start_ms']} ms)"
        if s != length * i:
            raise Fail(f"{where}: start is {s} ps, expected {length * i} (rounds of {length} ps)")
        if rnd.value_at(s) != i or (i > 0 and round_changes[i - 1] != (s, i)):
            raise Fail(f"{where}: {ROUND} is {rnd.value_at(s)} at the start, expected {i} changing exactly there")
        if bnd.value_at(s) != 1 or (i > 0 and bnd.value_at(s - 1) != 0):
            raise Fail(f"{where}: {BOUNDARY} does not rise exactly at the start")
        cp, dp = ms_to_ps(row["c_period_ms"]), ms_to_ps(row["d_period_ms"])
        if dp != max(0, length - cp):
            raise Fail(f"{where}: d_period_ms {row['d_period_ms']} is not T - c_period_ms")
        if int(row["hiccups"]) != 0:
            skipped += 1
            continue
        end = s + length
        changes = per.changes_between(s, end)
        if cp == 0:
            if per.value_at(s) != D_PERIOD or changes:
                raise Fail(f"{where}: C-period 0 but {PERIOD} is {per.value_at(s)} at the start, changes {changes[:3]}")
        else:
            want = [(s + cp, D_PERIOD)] if s + cp < end else []
            if per.value_at(s) != C_PERIOD or changes != want:
                raise Fail(f"{where}: C-period {row['c_period_ms']} ms: {PERIOD} is {per.value_at(s)} at the start "
                           f"with changes {changes[:3]} inside the round, expected C then D at {s + cp} ps")
    return len(rows), skipped


def check_requests(path, rows, sig, fixed):
    """Returns (rows checked, media accesses)."""
    srv = sig[SERVING]
    reqs = []
    for line, row in rows:
        d, c = ms_to_ps(row["dispatch_ms"]), ms_to_ps(row["completion_ms"])
        kind = SERVING_C if row["deadline_ms"].strip() else SERVING_D
        reqs.append((d, c, kind, line, row["id"]))
    reqs.sort()
    for d, c, kind, line, rid in reqs:
        where = f"{path}:{line}: request id {rid} (dispatch {d} ps, completion {c} ps)"
        if srv.value_at(d) != kind:
            raise Fail(f"{where}: {SERVING} is {srv.value_at(d)} at dispatch, expected {kind}")
        other = [(t, v) for t, v in srv.changes_between(d, c) if v != kind]
        if other:
            raise Fail(f"{where}: {SERVING} changes to {other[0][1]} at {other[0][0]} ps, before completion")
    # Media accesses: requests with the same dispatch (a batch); idle between them.
    accesses = {}
    for d, c, kind, line, rid in reqs:
        accesses[d] = max(accesses.get(d, c), c)
    spans = sorted(accesses.items())
    for (d0, c0), (d1, _) in zip(spans, spans[1:]):
        if c0 < d1 and srv.value_at(c0) != IDLE:
            raise Fail(f"{path}: {SERVING} is {srv.value_at(c0)} at {c0} ps, after the access dispatched at {d0} ps "
                       f"completed and before the next dispatch at {d1} ps; expected idle")
    dispatches = set(accesses)
    for name in ([PENDING, SLACK] if fixed else [PENDING, ROUND, SLACK]):
        if name not in sig:
            continue
        stray = [t for t in sig[name].times if t > 0 and t not in dispatches]
        if stray:
            raise Fail(f"{name} changes at {stray[0]} ps, which is no request's dispatch time")
    return len(reqs), len(spans)


def check_policy_period(path, rows, sig, req_rows):
    """Check 7; returns a summary fragment."""
    per = sig[PERIOD]
    c_spans, dispatches = [], set()
    for _, row in req_rows:
        d, c = ms_to_ps(row["dispatch_ms"]), ms_to_ps(row["completion_ms"])
        dispatches.add(d)
        if row["deadline_ms"].strip():
            c_spans.append((d, c))
    c_completions = {c for _, c in c_spans}
    for t, v in zip(per.times, per.values):
        if t == 0:
            continue
        if v == D_PERIOD and t not in c_completions:
            raise Fail(f"{PERIOD} changes to D at {t} ps, which is no C-request's completion time")
        if v == C_PERIOD and t not in dispatches:
            raise Fail(f"{PERIOD} changes to C at {t} ps, which is no request's dispatch time")
    checked = 0
    starts = [ms_to_ps(r["start_ms"]) for _, r in rows] + [None]
    for i, (line, row) in enumerate(rows):
        cp = ms_to_ps(row["c_period_ms"])
        if cp == 0 or int(row["hiccups"]) != 0:
            continue
        s, following = starts[i], starts[i + 1]
        end = s + cp
        where = f"{path}:{line}: round {row['round']} (start {row['start_ms']} ms, C-period {row['c_period_ms']} ms)"
        if per.value_at(end - 1) != C_PERIOD:
            raise Fail(f"{where}: {PERIOD} is {per.value_at(end - 1)} just before the C-period's end, expected C")
        # A later round's C-request may be in service at the end (the round's own all completed
        # by then): it keeps the period C.
        busy = following is not None and any(following <= d <= end < c for d, c in c_spans)
        if not busy and per.value_at(end) != D_PERIOD:
            raise Fail(f"{where}: {PERIOD} is {per.value_at(end)} at the C-period's end {end} ps, expected D")
        checked += 1
    to_d = sum(1 for t, v in zip(per.times, per.values) if t > 0 and v == D_PERIOD)
    return f"{PERIOD} {to_d} changes to D, {checked} rounds' C-periods end where rounds.csv says, "


def check_policy_slack(slack, round_ms):
    """Check 6; returns a summary fragment."""
    later = [(t, v) for t, v in zip(slack.times, slack.values) if t > 0]
    if not later:
        raise Fail(f"{SLACK} never changes: the policy predicted no slack")
    # The VCD's real values print with a few significant digits: allow a relative 1e-6.
    over = [(t, v) for t, v in later if v > round_ms * (1 + 1e-6)]
    if over:
        raise Fail(f"{SLACK} is {over[0][1]} ms at {over[0][0]} ps, more than the round length {round_ms} ms")
    low = min(v for _, v in later)
    return f"{SLACK} {len(later)} predictions in [{low:g}, {max(v for _, v in later):g}] ms <= R = {round_ms:g} ms, "


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("vcd")
    ap.add_argument("requests_csv")
    ap.add_argument("--rounds-csv")
    ap.add_argument("--round-ms", type=float)
    ap.add_argument("--policy-rounds-csv")
    args = ap.parse_args(argv)
    fixed = args.rounds_csv is not None
    if fixed and args.round_ms is not None:
        print(f"{PROG}: error: --rounds-csv and --round-ms exclude each other", file=sys.stderr)
        return 2
    if args.policy_rounds_csv is not None and args.round_ms is None:
        print(f"{PROG}: error: --policy-rounds-csv needs --round-ms", file=sys.stderr)
        return 2
    policy_period = args.policy_rounds_csv is not None
    wanted = {ROUND, BOUNDARY, SERVING, PENDING} | ({PERIOD, SLACK} if fixed else set()) | \
        ({SLACK} if args.round_ms is not None else set()) | ({PERIOD} if policy_period else set())
    try:
        timescale_ps, sig, _, changes = parse_vcd(args.vcd, wanted)
        req_rows = read_csv(args.requests_csv, {"id", "dispatch_ms", "completion_ms", "deadline_ms"})
        round_cols = {"round", "start_ms", "c_period_ms", "d_period_ms", "hiccups"}
        round_rows = read_csv(args.rounds_csv, round_cols) if fixed else []
        policy_rows = read_csv(args.policy_rounds_csv, round_cols) if policy_period else []
    except (OSError, VcdError, ValueError, csv.Error) as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    try:
        if timescale_ps != 1:
            raise Fail(f"VCD time unit is {timescale_ps} ps, expected 1 ps")
        missing = sorted(wanted - set(sig))
        if missing:
            raise Fail(f"{args.vcd} declares no {', '.join(missing)} (trace the rounds group)")
        summary = ""
        if fixed:
            n, skipped = check_rounds(args.rounds_csv, round_rows, sig)
            summary = f"{n} rounds ({skipped} with hiccups: period not checked), "
        n_req, n_acc = check_requests(args.requests_csv, req_rows, sig, fixed)
        if args.round_ms is not None:
            summary += check_policy_slack(sig[SLACK], args.round_ms)
        if policy_period:
            summary += check_policy_period(args.policy_rounds_csv, policy_rows, sig, req_rows)
    except Fail as e:
        print(f"{PROG}: FAIL: {e}", file=sys.stderr)
        return 1
    except ValueError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    print(f"{PROG}: OK: {summary}{n_req} requests in {n_acc} media accesses agree with {args.vcd} "
          f"({changes} value changes; {SERVING} {len(sig[SERVING].times)}, {PENDING} {len(sig[PENDING].times)} changes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
