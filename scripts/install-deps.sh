#!/usr/bin/env bash
# Installs the Debian 12 packages drivevp needs to build, test and plot. Idempotent: a second run
# installs nothing and makes no network call when every package is already present.
# Catch2 v3 comes from bookworm-backports (bookworm itself ships v2).
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  clang-format              # formatting check in .ci/run
  libsystemc-dev            # SystemC 2.3.4 + TLM-2.0 (built for C++17)
  libcatch2-dev             # Catch2 v3, from bookworm-backports
  libtomlplusplus-dev       # scenario files (TOML)
  libcli11-dev              # command line
  nlohmann-json3-dev        # summary.json
  libfmt-dev                # formatting
  libfccp-dev               # CSV trace readers (MSR Cambridge, UMass SPC)
  libbenchmark-dev          # bench/
  libssl-dev libboost-dev   # sweeps: SHA-256 (scenario hashes, seeds), Student t quantiles
  slurm-wlm munge           # sweeps on Slurm: the single-node cluster test
  libxml2-utils             # xmllint: JUnit reports checked against their schema
  libpugixml-dev            # drivevp regress: writing the JUnit XML report
  gtkwave                   # waveform viewer, vcd2fst
  xvfb x11-apps imagemagick # headless GTKWave test and its screenshot
  python3-matplotlib        # response-time histogram / CDF plots
  clang libclang-rt-14-dev libfuzzer-14-dev libomp-14-dev  # fuzz/ (libFuzzer, sanitizers, OpenMP)
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
# Catch2 must be v3: bookworm's own libcatch2-dev is v2 and would satisfy the name check above.
if ! [ -f /usr/include/catch2/catch_test_macros.hpp ]; then
  missing+=(libcatch2-dev)
fi
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
if ! grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
  echo 'deb http://deb.debian.org/debian bookworm-backports main' |
    $sudo tee /etc/apt/sources.list.d/bookworm-backports.list >/dev/null
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]/libcatch2-dev/libcatch2-dev/bookworm-backports}" >/dev/null
