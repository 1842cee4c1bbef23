#!/usr/bin/env bash
# The tests from a fresh clone: installs dependencies, builds, and runs every test through
# CTest on the default device ($CLREDUCE_DEVICE to choose another). Prints each stage's wall
# time ("== test.sh: build 312 s").
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
timed() {  # timed NAME CMD...: runs CMD, then prints its wall time (also when it fails)
  local name=$1 start=$SECONDS rc=0
  shift
  "$@" || rc=$?
  echo "== test.sh: $name $((SECONDS - start)) s$( ((rc == 0)) || echo ", exit $rc")"
  return "$rc"
}
timed install-deps "$root/scripts/install-deps.sh"
timed build "$root/scripts/build.sh"
cd "${CLREDUCE_BUILD_DIR:-$root/build}"
timed ctest ctest --output-on-failure -j "$(nproc)"
