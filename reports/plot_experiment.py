#!/usr/bin/python3
"""Draws the figures of a `drivevp sweep` from DIR/summary.csv and DIR/experiment.json.

Input (formats: docs/experiments.md; written by `drivevp sweep` before it calls this script):
  DIR/experiment.json  "axes": [{"key", "values": [...], "zip": group (optional)}, ...] in axis
                       order; "metrics": [{"name", "path"}, ...]; "figures": [{"name", "x", "y",
                       "series", "panels", "title", "xlabel", "ylabel", "logx", "logy", "kind",
                       "panel_values", "sharey"}, ...] (series, panels, title, xlabel, ylabel may be
                       null; logx, logy booleans; kind "line" or "bar", default "line";
                       panel_values null or values of the panels axis, default null = all of them;
                       sharey a boolean, default true)
  DIR/summary.csv      header ``point,<axis keys...>,n,<m>_mean,<m>_sd,<m>_ci95,...``, one row
                       per point; an empty cell is a missing value (a mean is empty when every
                       replication of the point failed, sd and ci95 are empty when n < 2)

For each figure, the mean of metric y against axis x: one line with markers per value of the
`series` axis (in the axis' value order), one subplot per value of the `panels` axis (y shared
unless sharey is false; only the panel_values, in their order, when given), the 95 % confidence
interval (the ci95 column, a half-width) as an error bar. Numeric x values are drawn on a numeric
axis in ascending order; any other x axis is categorical, in axis order. kind "bar" draws grouped
bars instead of lines: x is always categorical (numbers in ascending order), one bar per series
value side by side at each x (width 0.8 / number of series), the error bar at the bar's centre.
A point with an empty mean, or with no row, is a gap in its line (NaN), never a 0; on a log y
axis a mean <= 0 is a gap too (with a warning on stderr). Every other axis must have a single
value (or be zipped with x, series or panels), else the figure would average over it: that is
an error, as is any other bad input.

Output, in DIR/figures/ (created if missing):
  NAME.png   150 dpi
  NAME.svg   text as <text> (svg.fonttype none); each series' line is <g id="series-VALUE">,
             "panel-PANEL-series-VALUE" with panels, "series-all" without a series axis (VALUE
             with every character outside [A-Za-z0-9._-] replaced by "_"); its error bars are
             <g id="...-ci95">; in a bar figure each bar is <g id="...-bar-I">, I the index of
             its x category (0, 1, ...)
  NAME.json  what was drawn, read back from the Matplotlib figure after drawing (not the input
             arrays): title, legend title and texts, and per panel its title, axis labels and
             scales, category tick labels, and per line its label, gid, x, y (null for a gap),
             and per point the error bar's low and high ends (null: no bar); a bar figure lists
             its series under "bars" instead of "lines" (x the categories, x_positions the bar
             centres, y the bar heights, null where no bar is drawn)
The same input gives the same bytes in all three files (Matplotlib's built-in defaults, fixed
svg.hashsalt, no dates or version strings in the metadata). Each file is written to NAME.EXT.tmp
and renamed over NAME.EXT, so a killed run never leaves a half-written file under a final name.

Exit status: 0 figures written; 2 bad input (a missing or malformed file, a missing column, a
figure naming an unknown axis or metric, an ambiguous figure), reported as "FILE: what was
expected, what was found" and nothing written; 3 a figure could not be written.

Runs with Debian's /usr/bin/python3 and python3-matplotlib, headless (Agg).
Usage: plot_experiment.py DIR
"""

import argparse
import csv
import json
import math
import os
import re
import sys

# Matplotlib is imported by load_matplotlib() once the input is valid (the import takes about
# 0.5 s, which bad input need not wait for).
matplotlib = None
plt = None

ME = "plot_experiment.py"
EXIT_BAD_INPUT = 2
EXIT_IO_ERROR = 3
DPI = 150
PANEL_SIZE_IN = (4.8, 3.6)      # one subplot
LEGEND_WIDTH_IN = 1.8           # room right of the subplots for the legend
MAX_PANEL_COLUMNS = 3
MARKERS = ["o", "s", "^", "v", "D", "P", "X", "*", "<", ">"]
FIGURE_FIELDS = {"name", "x", "y", "series", "panels", "title", "xlabel", "ylabel", "logx", "logy",
                 "kind", "panel_values", "sharey"}
