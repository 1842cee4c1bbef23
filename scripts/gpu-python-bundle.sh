#!/usr/bin/env bash
# Gathers here what building and benchmarking the Python package needs on a GPU machine with
# Python 3.12, CMake and g++ but no network and no -dev packages, into .gpu/python/ (ignored
# by git, under 50 MiB):
#   src.tar.gz   this tree's files (tracked and new), the package's source
#   wheels/      cp312 manylinux wheels: scikit-build-core, nanobind, numpy, pyopencl, mako, dask and
#                distributed (python/bench/bench_dask.py) and their dependencies, pip (for a venv
#                made without it)
#   include/     the OpenCL C and C++ headers, nlohmann/json and Python 3.12's headers (the
#                target has no -dev packages)
# Copy the repository with .gpu/ to the GPU machine and run scripts/gpu-python-run.sh there.
#   scripts/gpu-python-bundle.sh [PYTHON312_INCLUDE]   (default: pyenv's 3.12, else python3.12's)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/.gpu/python
rm -rf "$out"
mkdir -p "$out/wheels" "$out/include"

# The source: what git knows (tracked and new files), as the package builds it.
(cd "$root" && git ls-files -co --exclude-standard | grep -v '^docs/results/' | tar -czf "$out/src.tar.gz" -T -)

python3 -m pip download --quiet --dest "$out/wheels" --only-binary=:all: --python-version 3.12 \
  --implementation cp --platform manylinux2014_x86_64 --platform manylinux_2_17_x86_64 \
  --platform manylinux_2_28_x86_64 --platform any \
  "scikit-build-core>=0.10" "nanobind>=2.0" numpy pyopencl mako "dask[array]" distributed pip

cp -r /usr/include/CL "$out/include/"
cp -r /usr/include/nlohmann "$out/include/"
py_include=${1:-}
if [[ -z $py_include ]]; then
  for candidate in "$(pyenv root 2>/dev/null)"/versions/3.12*/include/python3.12 /usr/include/python3.12; do
    if [[ -f $candidate/Python.h ]]; then py_include=$candidate; break; fi
  done
fi
if [[ -z $py_include || ! -f $py_include/Python.h ]]; then
  echo "gpu-python-bundle: no Python 3.12 headers found; pass their folder" >&2
  exit 1
fi
cp -r "$py_include" "$out/include/python3.12"
du -sh "$out"
