#!/usr/bin/env bash
# Installs the Debian packages drivevp needs (idempotent), then configures and builds the given
# CMake preset (default: "default" into build/) if anything is missing or out of date; a second
# argument limits the build to one target (the ./drivevp wrapper builds only the simulator).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
preset=${1:-default}
"$root/scripts/install-deps.sh"
cd "$root"
case "$preset" in
  default) dir=build ;;
  asan) dir=build-asan ;;
  *) echo "build.sh: unknown preset '$preset' (expected default or asan)" >&2; exit 2 ;;
esac
[ -f "$dir/build.ninja" ] || cmake --preset "$preset" >/dev/null
# Ninja's notes when nothing needed doing ("Re-checking globbed directories...", "no work to do")
# are dropped; everything else (compiler lines, errors) is shown.
quiet() { sed -u -e '/Re-checking globbed directories\.\.\./d' -e '/^ninja: no work to do\.$/d'; }
if [ -n "${2:-}" ]; then
  cmake --build --preset "$preset" --target "$2" 2>&1 | quiet
else
  cmake --build --preset "$preset" 2>&1 | quiet
fi