FIGURE_KINDS = ("line", "bar")
BAR_GROUP_WIDTH = 0.8           # the bars of one x category span this much of the unit spacing
ROTATE_CATEGORIES_ABOVE = 4     # more categories than this on an x axis: labels slanted
CATEGORY_LABEL_ROTATION = 30    # degrees
SVG_HASH_SALT = "drivevp-experiment"


class InputError(Exception):
    """Bad input: the message names the file and what was expected and found."""


def load_matplotlib():
    """Imports Matplotlib with the Agg backend into the module globals; exits when it is missing."""
    global matplotlib, plt
    try:
        import matplotlib as mpl
    except ImportError:
        sys.exit(f"{ME}: matplotlib is not installed for {sys.executable} "
                 "(Debian: apt-get install python3-matplotlib, then run with /usr/bin/python3)")
    mpl.use("Agg")
    import matplotlib.pyplot
    import matplotlib.ticker  # noqa: F401  (used as matplotlib.ticker)
    import matplotlib.colors  # noqa: F401
    import matplotlib.container  # noqa: F401
    matplotlib, plt = mpl, matplotlib.pyplot


# --- reading ---------------------------------------------------------------------------------

def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def value_text(value):
    """An axis value as the CSV writes it: strings as they are, true/false, numbers in shortest
    round-trip form without a trailing ".0" (10.0 -> "10")."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        text = repr(value)
        return text[:-2] if text.endswith(".0") else text
    return str(value)


def value_identity(value):
    """Equal for axis values the CSV cannot tell apart (10 and 10.0; not "10" and 10)."""
    if isinstance(value, bool):
        return ("bool", value)
    if is_number(value):
        return ("number", float(value))
    return ("string", value)


def cell_matches(cell, value):
    """Whether a summary.csv cell holds the axis value (numbers compared as numbers)."""
    if isinstance(value, bool):
        return cell == ("true" if value else "false")
    if isinstance(value, int):
        try:
            return int(cell) == value
        except ValueError:
            pass
    if is_number(value):
        try:
            return float(cell) == float(value)
        except ValueError:
            return False
    return cell == value


def read_experiment(path):
    """experiment.json -> (name, axes, metric names, figures); raises InputError."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except FileNotFoundError:
        raise InputError(f"{path}: expected the sweep's experiment.json, found no such file") from None
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise InputError(f"{path}: expected UTF-8 JSON, found undecodable bytes ({e.reason})") from None
    except json.JSONDecodeError as e:
        raise InputError(f"{path}:{e.lineno}:{e.colno}: expected JSON, found an error: {e.msg}") from None
    if not isinstance(doc, dict):
        raise InputError(f"{path}: expected a JSON object, found {type(doc).__name__}")

    def field(obj, key, kind, where, required=True):
        if key not in obj:
            if required:
                raise InputError(f"{path}: {where}: expected key \"{key}\", found none")
            return None
        value = obj[key]
        if kind is not None and not isinstance(value, kind):
            raise InputError(f"{path}: {where}.{key}: expected {kind_name(kind)}, found {json.dumps(value)}")
        return value

    name = doc.get("name")
    if not isinstance(name, str):
        name = ""
    axes = []
    seen_keys = set()
    for i, axis in enumerate(field(doc, "axes", list, "top level")):
        where = f"axes[{i}]"
        if not isinstance(axis, dict):
            raise InputError(f"{path}: {where}: expected an object, found {json.dumps(axis)}")
        key = field(axis, "key", str, where)
        values = field(axis, "values", list, where)
        zip_group = field(axis, "zip", None, where, required=False)
        if zip_group is not None and not is_number(zip_group):
            raise InputError(f"{path}: {where}.zip: expected a group number or null, "
                             f"found {json.dumps(zip_group)}")
        if key in seen_keys:
            raise InputError(f"{path}: {where}.key: expected each axis once, found \"{key}\" again")
        seen_keys.add(key)
        if not values:
            raise InputError(f"{path}: {where}.values: expected at least one value, found []")
        for v in values:
            if not (isinstance(v, (str, bool)) or is_number(v)):
                raise InputError(f"{path}: {where}.values: expected strings, numbers or booleans, "
                                 f"found {json.dumps(v)}")
            if isinstance(v, float) and not math.isfinite(v):
                raise InputError(f"{path}: {where}.values: expected finite numbers, found {v}")
        # Distinct values in first-seen order (a zipped axis may repeat values).
        distinct, identities = [], set()
        for v in values:
            if value_identity(v) not in identities:
                identities.add(value_identity(v))
                distinct.append(v)
        axes.append({"key": key, "values": distinct, "zip": zip_group})

    metrics = []
    for i, metric in enumerate(field(doc, "metrics", list, "top level")):
        where = f"metrics[{i}]"
        if not isinstance(metric, dict):
            raise InputError(f"{path}: {where}: expected an object, found {json.dumps(metric)}")
        metrics.append(field(metric, "name", str, where))

    axis_keys = [a["key"] for a in axes]
    figures = []
    names = set()
    for i, fig in enumerate(field(doc, "figures", list, "top level")):
        where = f"figures[{i}]"
        if not isinstance(fig, dict):
            raise InputError(f"{path}: {where}: expected an object, found {json.dumps(fig)}")
        unknown = sorted(set(fig) - FIGURE_FIELDS)
        if unknown:
            raise InputError(f"{path}: {where}: expected only the keys {', '.join(sorted(FIGURE_FIELDS))}; "
                             f"found {', '.join(unknown)}")
        figure = {"name": field(fig, "name", str, where)}
        where = f"figure \"{figure['name']}\""
        if (not figure["name"] or figure["name"] in (".", "..")
                or not re.fullmatch(r"[A-Za-z0-9._-]+", figure["name"])):
            raise InputError(f"{path}: {where}: expected a file stem of letters, digits, '.', '_' "
                             f"and '-', found \"{figure['name']}\"")
        if figure["name"] in names:
            raise InputError(f"{path}: {where}: expected each figure name once, found it again")
        names.add(figure["name"])
        figure["x"] = field(fig, "x", str, where)
        figure["y"] = field(fig, "y", str, where)
        for key in ("series", "panels", "title", "xlabel", "ylabel"):
            value = fig.get(key)
            if value is not None and not isinstance(value, str):
                raise InputError(f"{path}: {where}.{key}: expected a string or null, "
                                 f"found {json.dumps(value)}")
            figure[key] = value if value else None
        for key, default in (("logx", False), ("logy", False), ("sharey", True)):
            value = fig.get(key, default)
            if not isinstance(value, bool):
                raise InputError(f"{path}: {where}.{key}: expected true or false, found {json.dumps(value)}")
            figure[key] = value
        kind = fig.get("kind", "line")
        if kind is None:
            kind = "line"
        if kind not in FIGURE_KINDS:
            raise InputError(f"{path}: {where}.kind: expected one of {', '.join(FIGURE_KINDS)}, "
                             f"found {json.dumps(kind)}")
        figure["kind"] = kind
        for role in ("x", "series", "panels"):
            key = figure[role]
            if key is not None and key not in axis_keys:
                raise InputError(f"{path}: {where}.{role}: expected an axis key "
                                 f"({', '.join(axis_keys) or 'none'}), found \"{key}\"")
        if figure["y"] not in metrics:
            raise InputError(f"{path}: {where}.y: expected a metric name ({', '.join(metrics) or 'none'}), "
                             f"found \"{figure['y']}\"")
        figure["panel_values"] = None
        panel_values = fig.get("panel_values")
        if panel_values is not None:
            if figure["panels"] is None:
                raise InputError(f"{path}: {where}.panel_values: expected a figure with panels, found no panels")
            if not isinstance(panel_values, list) or not panel_values:
                raise InputError(f"{path}: {where}.panel_values: expected a non-empty array of values of "
                                 f"the axis {figure['panels']}, found {json.dumps(panel_values)}")
            axis_values = next(a["values"] for a in axes if a["key"] == figure["panels"])
            indices = []
            for v in panel_values:
                matches = [i for i, a in enumerate(axis_values)
                           if (isinstance(v, (str, bool)) or is_number(v)) and value_identity(a) == value_identity(v)]
                if not matches:
                    raise InputError(f"{path}: {where}.panel_values: expected values of the axis {figure['panels']} "
                                     f"({', '.join(value_text(a) for a in axis_values)}), found {json.dumps(v)}")
                if matches[0] in indices:
                    raise InputError(f"{path}: {where}.panel_values: expected distinct values, "
                                     f"found {json.dumps(v)} twice")
                indices.append(matches[0])
            figure["panel_values"] = indices
        used = [figure[r] for r in ("x", "series", "panels") if figure[r] is not None]
        if len(set(used)) != len(used):
            raise InputError(f"{path}: {where}: expected x, series and panels to be different axes, "
                             f"found x={figure['x']}, series={figure['series']}, panels={figure['panels']}")
        figures.append(figure)
    return name, axes, metrics, figures


