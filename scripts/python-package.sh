#!/usr/bin/env bash
# The Python package as a user installs it: builds the wheel from this tree (`pip wheel .`,
# scikit-build-core and nanobind fetched by pip's build isolation), installs it into a fresh
# virtual environment, and checks the README's one-liner there. The build keeps its CMake tree
# in build-python/ (pyproject.toml), so a second run compiles only what changed; ccache is used
# where it is installed.
#   scripts/python-package.sh [WORK_DIR]   (default: build-package/)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$root/build-package}
rm -rf "$work"
mkdir -p "$work"
python3 -m venv "$work/venv"
pip=("$work/venv/bin/python" -m pip --disable-pip-version-check)
config=()
if command -v ccache > /dev/null; then
  config=(--config-settings=cmake.define.CMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
"${pip[@]}" wheel --no-deps --wheel-dir "$work/wheels" "${config[@]}" "$root"
"${pip[@]}" install --quiet "$work"/wheels/clreduce-*.whl
cd "$work"  # not the source tree: the installed package is imported
out=$("$work/venv/bin/python" -c "import clreduce, numpy; print(clreduce.sum(numpy.arange(10**6, dtype=numpy.int32)))")
echo "clreduce.sum(numpy.arange(10**6, dtype=numpy.int32)) = $out"
if [[ $out != 499999500000 ]]; then
  echo "python-package: expected 499999500000" >&2
  exit 1
fi
