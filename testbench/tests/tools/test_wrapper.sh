#!/usr/bin/env bash
# Test of the ./drivevp wrapper and scripts/build.sh, hermetic: copies of both run in a scratch
# tree with stand-ins for the build (a fake scripts/build.sh counting its calls, or a fake
# `cmake` on PATH printing Ninja's notes), so nothing is really built.
#   1. Up to date, the wrapper execs build/drivevp without calling the build and prints nothing
#      of its own on stderr.
#   2. It builds again after a source file changes, after a file is added to a source directory,
#      without a stamp, and without the binary; the binary's output and exit status pass through.
#   3. A file edited while the build runs is seen by the next run (the stamp is taken first).
#   4. scripts/build.sh drops Ninja's "Re-checking globbed directories..." and "ninja: no work to
#      do." but shows compiler lines, and returns the build's exit status.
#
# Usage: test_wrapper.sh SOURCE_DIR
# Exit status: 0 pass; 1 a check failed; 2 usage error.
set -euo pipefail

me=test_wrapper
fail() {
  echo "$me: FAIL: $*" >&2
  exit 1
}
[[ $# -eq 1 && -d $1 ]] || {
  echo "usage: $me.sh SOURCE_DIR" >&2
  exit 2
}
src=$(realpath "$1")
work=$(mktemp -d "${TMPDIR:-/tmp}/$me.XXXXXX")
trap 'rm -rf "$work"' EXIT

# --- the wrapper's fast path ---------------------------------------------------------------------
root=$work/tree
mkdir -p "$root/scripts" "$root/build" "$root/apps" "$root/testbench/sim" "$root/configs"
cp "$src/drivevp" "$root/drivevp"
touch "$root/CMakeLists.txt" "$root/apps/drivevp.cpp" "$root/testbench/sim/platform.cpp" "$root/configs/default.toml"
# Fake build: counts its calls; optionally touches a source file "during the build".
cat > "$root/scripts/build.sh" << 'EOF'
#!/usr/bin/env bash
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
echo "build $*" >> "$root/builds.log"
[[ -n ${TOUCH_DURING_BUILD:-} ]] && { sleep 0.05; touch "$root/$TOUCH_DURING_BUILD"; }
cat > "$root/build/drivevp" << 'BIN'
#!/usr/bin/env bash
echo "binary $*"
exit 7
BIN
chmod +x "$root/build/drivevp"
EOF
chmod +x "$root/scripts/build.sh" "$root/drivevp"
builds() { [[ -f $root/builds.log ]] && wc -l < "$root/builds.log" || echo 0; }

# wrap EXPECTED_BUILDS CONTEXT: runs the wrapper with arguments "keys x", checks output, status,
# and the number of builds so far.
wrap() {
  set +e
  "$root/drivevp" keys x > "$work/out" 2> "$work/err"
  local status=$?
  set -e
  [[ $status -eq 7 ]] || fail "$2: exit status $status, expected the binary's 7"
  [[ $(cat "$work/out") == "binary keys x" ]] || fail "$2: stdout '$(cat "$work/out")', expected 'binary keys x'"
  [[ $(builds) -eq $1 ]] || fail "$2: $(builds) builds so far, expected $1"
}
# The file times below differ by at least a second so that -newer is unambiguous on any file system.
tick() { sleep 1.1; }

wrap 1 "first run (no binary, no stamp)"
wrap 1 "second run, nothing changed"
[[ ! -s $work/err ]] || fail "up-to-date run printed on stderr: $(cat "$work/err")"
tick
touch "$root/apps/drivevp.cpp"
wrap 2 "after a source file changed"
wrap 2 "after that build"
tick
touch "$root/testbench/sim/new_module.cpp"
wrap 3 "after a file was added to a source directory"
tick
rm "$root/build/.drivevp-wrapper-stamp"
wrap 4 "without a stamp"
rm "$root/build/drivevp"
wrap 5 "without the binary"
tick
TOUCH_DURING_BUILD=configs/default.toml wrap 5 "nothing changed" # up to date: no build, no touch
touch "$root/CMakeLists.txt"
TOUCH_DURING_BUILD=configs/default.toml wrap 6 "CMakeLists.txt changed, a config edited during the build"
wrap 7 "the file edited during the build is seen"
wrap 7 "then up to date"
echo "$me: wrapper: builds only when a watched file changed; up to date it execs the binary with nothing on stderr"

# --- scripts/build.sh's filter -------------------------------------------------------------------
broot=$work/btree
mkdir -p "$broot/scripts" "$broot/build" "$work/bin"
cp "$src/scripts/build.sh" "$broot/scripts/build.sh"
printf '#!/bin/sh\nexit 0\n' > "$broot/scripts/install-deps.sh"
touch "$broot/build/build.ninja"
cat > "$work/bin/cmake" << 'EOF'
#!/bin/sh
echo "[0/2] Re-checking globbed directories..."
[ -n "$FAKE_WORK" ] && echo "[1/2] Building CXX object x.o" && echo "x.cpp:1: error: oops" >&2
echo "ninja: no work to do."
exit "${FAKE_STATUS:-0}"
EOF
chmod +x "$work/bin/cmake" "$broot/scripts/build.sh" "$broot/scripts/install-deps.sh"
set +e
PATH=$work/bin:$PATH "$broot/scripts/build.sh" default drivevp > "$work/bout" 2>&1
status=$?
set -e
[[ $status -eq 0 ]] || fail "build.sh exited with $status on a no-op build: $(cat "$work/bout")"
[[ ! -s $work/bout ]] || fail "build.sh printed on a no-op build: $(cat "$work/bout")"
set +e
FAKE_WORK=1 FAKE_STATUS=1 PATH=$work/bin:$PATH "$broot/scripts/build.sh" default drivevp > "$work/bout" 2>&1
status=$?
set -e
[[ $status -eq 1 ]] || fail "build.sh exited with $status when the build failed with 1"
grep -q '^\[1/2\] Building CXX object x.o$' "$work/bout" || fail "build.sh hid the compiler line: $(cat "$work/bout")"
grep -q '^x.cpp:1: error: oops$' "$work/bout" || fail "build.sh hid the compiler error: $(cat "$work/bout")"
grep -q -e 'Re-checking' -e 'no work to do' "$work/bout" && fail "build.sh showed Ninja's notes: $(cat "$work/bout")"
echo "$me: build.sh: Ninja's notes dropped, compiler output and exit status kept"
echo "$me: OK"
