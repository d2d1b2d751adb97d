#!/usr/bin/env python3
"""Paper 002 Fig. 2 at heavy load, shortened: testbench/tests/data/experiments/mems-002-short.toml
(the scenario of experiments/mems-002.toml, configs/mems-002.toml: mems_g1 with adjacent blocks
along Y, exponential inter-arrival times with a 50 ms mean scaled by s, exponential 4 KB sizes,
two thirds reads, uniform placement) at s = 30, one replication of 20,000 requests, through
`drivevp sweep`. Asserts 002 §4's heavy-load result: every parallelism-aware policy (P-SPTF,
PA-SPTF, ZPSPTF, ZSCAN-PSPTF) has a lower mean response time than SPTF; that they got there by
serving several requests in one access (fewer media accesses than requests) while SPTF served
one request per access; that the load is heavy (the run saturates); and that the bar figure
plots exactly the summary's means. At s = 20 the ordering needs runs of about 60,000 requests
(docs/experiments.md "Paper 002"), too long for a test.

    test_mems002.py DRIVEVP_BINARY SOURCE_DIR
"""
import csv
import json
import os
import subprocess
import sys
import tempfile

drivevp, src = sys.argv[1], sys.argv[2]
AWARE = ["psptf", "pasptf", "zpsptf", "zscan_psptf"]
REQUESTS = 20000


def main():
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "sweep")
        env = dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE")
        experiment = os.path.join(src, "testbench/tests/data/experiments/mems-002-short.toml")
        r = subprocess.run([drivevp, "sweep", experiment, "--out", out, "--jobs", "2"], env=env,
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr[-3000:]
        with open(os.path.join(out, "summary.csv"), newline="") as f:
            rows = list(csv.DictReader(f))
        assert [row["firmware.policy"] for row in rows] == ["sptf"] + AWARE, rows
        assert all(row["workload.time_scale"] == "30" and row["n"] == "1" for row in rows), rows
        by = {row["firmware.policy"]: row for row in rows}
        mean = {p: float(by[p]["mean_ms_mean"]) for p in by}
        for p in by:
            assert float(by[p]["requests_mean"]) == REQUESTS, (p, by[p]["requests_mean"])
            assert float(by[p]["saturated_mean"]) == 1, (p, "s = 30 must overload mems_g1")
        # SPTF serves one request per access; the parallelism-aware policies serve batches.
        assert float(by["sptf"]["accesses_mean"]) == REQUESTS, by["sptf"]["accesses_mean"]
        for p in AWARE:
            accesses = float(by[p]["accesses_mean"])
            assert accesses < REQUESTS, (p, accesses)
            print(f"{p}: {REQUESTS - accesses:.0f} of {REQUESTS} requests served together with another")
        # 002 Fig. 2 / §4: parallelism-aware policies below SPTF at heavy load.
        for p in AWARE:
            assert mean[p] < mean["sptf"], (p, mean[p], "sptf", mean["sptf"])
        print("s = 30, mean response ms: sptf %.1f > " % mean["sptf"]
              + ", ".join(f"{p} {mean[p]:.1f} ({100 * (mean[p] / mean['sptf'] - 1):+.1f} %)" for p in AWARE))
        check_figure(out, rows)
        print("PASS")


def check_figure(out, rows):
    """The bar figure (reports/plot_experiment.py, kind = "bar") has one panel, s = 30, with one
    bar per policy in axis order whose height is exactly the summary's mean."""
    with open(os.path.join(out, "figures", "mean-heavy.json")) as f:
        fig = json.load(f)
    (panel,) = fig["panels"]
    assert panel["title"] == "workload.time_scale = 30", panel["title"]
    (bars,) = panel["bars"]
    assert bars["x"] == [row["firmware.policy"] for row in rows], bars["x"]
    assert bars["y"] == [float(row["mean_ms_mean"]) for row in rows], (bars["y"], rows)
    assert bars["ci95_low"] == [None] * len(rows), bars["ci95_low"]   # one replication: no interval
    print("figure mean-heavy: one bar per policy with the summary's means")


main()
