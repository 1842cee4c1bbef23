#!/usr/bin/env bash
# The kernel checker: runs tests/race/race_sweep.cpp (every kernel shape on tiny inputs) under
# Oclgrind, an OpenCL device simulator, with data-race and uninitialised-value detection (its
# out-of-bounds and barrier-divergence checks are always on), and fails on any report.
# Builds only clreduce-race-sweep, in $CLREDUCE_BUILD_DIR (default build/, configured if new).
# Extra arguments go to the sweep (e.g. --only argmin, or --with-last-group to see the report
# on the excluded finish).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${CLREDUCE_BUILD_DIR:-$root/build}

if ! command -v oclgrind >/dev/null; then
  echo "race-check: oclgrind not found (Debian: apt-get install oclgrind; scripts/install-deps.sh)" >&2
  exit 1
fi
[[ -f $build/CMakeCache.txt ]] || cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" -j "${CLREDUCE_JOBS:-$(nproc)}" --target clreduce-race-sweep
sweep=$build/tests/race/clreduce-race-sweep

# Kernel build options under Oclgrind 21.10 (Debian 12's), whose simulator lags its LLVM:
#   -O0                        the optimiser turns a vector comparison into `zext <N x i1>`,
#                              which Oclgrind 21.10 simulates wrongly (lanes of 255, not 1: the
#                              vector count_nonzero came out 255 times too large), and its
#                              --uninitialized plugin crashed on optimised clreduce kernels;
#   -Dalways_inline=noinline   LLVM's inliner, run for always_inline functions even at -O0,
#                              emits llvm.experimental.noalias.scope.decl where a function
#                              returns a struct (the compensated, minmax and argmin states),
#                              which Oclgrind 21.10 cannot run ("Undefined external function").
# Neither changes what the kernels read and write, which is what is checked.
options="-O0 -Dalways_inline=noinline"
export CLREDUCE_DEVICE=oclgrind  # under oclgrind its platform is the only one

log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT
status=0
# run NAME OCLGRIND-FLAGS SWEEP-ARGS...: a sweep under oclgrind; any line on stderr (Oclgrind's
# reports, or the sweep's own error) or a failed exit fails it.
run() {
  local name=$1 flags=$2
  shift 2
  echo "race-check: oclgrind $flags: $name"
  local rc=0
  # shellcheck disable=SC2086
  oclgrind $flags --build-options "$options" "$sweep" "$@" >"$log/$name.out" 2>"$log/$name.err" || rc=$?
  grep -v '^ok ' "$log/$name.out" || true
  if ((rc != 0)) || [[ -s $log/$name.err ]]; then
    echo "race-check: FAILED ($name, exit $rc); reports by kind:"
    grep -v -e '^[[:space:]]' -e '^$' "$log/$name.err" | sed 's/ at .* address 0x[0-9a-f]*$//' | sort | uniq -c || true
    echo "race-check: the first reports in full:"
    head -n 60 "$log/$name.err"
    status=1
  fi
}

# Every shape with both checks, but the 32-bit atomic minimum: clreduce sets its result word
# with clEnqueueFillBuffer and a 4-byte pattern, which Oclgrind 21.10's --uninitialized does not
# count as a write (a 15-line program with one fill and one atomic_min shows it), so it would
# report the atomic_min as writing an uninitialised value. That shape runs with the race check.
run all "--data-races --uninitialized" --skip "min int32 finish=atomic" --skip "long segments" "$@"
run atomic-min "--data-races" --only "min int32 finish=atomic" "$@"
# The same holds for the counts of long segments' chunks (set by a fill, then compare-and-swapped).
run long-segments "--data-races" --only "long segments" "$@"
if ((status == 0)); then echo "race-check: no reports"; fi
exit "$status"
