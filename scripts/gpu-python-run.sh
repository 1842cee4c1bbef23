#!/usr/bin/env bash
# Runs on the GPU machine (Python 3.12, CMake, g++, the NVIDIA driver; no network, no -dev
# packages), from the repository root, after scripts/gpu-python-bundle.sh made .gpu/python/:
# builds the clreduce wheel offline from the bundled source with the bundled headers, installs
# it with numpy and pyopencl into a fresh venv, checks the README's one-liner and runs the
# benchmark (python/bench/bench_sum.py) on the GPU; with DASK_BENCH set (python/bench/bench_dask.py's
# arguments, e.g. "--exp 28 --chunks 64 --workers 4"), the Dask benchmark too. Output: $OUT
# (default ./out)/python-bench.txt, python-bench.json and dask-bench.txt.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bundle=$root/.gpu/python
out=${OUT:-$root/out}
work=$(mktemp -d)
mkdir -p "$out"
# NVIDIA's OpenCL driver registered as scripts/gpu-run.sh does (both the system's ICD loader and
# the one in PyOpenCL's wheel read OCL_ICD_VENDORS).
if [[ -e /usr/lib/libnvidia-opencl.so.1 ]]; then
  mkdir -p /tmp/vendors
  echo /usr/lib/libnvidia-opencl.so.1 > /tmp/vendors/nvidia.icd
  export OCL_ICD_VENDORS=/tmp/vendors
  export CLREDUCE_DEVICE=${CLREDUCE_DEVICE:-nvidia}
fi
python=${PYTHON:-python3}

# The venv; where ensurepip is missing (no python3-venv), one without pip, and pip from its wheel.
if ! "$python" -m venv "$work/venv" 2> /dev/null; then
  "$python" -m venv --without-pip "$work/venv"
  pip_wheel=$(ls "$bundle"/wheels/pip-*.whl)
  "$work/venv/bin/python" "$pip_wheel/pip" install --quiet --no-index --find-links "$bundle/wheels" pip
fi
pip=("$work/venv/bin/python" -m pip --disable-pip-version-check)

mkdir -p "$work/src"
tar -xzf "$bundle/src.tar.gz" -C "$work/src"
opencl_library=$(ldconfig -p | awk '/libOpenCL\.so\.1 .*x86-64/{print $NF; exit}')
include=$bundle/include
defines=(
  "--config-settings=cmake.define.OpenCL_INCLUDE_DIR=$include"
  "--config-settings=cmake.define.OpenCL_LIBRARY=$opencl_library"
  "--config-settings=cmake.define.CLREDUCE_CLHPP_INCLUDE_DIR=$include"
  "--config-settings=cmake.define.CLREDUCE_NLOHMANN_JSON_INCLUDE_DIR=$include"
)
# Python's own headers where the machine has none (no python3-dev).
if ! "$python" -c "import sysconfig, os, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()['include'], 'Python.h')))"; then
  defines+=("--config-settings=cmake.define.Python_INCLUDE_DIR=$include/python3.12")
fi
"${pip[@]}" wheel --no-index --find-links "$bundle/wheels" --no-deps --wheel-dir "$work/dist" "${defines[@]}" \
  "$work/src"
"${pip[@]}" install --quiet --no-index --find-links "$bundle/wheels" "$work"/dist/clreduce-*.whl pyopencl mako
if [[ -n ${DASK_BENCH:-} ]]; then
  "${pip[@]}" install --quiet --no-index --find-links "$bundle/wheels" "dask[array]" distributed
fi

cd "$work"
"$work/venv/bin/python" -c "import clreduce, numpy; print(clreduce.sum(numpy.arange(10**6, dtype=numpy.int32)))" |
  tee "$out/python-oneliner.txt"
"$work/venv/bin/python" "$work/src/python/bench/bench_sum.py" --json "$out/python-bench.json" "$@" |
  tee "$out/python-bench.txt"
if [[ -n ${DASK_BENCH:-} ]]; then
  # shellcheck disable=SC2086 # (the benchmark's arguments, word-split on purpose)
  "$work/venv/bin/python" "$work/src/python/bench/bench_dask.py" $DASK_BENCH | tee "$out/dask-bench.txt"
fi
