#!/usr/bin/python3
"""Plots a run's response-time histogram and CDF.

Input: the simulator's histogram CSV, header ``lower_ms,upper_ms,count,cumulative_fraction``,
one row per non-empty log-linear bucket in ascending order; a bucket holds the responses r
with lower_ms <= r < upper_ms, and cumulative_fraction is the fraction of all responses at or
below the bucket's upper edge.

Output, in OUTDIR:
  response_histogram.png  bucket counts over a log response-time axis
  response_cdf.png        cumulative fraction over a log response-time axis, with p50, p95 and
                          p99 marked; the legend shows them in ms with 3 decimals, as the
                          console summary does, and the PNG's "Description" text chunk records
                          them exactly ("p50_ms=... p95_ms=... p99_ms=...", shortest round-trip
                          decimals)

The percentiles: drivevp passes summary.json's values with --percentiles, so the legend equals
summary.json (nearest rank over the exact samples, see testbench/metrics/histogram.h). Without
--percentiles they are computed from the CSV the same way as far as the CSV allows: the
nearest-rank sample's bucket midpoint, which can differ from summary.json's value by the bucket
resolution (summary.json also clamps to the exact minimum and maximum, which the CSV lacks).

Runs with Debian's /usr/bin/python3 and python3-matplotlib (the shebang names it, because a
python3 earlier on PATH, e.g. pyenv's, may lack matplotlib).

The same CSV gives the same PNG bytes (fixed size, DPI, style and metadata). Files are
written atomically (temporary file in OUTDIR, then rename). A malformed CSV is reported as
``FILE:LINE: expected ..., found ...`` with exit status 1, and nothing is written.

Usage: plot_responses.py HISTOGRAM.csv OUTDIR [--title TEXT] [--percentiles 50=MS,95=MS,99=MS]
"""

import argparse
import csv
import math
import os
import sys
import tempfile

try:
    import numpy
    import matplotlib
except ImportError:
    sys.exit(f"plot_responses.py: matplotlib is not installed for {sys.executable} "
             "(Debian: apt-get install python3-matplotlib, then run with /usr/bin/python3)")

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)

HEADER = ["lower_ms", "upper_ms", "count", "cumulative_fraction"]
PERCENTILES = (50, 95, 99)
FIGSIZE_IN = (8.0, 5.0)
DPI = 100
# The CSV's cumulative_fraction is printed with limited precision; it must agree with the
# fraction recomputed from the counts to within this.
CUMULATIVE_TOLERANCE = 1e-4


class CsvError(Exception):
    """A malformed histogram CSV: file, line, what was expected and what was found."""

    def __init__(self, path, line, expected, found):
        super().__init__(f"{path}:{line}: expected {expected}, found {found}")


def parse_number(path, line, column, text, kind):
    try:
        value = int(text) if kind is int else float(text)
    except ValueError:
        raise CsvError(path, line, f"{column} as {'an integer' if kind is int else 'a number'}",
                       repr(text)) from None
    if kind is float and not math.isfinite(value):
        raise CsvError(path, line, f"{column} as a finite number", repr(text))
    return value


