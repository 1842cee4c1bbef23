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
# The CUB comparators (perf/cub/: CUB's and Thrust's columns of clreduce-perf) run only on an
# NVIDIA GPU: they are built where nvidia-smi lists one, or where the arguments ask for them
# (-DCLREDUCE_BUILD_CUB=ON, as scripts/gpu-bundle.sh does for a GPU machine without a
# compiler). Elsewhere CMake would compile them wherever it finds nvcc, about 45 s of a 2-core
# build, for binaries that cannot run.
cub=()
if [[ " $* " != *" -DCLREDUCE_BUILD_CUB="* ]] && ! nvidia-smi -L > /dev/null 2>&1; then
  cub=(-DCLREDUCE_BUILD_CUB=OFF)
fi
# ccache where it is installed (install-deps.sh installs it) and may write its cache (else
# every compile through it fails): a rebuild of unchanged files, and the Python wheel's build
# of the same library files (scripts/python-package.sh), take them from its cache. Elsewhere
# none, also in a folder an earlier run configured with it. An argument naming a launcher wins.
launcher=()
if [[ " $* " != *" -DCMAKE_CXX_COMPILER_LAUNCHER="* ]]; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=)
  if command -v ccache > /dev/null; then
    cache_dir=$(ccache --get-config cache_dir 2> /dev/null || true)
    if [[ -n $cache_dir ]] && mkdir -p "$cache_dir" 2> /dev/null && [[ -w $cache_dir ]]; then
      launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    else
      echo "build.sh: not compiling through ccache: its cache folder '$cache_dir' is not writable" >&2
    fi
  fi
fi
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release "${cub[@]}" "${launcher[@]}" "$@"
cmake --build "$build" -j "$(nproc)"
