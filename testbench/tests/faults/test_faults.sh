#!/usr/bin/env bash
# Fault tests of drivevp's output directory: runs killed by a signal, a full disk, a read-only
# output directory, and two runs into the same --out. For each case it checks the exit status,
# that the error message says what happened, that the outputs of an earlier run in the directory
# are byte-for-byte intact (sha256 of every file and the list of names), and that no ".partial.*"
# file or lock file is left after the run (after a SIGKILL: after the next run).
#
# Usage: test_faults.sh DRIVEVP_BINARY SOURCE_DIR [CASE...]
#   CASE  one of: sigint sigterm sigkill sigterm_plot concurrent disk_full read_only
#         (default: all, in this order)
# Exit status: 0 every case passed; 1 a check failed; 2 usage error or missing tool; 77 every
# case asked for was skipped (disk_full and read_only need a private mount namespace, i.e. root
# or CAP_SYS_ADMIN; the message says exactly which command failed and why).
# Environment: RUN_TIMEOUT (seconds per drivevp run, default 120), KEEP_DIR (keep the scratch
# directory there instead of deleting it).
#
# disk_full and read_only run inside `unshare --mount --propagation private` (the mounts vanish
# with the namespace): a 1 MiB / 64 KiB tmpfs for "disk full", a read-only bind mount of the
# output directory's parent for "read-only" (as root, chmod does not stop writes).
set -euo pipefail

