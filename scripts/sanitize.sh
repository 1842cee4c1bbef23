#!/usr/bin/env bash
# Sanitizer runs of clreduce's host code, on the test device (PoCL's CPU device in CI):
#   scripts/sanitize.sh address   AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/):
#                                 the unit tests, the C API program, and the device tests of
#                                 the tags below
#   scripts/sanitize.sh thread    ThreadSanitizer (build-tsan/): the device tests that call
#                                 from several threads
# Each builds only the test binaries it runs (clreduce-tests of the device test files that
# have the tags it runs), at -O1 with line tables (-g1, which CLREDUCE_SANITIZE adds:
# cmake/sanitizers.cmake), and fails on any report.
# Suppressions (tests/sanitizers/) name what they hide: PoCL's and LLVM's memory kept until
# exit, and the polled read's deliberate overlap with the driver's copy; UBSan has none.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
kind=${1:-}
jobs=${CLREDUCE_JOBS:-$(nproc)}
supp=$root/tests/sanitizers

# configure BUILD_DIR SANITIZERS TAGS (with Ninja where installed, as build.sh): clreduce-tests
# of that build compiles only the device test files with a case of TAGS.
configure() {
  command -v ninja > /dev/null && export CMAKE_GENERATOR=${CMAKE_GENERATOR:-Ninja}
  cmake -S "$root" -B "$1" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1" \
    -DCLREDUCE_SANITIZE="$2" -DCLREDUCE_DEVICE_TEST_TAGS="$3" -DCLREDUCE_BUILD_PERF=OFF -DCLREDUCE_BUILD_EXAMPLES=OFF
}

# The device tests' tags a sanitizer run takes (clreduce-tests --list-tags lists them all):
# bad input, repeated calls, threads, transforms, asynchronous calls, the disk caches, tuning,
# partials (their byte decoder), several devices, host data at every misalignment and
# overlapping segments (both once wrote or read outside their memory).
# The matrix, accuracy and operation sweeps add run time (PoCL compiling their kernels), not
# other host code.
asan_tags="[errors],[reuse],[threads],[transform],[async],[program-cache],[tuning],[partial],[misaligned],[overlap]"
# Tests that start threads: the four-thread reducer, the first device query from four threads
# (in child processes), three reducers filling one cache folder, a database switched under
# running sums, every operation from four threads, polled reads from four threads, and the
# tuning file stored by 4 threads and 6 processes at once.
tsan_tags="[threads],[polling],[tuning]"
# MultiReducer's device threads, over three PoCL devices (elsewhere the variable does nothing).
multi_devices="pthread pthread pthread"

case $kind in
  address)
    build=${CLREDUCE_ASAN_BUILD_DIR:-$root/build-asan}
    configure "$build" address,undefined "$asan_tags,[multi]"
    cmake --build "$build" -j "$jobs" --target clreduce-unit-tests clreduce-tests clreduce-c-api-tests
    # use_sigaltstack=0: ASan's per-thread alternate signal stack could not be unmapped when
    #   PoCL's worker threads ended in a child process (a CHECK failure, "AddressSanitizer
    #   failed to deallocate ... UnsetAlternateSignalStack", that failed the child).
    # LeakSanitizer's use_tls=0: its scan of thread-local storage crashed ("Tracer caught signal
    #   11") at the exit of a child process that had compiled kernels with PoCL; without it,
    #   memory held only from thread-local storage is reported as a leak, never hidden.
    export ASAN_OPTIONS=use_sigaltstack=0:detect_leaks=1:abort_on_error=0
    export LSAN_OPTIONS=use_tls=0:suppressions=$supp/lsan.supp:print_suppressions=0
    export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
    "$build/tests/unit/clreduce-unit-tests"
    "$build/tests/c_api/clreduce-c-api-tests"  # C callers pass any int as an enumeration value
    "$build/tests/clreduce-tests" "$asan_tags"
    POCL_DEVICES=$multi_devices "$build/tests/clreduce-tests" "[multi]"
    ;;
  thread)
    build=${CLREDUCE_TSAN_BUILD_DIR:-$root/build-tsan}
    configure "$build" thread "$tsan_tags,[multi]"
    cmake --build "$build" -j "$jobs" --target clreduce-tests
    # history_size=7: the longest history of earlier accesses, so that both sides of a report
    #   have their stacks (with the default, one report lost its second side, and with it the
    #   frame its suppression names). PoCL, LLVM and the ICD loader are not instrumented: their
    #   own accesses are not checked, but their memcpy into clreduce's memory and their locks
    #   and thread starts are.
    export TSAN_OPTIONS=halt_on_error=1:history_size=7:second_deadlock_stack=1:suppressions=$supp/tsan.supp
    "$build/tests/clreduce-tests" "$tsan_tags"
    POCL_DEVICES=$multi_devices "$build/tests/clreduce-tests" "[multi]"
    ;;
  *)
    echo "usage: scripts/sanitize.sh address|thread" >&2
    exit 2
    ;;
esac