def read_histogram(path):
    """Returns a list of (lower_ms, upper_ms, count, cumulative_fraction); raises CsvError."""
    try:
        with open(path, newline="", encoding="utf-8-sig") as f:
            rows = list(csv.reader(f))
    except UnicodeDecodeError as e:
        raise CsvError(path, 1, "UTF-8 text", f"undecodable bytes ({e.reason})") from None
    if not rows:
        raise CsvError(path, 1, "header " + ",".join(HEADER), "an empty file")
    header = [field.strip() for field in rows[0]]
    if header != HEADER:
        raise CsvError(path, 1, "header " + ",".join(HEADER), ",".join(rows[0]))

    buckets = []
    line_numbers = []
    previous_upper = None
    previous_cumulative = 0.0
    for line, row in enumerate(rows[1:], start=2):
        if not row or all(not field.strip() for field in row):
            continue  # blank line, e.g. at the end of the file
        if len(row) != len(HEADER):
            raise CsvError(path, line, f"{len(HEADER)} fields", f"{len(row)}: {','.join(row)}")
        lower = parse_number(path, line, "lower_ms", row[0].strip(), float)
        upper = parse_number(path, line, "upper_ms", row[1].strip(), float)
        count = parse_number(path, line, "count", row[2].strip(), int)
        cumulative = parse_number(path, line, "cumulative_fraction", row[3].strip(), float)
        if lower < 0:
            raise CsvError(path, line, "lower_ms >= 0", row[0])
        if upper <= lower:
            raise CsvError(path, line, f"upper_ms > lower_ms ({row[0]})", row[1])
        if previous_upper is not None and lower < previous_upper:
            raise CsvError(path, line,
                           f"buckets in ascending order, lower_ms >= previous upper_ms "
                           f"({previous_upper:g})", row[0])
        if count < 1:
            raise CsvError(path, line, "count >= 1 (one row per non-empty bucket)", row[2])
        if not previous_cumulative < cumulative <= 1.0 + CUMULATIVE_TOLERANCE:
            raise CsvError(path, line,
                           f"cumulative_fraction increasing, in ({previous_cumulative:g}, 1]",
                           row[3])
        buckets.append((lower, upper, count, cumulative))
        line_numbers.append(line)
        previous_upper = upper
        previous_cumulative = cumulative
    if not buckets:
        raise CsvError(path, len(rows) + 1, "at least one bucket row", "only the header")

    total = sum(b[2] for b in buckets)
    running = 0
    for line, (_, _, count, cumulative) in zip(line_numbers, buckets):
        running += count
        if abs(running / total - cumulative) > CUMULATIVE_TOLERANCE:
            raise CsvError(path, line,
                           f"cumulative_fraction {running / total:.6f} (running count "
                           f"{running} of {total})", f"{cumulative:g}")
    return buckets


def percentile(buckets, p):
    """Nearest-rank response time at p percent: the midpoint of the bucket holding the
    ceil(p/100 * n)-th smallest response (at least the first), as LogLinearHistogram does."""
    total = sum(b[2] for b in buckets)
    rank = max(1, math.ceil(p / 100.0 * total))
    below = 0
    for lower, upper, count, _ in buckets:
        if below + count >= rank:
            return (lower + upper) / 2.0
        below += count
    return (buckets[-1][0] + buckets[-1][1]) / 2.0


def parse_percentiles(text):
    """--percentiles "50=21.13,95=46.45,99=67.49" -> {50: 21.13, 95: 46.45, 99: 67.49};
    raises ValueError naming what is wrong."""
    values = {}
    for item in text.split(","):
        key, sep, value = item.partition("=")
        if not sep or key.strip() not in {str(p) for p in PERCENTILES}:
            raise ValueError(f"expected P=MS with P one of {', '.join(map(str, PERCENTILES))}, "
                             f"found {item!r}")
        number = float(value)
        if not math.isfinite(number) or number < 0:
            raise ValueError(f"expected a non-negative number of ms for p{key.strip()}, found {value!r}")
        values[int(key)] = number
    missing = [p for p in PERCENTILES if p not in values]
    if missing:
        raise ValueError(f"missing {', '.join('p' + str(p) for p in missing)}")
    return values


DISPLAY_BINS = 80


def log_left_edge(buckets):
    """Left edge of the first bucket on a log axis (a bucket starting at 0 cannot be drawn)."""
    lower, upper = buckets[0][0], buckets[0][1]
    return lower if lower > 0 else upper / 10.0


def titled(title, what):
    return f"{title}: {what}" if title else what[:1].upper() + what[1:]


def plot_histogram(buckets, title):
    fig, ax = plt.subplots(figsize=FIGSIZE_IN, dpi=DPI)
    # The simulator's buckets are ~0.1 % wide (thousands of them); for display they are summed
    # into DISPLAY_BINS log-spaced bins, each bucket counted in the bin holding its midpoint.
    lo, hi = log_left_edge(buckets), buckets[-1][1]
    if hi <= lo:
        hi = lo * 1.001
    edges = numpy.geomspace(lo, hi, DISPLAY_BINS + 1)
    mids = [(max(b[0], lo) + b[1]) / 2.0 for b in buckets]
    counts, _ = numpy.histogram(mids, bins=edges, weights=[b[2] for b in buckets])
    ax.stairs(counts, edges, fill=True, color="tab:blue", edgecolor="black", linewidth=0.4)
    ax.set_xscale("log")
    ax.set_xlim(log_left_edge(buckets), buckets[-1][1])
    ax.set_xlabel("response time (ms)")
    ax.set_ylabel("requests")
    ax.set_title(titled(title, "response-time histogram"))
    ax.grid(True, which="major", axis="both", alpha=0.3)
    total = sum(b[2] for b in buckets)
    ax.text(0.99, 0.97, f"{total} requests", transform=ax.transAxes, ha="right", va="top")
    fig.tight_layout()
    return fig


