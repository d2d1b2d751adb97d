#!/usr/bin/python3
"""Paper 000's Table 1 and Figs. 2-5 for drivevp's Parallel Deadline Scheduling.

Runs bench/deadline_bench.cpp (in drivevp_bench) with OMP_NUM_THREADS=1 and =2 in alternating
rounds (the order of the two flips every round, so that load from elsewhere on the machine hits
both alike), takes the median of each benchmark over the rounds, and prints the markdown table of
docs/performance.md "Parallel deadline scheduling"; writes the figures and the data they plot.

    bench/deadline_table.py [--bench build/drivevp_bench] [--rounds 5] [--figures docs/figures]
    bench/deadline_table.py --threshold [--rounds 5]     # the parallel threshold's crossover
    bench/deadline_table.py --from-samples docs/figures/deadline-000-samples.json   # re-plot only

Times are real (wall) time per iteration, in microseconds. Exit status 0, or 1 when a run fails.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

# Paper 000, Table 1: running time (ms) of the parallel algorithm on 2, 4 and 8 cores.
PAPER = {100: (150, 142, 136), 500: (530, 299, 262), 1000: (624, 511, 408), 1500: (901, 705, 596),
         2000: (1009, 950, 734)}
VERSIONS = {0: "serial", 1: "parallel", 2: "indexed", 3: "tuned"}


def run(bench, threads, pattern, min_time):
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    out = subprocess.run([bench, f"--benchmark_filter={pattern}", "--benchmark_format=json",
                          f"--benchmark_min_time={min_time}"], env=env, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"deadline_table: {bench} failed: {out.stderr}")
    res = {}
    for b in json.loads(out.stdout)["benchmarks"]:
        name, n, v = b["run_name"].split("/")[:3]
        scale = {"us": 1.0, "ms": 1e3, "ns": 1e-3, "s": 1e6}[b["time_unit"]]
        res[(name, int(n), int(v))] = b["real_time"] * scale
    return res


def medians(bench, pattern, rounds, min_time, thread_counts):
    samples = {}
    for r in range(rounds):
        order = thread_counts if r % 2 == 0 else list(reversed(thread_counts))
        for t in order:
            for key, us in run(bench, t, pattern, min_time).items():
                samples.setdefault((t,) + key, []).append(us)
            print(f"round {r + 1}/{rounds}, {t} thread(s) done", file=sys.stderr)
    return {k: statistics.median(v) for k, v in samples.items()}, samples


def fmt(us):
    return f"{us:,.0f}" if us >= 100 else f"{us:,.1f}"


def table(m):
    lines = []
    lines.append("Whole drain (steps 1-3, n decisions), median us:\n")
    lines.append("| requests | paper 2 cores | paper 4 cores | paper 8 cores | serial | parallel, 1 thread | "
                 "parallel, 2 threads | indexed | 1 thread / 2 threads | target: paper 2-core / 1000 (times faster) |")
    lines.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for n in sorted({k[2] for k in m if k[1] == "BM_DeadlineDrain"}):
        s, p1, p2, ix = (m[(1, "BM_DeadlineDrain", n, 0)], m[(1, "BM_DeadlineDrain", n, 1)],
                         m[(2, "BM_DeadlineDrain", n, 1)], m[(1, "BM_DeadlineDrain", n, 2)])
        paper = PAPER.get(n)
        cols = [f"{p * 1000:,} us" for p in paper] if paper else ["", "", ""]
        target = ""
        if paper:  # 1000 times faster than the paper's 2 cores: paper ms -> the same number in us
            target = (f"<= {paper[0]:,} us: serial {'met' if s <= paper[0] else 'NOT met'} "
                      f"({paper[0] * 1000 / s:,.0f}x); forced parallel 2 threads "
                      f"{'met' if p2 <= paper[0] else 'NOT met'} ({paper[0] * 1000 / p2:,.0f}x)")
        lines.append(f"| {n:,} | " + " | ".join(cols) + f" | {fmt(s)} | {fmt(p1)} | {fmt(p2)} | {fmt(ix)} | "
                     f"{p1 / p2:.2f} | {target} |")
    lines.append("\nSteps 1-2 and the first 100 decisions, median us (tuned: the defaults, parallel regions only "
                 "where they pay off; forced: every sort and search in a region):\n")
    lines.append("| requests | serial | tuned, 1 thread | tuned, 2 threads | 1 thread / 2 threads | target >= 1.6 | "
                 "forced, 1 thread | forced, 2 threads | 1 thread / 2 threads | indexed |")
    lines.append("|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|")
    for n in sorted({k[2] for k in m if k[1] == "BM_DeadlineSortDecide"}):
        s, t1, t2, p1, p2, ix = (m[(1, "BM_DeadlineSortDecide", n, 0)], m[(1, "BM_DeadlineSortDecide", n, 3)],
                                 m[(2, "BM_DeadlineSortDecide", n, 3)], m[(1, "BM_DeadlineSortDecide", n, 1)],
                                 m[(2, "BM_DeadlineSortDecide", n, 1)], m[(1, "BM_DeadlineSortDecide", n, 2)])
        target = ("met" if t1 / t2 >= 1.6 else "NOT met") if n >= 100000 else ""
        lines.append(f"| {n:,} | {fmt(s)} | {fmt(t1)} | {fmt(t2)} | {t1 / t2:.2f} | {target} | {fmt(p1)} | "
                     f"{fmt(p2)} | {p1 / p2:.2f} | {fmt(ix)} |")
    return "\n".join(lines)


def figures(m, outdir):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    os.makedirs(outdir, exist_ok=True)
    data = {}
    for bench, fname, title in (("BM_DeadlineDrain", "deadline-000-drain.png",
                                 "Draining a queue of n requests (paper 000 Figs. 2-5)"),
                                ("BM_DeadlineSortDecide", "deadline-000-large.png",
                                 "Sort + first 100 decisions, large queues")):
        ns = sorted({k[2] for k in m if k[1] == bench})
        series = {"serial": [m[(1, bench, n, 0)] / 1e3 for n in ns],
                  "parallel, 1 thread": [m[(1, bench, n, 1)] / 1e3 for n in ns],
                  "parallel, 2 threads": [m[(2, bench, n, 1)] / 1e3 for n in ns],
                  "indexed (std::set)": [m[(1, bench, n, 2)] / 1e3 for n in ns]}
        if bench == "BM_DeadlineSortDecide":
            series["tuned, 1 thread"] = [m[(1, bench, n, 3)] / 1e3 for n in ns]
            series["tuned, 2 threads"] = [m[(2, bench, n, 3)] / 1e3 for n in ns]
        fig, ax = plt.subplots(figsize=(6.4, 4.2))
        for label, ys in series.items():
            ax.plot(ns, ys, marker="o", label=label)
        if bench == "BM_DeadlineDrain":
            pn = sorted(PAPER)
            for i, cores in enumerate((2, 4, 8)):
                ax.plot(pn, [PAPER[n][i] for n in pn], linestyle="--", marker="x",
                        label=f"paper 000 Table 1, {cores} cores")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("request queue size (requests)")
        ax.set_ylabel("running time (ms)")
        ax.set_title(title, fontsize=10)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(os.path.join(outdir, fname), dpi=120)
        plt.close(fig)
        data[bench] = {"requests": ns, "ms": series}
    with open(os.path.join(outdir, "deadline-000.json"), "w") as f:
        json.dump({"paper_table1_ms": {str(k): v for k, v in PAPER.items()}, **data}, f, indent=1)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--bench", default=os.path.join(here, "..", "build", "drivevp_bench"))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--min-time", default="0.3")
    ap.add_argument("--figures", default=os.path.join(here, "..", "docs", "figures"))
    ap.add_argument("--threshold", action="store_true", help="measure the parallel threshold's crossover")
    ap.add_argument("--from-samples", help="make the table and figures from a samples file written earlier")
    a = ap.parse_args()
    if a.from_samples:
        names = {v: k for k, v in VERSIONS.items()}
        with open(a.from_samples) as f:
            rows = json.load(f)
        m = {(r["threads"], r["benchmark"], r["requests"], names[r["version"]]): statistics.median(r["us"])
             for r in rows}
        print(table(m))
        figures(m, a.figures)
        return
    if a.threshold:
        m, _ = medians(a.bench, "BM_DeadlineSteady", a.rounds, a.min_time, [2])
        print("| queue depth | serial us/decision | parallel, 2 threads | parallel / serial |")
        print("|---:|---:|---:|---:|")
        ns = sorted({k[2] for k in m})
        for n in ns:
            s, p = m[(2, "BM_DeadlineSteady", n, 0)], m[(2, "BM_DeadlineSteady", n, 1)]
            print(f"| {n:,} | {s:.2f} | {p:.2f} | {p / s:.2f} |")
        pays = [n for n in ns if all(m[(2, "BM_DeadlineSteady", k, 1)] < m[(2, "BM_DeadlineSteady", k, 0)]
                                     for k in ns if k >= n)]
        print(f"\ncrossover: parallel faster from {pays[0]:,} requests on" if pays else "\nno crossover")
        return
    m, samples = medians(a.bench, "BM_Deadline(Drain|SortDecide)", a.rounds, a.min_time, [1, 2])
    os.makedirs(a.figures, exist_ok=True)
    with open(os.path.join(a.figures, "deadline-000-samples.json"), "w") as f:
        json.dump([{"threads": k[0], "benchmark": k[1], "requests": k[2], "version": VERSIONS[k[3]], "us": v}
                   for k, v in sorted(samples.items())], f, indent=1)
    print(table(m))
    figures(m, a.figures)


if __name__ == "__main__":
    main()