me=test_faults
fail() {
  echo "$me: FAIL: $*" >&2
  exit 1
}
usage() {
  echo "$me: $*" >&2
  echo "usage: $me.sh DRIVEVP_BINARY SOURCE_DIR [CASE...]" >&2
  exit 2
}
[[ $# -ge 2 ]] || usage "expected at least 2 arguments, got $#"
drivevp=$(realpath "$1")
src=$2
shift 2
[[ -x $drivevp ]] || usage "'$drivevp' is not an executable"
[[ -d $src ]] || usage "'$src' is not a directory"
for tool in timeout sha256sum env pgrep awk unshare mount; do
  command -v "$tool" > /dev/null || usage "'$tool' not found on PATH"
done
run_timeout=${RUN_TIMEOUT:-120}
export SC_COPYRIGHT_MESSAGE=DISABLE

# --- helpers -------------------------------------------------------------------------------------

# A scenario of its own, so configs/ can change without changing what is tested: open-loop
# synthetic reads only (no writes: memory stays flat however long the run), no progress line.
write_scenario() {
  cat > "$1" << 'TOML'
[device]
preset = "hp97560"

[firmware]
policy = "sptf"
queue_depth = 64

[workload]
kind = "synthetic"
loop = "open"
arrival = "poisson"
rate_per_s = 30.0
address = "uniform"
size = "constant"
size_blocks = 8
read_fraction = 1.0

[run]
seed = 42
requests = 20
warmup_requests = 0
progress = false

[output]
plots = false
TOML
}

# run OUT LOG [ARGS...]: drivevp in the foreground with a time limit; sets $status.
run() {
  local out=$1 log=$2
  shift 2
  set +e
  timeout --kill-after=10 "$run_timeout" "$drivevp" run "$scenario" --out "$out" "$@" > "$log.out" 2> "$log.err"
  status=$?
  set -e
  [[ $status -ne 124 && $status -ne 137 ]] || fail "drivevp did not finish within ${run_timeout}s ($log)"
}

# start OUT LOG [ARGS...]: drivevp in the background with default SIGINT/SIGTERM/SIGHUP
# dispositions (a non-interactive shell starts background jobs with SIGINT ignored, which
# drivevp honours, like nohup); sets $pid.
start() {
  local out=$1 log=$2
  shift 2
  env --default-signal=INT,TERM,HUP "$drivevp" run "$scenario" --out "$out" "$@" > "$log.out" 2> "$log.err" &
  pid=$!
}

# finish_bg LOG: waits for the background run $pid; sets $status.
finish_bg() {
  set +e
  { wait "$pid"; } 2> /dev/null # no "Killed" job notice from bash
  status=$?
  set -e
}

# wait_until SECONDS DESCRIPTION COMMAND...: polls COMMAND every 10 ms.
wait_until() {
  local limit=$1 what=$2
  shift 2
  local deadline=$((SECONDS + limit))
  until "$@" > /dev/null; do
    [[ $SECONDS -lt $deadline ]] || fail "timed out after ${limit}s waiting for $what"
    sleep 0.01
  done
}

# snapshot DIR: every entry (hidden ones too) with its sha256, sorted.
snapshot() {
  (cd "$1" && find . -mindepth 1 -printf '%P\n' | LC_ALL=C sort | while IFS= read -r f; do
    if [[ -f $f ]]; then echo "$(sha256sum < "$f" | cut -c1-64) $f"; else echo "dir $f"; fi
  done)
}

# baseline DIR: a successful earlier run in DIR; its snapshot goes to $base_snap.
baseline() {
  run "$1" "$work/baseline"
  [[ $status -eq 0 ]] || fail "baseline run into $1 exited with $status: $(cat "$work/baseline.err")"
  base_snap=$(snapshot "$1")
  grep -q ' summary.json$' <<< "$base_snap" || fail "baseline run wrote no summary.json"
}

# intact DIR CONTEXT: the baseline outputs are unchanged, nothing added or removed.
intact() {
  local now
  now=$(snapshot "$1")
  [[ $now == "$base_snap" ]] || fail "$2: the earlier outputs in $1 changed;
before:
$base_snap
after:
$now"
}

# no_debris DIR CONTEXT: no ".partial.*" entry and no lock file.
no_debris() {
  local debris
  debris=$(cd "$1" && find . -mindepth 1 -maxdepth 1 \( -name '.partial.*' -o -name '.drivevp.lock' \) -printf '%P ')
  [[ -z $debris ]] || fail "$2: left in $1: $debris"
}

# expect_status WANT CONTEXT LOG
expect_status() {
  [[ $status -eq $1 ]] || fail "$2: exit status $status, expected $1; stderr: $(cat "$3.err")"
}

# expect_message PATTERN CONTEXT LOG: stderr matches the extended regular expression.
expect_message() {
  grep -Eq -- "$1" "$3.err" || fail "$2: stderr does not match /$1/: $(cat "$3.err")"
}

# next_run DIR CONTEXT: a later run into DIR succeeds and leaves no debris.
next_run() {
  run "$1" "$work/next"
  expect_status 0 "$2: the next run" "$work/next"
  no_debris "$1" "$2: after the next run"
}

staged_csv_grown() { [[ $(stat -c %s "$1/.partial.drivevp/requests.csv" 2> /dev/null || echo 0) -ge 65536 ]]; }

# --- cases ---------------------------------------------------------------------------------------

# A signal mid-run (requests.csv has grown past its first 64 KiB flush): the run's partial files
# are removed, the earlier outputs stay, the exit status is 128 + the signal number.
case_signal() {
  local name=$1 want=$2 out=$work/$1
  baseline "$out"
  start "$out" "$work/$name" --set run.requests=5000000
  wait_until 60 "the run's staged requests.csv to grow" staged_csv_grown "$out"
  kill "-$name" "$pid"
  finish_bg "$work/$name"
  expect_status "$want" "$name mid-run" "$work/$name"
  expect_message "^drivevp: interrupted by $name; removed this run's partial outputs; earlier outputs in '.*' are unchanged$" "$name mid-run" "$work/$name"
  intact "$out" "$name mid-run"
  no_debris "$out" "$name mid-run"
  next_run "$out" "$name"
  echo "$me: $name mid-run: exit $want, '$(head -n 1 "$work/$name.err")'; earlier outputs intact, no partial files"
}

case_sigint() { case_signal SIGINT 130; }
case_sigterm() { case_signal SIGTERM 143; }

# SIGKILL cannot be handled: the partial files stay until the next run takes the lock.
case_sigkill() {
  local out=$work/sigkill
  baseline "$out"
  start "$out" "$work/sigkill" --set run.requests=5000000
  wait_until 60 "the run's staged requests.csv to grow" staged_csv_grown "$out"
  kill -KILL "$pid"
  finish_bg "$work/sigkill"
  expect_status 137 "SIGKILL mid-run" "$work/sigkill"
  [[ -d $out/.partial.drivevp && -f $out/.drivevp.lock ]] ||
    fail "SIGKILL mid-run: expected the killed run's .partial.drivevp and .drivevp.lock to remain (nothing can remove them), found: $(ls -A "$out")"
  # The earlier outputs are intact apart from the debris.
  local now
  now=$(snapshot "$out" | grep -v -e ' \.partial\.drivevp' -e ' \.drivevp\.lock$' -e '^dir \.partial\.drivevp')
  [[ $now == "$base_snap" ]] || fail "SIGKILL mid-run: the earlier outputs changed: $now"
  next_run "$out" "SIGKILL"
  echo "$me: SIGKILL: exit 137, earlier outputs intact, debris (.partial.drivevp, .drivevp.lock) removed by the next run"
}

# SIGTERM while the plot script runs: the child is killed too, nothing is left.
case_sigterm_plot() {
  command -v /usr/bin/python3 > /dev/null || usage "/usr/bin/python3 not found (the plot script needs it)"
  local out=$work/sigterm_plot child
  baseline "$out"
  start "$out" "$work/sigterm_plot" --set run.requests=2000 --set output.plots=true
  wait_until 60 "drivevp to start the plot script" pgrep -P "$pid" -f plot_responses.py
  child=$(pgrep -P "$pid" -f plot_responses.py)
  kill -TERM "$pid"
  finish_bg "$work/sigterm_plot"
  expect_status 143 "SIGTERM while plotting" "$work/sigterm_plot"
  expect_message "^drivevp: interrupted by SIGTERM" "SIGTERM while plotting" "$work/sigterm_plot"
  wait_until 10 "the plot child $child to end" bash -c "! kill -0 $child 2> /dev/null"
  intact "$out" "SIGTERM while plotting"
  no_debris "$out" "SIGTERM while plotting"
  next_run "$out" "SIGTERM while plotting"
  echo "$me: SIGTERM while plotting: exit 143, plot child $child gone, earlier outputs intact, no partial files"
}

# Two runs into one directory: the second refuses before simulating (status 2) and leaves the
# first one's partial files alone; the first completes with a consistent requests.csv.
case_concurrent() {
  local out=$work/concurrent rows ids
  baseline "$out"
  start "$out" "$work/first" --set run.requests=300000
  wait_until 60 "the first run's staged requests.csv to grow" staged_csv_grown "$out"
  run "$out" "$work/second" --set run.requests=10
  expect_status 2 "second run while the first runs" "$work/second"
  expect_message "^drivevp: output directory '.*' is in use by another drivevp run \(pid $pid, lock file .*\.drivevp\.lock\); nothing was simulated or written" \
    "second run while the first runs" "$work/second"
  [[ -s $out/.partial.drivevp/requests.csv ]] || fail "the refused run removed the running run's partial files"
  finish_bg "$work/first"
  expect_status 0 "the first run" "$work/first"
  no_debris "$out" "after both runs"
  rows=$(($(wc -l < "$out/requests.csv") - 1))
  [[ $rows -eq 300000 ]] || fail "requests.csv has $rows rows, expected 300000"
  ids=$(awk -F, 'NR > 1 { print $1 }' "$out/requests.csv" | LC_ALL=C sort -u | wc -l)
  [[ $ids -eq 300000 ]] || fail "requests.csv has $ids distinct ids in $rows rows"
  awk -F, 'NR == 1 { n = NF } NF != n { bad++ } END { exit bad > 0 }' "$out/requests.csv" ||
    fail "requests.csv has rows with a wrong number of fields"
  # Started together: exactly one of the two runs gets the directory.
  local out2=$work/together s1 s2
  start "$out2" "$work/t1" --set run.requests=100000
  local p1=$pid
  start "$out2" "$work/t2" --set run.requests=100000
  local p2=$pid
  set +e
  wait "$p1"
  s1=$?
  wait "$p2"
  s2=$?
  set -e
  [[ "$s1 $s2" == "0 2" || "$s1 $s2" == "2 0" ]] ||
    fail "two runs started together exited with $s1 and $s2, expected one 0 and one 2; stderr: $(cat "$work/t1.err" "$work/t2.err")"
  no_debris "$out2" "after two runs started together"
  echo "$me: concurrent: second run refused with exit 2 ('$(cut -c1-80 "$work/second.err")...'), first run complete (300000 rows, unique ids); started together: exit $s1 and $s2"
}

# The mount-namespace cases: re-run this script as the namespace's first process.
in_namespace() {
  local name=$1 err
  if ! err=$(unshare --mount --propagation private true 2>&1); then
    echo "$me: SKIP $name: cannot create a private mount namespace ('unshare --mount --propagation private true' failed: $err); needs root or CAP_SYS_ADMIN"
    return 77
  fi
  set +e
  unshare --mount --propagation private bash "${BASH_SOURCE[0]}" "$drivevp" "$src" "inner_$name" "$work"
  local s=$?
  set -e
  return $s
}

# try_mount CONTEXT MOUNT-ARGS...: mounts, or reports the exact reason and skips (77).
try_mount() {
  local context=$1 err
  shift
  if ! err=$(mount "$@" 2>&1); then
    echo "$me: SKIP $context: 'mount $*' failed: $err"
    exit 77
  fi
}

inner_disk_full() {
  # requests.csv overflows a 1 MiB file system.
  local fs=$work/full
  mkdir -p "$fs"
  try_mount disk_full -t tmpfs -o size=1m drivevp-faults "$fs"
  baseline "$fs/out"
  run "$fs/out" "$work/full" --set run.requests=100000
  expect_status 3 "disk full (requests.csv)" "$work/full"
  expect_message "^drivevp: output error: cannot write $fs/out/requests.csv: No space left on device; this run's outputs were discarded and earlier outputs in '$fs/out' are unchanged$" \
    "disk full (requests.csv)" "$work/full"
  intact "$fs/out" "disk full (requests.csv)"
  no_debris "$fs/out" "disk full (requests.csv)"
  next_run "$fs/out" "disk full (requests.csv)"
  echo "$me: disk_full: requests.csv: exit 3, '$(cut -c1-100 "$work/full.err")...'; earlier outputs intact, no partial files"
  # waves.vcd overflows a 64 KiB file system while requests.csv (below its 64 KiB buffer) fits:
  # SystemC's VCD writer ignores write errors, drivevp finds the file cut short.
  local small=$work/small
  mkdir -p "$small"
  try_mount disk_full -t tmpfs -o size=64k drivevp-faults "$small"
  baseline "$small/out"
  run "$small/out" "$work/small" --set run.requests=250 --set trace.enabled=true
  expect_status 3 "disk full (waves.vcd)" "$work/small"
  expect_message "^drivevp: output error: cannot write $small/out/waves.vcd: the file was cut short \(it does not end with the closing timestamp #[0-9]+\); is the disk full\?; this run's outputs were discarded" \
    "disk full (waves.vcd)" "$work/small"
  intact "$small/out" "disk full (waves.vcd)"
  no_debris "$small/out" "disk full (waves.vcd)"
  echo "$me: disk_full: waves.vcd: exit 3, '$(cut -c1-100 "$work/small.err")...'; earlier outputs intact, no partial files"
}

inner_read_only() {
  local parent=$work/ro
  mkdir -p "$parent"
  baseline "$parent/out"
  try_mount read_only --bind "$parent" "$parent"
  try_mount read_only -o remount,bind,ro "$parent"
  touch "$parent/out/probe" 2> /dev/null && fail "read_only: the read-only bind mount is writable"
  run "$parent/out" "$work/ro"
  expect_status 3 "read-only output directory" "$work/ro"
  expect_message "^drivevp: output error: output directory '$parent/out' is not writable: cannot create the lock file \.drivevp\.lock: Read-only file system$" \
    "read-only output directory" "$work/ro"
  intact "$parent/out" "read-only output directory"
  no_debris "$parent/out" "read-only output directory"
  # A directory to be created under a read-only parent.
  run "$parent/new" "$work/ro_new"
  expect_status 3 "output directory under a read-only parent" "$work/ro_new"
  expect_message "^drivevp: output error: output directory '$parent/new' cannot be created: Read-only file system$" \
    "output directory under a read-only parent" "$work/ro_new"
  [[ ! -e $parent/new ]] || fail "read_only: $parent/new was created"
  echo "$me: read_only: exit 3, '$(cat "$work/ro.err")'; earlier outputs intact; new directory under it: '$(cat "$work/ro_new.err")'"
}

case_disk_full() { in_namespace disk_full; }
case_read_only() { in_namespace read_only; }

# --- main ----------------------------------------------------------------------------------------

if [[ ${1:-} == inner_* ]]; then
  # Inside the private mount namespace (see in_namespace): $2 is the scratch directory.
  work=$2
  scenario=$work/scenario.toml
  "$1"
  exit 0
fi

cases=("$@")
[[ ${#cases[@]} -gt 0 ]] || cases=(sigint sigterm sigkill sigterm_plot concurrent disk_full read_only)
for c in "${cases[@]}"; do
  declare -F "case_$c" > /dev/null || usage "unknown case '$c'"
done

work=$(mktemp -d "${TMPDIR:-/tmp}/$me.XXXXXX")
if [[ -n ${KEEP_DIR:-} ]]; then
  trap 'mkdir -p "$KEEP_DIR" && cp -a "$work/." "$KEEP_DIR"/ 2> /dev/null; rm -rf "$work"' EXIT
else
  trap 'rm -rf "$work"' EXIT
fi
scenario=$work/scenario.toml
write_scenario "$scenario"

ran=0
skipped=0
for c in "${cases[@]}"; do
  set +e
  ("case_$c")
  s=$?
  set -e
  case $s in
    0) ran=$((ran + 1)) ;;
    77) skipped=$((skipped + 1)) ;;
    *) exit "$s" ;;
  esac
done
if [[ $ran -eq 0 && $skipped -gt 0 ]]; then
  exit 77
fi
echo "$me: OK: $ran case(s) passed, $skipped skipped"