def plot_cdf(buckets, title, percentiles):
    """percentiles: {50: ms, 95: ms, 99: ms}, the values marked and shown in the legend."""
    fig, ax = plt.subplots(figsize=FIGSIZE_IN, dpi=DPI)
    total = sum(b[2] for b in buckets)
    xs, ys = [], []
    running = 0
    for lower, upper, count, _ in buckets:
        xs.append(lower if lower > 0 else log_left_edge(buckets))
        ys.append(running / total)
        running += count
        xs.append(upper)
        ys.append(running / total)
    ax.plot(xs, ys, color="tab:blue", linewidth=1.5, label="CDF")
    colours = {50: "tab:green", 95: "tab:orange", 99: "tab:red"}
    for p in PERCENTILES:
        value = percentiles[p]
        ax.axvline(value, color=colours[p], linestyle="--", linewidth=1.0,
                   label=f"p{p} = {value:.3f} ms")
        ax.plot([value], [p / 100.0], marker="o", color=colours[p], markersize=4)
    ax.set_xscale("log")
    ax.set_xlim(log_left_edge(buckets), buckets[-1][1])
    ax.set_ylim(0.0, 1.02)
    ax.set_xlabel("response time (ms)")
    ax.set_ylabel("fraction of requests")
    ax.set_title(titled(title, "response-time CDF"))
    ax.grid(True, which="major", axis="both", alpha=0.3)
    ax.legend(loc="lower right")
    fig.tight_layout()
    return fig


def percentiles_text(percentiles):
    """The exact values, for the PNG's Description chunk: "p50_ms=21.1309035515 ..."."""
    return " ".join(f"p{p}_ms={percentiles[p]!r}" for p in PERCENTILES)


def save_atomically(fig, path, description=None):
    """Writes fig as PNG to a temporary file next to path; returns the temporary name."""
    directory = os.path.dirname(os.path.abspath(path))
    fd, temp = tempfile.mkstemp(prefix=".tmp-", suffix=".png", dir=directory)
    try:
        # mkstemp makes the file private; give it the mode an ordinary open() would.
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)
        with os.fdopen(fd, "wb") as f:
            metadata = {"Software": None}
            if description:
                metadata["Description"] = description
            fig.savefig(f, format="png", dpi=DPI, metadata=metadata)
    except BaseException:
        os.unlink(temp)
        raise
    finally:
        plt.close(fig)
    return temp


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Plot the response-time histogram and CDF of a drivevp run.")
    parser.add_argument("histogram_csv", help="CSV: lower_ms,upper_ms,count,cumulative_fraction")
    parser.add_argument("outdir", help="directory for response_histogram.png and response_cdf.png")
    parser.add_argument("--title", default="", help="title prefix, e.g. the scenario name")
    parser.add_argument("--percentiles", default=None,
                        help="the p50, p95 and p99 to mark, in ms, e.g. 50=21.13,95=46.45,99=67.49 "
                             "(drivevp passes summary.json's); default: computed from the CSV")
    args = parser.parse_args(argv)
    given = None
    if args.percentiles is not None:
        try:
            given = parse_percentiles(args.percentiles)
        except ValueError as e:
            print(f"plot_responses.py: --percentiles: {e}", file=sys.stderr)
            return 2

    try:
        buckets = read_histogram(args.histogram_csv)
    except CsvError as e:
        print(f"plot_responses.py: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"plot_responses.py: cannot read {args.histogram_csv}: {e.strerror}", file=sys.stderr)
        return 1

    # Matplotlib's built-in defaults, not the user's matplotlibrc: same input, same bytes.
    matplotlib.rcdefaults()
    percentiles = given if given is not None else {p: percentile(buckets, p) for p in PERCENTILES}
    try:
        os.makedirs(args.outdir, exist_ok=True)
        outputs = [
            (os.path.join(args.outdir, "response_histogram.png"), plot_histogram(buckets, args.title), None),
            (os.path.join(args.outdir, "response_cdf.png"), plot_cdf(buckets, args.title, percentiles),
             percentiles_text(percentiles)),
        ]
        temps = []
        try:
            for path, fig, description in outputs:
                temps.append((save_atomically(fig, path, description), path))
        except BaseException:
            for temp, _ in temps:
                os.unlink(temp)
            raise
        for temp, path in temps:
            os.replace(temp, path)
    except OSError as e:
        print(f"plot_responses.py: cannot write to {args.outdir}: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
