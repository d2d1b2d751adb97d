#!/usr/bin/env bash
# Side-by-side run of the same 1,000,000-request workload under `sptf` and `sfc` (issue 11's
# speed target: sfc at most 30 % slower than SPTF at the same queue depth; docs/performance.md
# "SFC scheduler (paper 001)"). HP 97560, closed loop with QD requests outstanding (queue depth
# QD), uniform 8-block reads, 4 QoS dimensions of 16 levels drawn for every request in both runs
# (so the host does the same work), sfc with its defaults (Hilbert, conditional, SRP + ER,
# w = 50 %). Each of REPS rounds runs both, alternating which goes first; prints each run's
# simulation rate (drivevp's summary line: completed requests / wall seconds of validation,
# elaboration and simulation), the medians and the ratio sptf rate / sfc rate (the slowdown).
#
#   bench/sfc_vs_sptf.sh [-n REPS] [-q QD] [-r REQUESTS] DRIVEVP_BINARY
set -euo pipefail
reps=3 qd=64 requests=1000000
while getopts "n:q:r:" o; do
  case $o in
    n) reps=$OPTARG ;;
    q) qd=$OPTARG ;;
    r) requests=$OPTARG ;;
    *) echo "usage: $0 [-n REPS] [-q QD] [-r REQUESTS] DRIVEVP_BINARY" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] && [ -x "$1" ] || { echo "usage: $0 [-n REPS] [-q QD] [-r REQUESTS] DRIVEVP_BINARY" >&2; exit 2; }
bin=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sfc-vs-sptf.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/s.toml" <<TOML
[device]
preset = "hp97560"
[firmware]
queue_depth = $qd
[workload]
kind = "synthetic"
loop = "closed"
outstanding = $qd
address = "uniform"
size = "constant"
size_blocks = 8
read_fraction = 1.0
qos_dims = 4
qos_levels = 16
[run]
seed = 1
requests = $requests
check_data = false
progress = false
[output]
plots = false
TOML
run() {  # policy -> prints the rate in requests per second
  "$bin" run "$tmp/s.toml" --out "$tmp/out-$1" --set "firmware.policy=\"$1\"" 2>&1 |
    sed -n 's/.*wall (\([0-9.]*\) req\/s).*/\1/p' | tail -1
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
: > "$tmp/sptf" && : > "$tmp/sfc"
for ((i = 0; i < reps; i++)); do
  if ((i % 2 == 0)); then order="sptf sfc"; else order="sfc sptf"; fi
  for p in $order; do
    r=$(run "$p")
    [ -n "$r" ] || { echo "$0: the $p run failed" >&2; exit 1; }
    echo "$p $r req/s"
    echo "$r" >> "$tmp/$p"
  done
done
a=$(median < "$tmp/sptf") b=$(median < "$tmp/sfc")
echo "median sptf $a req/s, sfc $b req/s, sfc slowdown (sptf rate / sfc rate) $(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.3f", a / b}')"
