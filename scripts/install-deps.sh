#!/usr/bin/env bash
# Installs everything clreduce needs to build, test and benchmark on Debian 12 (oclgrind, clang
# and its sanitizer and libFuzzer runtimes: scripts/race-check.sh and scripts/fuzz.sh;
# clang-format, clang-tidy and cppcheck: scripts/format.sh and scripts/lint.sh; Open MPI: the
# clreduce_mpi component and its tests).
# Idempotent: packages already present are skipped by apt-get.
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  ocl-icd-opencl-dev opencl-c-headers opencl-clhpp-headers clinfo
  pocl-opencl-icd
  catch2 libcli11-dev libfmt-dev
  libopencv-core-dev
  nlohmann-json3-dev libclblast-dev
  libxml2-utils
  oclgrind clang libclang-rt-dev
  clang-format clang-tidy cppcheck
  libopenmpi-dev openmpi-bin
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  echo "install-deps: all packages present"
  exit 0
fi

sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
