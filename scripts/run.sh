#!/usr/bin/env bash
# The main job from a fresh clone: installs dependencies, builds, and runs clreduce-perf on
# the default device (the times sweep; PoCL's CPU device when there is no GPU).
# Arguments go to clreduce-perf, e.g. scripts/run.sh devices, scripts/run.sh sweep -t float32.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
exec "${CLREDUCE_BUILD_DIR:-$root/build}/perf/clreduce-perf" "$@"