def kind_name(kind):
    return {str: "a string", list: "an array", dict: "an object", bool: "true or false"}.get(kind, str(kind))


def parse_cell(path, line, column, text, integer=False):
    """A numeric cell -> int/float, or None when empty; raises InputError."""
    if text == "":
        return None
    try:
        value = int(text) if integer else float(text)
    except ValueError:
        expected = "an integer" if integer else "a number"
        raise InputError(f"{path}:{line}: column {column}: expected {expected} or an empty cell, "
                         f"found {text!r}") from None
    if not integer and not math.isfinite(value):
        raise InputError(f"{path}:{line}: column {column}: expected a finite number, found {text!r}")
    return value


def read_summary(path, axes, metrics):
    """summary.csv -> list of rows {"line", "point", "axes": {key: value index}, "n",
    metric + "_mean": float|None, metric + "_ci95": float|None}; raises InputError."""
    try:
        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.reader(f, strict=True))
    except FileNotFoundError:
        raise InputError(f"{path}: expected the sweep's summary.csv, found no such file") from None
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise InputError(f"{path}: expected UTF-8 CSV, found undecodable bytes ({e.reason})") from None
    except csv.Error as e:
        raise InputError(f"{path}: expected RFC 4180 CSV, found an error: {e}") from None
    if not rows:
        raise InputError(f"{path}:1: expected the header point,<axis keys>,n,<metric>_mean,..., "
                         "found an empty file")
    header = rows[0]
    expected = (["point"] + [a["key"] for a in axes] + ["n"]
                + [f"{m}_{s}" for m in metrics for s in ("mean", "sd", "ci95")])
    for column in expected:
        if column not in header:
            raise InputError(f"{path}:1: expected column \"{column}\" (header {','.join(expected)}), "
                             f"found header {','.join(header)}")
    index = {column: header.index(column) for column in expected}

    out = []
    for line, row in enumerate(rows[1:], start=2):
        if not row:
            continue  # a blank line
        if len(row) != len(header):
            raise InputError(f"{path}:{line}: expected {len(header)} fields as in the header, "
                             f"found {len(row)}")
        entry = {"line": line, "point": row[index["point"]], "axes": {}}
        for axis in axes:
            cell = row[index[axis["key"]]]
            matches = [i for i, v in enumerate(axis["values"]) if cell_matches(cell, v)]
            if not matches:
                raise InputError(f"{path}:{line}: column {axis['key']}: expected one of the axis' values "
                                 f"({', '.join(value_text(v) for v in axis['values'])}), found {cell!r}")
            entry["axes"][axis["key"]] = matches[0]
        entry["n"] = parse_cell(path, line, "n", row[index["n"]], integer=True)
        for m in metrics:
            for stat in ("mean", "ci95"):
                column = f"{m}_{stat}"
                entry[column] = parse_cell(path, line, column, row[index[column]])
            if entry[f"{m}_ci95"] is not None and entry[f"{m}_ci95"] < 0:
                raise InputError(f"{path}:{line}: column {m}_ci95: expected a half-width >= 0 or an empty "
                                 f"cell, found {row[index[m + '_ci95']]!r}")
        out.append(entry)
    return out


