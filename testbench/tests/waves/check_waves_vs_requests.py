#!/usr/bin/env python3
"""Cross-checks a drivevp waveform dump (waves.vcd) against the requests.csv of the same run.

Usage: check_waves_vs_requests.py [--start-ps N] [--stop-ps N] WAVES.vcd REQUESTS.csv

For every completed request row whose transfer lies inside the trace window
[--start-ps, --stop-ps] (default: the whole run), checks that in the VCD
  1. drive.actuator.cylinder has reached the row's cylinder by transfer_start: the last
     value change at a time <= transfer_start equals the row's cylinder;
  2. drive.channel.transferring is 1 during [transfer_start, transfer_end): its value at
     transfer_start is 1 and it has no change to another value before transfer_end;
  3. firmware.current_id equals the row's id at transfer_start.
Rows without a transfer (empty transfer_start_ms, e.g. media errors) are skipped and counted.

Times: the VCD time unit must be 1 ps (checked from $timescale); requests.csv times are in ms
with 9 decimals, converted exactly (no floating point) to integer picoseconds.

Exit status: 0 all rows agree; 1 a row disagrees (the first one is named) or the dump lacks a
needed signal or no row could be checked; 2 usage or parse error.
Python 3 standard library only.
"""

import argparse
import bisect
import csv
import sys

CYLINDER = "drive.actuator.cylinder"
TRANSFERRING = "drive.channel.transferring"
CURRENT_ID = "firmware.current_id"
WANTED = (CYLINDER, TRANSFERRING, CURRENT_ID)

TIMESCALE_PS = {"s": 10**12, "ms": 10**9, "us": 10**6, "ns": 10**3, "ps": 1, "fs": None}


class VcdError(Exception):
    pass


class Signal:
    """Value history of one VCD variable: parallel lists of change times (ps) and values."""

    def __init__(self, name, kind, width):
        self.name = name
        self.kind = kind  # "wire"/"reg"/... or "real"
        self.width = width
        self.times = []
        self.values = []

    def add(self, time, value):
        if self.times and self.times[-1] == time:
            self.values[-1] = value  # several changes in one time step: the last one holds
        else:
            self.times.append(time)
            self.values.append(value)

    def value_at(self, time):
        """The value after the last change at or before `time`, or None before the first change."""
        i = bisect.bisect_right(self.times, time) - 1
        return self.values[i] if i >= 0 else None

    def changes_between(self, lo, hi):
        """(time, value) of the changes with lo < time < hi."""
        i = bisect.bisect_right(self.times, lo)
        j = bisect.bisect_left(self.times, hi)
        return list(zip(self.times[i:j], self.values[i:j]))


def vector_value(bits):
    """Integer value of a VCD binary string, or None if it holds x/z."""
    try:
        return int(bits, 2)
    except ValueError:
        return None


