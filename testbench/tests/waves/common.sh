# Shared prologue of the waveform test scripts: sourced after `me` is set; checks the two
# arguments (DRIVEVP_BINARY SOURCE_DIR) and defines fail / usage / make_workdir.
fail() {
  echo "$me: FAIL: $*" >&2
  exit 1
}
usage() {
  echo "$me: $*" >&2
  echo "usage: $me.sh DRIVEVP_BINARY SOURCE_DIR" >&2
  exit 2
}
[[ $# -eq 2 ]] || usage "expected 2 arguments, got $#"
drivevp=$1
src=$2
[[ -x $drivevp ]] || usage "'$drivevp' is not an executable"
[[ -d $src ]] || usage "'$src' is not a directory"
# A scratch directory $work (removed on exit) with the run's output directory $out inside it.
make_workdir() {
  work=$(mktemp -d "${TMPDIR:-/tmp}/$me.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  out=$work/out
}