# --- figures ---------------------------------------------------------------------------------

def free_axes(figure, axes):
    """Axes with more than one value that the figure neither draws nor determines: not x,
    series or panels, nor zipped with one of them."""
    used = {figure[r] for r in ("x", "series", "panels") if figure[r] is not None}
    used_zips = {a["zip"] for a in axes if a["key"] in used and a["zip"] is not None}
    return [a for a in axes
            if len(a["values"]) > 1 and a["key"] not in used
            and (a["zip"] is None or a["zip"] not in used_zips)]


def figure_data(figure, axes, rows, experiment_path, summary_path):
    """The figure's points: {"x_values", "numeric", "series": [values], "panels": [values],
    "cells": {(panel index, series index, x index): (mean, ci95)}}; raises InputError."""
    where = f"figure \"{figure['name']}\""
    ambiguous = free_axes(figure, axes)
    if ambiguous:
        listed = ", ".join(f"{a['key']} ({len(a['values'])} values)" for a in ambiguous)
        subject = (f"the axis {listed} varies but is" if len(ambiguous) == 1
                   else f"the axes {listed} vary but are")
        raise InputError(f"{experiment_path}: {where} is ambiguous: {subject} not its x, series or panels, "
                         f"so each of its points would mix several points of the sweep; expected every "
                         f"other axis to have one value, or to be the figure's series or panels")
    by_key = {a["key"]: a for a in axes}
    x_axis = by_key[figure["x"]]
    numeric = all(is_number(v) for v in x_axis["values"])
    if figure["logx"] and figure["kind"] == "bar":
        raise InputError(f"{experiment_path}: {where}.logx: expected false for a bar figure (its x is "
                         f"categorical), found true")
    if figure["logx"]:
        if not numeric:
            raise InputError(f"{experiment_path}: {where}.logx: expected numeric x values, found "
                             f"{', '.join(value_text(v) for v in x_axis['values'])}")
        bad = [v for v in x_axis["values"] if v <= 0]
        if bad:
            raise InputError(f"{experiment_path}: {where}.logx: expected x values > 0, found "
                             f"{', '.join(value_text(v) for v in bad)}")
    # x positions: the axis' value indices, numeric ones in ascending order.
    x_order = list(range(len(x_axis["values"])))
    if numeric:
        x_order.sort(key=lambda i: float(x_axis["values"][i]))
    series_values = by_key[figure["series"]]["values"] if figure["series"] else [None]
    panel_values = by_key[figure["panels"]]["values"] if figure["panels"] else [None]
    # The panels drawn: indices into the panel axis' values (panel_values, or all in axis order).
    panel_index = figure["panel_values"] if figure["panel_values"] is not None else list(range(len(panel_values)))
    mean_column, ci_column = f"{figure['y']}_mean", f"{figure['y']}_ci95"
    cells = {}
    for row in rows:
        key = (row["axes"][figure["panels"]] if figure["panels"] else 0,
               row["axes"][figure["series"]] if figure["series"] else 0,
               row["axes"][figure["x"]])
        if key in cells:
            raise InputError(f"{summary_path}:{row['line']}: {where} is ambiguous: point {row['point']} "
                             f"has the same x, series and panel as point {cells[key][2]}; expected one "
                             f"point per x, series and panel")
        cells[key] = (row[mean_column], row[ci_column], row["point"])
    return {"x_values": [x_axis["values"][i] for i in x_order], "x_order": x_order, "numeric": numeric,
            "series": series_values, "panels": [panel_values[i] for i in panel_index],
            "panel_index": panel_index, "cells": cells}


