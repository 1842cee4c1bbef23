# Self-test of check_snippets.cmake on the fixtures beside it: the documents that must pass do,
# and each document that breaks one rule fails with a message naming it.
#
#   cmake -P tests/docs/check_snippets_self_test.cmake

cmake_minimum_required(VERSION 3.16)
set(here "${CMAKE_CURRENT_LIST_DIR}")
set(fixtures "${here}/fixtures")

# name | expected outcome | text the output must contain
set(cases
  "good.md|pass|2 C++ blocks: 1 found in 1 compiled files, 1 opted out"
  "brackets.md|pass|1 found"
  "changed.md|fail|docs/changed.md:3: this C++ block is not a contiguous run"
  "reordered.md|fail|docs/reordered.md:3: this C++ block is not a contiguous run"
  "no_reason.md|fail|docs/no_reason.md:3: a snippet comment must read"
  "stray_opt_out.md|fail|docs/stray_opt_out.md:3: an opt-out comment not right before a C++ block")

set(failures 0)
foreach(case IN LISTS cases)
  string(REPLACE "|" ";" fields "${case}")
  list(GET fields 0 doc)
  list(GET fields 1 expected)
  list(GET fields 2 needle)
  execute_process(
    COMMAND "${CMAKE_COMMAND}" -DROOT=${fixtures} -DDOCS=docs/${doc} -DSOURCES=code -P "${here}/check_snippets.cmake"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(all "${out}${err}")
  string(REGEX REPLACE "[ \t\r\n]+" " " flat "${all}")
  if(rc EQUAL 0)
    set(outcome pass)
  else()
    set(outcome fail)
  endif()
  string(FIND "${flat}" "${needle}" at)
  if(NOT outcome STREQUAL expected OR at EQUAL -1)
    message(SEND_ERROR "${doc}: expected ${expected} with '${needle}', got ${outcome}:\n${all}")
    math(EXPR failures "${failures} + 1")
  else()
    message(STATUS "${doc}: ${outcome} as expected")
  endif()
endforeach()
if(failures GREATER 0)
  message(FATAL_ERROR "check_snippets self-test: ${failures} case(s) wrong")
endif()
