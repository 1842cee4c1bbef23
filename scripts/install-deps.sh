#!/usr/bin/env bash
# Installs everything clreduce needs to build, test and benchmark on Debian 12 (ccache:
# scripts/build.sh and the Python wheel's build share compiled files; oclgrind, clang
# and its sanitizer and libFuzzer runtimes: scripts/race-check.sh and scripts/fuzz.sh; clang-19
# and llvm-spirv-14: the kernels compiled for AMD GPUs and to SPIR-V by the tests;
# clang-format, clang-tidy and cppcheck: scripts/format.sh and scripts/lint.sh; Open MPI: the
# clreduce_mpi component and its tests; Python's headers and, from PyPI, nanobind,
# scikit-build-core, numpy, pytest, pyopencl (with mako, for its reductions), mpi4py and dask[array]
# with distributed (clreduce.dask and its tests): the Python package, its tests and benchmark).
# Idempotent: packages already present are skipped by apt-get. Intel's CPU OpenCL runtime, a
# second implementation to test on, is scripts/install-intel-opencl.sh's (800 MB from PyPI).
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config ccache
  ocl-icd-opencl-dev opencl-c-headers opencl-clhpp-headers clinfo
  pocl-opencl-icd
  catch2 libcli11-dev libfmt-dev
  libopencv-core-dev
  nlohmann-json3-dev libclblast-dev
  libxml2-utils
  oclgrind clang libclang-rt-dev clang-19 llvm-spirv-14
  clang-format clang-tidy cppcheck
  libopenmpi-dev openmpi-bin
  python3-dev python3-venv python3-pip
)

# The Python packages, into the python3 on PATH (the one CMake builds the module for); pip
# skips those already there. A Debian python3 marks itself externally managed (PEP 668).
install_python_packages() {
  local python_packages=(nanobind scikit-build-core numpy pytest pyopencl mako mpi4py "dask[array]" distributed)
  if python3 -c "import nanobind, scikit_build_core, numpy, pytest, pyopencl, mako, mpi4py, dask.array, distributed" \
    2>/dev/null; then
    echo "install-deps: Python packages present"
    return
  fi
  local flags=(--quiet)
  if python3 -c "import os, sysconfig, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_path('stdlib'), 'EXTERNALLY-MANAGED')))"; then
    flags+=(--break-system-packages)
  fi
  python3 -m pip install "${flags[@]}" "${python_packages[@]}"
}

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  echo "install-deps: all packages present"
  install_python_packages
  exit 0
fi

sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
install_python_packages
