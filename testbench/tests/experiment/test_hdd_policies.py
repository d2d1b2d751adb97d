#!/usr/bin/env python3
"""The first experiment, shortened: experiments/hdd-policies.toml with 2 replications of 3,000
requests per point (the shipped file: 5 of 10,000). Asserts the well-known shape of the policies'
mean response time against arrival rate on the HP 97560 (docs/experiments.md "A first
experiment"; Worthington, Ganger & Patt, SIGMETRICS 1994; Seltzer, Chen & Ousterhout, USENIX
1990): at high load SPTF and aged SPTF below C-LOOK and C-LOOK below FCFS; FCFS saturates first.
Then checks that the figures plot exactly those means.

    test_hdd_policies.py DRIVEVP_BINARY SOURCE_DIR
"""
import csv
import json
import math
import os
import subprocess
import sys
import tempfile

drivevp, src = sys.argv[1], sys.argv[2]
HIGH_LOAD = [45, 50, 55, 60]  # requests/s: utilization 0.8-0.99 for the non-FCFS policies


def main():
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "sweep")
        env = dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE")
        r = subprocess.run([drivevp, "sweep", os.path.join(src, "experiments/hdd-policies.toml"), "--out", out,
                            "--set", "experiment.replications=2", "--set", "run.requests=3000",
                            "--set", "run.warmup_requests=300"], env=env, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr[-3000:]
        with open(os.path.join(out, "summary.csv"), newline="") as f:
            rows = list(csv.DictReader(f))
        assert len(rows) == 8 * 13, len(rows)
        mean = {(row["firmware.policy"], int(row["workload.rate_per_s"])): float(row["mean_ms_mean"]) for row in rows}
        saturated = {(row["firmware.policy"], int(row["workload.rate_per_s"])): float(row["saturated_mean"])
                     for row in rows}
        for rate in HIGH_LOAD:
            m = {p: mean[(p, rate)] for p in ("fcfs", "clook", "sptf", "aged_sptf")}
            assert m["sptf"] < m["clook"], (rate, m)
            assert m["aged_sptf"] < m["clook"], (rate, m)
            assert m["clook"] < m["fcfs"], (rate, m)
            print(f"rate {rate}/s: mean ms sptf {m['sptf']:.1f}, aged_sptf {m['aged_sptf']:.1f} < "
                  f"clook {m['clook']:.1f} < fcfs {m['fcfs']:.1f}")
        policies = sorted({p for p, _ in mean})
        rates = sorted({r for _, r in mean})

        def first_saturated(p):
            return next((r for r in rates if saturated[(p, r)] > 0), math.inf)

        fcfs = first_saturated("fcfs")
        assert fcfs < math.inf, "FCFS never saturates up to 70 requests/s"
        for p in policies:
            if p != "fcfs":
                assert fcfs < first_saturated(p), (p, fcfs, first_saturated(p))
        print(f"FCFS saturates first, at {fcfs}/s; then "
              + ", ".join(f"{p} at {first_saturated(p)}" for p in policies if p != "fcfs"))
        check_figure(out, "mean-response", "mean_ms", rows)
        check_figure(out, "p99-response", "p99_ms", rows)
        print("PASS")


def check_figure(out, name, metric, rows):
    """The figure's read-back data (reports/plot_experiment.py writes what matplotlib drew) holds
    one series per policy, in the axis' order, with exactly the summary's means and CIs."""
    for ext in ("png", "svg", "json"):
        path = os.path.join(out, "figures", f"{name}.{ext}")
        assert os.path.getsize(path) > 0, path
    with open(os.path.join(out, "figures", f"{name}.json")) as f:
        fig = json.load(f)
    panel = fig["panels"][0]
    labels = [s["label"] for s in panel["lines"]]
    assert fig["legend"]["labels"] == labels, fig["legend"]
    assert labels == ["fcfs", "sstf", "scan", "look", "cscan", "clook", "sptf", "aged_sptf"], labels
    assert panel["xscale"] == "linear", panel["xscale"]
    for s in panel["lines"]:
        expected = sorted((int(r["workload.rate_per_s"]), float(r[f"{metric}_mean"]), float(r[f"{metric}_ci95"]))
                          for r in rows if r["firmware.policy"] == s["label"])
        assert [x for x, _, _ in expected] == s["x"], (s["label"], s["x"])  # numeric x, in order
        assert len(s["y"]) == len(expected)
        for (_, y, ci), sy, lo, hi in zip(expected, s["y"], s["ci95_low"], s["ci95_high"]):
            assert math.isclose(y, sy, rel_tol=1e-12), (s["label"], y, sy)
            assert math.isclose(lo, y - ci, rel_tol=1e-9) and math.isclose(hi, y + ci, rel_tol=1e-9), (s["label"], lo, hi)
    svg = open(os.path.join(out, "figures", f"{name}.svg")).read()
    for label in labels:
        assert f'id="series-{label}"' in svg, label
    print(f"figure {name}: 8 series with the summary's means")


main()