def safe_id(value):
    return re.sub(r"[^A-Za-z0-9._-]", "_", value_text(value))


def draw(figure, data, experiment_name):
    """Draws the figure; returns the Matplotlib Figure."""
    n_panels = len(data["panels"])
    ncols = min(n_panels, MAX_PANEL_COLUMNS)
    nrows = math.ceil(n_panels / ncols)
    size = (PANEL_SIZE_IN[0] * ncols + (LEGEND_WIDTH_IN if figure["series"] else 0.0),
            PANEL_SIZE_IN[1] * nrows + 0.5)
    fig, grid = plt.subplots(nrows, ncols, sharey=figure["sharey"], squeeze=False, figsize=size, dpi=DPI)
    panels = [grid[i // ncols][i % ncols] for i in range(n_panels)]
    for extra in range(n_panels, nrows * ncols):
        fig.delaxes(grid[extra // ncols][extra % ncols])

    used_ids = set()
    bars = figure["kind"] == "bar"
    categorical = bars or not data["numeric"]
    xs = list(range(len(data["x_values"]))) if categorical else [float(v) for v in data["x_values"]]
    bar_width = BAR_GROUP_WIDTH / len(data["series"])
    for p, (ax, panel_value) in enumerate(zip(panels, data["panels"])):
        for s, series_value in enumerate(data["series"]):
            ys, errs = [], []
            for xi in data["x_order"]:
                mean, ci, _ = data["cells"].get((data["panel_index"][p], s, xi), (None, None, None))
                if mean is not None and figure["logy"] and mean <= 0:
                    print(f"{ME}: warning: figure \"{figure['name']}\": mean {figure['y']} = {mean!r} "
                          "cannot be drawn on a log y axis; left as a gap", file=sys.stderr)
                    mean = None
                ys.append(math.nan if mean is None else mean)
                errs.append(ci if mean is not None and ci is not None else None)
            gid = "series-" + (safe_id(series_value) if figure["series"] else "all")
            if figure["panels"]:
                gid = f"panel-{safe_id(panel_value)}-{gid}"
            base, k = gid, 2
            while gid in used_ids:
                gid, k = f"{base}-{k}", k + 1
            used_ids.add(gid)
            label = value_text(series_value) if figure["series"] else figure["y"]
            colour = f"C{s % 10}"
            if bars:
                # One bar per x category that has a mean; a missing mean is no bar (a gap).
                centres = [x + (s - (len(data["series"]) - 1) / 2.0) * bar_width for x in xs]
                drawn = [(i, c, y) for i, (c, y) in enumerate(zip(centres, ys)) if not math.isnan(y)]
                container = ax.bar([c for _, c, _ in drawn], [y for _, _, y in drawn], width=bar_width,
                                   color=colour, label=label)
                for (i, _, _), patch in zip(drawn, container.patches):
                    patch.set_gid(f"{gid}-bar-{i}")
                container.drivevp_gid = gid  # read_back finds the series (and its error bars) by it
                bar_centres = centres
            else:
                (line,) = ax.plot(xs, ys, marker=MARKERS[s % len(MARKERS)], markersize=5, linewidth=1.5,
                                  color=colour, label=label, gid=gid)
                bar_centres = xs
            bar_x = [x for x, e in zip(bar_centres, errs) if e is not None]
            if bar_x:
                container = ax.errorbar(bar_x, [y for y, e in zip(ys, errs) if e is not None],
                                        yerr=[e for e in errs if e is not None], fmt="none",
                                        ecolor="black" if bars else colour, elinewidth=1.0, capsize=3,
                                        label="_nolegend_")
                for collection in container.lines[2]:
                    collection.set_gid(f"{gid}-ci95")
                    collection.set_label("_nolegend_")
                for cap in container.lines[1]:
                    cap.set_label("_nolegend_")
        if figure["logx"]:
            ax.set_xscale("log")
            # Plain numbers (1, 10, and 2, 3, 20, 30 between them), not 10^k, as on a log y axis.
            ax.xaxis.set_major_formatter(matplotlib.ticker.LogFormatter())
            ax.xaxis.set_minor_formatter(matplotlib.ticker.LogFormatter(labelOnlyBase=False,
                                                                        minor_thresholds=(2, 0.5)))
        if figure["logy"]:
            ax.set_yscale("log", nonpositive="clip")
            # Plain numbers (not 10^k), and the minor ticks labelled too when the data spans
            # less than two decades, where powers of ten alone would leave one label or none.
            ax.yaxis.set_major_formatter(matplotlib.ticker.LogFormatter())
            ax.yaxis.set_minor_formatter(matplotlib.ticker.LogFormatter(labelOnlyBase=False,
                                                                        minor_thresholds=(2, 0.5)))
        if categorical:
            ax.xaxis.set_major_locator(matplotlib.ticker.FixedLocator(xs))
            ax.xaxis.set_major_formatter(
                matplotlib.ticker.FixedFormatter([value_text(v) for v in data["x_values"]]))
            ax.set_xlim(-0.5, len(xs) - 0.5)
            if len(xs) > ROTATE_CATEGORIES_ABOVE:
                # Many categories (policy names): slanted, so that neighbours do not run together.
                for label in ax.get_xticklabels():
                    label.set_rotation(CATEGORY_LABEL_ROTATION)
                    label.set_horizontalalignment("right")
                    label.set_rotation_mode("anchor")
        ax.set_xlabel(figure["xlabel"] or figure["x"])
        if p % ncols == 0 or not figure["sharey"]:
            ax.set_ylabel(figure["ylabel"] or figure["y"])
        if figure["panels"]:
            ax.set_title(f"{figure['panels']} = {value_text(panel_value)}")
        ax.grid(True, which="major", alpha=0.3)
    if figure["series"]:
        panels[ncols - 1].legend(title=figure["series"], loc="upper left", bbox_to_anchor=(1.02, 1.0),
                                 borderaxespad=0.0)
    title = figure["title"] or (f"{experiment_name}: {figure['name']}" if experiment_name else figure["name"])
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def number_or_null(value):
    value = float(value)
    return value if math.isfinite(value) else None


def read_back(fig, figure):
    """What the drawn figure shows, read from its artists (see the module docstring)."""
    suptitle = getattr(fig, "_suptitle", None)
    legend = None
    panels = []
    for ax in fig.axes:
        if ax.get_legend() is not None:
            lg = ax.get_legend()
            legend = {"title": lg.get_title().get_text(), "labels": [t.get_text() for t in lg.get_texts()]}
        # A categorical x axis is one with fixed tick labels (set by draw()): positions -> labels.
        categories = None
        if isinstance(ax.xaxis.get_major_formatter(), matplotlib.ticker.FixedFormatter):
            categories = {float(t): label.get_text()
                          for t, label in zip(ax.get_xticks(), ax.get_xticklabels())}
        bars = {c.get_gid(): c for c in ax.collections if c.get_gid()}
        lines = []
        for line in ax.get_lines():
            gid = line.get_gid()
            if not gid or not (gid.startswith("series-") or gid.startswith("panel-")):
                continue
            x = [float(v) for v in line.get_xdata()]
            y = [number_or_null(v) for v in line.get_ydata()]
            ends = {}
            if f"{gid}-ci95" in bars:
                for segment in bars[f"{gid}-ci95"].get_segments():
                    (x0, y0), (_, y1) = segment
                    ends[float(x0)] = (float(min(y0, y1)), float(max(y0, y1)))
            entry = {"label": line.get_label(), "gid": gid, "marker": line.get_marker(),
                     "color": matplotlib.colors.to_hex(line.get_color()),
                     "x": [categories.get(v, v) for v in x] if categories else x,
                     "y": y,
                     "ci95_low": [ends[v][0] if v in ends else None for v in x],
                     "ci95_high": [ends[v][1] if v in ends else None for v in x]}
            if categories:
                entry["x_positions"] = x
            lines.append(entry)
        bar_series = []
        for container in ax.containers:
            gid = getattr(container, "drivevp_gid", None)
            if not isinstance(container, matplotlib.container.BarContainer) or gid is None:
                continue
            by_index = {}
            for patch in container.patches:
                m = re.fullmatch(re.escape(gid) + r"-bar-(\d+)", patch.get_gid() or "")
                if m:
                    by_index[int(m.group(1))] = patch
            ends = {}
            if f"{gid}-ci95" in bars:
                for segment in bars[f"{gid}-ci95"].get_segments():
                    (x0, y0), (_, y1) = segment
                    ends[float(x0)] = (float(min(y0, y1)), float(max(y0, y1)))
            labels = [categories[k] for k in sorted(categories)] if categories else []
            centres = [float(by_index[i].get_x() + by_index[i].get_width() / 2.0) if i in by_index else None
                       for i in range(len(labels))]
            # The error bar drawn at a bar's centre (get_x() + width / 2 may differ from the centre
            # passed to errorbar() in the last bits).
            centres = [next((e for e in ends if abs(e - c) <= 1e-9), c) if c is not None else None
                       for c in centres]
            bar_series.append({
                "label": container.get_label(), "gid": gid,
                "color": matplotlib.colors.to_hex(container.patches[0].get_facecolor()) if container.patches else None,
                "x": labels, "x_positions": centres,
                "y": [number_or_null(by_index[i].get_height()) if i in by_index else None for i in range(len(labels))],
                "ci95_low": [ends[c][0] if c is not None and c in ends else None for c in centres],
                "ci95_high": [ends[c][1] if c is not None and c in ends else None for c in centres]})
        entry = {"title": ax.get_title(), "xlabel": ax.get_xlabel(), "ylabel": ax.get_ylabel(),
                 "xscale": ax.get_xscale(), "yscale": ax.get_yscale(),
                 "xticklabels": [categories[k] for k in sorted(categories)] if categories else None,
                 "ylim": [float(v) for v in ax.get_ylim()]}
        if figure["kind"] == "bar":
            entry["bars"] = bar_series
        else:
            entry["lines"] = lines
        panels.append(entry)
    return {"name": figure["name"], "title": suptitle.get_text() if suptitle is not None else "",
            "legend": legend, "panels": panels}


# --- writing ---------------------------------------------------------------------------------

def write_figure(fig, figure, directory):
    """Writes NAME.png, NAME.svg and NAME.json, each through NAME.EXT.tmp and a rename; the
    JSON is read back from the figure after the PNG has drawn it."""
    name = figure["name"]
    readback = None
    temps = []
    try:
        for ext in ("png", "svg", "json"):
            final = os.path.join(directory, f"{name}.{ext}")
            temp = final + ".tmp"
            temps.append((temp, final))
            with open(temp, "wb") as f:
                if ext == "png":
                    fig.savefig(f, format="png", dpi=DPI, metadata={"Software": None})
                    readback = read_back(fig, figure)
                elif ext == "svg":
                    fig.savefig(f, format="svg", metadata={"Date": None, "Creator": None})
                else:
                    f.write((json.dumps(readback, indent=2, allow_nan=False) + "\n").encode("utf-8"))
                f.flush()
                os.fsync(f.fileno())
        for temp, final in temps:
            os.replace(temp, final)
    except BaseException:
        for temp, _ in temps:
            try:
                os.unlink(temp)
            except FileNotFoundError:
                pass
        raise


def main(argv=None):
    parser = argparse.ArgumentParser(description="Draw the figures of a drivevp sweep (DIR/figures/).")
    parser.add_argument("dir", help="the sweep's output directory, holding experiment.json and summary.csv")
    args = parser.parse_args(argv)
    experiment_path = os.path.join(args.dir, "experiment.json")
    summary_path = os.path.join(args.dir, "summary.csv")
    try:
        experiment_name, axes, metrics, figures = read_experiment(experiment_path)
        rows = read_summary(summary_path, axes, metrics)
        datas = [figure_data(f, axes, rows, experiment_path, summary_path) for f in figures]
    except InputError as e:
        print(f"{ME}: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT

    if not figures:
        return 0
    load_matplotlib()
    # Matplotlib's built-in defaults, not the user's matplotlibrc: same input, same bytes.
    matplotlib.rcdefaults()
    matplotlib.rcParams["svg.hashsalt"] = SVG_HASH_SALT
    matplotlib.rcParams["svg.fonttype"] = "none"
    directory = os.path.join(args.dir, "figures")
    try:
        os.makedirs(directory, exist_ok=True)
        for figure, data in zip(figures, datas):
            fig = draw(figure, data, experiment_name)
            try:
                write_figure(fig, figure, directory)
            finally:
                plt.close(fig)
    except OSError as e:
        print(f"{ME}: cannot write to {directory}: {e}", file=sys.stderr)
        return EXIT_IO_ERROR
    return 0


if __name__ == "__main__":
    sys.exit(main())
