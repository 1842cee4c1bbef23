#!/usr/bin/env bash
# Fails where a Catch2 test case's name holds a ';'. catch_discover_tests registers each case as
# a CTest test by name, and CMake cuts a name at its ';' (a list separator): the truncated name
# matches no case, so the CTest test runs nothing and passes. Usage: check_test_names.sh <root>
root=$1
found=$(grep -rnE 'TEST_CASE\("[^"]*;' "$root/tests" "$root/opencv" "$root/mpi" 2> /dev/null)
if [[ -n $found ]]; then
  echo "test case names with ';' (CTest would run nothing for them; write ',' instead):"
  echo "$found"
  exit 1
fi
echo "no test case name holds a ';'"
