#!/usr/bin/env bash
# The shipped smoke regression suite (regress/smoke.toml), as CI runs it:
#   1. `drivevp regress` passes every case against the references in regress/references/smoke/
#      (exit status 0, a PASS line per case, "0 failed") and leaves the references unchanged;
#   2. its JUnit report validates against the Jenkins xunit schema shipped in
#      testbench/tests/data/junit/ (xmllint);
#   3. the suite covers every device preset and every policy that `drivevp keys` lists, each with
#      a generated workload (synthetic; rate_tasks for WRR-SCAN; a round workload for paper 003's
#      round schedulers), and replays at least one shipped trace — so a new preset or policy
#      fails here until the suite has a case for it.
#
# Usage: test_smoke.sh DRIVEVP_BINARY SOURCE_DIR
# Exit status: 0 pass; 1 a check failed; 2 usage error.
set -euo pipefail

me=test_smoke
fail() {
  echo "$me: FAIL: $*" >&2
  exit 1
}
[[ $# -eq 2 && -x $1 && -d $2 ]] || {
  echo "usage: $me.sh DRIVEVP_BINARY SOURCE_DIR" >&2
  exit 2
}
drivevp=$1
src=$(realpath "$2")
work=$(mktemp -d "${TMPDIR:-/tmp}/$me.XXXXXX")
trap 'rm -rf "$work"' EXIT
export SC_COPYRIGHT_MESSAGE=DISABLE

# --- 1. every case passes; the references stay as they are ----------------------------------------
refs_before=$(cd "$src/regress/references" && find . -type f -print0 | sort -z | xargs -0 sha256sum)
status=0
"$drivevp" regress "$src/regress/smoke.toml" --jobs 2 --out "$work/out" --junit "$work/junit.xml" \
  >"$work/stdout" 2>"$work/stderr" </dev/null || status=$?
[[ $status -eq 0 ]] || fail "drivevp regress exited with $status: $(cat "$work/stdout" "$work/stderr")"
[[ ! -s $work/stderr ]] || fail "unexpected stderr: $(cat "$work/stderr")"
cases=$(grep -c '^\[\[case\]\]' "$src/regress/smoke.toml")
passes=$(grep -c '^PASS ' "$work/stdout" || true)
[[ $passes -eq $cases ]] || fail "$passes PASS lines for $cases cases: $(cat "$work/stdout")"
grep -q "^smoke: $cases cases, $cases passed, 0 failed (" "$work/stdout" || fail "summary line: $(tail -1 "$work/stdout")"
refs_after=$(cd "$src/regress/references" && find . -type f -print0 | sort -z | xargs -0 sha256sum)
[[ $refs_before == "$refs_after" ]] || fail "a run without --update changed regress/references"

# --- 2. the JUnit report validates -----------------------------------------------------------------
xmllint --noout --schema "$src/testbench/tests/data/junit/junit-10.xsd" "$work/junit.xml" 2>"$work/xmllint" ||
  fail "junit.xml does not validate: $(cat "$work/xmllint")"
[[ $(grep -c '<testcase ' "$work/junit.xml") -eq $cases ]] || fail "junit.xml does not hold $cases testcases"

# --- 3. every preset and policy, each with a synthetic workload, and a trace replay ------------------
choices() { # the "one of a, b, c" list of KEY in `drivevp keys`
  "$drivevp" keys | sed -n "s/^$1 .* one of \(.*\)$/\1/p" | tr -d ' ' | tr ',' '\n'
}
presets=$(choices device.preset)
policies=$(choices firmware.policy)
[[ -n $presets && -n $policies ]] || fail "cannot read the presets and policies from drivevp keys"
synthetic=$(grep -l "^kind = 'synthetic'" "$work"/out/cases/*/scenario.toml || true)
[[ -n $synthetic ]] || fail "no synthetic case"
for p in $presets; do
  # shellcheck disable=SC2086
  grep -q "^preset = '$p'" $synthetic || fail "no synthetic case on device preset $p"
done
# A generated workload: synthetic, rate_tasks for the WRR-SCAN policies of paper 004, or rounds for
# paper 003's round schedulers.
generated=$(grep -l "^kind = '\(synthetic\|rate_tasks\|rounds\)'" "$work"/out/cases/*/scenario.toml || true)
for p in $policies; do
  # shellcheck disable=SC2086
  grep -q "^policy = '$p'" $generated || fail "no synthetic (or rate_tasks, or rounds) case under policy $p"
done
grep -q "^kind = 'trace'" "$work"/out/cases/*/scenario.toml || fail "no trace replay case"
echo "$me: pass ($cases cases; presets: $(echo $presets); policies: $(echo $policies))"
