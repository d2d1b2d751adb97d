#!/usr/bin/python3
"""Tests of reports/plot_experiment.py, the figures of `drivevp sweep`.

Each test writes a synthetic sweep directory (experiment.json and summary.csv in the formats of
docs/experiments.md), runs the script on it as `drivevp sweep` does (/usr/bin/python3, a
subprocess) and checks what was drawn through figures/NAME.json, which the script reads back
from the Matplotlib axes after drawing: series labels and order, the exact x and y values and
CI ends from the CSV, panels, categorical x, gaps for failed points, log axes; and the SVG's
per-series groups and legend text, byte-identical output across runs, and the error exits.

Plain unittest; run directly or through CTest (test `experiment_plots`).
"""

import csv
import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.normpath(os.path.join(HERE, "..", "..", "..", "reports", "plot_experiment.py"))
PYTHON = "/usr/bin/python3"  # Debian's, with python3-matplotlib; the sweep calls it the same way

POLICY = "firmware.policy"
RATE = "workload.rate_per_s"
PRESET = "device.preset"
METRICS = ["mean_ms", "p99_ms"]


def cell(value):
    """A value as the sweep writes it in CSV: shortest round-trip numbers, no trailing .0."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        text = repr(value)
        return text[:-2] if text.endswith(".0") else text
    return str(value)


def figure(name, x, y, series=None, panels=None, title=None, xlabel=None, ylabel=None,
           logx=False, logy=False):
    return {"name": name, "x": x, "y": y, "series": series, "panels": panels, "title": title,
            "xlabel": xlabel, "ylabel": ylabel, "logx": logx, "logy": logy}


def mean_of(assignment, metric):
    """A deterministic mean with many significant digits, distinct per point and metric."""
    policy_rank = {"fcfs": 3.0, "sstf": 2.0, "clook": 2.5, "sptf": 1.0}
    value = 1.0 + float(assignment.get(RATE, 7)) * policy_rank.get(assignment.get(POLICY), 1.5) / 7.0
    if assignment.get(PRESET) == "disk003":
        value *= 1.7
    return value * (3.1 if metric == "p99_ms" else 1.0)


def ci_of(mean):
    return mean / 13.0


class Sweep:
    """A synthetic sweep directory: experiment.json and summary.csv."""

    def __init__(self, root, axes, figures, metrics=METRICS, name="demo"):
        self.dir = root
        self.axes = axes  # [(key, values) or (key, values, zip group)]
        self.metrics = metrics
        self.figures = figures
        self.name = name
        self.rows = []  # [(assignment, n, {metric: (mean, sd, ci95)})]

    def add(self, assignment, n=5, values=None):
        """One summary row; values default to mean_of/ci_of (sd = ci / 2.776)."""
        if values is None:
            values = {}
            for m in self.metrics:
                mean = mean_of(assignment, m)
                values[m] = (mean, ci_of(mean) / 2.776, ci_of(mean)) if n >= 2 else (mean, None, None)
        self.rows.append((assignment, n, values))

    def add_grid(self, n=5, skip=()):
        """A row per point of the crossed axes (zip groups not supported here)."""
        assignments = [{}]
        for axis in self.axes:
            assignments = [dict(a, **{axis[0]: v}) for a in assignments for v in axis[1]]
        for a in assignments:
            if not any(all(a[k] == v for k, v in s.items()) for s in skip):
                self.add(a, n)

    def write(self, drop_columns=()):
        os.makedirs(self.dir, exist_ok=True)
        axes = []
        for axis in self.axes:
            entry = {"key": axis[0], "values": axis[1]}
            if len(axis) > 2:
                entry["zip"] = axis[2]
            axes.append(entry)
        doc = {"experiment": {"file": "/nowhere/demo.toml", "sha256": "0" * 64, "text": ""},
               "name": self.name, "drivevp_version": "0.1.0", "git_commit": "unknown",
               "git_dirty": False, "replications": 5, "seeds": "independent", "axes": axes,
               "metrics": [{"name": m, "path": "metrics." + m} for m in self.metrics],
               "figures": self.figures, "points": len(self.rows)}
        with open(os.path.join(self.dir, "experiment.json"), "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=2)
        header = (["point"] + [a[0] for a in self.axes] + ["n"]
                  + [f"{m}_{s}" for m in self.metrics for s in ("mean", "sd", "ci95")])
        keep = [i for i, h in enumerate(header) if h not in drop_columns]
        with open(os.path.join(self.dir, "summary.csv"), "w", newline="", encoding="utf-8") as f:
            out = csv.writer(f, lineterminator="\n")
            out.writerow([header[i] for i in keep])
            for index, (assignment, n, values) in enumerate(self.rows):
                row = [f"p{index:04d}"] + [cell(assignment[a[0]]) for a in self.axes] + [cell(n)]
                for m in self.metrics:
                    row += [cell(v) for v in values[m]]
                out.writerow([row[i] for i in keep])
        return self.dir


class PlotExperimentTest(unittest.TestCase):

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="test_plot_experiment.")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def sweep(self, axes, figures, name="demo", subdir="sweep", metrics=METRICS):
        return Sweep(os.path.join(self.tmp, subdir), axes, figures, metrics, name)

    def run_script(self, directory):
        return subprocess.run([PYTHON, SCRIPT, directory], capture_output=True, text=True, timeout=120)

    def plot(self, directory):
        result = self.run_script(directory)
        self.assertEqual(result.returncode, 0, f"stderr: {result.stderr}")
        return result

    def readback(self, directory, name):
        with open(os.path.join(directory, "figures", name + ".json"), encoding="utf-8") as f:
            return json.load(f)

    def expect_bad_input(self, directory, *fragments):
        result = self.run_script(directory)
        self.assertEqual(result.returncode, 2, f"stdout: {result.stdout} stderr: {result.stderr}")
        for fragment in fragments:
            self.assertIn(fragment, result.stderr)
        self.assertFalse(os.path.exists(os.path.join(directory, "figures")),
                         "bad input must write nothing")
        return result.stderr

    def expected_ends(self, assignment, metric):
        mean = mean_of(assignment, metric)
        return mean - ci_of(mean), mean + ci_of(mean)

    # --- what is drawn -------------------------------------------------------------------------

    def test_one_line_per_series_with_exact_means_and_ci(self):
        policies = ["sstf", "fcfs", "clook"]           # axis order, not alphabetical
        rates = [40, 10, 20.5, 30]                       # numeric: drawn in ascending order
        s = self.sweep([(POLICY, policies), (RATE, rates)],
                       [figure("mean-response", RATE, "mean_ms", series=POLICY)])
        s.add_grid()
        d = s.write()
        self.plot(d)

        for ext in ("png", "svg", "json"):
            self.assertTrue(os.path.isfile(os.path.join(d, "figures", "mean-response." + ext)))
        with open(os.path.join(d, "figures", "mean-response.png"), "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        self.assertEqual([n for n in os.listdir(os.path.join(d, "figures")) if n.endswith(".tmp")], [])

        fig = self.readback(d, "mean-response")
        self.assertEqual(fig["title"], "demo: mean-response")
        self.assertEqual(fig["legend"], {"title": POLICY, "labels": policies})
        self.assertEqual(len(fig["panels"]), 1)
        panel = fig["panels"][0]
        self.assertEqual((panel["title"], panel["xlabel"], panel["ylabel"]), ("", RATE, "mean_ms"))
        self.assertEqual((panel["xscale"], panel["yscale"]), ("linear", "linear"))
        self.assertIsNone(panel["xticklabels"])
        self.assertEqual([line["label"] for line in panel["lines"]], policies)
        self.assertEqual([line["gid"] for line in panel["lines"]], ["series-" + p for p in policies])
        self.assertEqual(len({line["color"] for line in panel["lines"]}), 3)
        for policy, line in zip(policies, panel["lines"]):
            points = [{POLICY: policy, RATE: r} for r in [10, 20.5, 30, 40]]
            self.assertEqual(line["x"], [10.0, 20.5, 30.0, 40.0])
            self.assertEqual(line["y"], [mean_of(p, "mean_ms") for p in points])
            ends = [self.expected_ends(p, "mean_ms") for p in points]
            self.assertEqual(line["ci95_low"], [e[0] for e in ends])
            self.assertEqual(line["ci95_high"], [e[1] for e in ends])
            for y, low, high in zip(line["y"], line["ci95_low"], line["ci95_high"]):
                self.assertAlmostEqual((high - low) / 2.0, ci_of(y), places=12)

    def test_panels_share_y_and_name_their_value(self):
        s = self.sweep([(PRESET, ["hp97560", "disk003"]), (POLICY, ["fcfs", "sptf"]), (RATE, [10, 20])],
                       [figure("p99", RATE, "p99_ms", series=POLICY, panels=PRESET, title="Tail latency",
                               xlabel="arrival rate (1/s)", ylabel="p99 response (ms)")])
        s.add_grid()
        d = s.write()
        self.plot(d)
        fig = self.readback(d, "p99")
        self.assertEqual(fig["title"], "Tail latency")
        self.assertEqual(fig["legend"], {"title": POLICY, "labels": ["fcfs", "sptf"]})
        self.assertEqual([p["title"] for p in fig["panels"]],
                         [f"{PRESET} = hp97560", f"{PRESET} = disk003"])
        self.assertEqual([p["xlabel"] for p in fig["panels"]], ["arrival rate (1/s)"] * 2)
        self.assertEqual([p["ylabel"] for p in fig["panels"]], ["p99 response (ms)", ""])
        self.assertEqual(fig["panels"][0]["ylim"], fig["panels"][1]["ylim"])
        for preset, panel in zip(["hp97560", "disk003"], fig["panels"]):
            self.assertEqual([line["gid"] for line in panel["lines"]],
                             [f"panel-{preset}-series-fcfs", f"panel-{preset}-series-sptf"])
            for policy, line in zip(["fcfs", "sptf"], panel["lines"]):
                points = [{PRESET: preset, POLICY: policy, RATE: r} for r in (10, 20)]
                self.assertEqual(line["x"], [10.0, 20.0])
                self.assertEqual(line["y"], [mean_of(p, "p99_ms") for p in points])
                self.assertEqual(line["ci95_high"], [self.expected_ends(p, "p99_ms")[1] for p in points])
        # The y range covers both panels' data (the disk003 panel's larger values).
        top = max(self.expected_ends({PRESET: "disk003", POLICY: "fcfs", RATE: 20}, "p99_ms"))
        self.assertGreaterEqual(fig["panels"][0]["ylim"][1], top)

    def test_string_x_is_categorical_in_axis_order(self):
        policies = ["sstf", "fcfs", "clook"]
        s = self.sweep([(POLICY, policies), (RATE, [25])], [figure("by-policy", POLICY, "mean_ms")])
        s.add_grid()
        d = s.write()
        self.plot(d)
        fig = self.readback(d, "by-policy")
        self.assertIsNone(fig["legend"])
        panel = fig["panels"][0]
        self.assertEqual(panel["xticklabels"], policies)
        (line,) = panel["lines"]
        self.assertEqual((line["label"], line["gid"]), ("mean_ms", "series-all"))
        self.assertEqual(line["x"], policies)
        self.assertEqual(line["x_positions"], [0.0, 1.0, 2.0])
        self.assertEqual(line["y"], [mean_of({POLICY: p, RATE: 25}, "mean_ms") for p in policies])

    def test_failed_and_missing_points_are_gaps(self):
        s = self.sweep([(POLICY, ["fcfs", "sstf"]), (RATE, [10, 20, 30])],
                       [figure("gaps", RATE, "mean_ms", series=POLICY)])
        s.add_grid(skip=[{POLICY: "fcfs", RATE: 20}, {POLICY: "fcfs", RATE: 30},
                         {POLICY: "sstf", RATE: 30}])
        s.add({POLICY: "fcfs", RATE: 20}, n=0, values={m: (None, None, None) for m in METRICS})  # failed
        s.add({POLICY: "fcfs", RATE: 30}, n=1)        # one replication: a mean, no interval
        # sstf at 30 has no row at all.
        d = s.write()
        self.plot(d)
        fcfs, sstf = self.readback(d, "gaps")["panels"][0]["lines"]
        self.assertEqual(fcfs["x"], [10.0, 20.0, 30.0])
        m10 = mean_of({POLICY: "fcfs", RATE: 10}, "mean_ms")
        m30 = mean_of({POLICY: "fcfs", RATE: 30}, "mean_ms")
        self.assertEqual(fcfs["y"], [m10, None, m30])
        self.assertEqual(fcfs["ci95_low"], [m10 - ci_of(m10), None, None])
        self.assertEqual(fcfs["ci95_high"], [m10 + ci_of(m10), None, None])
        self.assertEqual(sstf["y"][2], None)
        self.assertIsNotNone(sstf["y"][0])
        self.assertIsNotNone(sstf["y"][1])

    def test_log_axes(self):
        s = self.sweep([(POLICY, ["fcfs", "sstf"]), (RATE, [1, 10, 100, 1000])],
                       [figure("log", RATE, "mean_ms", series=POLICY, logx=True, logy=True),
                        figure("lin", RATE, "mean_ms", series=POLICY)])
        s.add_grid(skip=[{POLICY: "sstf", RATE: 1000}])
        zero = {m: (0.0, 0.0, 0.0) for m in METRICS}
        s.add({POLICY: "sstf", RATE: 1000}, values=zero)   # cannot be drawn on a log y axis
        d = s.write()
        result = self.plot(d)
        self.assertIn('figure "log": mean mean_ms = 0.0 cannot be drawn on a log y axis', result.stderr)
        log = self.readback(d, "log")["panels"][0]
        self.assertEqual((log["xscale"], log["yscale"]), ("log", "log"))
        self.assertEqual(log["lines"][1]["y"][3], None)
        lin = self.readback(d, "lin")["panels"][0]
        self.assertEqual((lin["xscale"], lin["yscale"]), ("linear", "linear"))
        self.assertEqual(lin["lines"][1]["y"][3], 0.0)

    def test_zipped_and_single_valued_axes_are_not_ambiguous(self):
        s = self.sweep([(POLICY, ["fcfs", "sstf"]), (PRESET, ["hp97560", "disk003"], 0),
                        (RATE, [40, 80], 0), ("run.duration_s", [2])],
                       [figure("zip", RATE, "mean_ms", series=POLICY)])
        for policy in ["fcfs", "sstf"]:
            for preset, rate in [("hp97560", 40), ("disk003", 80)]:
                s.add({POLICY: policy, PRESET: preset, RATE: rate, "run.duration_s": 2})
        d = s.write()
        self.plot(d)
        lines = self.readback(d, "zip")["panels"][0]["lines"]
        self.assertEqual(lines[1]["y"], [mean_of({POLICY: "sstf", PRESET: "hp97560", RATE: 40}, "mean_ms"),
                                         mean_of({POLICY: "sstf", PRESET: "disk003", RATE: 80}, "mean_ms")])

    def test_bar_figure_with_selected_panels_and_own_y_axes(self):
        # 002 Figs. 4-7: one bar per policy, one panel per selected scaling factor, each panel
        # with its own y range.
        policies = ["sstf", "fcfs", "clook"]
        s = self.sweep([(POLICY, policies), (RATE, [40, 10, 20.5, 30])],
                       [dict(figure("bars", POLICY, "mean_ms", panels=RATE), kind="bar",
                             panel_values=[30, 10], sharey=False)])
        s.add_grid()
        d = s.write()
        self.plot(d)
        fig = self.readback(d, "bars")
        self.assertIsNone(fig["legend"])
        self.assertEqual([p["title"] for p in fig["panels"]], [f"{RATE} = 30", f"{RATE} = 10"])
        self.assertEqual([p["ylabel"] for p in fig["panels"]], ["mean_ms", "mean_ms"])   # own y axes
        self.assertNotEqual(fig["panels"][0]["ylim"], fig["panels"][1]["ylim"])
        for rate, panel in zip([30, 10], fig["panels"]):
            self.assertNotIn("lines", panel)
            self.assertEqual(panel["xticklabels"], policies)
            (bars,) = panel["bars"]
            self.assertEqual((bars["label"], bars["gid"]), ("mean_ms", f"panel-{rate}-series-all"))
            self.assertEqual(bars["x"], policies)
            self.assertEqual(bars["x_positions"], [0.0, 1.0, 2.0])
            points = [{POLICY: p, RATE: rate} for p in policies]
            self.assertEqual(bars["y"], [mean_of(p, "mean_ms") for p in points])
            ends = [self.expected_ends(p, "mean_ms") for p in points]
            for (low, high), got_low, got_high in zip(ends, bars["ci95_low"], bars["ci95_high"]):
                self.assertAlmostEqual(got_low, low, places=12)
                self.assertAlmostEqual(got_high, high, places=12)
            # The y range starts at 0 and covers the highest interval.
            self.assertEqual(panel["ylim"][0], 0.0)
            self.assertGreaterEqual(panel["ylim"][1], max(e[1] for e in ends))
        with open(os.path.join(d, "figures", "bars.svg"), encoding="utf-8") as f:
            svg = f.read()
        for i in range(3):
            self.assertEqual(svg.count(f'<g id="panel-30-series-all-bar-{i}">'), 1, i)
        self.assertEqual(svg.count('<g id="panel-10-series-all-ci95">'), 1)
        self.assertNotIn("panel-20.5", svg)
        self.assertNotIn("panel-40", svg)

    def test_grouped_bars_per_series_with_gaps(self):
        s = self.sweep([(POLICY, ["fcfs", "sstf"]), (RATE, [40, 10, 20.5])],
                       [dict(figure("grouped", RATE, "p99_ms", series=POLICY), kind="bar", logy=True)])
        s.add_grid(skip=[{POLICY: "sstf", RATE: 20.5}])   # no row: no bar
        d = s.write()
        self.plot(d)
        fig = self.readback(d, "grouped")
        self.assertEqual(fig["legend"], {"title": POLICY, "labels": ["fcfs", "sstf"]})
        (panel,) = fig["panels"]
        self.assertEqual(panel["xticklabels"], ["10", "20.5", "40"])   # numbers as categories, ascending
        self.assertEqual(panel["yscale"], "log")
        fcfs, sstf = panel["bars"]
        self.assertEqual([fcfs["gid"], sstf["gid"]], ["series-fcfs", "series-sstf"])
        self.assertNotEqual(fcfs["color"], sstf["color"])
        self.assertEqual(fcfs["x_positions"], [-0.2, 0.8, 1.8])
        self.assertEqual(sstf["x_positions"], [0.2, None, 2.2])
        self.assertEqual(fcfs["y"], [mean_of({POLICY: "fcfs", RATE: r}, "p99_ms") for r in (10, 20.5, 40)])
        self.assertEqual(sstf["y"], [mean_of({POLICY: "sstf", RATE: 10}, "p99_ms"), None,
                                     mean_of({POLICY: "sstf", RATE: 40}, "p99_ms")])
        self.assertEqual(sstf["ci95_low"][1], None)
        self.assertAlmostEqual(sstf["ci95_high"][2],
                               self.expected_ends({POLICY: "sstf", RATE: 40}, "p99_ms")[1], places=12)

    def test_bad_bar_and_panel_keys_are_errors(self):
        cases = [(dict(figure("f", POLICY, "mean_ms", panels=RATE), kind="pie"),
                  '"f".kind: expected one of line, bar', '"pie"'),
                 (dict(figure("f", POLICY, "mean_ms", panels=RATE), sharey="no"),
                  '"f".sharey: expected true or false', '"no"'),
                 (dict(figure("f", RATE, "mean_ms", series=POLICY), panel_values=[10]),
                  '"f".panel_values: expected a figure with panels'),
                 (dict(figure("f", POLICY, "mean_ms", panels=RATE), panel_values=[10, 15]),
                  '"f".panel_values: expected values of the axis workload.rate_per_s (10, 20)', "found 15"),
                 (dict(figure("f", POLICY, "mean_ms", panels=RATE), panel_values=["10"]),
                  '"f".panel_values: expected values of the axis', 'found "10"'),
                 (dict(figure("f", POLICY, "mean_ms", panels=RATE), panel_values=[20, 20.0]),
                  '"f".panel_values: expected distinct values, found 20.0 twice'),
                 (dict(figure("f", POLICY, "mean_ms", panels=RATE), panel_values=[]),
                  '"f".panel_values: expected a non-empty array'),
                 (dict(figure("f", RATE, "mean_ms", series=POLICY, logx=True), kind="bar"),
                  '"f".logx: expected false for a bar figure (its x is categorical), found true')]
        for i, (fig, *fragments) in enumerate(cases):
            with self.subTest(case=i):
                s = self.sweep([(POLICY, ["fcfs", "sstf"]), (RATE, [10, 20])], [fig], subdir=f"case{i}")
                s.add_grid()
                self.expect_bad_input(s.write(), "experiment.json", *fragments)

    # --- the SVG and determinism ------------------------------------------------------------

    def test_svg_has_a_group_per_series_and_the_legend_as_text(self):
        policies = ["fcfs", "sstf", "clook"]
        s = self.sweep([(POLICY, policies), (RATE, [10, 20])],
                       [figure("svg", RATE, "mean_ms", series=POLICY)])
        s.add_grid()
        d = s.write()
        self.plot(d)
        with open(os.path.join(d, "figures", "svg.svg"), encoding="utf-8") as f:
            svg = f.read()
        for policy in policies:
            self.assertEqual(svg.count(f'<g id="series-{policy}">'), 1, policy)
            self.assertEqual(svg.count(f'<g id="series-{policy}-ci95">'), 1, policy)
            self.assertRegex(svg, r"<text[^>]*>" + re.escape(policy) + "</text>")
        self.assertRegex(svg, r"<text[^>]*>" + re.escape(POLICY) + "</text>")   # legend title
        self.assertRegex(svg, r"<text[^>]*>" + re.escape(RATE) + "</text>")     # x label
        self.assertNotIn("<dc:date>", svg)

    def test_same_input_same_bytes(self):
        axes = [(PRESET, ["hp97560", "disk003"]), (POLICY, ["fcfs", "sstf", "clook"]), (RATE, [10, 20, 30])]
        figures = [figure("a", RATE, "mean_ms", series=POLICY, panels=PRESET, logy=True),
                   figure("b", POLICY, "p99_ms", series=RATE, panels=PRESET),
                   dict(figure("c", POLICY, "p99_ms", series=RATE, panels=PRESET), kind="bar",
                        panel_values=["disk003"], sharey=False)]
        dirs = []
        for sub in ("one", "two"):
            s = self.sweep(axes, figures, subdir=sub)
            s.add_grid()
            dirs.append(s.write())
        self.plot(dirs[0])
        first = {}
        for name in sorted(os.listdir(os.path.join(dirs[0], "figures"))):
            with open(os.path.join(dirs[0], "figures", name), "rb") as f:
                first[name] = f.read()
        self.assertEqual(sorted(first), ["a.json", "a.png", "a.svg", "b.json", "b.png", "b.svg",
                                        "c.json", "c.png", "c.svg"])
        self.plot(dirs[0])     # again, over the same directory
        self.plot(dirs[1])     # and in another directory
        for d in dirs:
            for name, data in first.items():
                with open(os.path.join(d, "figures", name), "rb") as f:
                    self.assertEqual(f.read(), data, f"{d}/figures/{name} differs")

    # --- bad input ---------------------------------------------------------------------------

    def test_ambiguous_figure_is_an_error(self):
        axes = [(PRESET, ["hp97560", "disk003"]), (POLICY, ["fcfs", "sstf"]), (RATE, [10, 20])]
        s = self.sweep(axes, [figure("fine", RATE, "mean_ms", series=POLICY, panels=PRESET),
                              figure("mixed", RATE, "mean_ms", series=POLICY)])
        s.add_grid()
        err = self.expect_bad_input(s.write(), "experiment.json: figure \"mixed\" is ambiguous: the axis "
                                    "device.preset (2 values) varies but is not its x, series or panels")
        self.assertNotIn('"fine"', err)
        s = self.sweep(axes, [figure("two", RATE, "mean_ms")], subdir="two")
        s.add_grid()
        self.expect_bad_input(s.write(), "experiment.json: figure \"two\" is ambiguous: the axes "
                              "device.preset (2 values), firmware.policy (2 values) vary but are not")

    def test_duplicate_point_is_an_error(self):
        s = self.sweep([(POLICY, ["fcfs"]), (RATE, [10, 20])], [figure("dup", RATE, "mean_ms")])
        s.add_grid()
        s.add({POLICY: "fcfs", RATE: 20})
        d = s.write()
        self.expect_bad_input(d, "summary.csv:4:", 'figure "dup" is ambiguous', "point p0002", "point p0001")

    def test_missing_column_is_an_error(self):
        s = self.sweep([(POLICY, ["fcfs"]), (RATE, [10, 20])], [figure("f", RATE, "mean_ms")])
        s.add_grid()
        d = s.write(drop_columns=("mean_ms_ci95",))
        self.expect_bad_input(d, "summary.csv:1: expected column \"mean_ms_ci95\"",
                              "found header point,firmware.policy,workload.rate_per_s,n,"
                              "mean_ms_mean,mean_ms_sd,p99_ms_mean")

    def test_unknown_figure_keys_are_errors(self):
        cases = [(figure("f", "workload.rate", "mean_ms"), '"f".x: expected an axis key', '"workload.rate"'),
                 (figure("f", RATE, "mean_ms", series="firmware.nope"), '"f".series: expected an axis key',
                  '"firmware.nope"'),
                 (figure("f", RATE, "p50_ms"), '"f".y: expected a metric name (mean_ms, p99_ms)', '"p50_ms"'),
                 (figure("f", RATE, "mean_ms", series=RATE), "expected x, series and panels to be different",
                  "series=workload.rate_per_s"),
                 (figure("f", POLICY, "mean_ms", series=RATE, logx=True),
                  '"f".logx: expected numeric x values', "fcfs"),
                 (dict(figure("f", RATE, "mean_ms"), colour="red"), "expected only the keys", "found colour"),
                 (figure("../f", RATE, "mean_ms"), "expected a file stem", '"../f"')]
        for i, (fig, *fragments) in enumerate(cases):
            with self.subTest(case=i):
                s = self.sweep([(POLICY, ["fcfs"]), (RATE, [10, 20])], [fig], subdir=f"case{i}")
                s.add_grid()
                self.expect_bad_input(s.write(), "experiment.json", *fragments)

    def test_missing_files_and_bad_cells_are_errors(self):
        s = self.sweep([(POLICY, ["fcfs"]), (RATE, [10, 20])], [figure("f", RATE, "mean_ms")])
        s.add_grid()
        d = s.write()
        os.unlink(os.path.join(d, "summary.csv"))
        self.expect_bad_input(d, os.path.join(d, "summary.csv") + ": expected the sweep's summary.csv, "
                                 "found no such file")
        os.unlink(os.path.join(d, "experiment.json"))
        self.expect_bad_input(d, os.path.join(d, "experiment.json")
                              + ": expected the sweep's experiment.json")

        s = self.sweep([(POLICY, ["fcfs"]), (RATE, [10, 20])], [figure("f", RATE, "mean_ms")], subdir="cells")
        s.add({POLICY: "fcfs", RATE: 10})
        s.add({POLICY: "fifo", RATE: 20})
        d = s.write()
        self.expect_bad_input(d, "summary.csv:3: column firmware.policy: expected one of the axis' values "
                                 "(fcfs), found 'fifo'")
        s.rows[1] = ({POLICY: "fcfs", RATE: 20}, 5, {m: ("fast", None, None) for m in METRICS})
        s.write()
        self.expect_bad_input(d, "summary.csv:3: column mean_ms_mean: expected a number or an empty cell, "
                                 "found 'fast'")

    def test_bad_input_leaves_existing_figures_alone(self):
        s = self.sweep([(POLICY, ["fcfs"]), (RATE, [10, 20])], [figure("f", RATE, "mean_ms")])
        s.add_grid()
        d = s.write()
        self.plot(d)
        with open(os.path.join(d, "figures", "f.png"), "rb") as f:
            before = f.read()
        s.write(drop_columns=("n",))
        result = self.run_script(d)
        self.assertEqual(result.returncode, 2)
        self.assertIn('expected column "n"', result.stderr)
        with open(os.path.join(d, "figures", "f.png"), "rb") as f:
            self.assertEqual(f.read(), before)
        self.assertEqual(sorted(os.listdir(os.path.join(d, "figures"))), ["f.json", "f.png", "f.svg"])

    def test_write_errors_exit_3_and_leave_no_temporary_files(self):
        s = self.sweep([(POLICY, ["fcfs"]), (RATE, [10, 20])], [figure("f", RATE, "mean_ms")])
        s.add_grid()
        d = s.write()
        with open(os.path.join(d, "figures"), "w", encoding="utf-8"):
            pass                                  # a file where the directory should be
        result = self.run_script(d)
        self.assertEqual(result.returncode, 3, result.stderr)
        self.assertIn("cannot write to " + os.path.join(d, "figures"), result.stderr)
        os.unlink(os.path.join(d, "figures"))
        os.makedirs(os.path.join(d, "figures", "f.svg"))   # the rename over f.svg fails
        result = self.run_script(d)
        self.assertEqual(result.returncode, 3, result.stderr)
        # f.png was complete and renamed before the failing rename; no .tmp file remains.
        self.assertEqual(sorted(os.listdir(os.path.join(d, "figures"))), ["f.png", "f.svg"])
        self.assertTrue(os.path.isdir(os.path.join(d, "figures", "f.svg")))


if __name__ == "__main__":
    unittest.main(verbosity=2)
