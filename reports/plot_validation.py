#!/usr/bin/python3
"""Plots a validation replay: the simulated and the measured service-time CDFs overlaid.

Input: validation_cdf.csv written by drivevp for a run of a `validate` trace, header
``edge_ms,simulated_fraction,measured_fraction``: the two cumulative distributions at DiskSim's
"Trace access time" bucket edges (testbench/metrics/demerit.h), fractions non-decreasing in [0, 1].

Output: OUTDIR/validation_cdf.png, both curves over a log time axis, the demerit (given with
--demerit, summary.json's value) in the legend. The same CSV gives the same PNG bytes; the file
is written atomically. A malformed CSV is reported as ``FILE:LINE: expected ..., found ...`` with
exit status 1, and nothing is written.

Runs with Debian's /usr/bin/python3 and python3-matplotlib.

Usage: plot_validation.py VALIDATION_CDF.csv OUTDIR [--title TEXT] [--demerit MS]
"""

import argparse
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plot_responses import CsvError, DPI, FIGSIZE_IN, matplotlib, parse_number, plt, save_atomically  # noqa: E402

HEADER = ["edge_ms", "simulated_fraction", "measured_fraction"]


def read_cdfs(path):
    """Returns (edges, simulated, measured); raises CsvError."""
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    if not rows or [c.strip() for c in rows[0]] != HEADER:
        raise CsvError(path, 1, "header " + ",".join(HEADER), ",".join(rows[0]) if rows else "an empty file")
    edges, sim, meas = [], [], []
    for line, row in enumerate(rows[1:], start=2):
        if len(row) != 3:
            raise CsvError(path, line, "3 fields", ",".join(row))
        e = parse_number(path, line, "edge_ms", row[0], float)
        s = parse_number(path, line, "simulated_fraction", row[1], float)
        m = parse_number(path, line, "measured_fraction", row[2], float)
        if edges and e <= edges[-1]:
            raise CsvError(path, line, f"edge_ms above the previous ({edges[-1]:g})", row[0])
        for name, v, prev in (("simulated_fraction", s, sim), ("measured_fraction", m, meas)):
            if not 0.0 <= v <= 1.0 or (prev and v < prev[-1]):
                raise CsvError(path, line, f"{name} in [0, 1], non-decreasing", repr(v))
        edges.append(e)
        sim.append(s)
        meas.append(m)
    if len(edges) < 2:
        raise CsvError(path, len(rows) + 1, "at least two edges", f"{len(edges)}")
    return edges, sim, meas


def main(argv=None):
    parser = argparse.ArgumentParser(description="Overlay a validation replay's simulated and measured CDFs.")
    parser.add_argument("cdf_csv")
    parser.add_argument("outdir")
    parser.add_argument("--title", default="")
    parser.add_argument("--demerit", type=float, default=None, help="demerit in ms, shown in the legend")
    args = parser.parse_args(argv)
    try:
        edges, sim, meas = read_cdfs(args.cdf_csv)
    except CsvError as e:
        print(f"plot_validation.py: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"plot_validation.py: cannot read {args.cdf_csv}: {e.strerror}", file=sys.stderr)
        return 1
    matplotlib.rcdefaults()
    fig, ax = plt.subplots(figsize=FIGSIZE_IN, dpi=DPI)
    xs = edges[1:]  # edge 0 is 0 ms, not drawable on a log axis
    label = "simulated" if args.demerit is None else f"simulated (demerit {args.demerit:.3f} ms)"
    ax.plot(xs, sim[1:], color="tab:blue", linewidth=1.5, label=label)
    ax.plot(xs, meas[1:], color="tab:red", linewidth=1.5, linestyle="--", label="measured on the drive")
    ax.set_xscale("log")
    # From the last edge where both are still 0 (the axis would otherwise start at 1 µs).
    first = next((i for i in range(1, len(edges)) if sim[i] > 0 or meas[i] > 0), 1)
    ax.set_xlim(edges[max(first - 1, 1)], edges[-1])
    ax.set_ylim(0.0, 1.02)
    ax.set_xlabel("service time (ms)")
    ax.set_ylabel("fraction of requests")
    ax.set_title(f"{args.title}: service-time CDF" if args.title else "Service-time CDF")
    ax.grid(True, which="major", axis="both", alpha=0.3)
    ax.legend(loc="lower right")
    fig.tight_layout()
    os.makedirs(args.outdir, exist_ok=True)
    path = os.path.join(args.outdir, "validation_cdf.png")
    temp = save_atomically(fig, path)
    os.replace(temp, path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
