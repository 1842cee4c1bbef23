#!/usr/bin/env bash
# The tests from a fresh clone: installs dependencies, builds, and runs every test through
# CTest on the default device ($CLREDUCE_DEVICE to choose another).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
cd "${CLREDUCE_BUILD_DIR:-$root/build}"
ctest --output-on-failure -j "$(nproc)"
