#!/usr/bin/env bash
# Fuzzes drivevp's inputs with libFuzzer: every trace reader, format detection, the scenario
# loader (file) and --set overrides (harnesses in fuzz/, docs/reliability.md).
#
#   scripts/fuzz.sh [SECONDS_PER_HARNESS]      default 20
#
# Installs the dependencies, builds the CMake preset "fuzz" (clang, ASan + UBSan, build-fuzz/),
# then runs each harness for the given time from its checked-in seeds (fuzz/corpus/<harness>/ and
# the crash reproducers in fuzz/regressions/<harness>/), copied to a scratch directory so that the
# repository does not grow. Limits: -rss_limit_mb=2048 -malloc_limit_mb=512 -timeout=10, so that
# an unbounded allocation or a hang is a finding like a crash, a leak or a sanitizer report.
# Prints one line per harness (executions, executions/s, corpus files, result) and exits 1 if any
# harness found something; the reproducer is under the scratch directory's artifacts/<harness>/.
#
# Environment:
#   FUZZ_JOBS=N           harnesses run at the same time (default 2)
#   FUZZ_RUNS=N           also stop a harness after N executions (the long run uses 10000000)
#   FUZZ_HARNESSES="a b"  only these harnesses (default: all)
#   FUZZ_WORK=DIR         scratch directory (default: a new temporary one, removed unless a
#                         harness found something); logs are DIR/logs/<harness>.log
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
seconds=${1:-20}
jobs=${FUZZ_JOBS:-2}
all=(fuzz_trace_disksim fuzz_trace_spc fuzz_trace_msr fuzz_trace_fio fuzz_trace_blkparse fuzz_trace_ftrace
  fuzz_trace_ssdsim fuzz_trace_mqsim fuzz_trace_validate fuzz_detect fuzz_scenario fuzz_set)
read -r -a harnesses <<<"${FUZZ_HARNESSES:-${all[*]}}"
case "$seconds" in '' | *[!0-9]*)
  echo "fuzz.sh: expected SECONDS_PER_HARNESS as a whole number of seconds, found '$seconds'" >&2
  exit 2
  ;;
esac

"$root/scripts/install-deps.sh"
cd "$root"
[ -f build-fuzz/build.ninja ] || cmake --preset fuzz >/dev/null
cmake --build --preset fuzz 2>&1 | sed -u -e '/Re-checking globbed directories\.\.\./d' -e '/^ninja: no work to do\.$/d'

work=${FUZZ_WORK:-$(mktemp -d "${TMPDIR:-/tmp}/drivevp-fuzz.XXXXXX")}
mkdir -p "$work/logs"
export SC_COPYRIGHT_MESSAGE=DISABLE
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:quarantine_size_mb=16}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

dict_of() {
  case "$1" in
    fuzz_scenario | fuzz_set) echo "$root/fuzz/dict/scenario.dict" ;;
    *) echo "$root/fuzz/dict/trace.dict" ;;
  esac
}

# Runs one harness; writes its result line to $work/logs/<harness>.result.
run_one() {
  local h=$1 corpus="$work/corpus/$1" log="$work/logs/$1.log" status=0
  mkdir -p "$corpus" "$work/artifacts/$h"
  cp -n "$root/fuzz/corpus/$h/"* "$corpus/" 2>/dev/null || true
  [ -d "$root/fuzz/regressions/$h" ] && cp -n "$root/fuzz/regressions/$h/"* "$corpus/" 2>/dev/null || true
  local extra=()
  [ -n "${FUZZ_RUNS:-}" ] && extra+=("-runs=$FUZZ_RUNS")
  "build-fuzz/fuzz/$h" -max_total_time="$seconds" -rss_limit_mb=2048 -malloc_limit_mb=512 -timeout=10 \
    -max_len=4096 -dict="$(dict_of "$h")" -print_final_stats=1 -artifact_prefix="$work/artifacts/$h/" \
    "${extra[@]}" "$corpus" >"$log" 2>&1 || status=$?
  local execs rate files result
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  files=$(find "$corpus" -type f | wc -l)
  if [ "$status" -eq 0 ] && ! grep -qE '^==[0-9]+==ERROR|runtime error:|^SUMMARY: |invariant violated' "$log"; then
    result=ok
  else
    result="FOUND ($(grep -m1 -oE 'ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer): [a-z-]+|runtime error: .{0,60}|deadly signal|invariant violated: .*' "$log" || echo "exit $status")); reproducer: $(ls "$work/artifacts/$h/" 2>/dev/null | head -1), log: $log"
  fi
  printf '%-20s %12s executions %8s exec/s %6s corpus files  %s\n' "$h" "${execs:-?}" "${rate:-?}" "$files" \
    "$result" >"$work/logs/$h.result"
}

echo "fuzz.sh: ${#harnesses[@]} harnesses, ${seconds} s each${FUZZ_RUNS:+ (or $FUZZ_RUNS executions)}, $jobs at a time; scratch $work"
running=0
for h in "${harnesses[@]}"; do
  [ -x "build-fuzz/fuzz/$h" ] || { echo "fuzz.sh: no harness '$h' in build-fuzz/fuzz/" >&2; exit 2; }
  run_one "$h" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait -n
    running=$((running - 1))
  fi
done
wait

failed=0
for h in "${harnesses[@]}"; do
  cat "$work/logs/$h.result"
  grep -q ' ok$' "$work/logs/$h.result" || failed=1
done
if [ "$failed" -ne 0 ]; then
  echo "fuzz.sh: findings above; reproducers and logs kept in $work" >&2
  exit 1
fi
[ -n "${FUZZ_WORK:-}" ] || rm -rf "$work"
echo "fuzz.sh: no findings"
