#!/usr/bin/env bash
# Side-by-side comparison of two drivevp binaries on the same run (docs/performance.md "Memory"):
# peak resident set size (/usr/bin/time -v) and simulation rate (drivevp's own summary line:
# completed requests / wall seconds of validation, elaboration and simulation).
#
#   bench/ab_compare.sh [-n REPS] BINARY_A BINARY_B -- RUN_ARGUMENTS...
#
# RUN_ARGUMENTS follow `drivevp run` (a scenario file and --set options); --out, plots and the
# progress line are set here. Each of REPS rounds (default 3) runs A and B once, in alternating
# order (A B, B A, A B, ...) so that a drift in the machine's load falls on both. Prints one line
# per run and the medians. Exit status 1 if a run fails. Scratch outputs go to a fresh directory
# under $TMPDIR (default /tmp), removed at exit.
set -euo pipefail

reps=3
if [ "${1:-}" = "-n" ]; then
  reps=$2
  shift 2
fi
if [ $# -lt 3 ] || [ "$3" != "--" ]; then
  echo "usage: $0 [-n REPS] BINARY_A BINARY_B -- RUN_ARGUMENTS..." >&2
  exit 2
fi
bin_a=$1
bin_b=$2
shift 3
for b in "$bin_a" "$bin_b"; do
  [ -x "$b" ] || { echo "$0: not an executable: $b" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "$0: /usr/bin/time is missing (Debian package 'time')" >&2; exit 2; }

scratch=$(mktemp -d "${TMPDIR:-/tmp}/drivevp-ab-XXXXXX")
trap 'rm -rf "$scratch"' EXIT
export SC_COPYRIGHT_MESSAGE=DISABLE

# run LABEL BINARY: prints "LABEL peak_rss_MiB req_per_s wall_s"
run() {
  local label=$1 bin=$2 log="$scratch/run.log"
  if ! /usr/bin/time -v "$bin" run "${args[@]}" --out "$scratch/out" --set output.plots=false \
      --set run.progress=false >"$log" 2>&1; then
    echo "$0: $label failed:" >&2
    cat "$log" >&2
    exit 1
  fi
  local rss_kib rate wall
  rss_kib=$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' "$log")
  rate=$(sed -n 's/.* s wall (\([0-9]*\) req\/s).*/\1/p' "$log")
  wall=$(sed -n 's/.* in \([0-9.]*\) s wall (.*/\1/p' "$log")
  awk -v l="$label" -v k="$rss_kib" -v r="$rate" -v w="$wall" 'BEGIN { printf "%s %.1f %d %.2f\n", l, k / 1024, r, w }'
  rm -rf "$scratch/out"
}

args=("$@")
results="$scratch/results"
: >"$results"
echo "run peak_rss_MiB req_per_s wall_s"
for ((i = 0; i < reps; ++i)); do
  if ((i % 2 == 0)); then order=(A B); else order=(B A); fi
  for x in "${order[@]}"; do
    if [ "$x" = A ]; then line=$(run A "$bin_a"); else line=$(run B "$bin_b"); fi
    echo "$line" | tee -a "$results"
  done
done
# Medians per binary (lower median for an even count).
for x in A B; do
  for col in 2 3 4; do
    awk -v x="$x" '$1 == x' "$results" | awk -v c="$col" '{ print $c }' | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
  done | paste -sd' ' | awk -v x="$x" '{ printf "median %s %s %s %s\n", x, $1, $2, $3 }'
done
