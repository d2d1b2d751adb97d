#!/usr/bin/env bash
# Runs the whole test suite: installs dependencies, builds (preset "default", or "asan" when
# given), then runs every test with CTest, each test case in its own process.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
preset=${1:-default}
"$root/scripts/build.sh" "$preset"
cd "$root"
ctest --preset "$preset"