def parse_vcd(path, wanted):
    """Streams the VCD at `path`; returns (timescale_ps, {name: Signal}) for the names in `wanted`
    (hierarchical names without the top scope, e.g. drive.actuator.cylinder) plus the total number
    of declared variables and value changes.

    Declarations: $scope ... $upscope give the hierarchy, $var TYPE SIZE ID NAME [RANGE] $end the
    identifier codes. Body: '#<time>', 'b<bits> <id>', 'r<real> <id>', '<0|1|x|z><id>'.
    """
    scopes = []
    by_id = {}  # identifier code -> list of Signals (an id may be shared by several names)
    signals = {}
    declared = 0
    timescale_ps = None
    changes = 0
    time = 0

    with open(path, "r", encoding="ascii", errors="replace") as f:
        # Header: token stream up to $enddefinitions $end.
        tokens = []
        in_header = True
        lineno = 0
        for line in f:
            lineno += 1
            tokens.extend(line.split())
            # Process complete $keyword ... $end commands.
            while tokens:
                if tokens[0] == "$enddefinitions":
                    if "$end" not in tokens:
                        break
                    tokens = tokens[tokens.index("$end") + 1:]
                    in_header = False
                    break
                if not tokens[0].startswith("$"):
                    raise VcdError(f"{path}:{lineno}: unexpected token '{tokens[0]}' in the header")
                if "$end" not in tokens:
                    break
                end = tokens.index("$end")
                cmd, args = tokens[0], tokens[1:end]
                tokens = tokens[end + 1:]
                if cmd == "$scope":
                    if len(args) < 2:
                        raise VcdError(f"{path}:{lineno}: malformed $scope")
                    scopes.append(args[1])
                elif cmd == "$upscope":
                    if not scopes:
                        raise VcdError(f"{path}:{lineno}: $upscope without $scope")
                    scopes.pop()
                elif cmd == "$timescale":
                    text = "".join(args)
                    num = "".join(ch for ch in text if ch.isdigit())
                    unit = text[len(num):]
                    if not num or unit not in TIMESCALE_PS or TIMESCALE_PS[unit] is None:
                        raise VcdError(f"{path}: unsupported $timescale '{' '.join(args)}'")
                    timescale_ps = int(num) * TIMESCALE_PS[unit]
                elif cmd == "$var":
                    if len(args) < 4:
                        raise VcdError(f"{path}:{lineno}: malformed $var: {' '.join(args)}")
                    kind, size, code, ref = args[0], args[1], args[2], args[3]
                    declared += 1
                    # Drop GTKWave-style bit ranges ("[31:0]") and the top scope ("SystemC").
                    ref = ref.split("[")[0]
                    name = ".".join(scopes[1:] + [ref])
                    if name in wanted:
                        sig = Signal(name, kind, int(size))
                        signals[name] = sig
                        by_id.setdefault(code, []).append(sig)
                # $date, $version, $comment: ignored.
            if not in_header:
                break
        if in_header:
            raise VcdError(f"{path}: no $enddefinitions (truncated header?)")

        # Body: one value change or time per token group; SystemC writes one per line.
        pending = tokens
        skip_comment = False
        for line in _lines(pending, f):
            toks = line if isinstance(line, list) else line.split()
            i = 0
            while i < len(toks):
                t = toks[i]
                if skip_comment:
                    if t == "$end":
                        skip_comment = False
                    i += 1
                    continue
                c = t[0]
                if c == "#":
                    try:
                        time = int(t[1:])
                    except ValueError:
                        raise VcdError(f"{path}: malformed time '{t}'") from None
                    i += 1
                elif c in "bBrR":
                    if i + 1 >= len(toks):
                        raise VcdError(f"{path}: value '{t}' without an identifier at time {time}")
                    code = toks[i + 1]
                    changes += 1
                    for sig in by_id.get(code, ()):
                        if c in "bB":
                            sig.add(time, vector_value(t[1:]))
                        else:
                            sig.add(time, float(t[1:]))
                    i += 2
                elif c in "01xXzZ":
                    changes += 1
                    for sig in by_id.get(t[1:], ()):
                        sig.add(time, int(c) if c in "01" else None)
                    i += 1
                elif c == "$":
                    if t == "$comment":
                        skip_comment = True
                    # $dumpvars/$dumpall/$dumpon/$dumpoff and their $end: the values inside count.
                    i += 1
                else:
                    raise VcdError(f"{path}: unexpected token '{t}' at time {time}")
    return timescale_ps, signals, declared, changes


def _lines(first_tokens, f):
    if first_tokens:
        yield first_tokens
    yield from f


