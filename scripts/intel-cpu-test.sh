#!/usr/bin/env bash
# The device tests on a second OpenCL implementation: Intel's CPU runtime, installed from PyPI
# into .intel-opencl/ (scripts/install-intel-opencl.sh), running the Catch2 cases of the tags
# below (docs/testing.md, "Intel's CPU runtime", says what they cover and why these). Builds
# clreduce-tests in build/ (or $CLREDUCE_BUILD_DIR) if it is not there.
# Where the runtime cannot be installed it prints why and skips (exit 0), unless
# CLREDUCE_REQUIRE_INTEL_OPENCL=1 (CI sets it), which makes that a failure. Every case must
# run: a case skipped there (half needs cl_khr_fp16, which the runtime has) fails the stage.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${CLREDUCE_BUILD_DIR:-$root/build}
dir=${CLREDUCE_INTEL_OPENCL_DIR:-$root/.intel-opencl}
# Two processes side by side (the runtime compiles a program on one thread), each given Catch2
# test specs: tags, names ("*..." matches a name's end), "~" leaving a name out. Split so that
# both take about as long (with cold program caches on a 2-core machine, 2026-12-02: 486 s of
# cases in a, 575 s in b, of which 151 s were the per-type segmented [async-every] cases, now
# left out: their float case runs here through [async], and every type runs on PoCL).
tags_a='[ops],[half],[sum][matrix],[float-semantics],[exact-integer],[statistics],[correctly-rounded],[argminmax]'
# Each case runs in one process only (~ removes overlaps).
tags_b='[forms]~[half],[by-key],[last-group],[async]~[exact-integer]~[correctly-rounded],[exact-atomic],[segments]~[statistics]~[async-every],[columns]'

if ! CLREDUCE_INTEL_OPENCL_DIR=$dir bash "$root/scripts/install-intel-opencl.sh"; then
  if [[ ${CLREDUCE_REQUIRE_INTEL_OPENCL:-0} == 1 ]]; then
    echo "intel-cpu-test: Intel's CPU OpenCL runtime did not install (above), and CLREDUCE_REQUIRE_INTEL_OPENCL=1" >&2
    exit 1
  fi
  echo "intel-cpu-test: SKIPPED: Intel's CPU OpenCL runtime did not install on this machine (above)"
  exit 0
fi
if [[ ! -x $build/tests/clreduce-tests ]]; then
  command -v ninja > /dev/null && export CMAKE_GENERATOR=${CMAKE_GENERATOR:-Ninja}
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release > /dev/null
  cmake --build "$build" -j "$(nproc)" --target clreduce-tests
fi

# shellcheck source=/dev/null
. "$dir/env.sh"
export CLREDUCE_DEVICE="Intel(R) OpenCL"
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
run() {  # run NAME SPECS: the cases of SPECS but the hidden ones ([.long]), output into $logs/NAME
  local spec="" term
  IFS=, read -ra terms <<< "$2"
  for term in "${terms[@]}"; do
    [[ $term =~ ^((\[[^]]*\])+)(.*)$ ]] && term="${BASH_REMATCH[1]}~[.]${BASH_REMATCH[3]}"
    spec+=${spec:+,}$term
  done
  "$build/tests/clreduce-tests" "$spec" --durations yes > "$logs/$1" 2>&1
}
rc=0
run a "$tags_a" &
pid_a=$!
run b "$tags_b" || rc=1
wait "$pid_a" || rc=1
for part in a b; do
  grep -E "^(clreduce tests: seed|test cases:|assertions:|All tests passed)" "$logs/$part" | awk '!seen[$0]++' || true
  if grep -q "CLREDUCE_TEST_SKIPPED" "$logs/$part"; then
    echo "intel-cpu-test: a case skipped on Intel's runtime, which should run every case:"
    grep "CLREDUCE_TEST_SKIPPED" "$logs/$part"
    rc=1
  fi
done
if ((rc != 0)); then
  for part in a b; do
    echo "---- $part ----"
    grep -B 4 -A 20 "FAILED" "$logs/$part" | head -200 || true
  done
  echo "intel-cpu-test: failed"
  exit 1
fi
echo "intel-cpu-test: passed on $(clinfo -l 2> /dev/null | grep -m1 Device | sed 's/.*Device #0: //') (Intel(R) OpenCL)"
