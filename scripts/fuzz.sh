#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ with clang, AddressSanitizer and UndefinedBehaviorSanitizer
# into build-fuzz/ and runs each for a bounded time, starting from its checked-in seed corpus
# (fuzz/corpus/<target>/; the inputs a run adds go to build-fuzz/corpus/<target>/, the
# checked-in corpus is left as it is). Fails on a crash, a sanitizer report, a broken property
# (fuzz/fuzz_checks.hpp), a hang or a blow-up in memory; the input that did it is written to
# build-fuzz/artifacts/<target>/. Keep it as a regression: copy it into
# fuzz/regressions/<target>/ with a name that says what it broke; the unit tests replay it.
#
# Usage: scripts/fuzz.sh [TARGET...]   (default: all four; CLREDUCE_FUZZ_SECONDS per target, 30)
# Reproduce one input: build-fuzz/fuzz/fuzz_<target> <file>
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${CLREDUCE_FUZZ_BUILD_DIR:-$root/build-fuzz}
seconds=${CLREDUCE_FUZZ_SECONDS:-30}
jobs=${CLREDUCE_JOBS:-$(nproc)}
targets=(transform_expression tuning_database program_file device_spec partial_bytes)
if (($# > 0)); then targets=("$@"); fi

cxx=${CLREDUCE_FUZZ_CXX:-clang++}
if ! command -v "$cxx" >/dev/null; then
  echo "fuzz: $cxx not found (Debian: apt-get install clang; scripts/install-deps.sh)" >&2
  exit 1
fi
cmake -S "$root" -B "$build" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1" -DCLREDUCE_SANITIZE=address,undefined -DCLREDUCE_BUILD_FUZZERS=ON \
  -DCLREDUCE_BUILD_TESTS=OFF -DCLREDUCE_BUILD_PERF=OFF -DCLREDUCE_BUILD_EXAMPLES=OFF
cmake --build "$build" -j "$jobs" --target "${targets[@]/#/fuzz_}"

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1
status=0
for t in "${targets[@]}"; do
  seeds=$root/fuzz/corpus/$t
  work=$build/corpus/$t
  artifacts=$build/artifacts/$t/
  mkdir -p "$work" "$artifacts"
  echo "fuzz: $t for $seconds s from $(find "$seeds" -type f | wc -l) seeds"
  # -timeout: one input taking longer is a hang; -rss_limit_mb: a blow-up in memory.
  if "$build/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$artifacts" "$work" "$seeds" >"$build/fuzz_$t.log" 2>&1; then
    grep -E '^stat::number_of_executed_units|^stat::new_units_added' "$build/fuzz_$t.log" | tr '\n' ' '
    echo
  else
    echo "fuzz: $t FAILED; the end of its log ($build/fuzz_$t.log):"
    tail -n 60 "$build/fuzz_$t.log"
    echo "fuzz: the input: $(ls -t "$artifacts" | head -n 1) in $artifacts"
    status=1
  fi
done
exit "$status"