def ms_to_ps(text):
    """Exact conversion of a decimal millisecond string (e.g. '12.345678901') to integer ps."""
    text = text.strip()
    if not text:
        return None
    neg = text.startswith("-")
    if neg:
        text = text[1:]
    whole, _, frac = text.partition(".")
    if not whole.isdigit() or (frac and not frac.isdigit()) or len(frac) > 9:
        raise ValueError(f"not a millisecond value with at most 9 decimals: '{text}'")
    ps = int(whole) * 10**9 + int((frac + "000000000")[:9])
    return -ps if neg else ps


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("vcd")
    ap.add_argument("requests_csv")
    ap.add_argument("--start-ps", type=int, default=0, help="trace window start in ps (trace.start)")
    ap.add_argument("--stop-ps", type=int, default=0, help="trace window end in ps (trace.stop); 0 = end of run")
    args = ap.parse_args(argv)
    stop = args.stop_ps if args.stop_ps > 0 else None
    prog = "check_waves_vs_requests"

    try:
        timescale_ps, signals, declared, changes = parse_vcd(args.vcd, set(WANTED))
    except (OSError, VcdError, ValueError) as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 2
    if timescale_ps != 1:
        print(f"{prog}: FAIL: VCD time unit is {timescale_ps} ps, expected 1 ps", file=sys.stderr)
        return 1
    missing = [n for n in WANTED if n not in signals]
    if missing:
        print(f"{prog}: FAIL: {args.vcd} declares no {', '.join(missing)} "
              f"(trace the mechanics and firmware groups)", file=sys.stderr)
        return 1
    cyl, xfer, cur = signals[CYLINDER], signals[TRANSFERRING], signals[CURRENT_ID]

    checked = skipped_no_transfer = outside_window = 0
    try:
        with open(args.requests_csv, newline="") as f:
            reader = csv.DictReader(f)
            need = {"id", "cylinder", "transfer_start_ms", "transfer_end_ms"}
            if not reader.fieldnames or not need.issubset(reader.fieldnames):
                print(f"{prog}: error: {args.requests_csv} lacks columns "
                      f"{sorted(need - set(reader.fieldnames or []))}", file=sys.stderr)
                return 2
            for row in reader:
                line = reader.line_num
                ts = ms_to_ps(row["transfer_start_ms"])
                te = ms_to_ps(row["transfer_end_ms"])
                if ts is None or te is None:
                    skipped_no_transfer += 1
                    continue
                if ts < args.start_ps or (stop is not None and te > stop):
                    outside_window += 1
                    continue
                rid, rcyl = int(row["id"]), int(row["cylinder"])
                where = (f"{args.requests_csv}:{line}: request id {rid} (cylinder {rcyl}, transfer "
                         f"{row['transfer_start_ms']} .. {row['transfer_end_ms']} ms = {ts} .. {te} ps)")
                problems = []
                c = cyl.value_at(ts)
                if c != rcyl:
                    last = bisect.bisect_right(cyl.times, ts) - 1
                    at = cyl.times[last] if last >= 0 else None
                    problems.append(f"{CYLINDER} is {c} at transfer_start (last change at {at} ps), "
                                    f"expected {rcyl}")
                x = xfer.value_at(ts)
                if x != 1:
                    problems.append(f"{TRANSFERRING} is {x} at transfer_start, expected 1")
                else:
                    drops = [(t, v) for t, v in xfer.changes_between(ts, te) if v != 1]
                    if drops:
                        problems.append(f"{TRANSFERRING} changes to {drops[0][1]} at {drops[0][0]} ps, "
                                        f"before transfer_end")
                i = cur.value_at(ts)
                if i != rid:
                    problems.append(f"{CURRENT_ID} is {i} at transfer_start, expected {rid}")
                if problems:
                    print(f"{prog}: FAIL: {where}: " + "; ".join(problems), file=sys.stderr)
                    print(f"{prog}: {checked} rows agreed before this one", file=sys.stderr)
                    return 1
                checked += 1
    except (OSError, ValueError, KeyError, csv.Error) as e:
        print(f"{prog}: error: {args.requests_csv}: {e}", file=sys.stderr)
        return 2

    if checked == 0:
        print(f"{prog}: FAIL: no request row lies inside the trace window "
              f"({outside_window} outside, {skipped_no_transfer} without a transfer)", file=sys.stderr)
        return 1
    print(f"{prog}: OK: {checked} rows checked against {args.vcd} "
          f"({declared} variables, {changes} value changes; cylinder {len(cyl.times)}, "
          f"transferring {len(xfer.times)}, current_id {len(cur.times)} changes); "
          f"{outside_window} rows outside the window, {skipped_no_transfer} without a transfer")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
