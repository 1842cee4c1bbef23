#!/usr/bin/env bash
# The manylinux clreduce wheel without the system's OpenCL ICD loader: installs it into a fresh
# virtual environment (and, beside it, with the `cpu` extra: Intel's OpenCL runtime for CPUs from
# PyPI) and runs it in a mount namespace where every file of the system's libOpenCL reads as
# empty (/dev/null bound over it) and the environment holds only PATH and HOME. There
#   1. with the system's OpenCL implementations (/etc/OpenCL/vendors) the README's one-liner and
#      a row sum (a kernel built and run) give the right values, through the loader inside the
#      wheel (no system libOpenCL in the process);
#   2. with /etc/OpenCL hidden too (a machine with no OpenCL at all) a call raises clreduce.Error
#      saying that no OpenCL device was found;
#   3. the same machine with the `cpu` extra installed: the one-liner and the row sums are right,
#      on Intel's CPU runtime.
# Needs root (unshare -m); scripts/python-package.sh runs it.
#   scripts/python-wheel-alone.sh WHEEL WORK_DIR
set -euo pipefail
wheel=$1
work=$2
rm -rf "$work"
mkdir -p "$work/home"
python3 -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check "$wheel"
python3 -m venv "$work/venv-cpu"
"$work/venv-cpu/bin/python" -m pip install --quiet --disable-pip-version-check "$wheel[cpu]"

cat > "$work/check.py" << 'EOF'
import sys
import clreduce, numpy
try:
    print("one-liner", clreduce.sum(numpy.arange(10**6, dtype=numpy.int32)))
except clreduce.Error as e:
    print("error", e)
    sys.exit()
a = numpy.arange(64 * 1000, dtype=numpy.int32).reshape(64, 1000)
print("row sums right", bool((clreduce.sum(a, axis=1) == a.sum(axis=1)).all()))
libraries = {line.split()[-1] for line in open("/proc/self/maps") if "libOpenCL" in line}
print("OpenCL loaders", ["wheel" if "clreduce.libs" in f else f for f in sorted(libraries)])
print("platform", clreduce.default_reducer().device["platform"])
EOF

# Runs check.py with the Python of venv $2 in a mount namespace without the system's libOpenCL
# files (not their symbolic links), and with /etc/OpenCL hidden too if $1 is "no-vendors".
alone() {
  local loaders
  mapfile -t loaders < <(find /usr/lib /usr/lib64 /usr/local/lib -maxdepth 3 -name 'libOpenCL.so*' -type f \
    2> /dev/null)
  unshare -m bash -c '
    set -euo pipefail
    vendors=$1 work=$2 venv=$3
    shift 3
    for f in "$@"; do mount --bind /dev/null "$f"; done
    if [[ $vendors == no-vendors && -d /etc/OpenCL ]]; then mount -t tmpfs none /etc/OpenCL; fi
    cd "$work"
    env -i PATH=/usr/bin:/bin HOME="$work/home" "$venv/bin/python" check.py
  ' alone "$1" "$work" "$2" "${loaders[@]}"
}

with=$(alone vendors "$work/venv")
echo "$with" | sed 's/^/python-wheel-alone: system vendors, no system loader: /'
without=$(alone no-vendors "$work/venv")
echo "$without" | sed 's/^/python-wheel-alone: no OpenCL at all: /'
cpu=$(alone no-vendors "$work/venv-cpu")
echo "$cpu" | sed 's/^/python-wheel-alone: no OpenCL at all, the cpu extra: /'
if [[ $with != "one-liner 499999500000
row sums right True
OpenCL loaders ['wheel']"* ]]; then
  echo "python-wheel-alone: expected the one-liner's value and right row sums through the wheel's loader" >&2
  exit 1
fi
if [[ $without != "error no OpenCL devices found"* ]]; then
  echo "python-wheel-alone: expected clreduce.Error 'no OpenCL devices found' with no OpenCL installed" >&2
  exit 1
fi
if [[ $cpu != "one-liner 499999500000
row sums right True
OpenCL loaders ['wheel']
platform Intel(R) OpenCL" ]]; then
  echo "python-wheel-alone: expected right values on Intel's CPU runtime with the cpu extra" >&2
  exit 1
fi
