#!/usr/bin/env bash
# Paper 003 Fig. 3 ("Efficiency of the OPT against SCAN", §4.1.1): % improvement of the mean
# D-request response time of OPT over SCAN inside hand-made clusters of n = 2..8 requests spread
# over S = 100, 500, 1000, 5000 cylinders of disk003, 200 clusters per point, timed by the
# firmware's own predictor (no simulation; the computation and its assertions are the sim test
# "003 Fig. 3: ..." in testbench/tests/sim/test_mixed_media_fig3.cpp, which writes the table when
# DRIVEVP_FIG3_CSV is set). Writes OUT_DIR/mixed-media-003-fig3.csv and
# OUT_DIR/mixed-media-003-fig3-opt-vs-scan.png (docs/figures by default). Deterministic (fixed seeds).
#
# Usage: bench/mixed_media_003_fig3.sh [BUILD_DIR [OUT_DIR]]   (defaults: build, docs/figures)
# Needs Debian's python3-matplotlib (/usr/bin/python3; override with PYTHON). Exit status: 0 written; 1 the test or the plot failed.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build}
out=${2:-$root/docs/figures}
tests=$build/drivevp_sim_tests
[[ -x $tests ]] || { echo "mixed_media_003_fig3: no $tests (build first)" >&2; exit 1; }
mkdir -p "$out"
csv=$out/mixed-media-003-fig3.csv
DRIVEVP_FIG3_CSV=$csv "$tests" "003 Fig. 3: OPT beats SCAN inside a cluster more with more requests and fewer cylinders"
"${PYTHON:-/usr/bin/python3}" - "$csv" "$out/mixed-media-003-fig3-opt-vs-scan.png" << 'PY'
import csv, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
rows = list(csv.DictReader(open(sys.argv[1])))
fig, ax = plt.subplots(figsize=(6.4, 4.2))
for span in sorted({int(r["span_cylinders"]) for r in rows}):
    pts = [(int(r["requests"]), float(r["improvement_percent"])) for r in rows if int(r["span_cylinders"]) == span]
    ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=f"{span} cylinders")
ax.set_xlabel("requests per cluster")
ax.set_ylabel("% improvement of mean response, OPT vs SCAN")
ax.set_title("003 Fig. 3 on disk003: OPT against SCAN inside clusters")
ax.grid(True, alpha=0.3)
ax.legend(title="cluster size")
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=100, metadata={"Software": None})
PY
echo "mixed_media_003_fig3: wrote $csv and $out/mixed-media-003-fig3-opt-vs-scan.png"
