# CLREDUCE_SANITIZE: a comma-separated list of sanitizers every target of this build is compiled
# and linked with, e.g. -DCLREDUCE_SANITIZE=address,undefined or -DCLREDUCE_SANITIZE=thread
# (scripts/sanitize.sh builds and runs both). Empty (the default): none.
# UndefinedBehaviorSanitizer stops at its first report (-fno-sanitize-recover), so a report
# fails the run instead of scrolling past.
set(CLREDUCE_SANITIZE "" CACHE STRING "Sanitizers to build with: address,undefined or thread (empty: none)")
# CLREDUCE_BUILD_FUZZERS: the libFuzzer targets of fuzz/ (scripts/fuzz.sh). Clang only: every
# target is then compiled with libFuzzer's coverage (-fsanitize=fuzzer-no-link), so that the
# library code the fuzzers reach guides them.
option(CLREDUCE_BUILD_FUZZERS "Build the libFuzzer targets in fuzz/ (needs clang)" OFF)
if(CLREDUCE_BUILD_FUZZERS)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "CLREDUCE_BUILD_FUZZERS needs clang (libFuzzer is part of it): configure with "
                        "CXX=clang++, not ${CMAKE_CXX_COMPILER_ID}")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()

if(CLREDUCE_SANITIZE)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    message(FATAL_ERROR "CLREDUCE_SANITIZE needs GCC or Clang, not ${CMAKE_CXX_COMPILER_ID}")
  endif()
  string(REPLACE "," ";" clreduce_sanitizers "${CLREDUCE_SANITIZE}")
  foreach(s IN LISTS clreduce_sanitizers)
    if(NOT s MATCHES "^(address|undefined|thread|leak)$")
      message(FATAL_ERROR "CLREDUCE_SANITIZE: unknown sanitizer '${s}' (address, undefined, thread, leak)")
    endif()
  endforeach()
  if("thread" IN_LIST clreduce_sanitizers AND "address" IN_LIST clreduce_sanitizers)
    message(FATAL_ERROR "CLREDUCE_SANITIZE: thread and address cannot be combined")
  endif()
  # -g1: line tables, enough for the reports' stacks (function, file and line); full debug
  # information took a third of these builds' time.
  set(clreduce_sanitize_flags -fsanitize=${CLREDUCE_SANITIZE} -fno-omit-frame-pointer -g1)
  if("undefined" IN_LIST clreduce_sanitizers)
    # GCC leaves float-to-integer conversions out of range out of "undefined" (clang has them).
    list(APPEND clreduce_sanitize_flags -fsanitize=float-cast-overflow -fno-sanitize-recover=undefined,float-cast-overflow)
  endif()
  add_compile_options(${clreduce_sanitize_flags})
  add_link_options(-fsanitize=${CLREDUCE_SANITIZE})
  message(STATUS "clreduce: sanitizers: ${CLREDUCE_SANITIZE}")
endif()
