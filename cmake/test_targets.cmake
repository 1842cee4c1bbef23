# How the test binaries are built (the library, tools and examples they test keep the build
# type's flags):
# - clreduce_catch: Catch2's implementation (runner, reporters, matchers) compiled once, linked by
#   every Catch2 binary (it finds Catch2 for them); each binary's main() calls
#   clreduce::test::run_catch_session (catch_session.hpp). Compiled in each binary, it took
#   about 20 s of a 2-core machine's build per binary. In a sanitizer build it is compiled
#   without the sanitizers and debug information (Catch2 is not the code under test, and
#   instrumented it took five times as long).
# - clreduce_test_target(target [PRECOMPILE header...]): the target's own code at -O1 (except
#   in Debug builds), which compiles in about two thirds of -O3's time (the tests' time goes to
#   OpenCL programs and the library, which keeps the build type's flags, not to their own code),
#   and, with PRECOMPILE, those headers precompiled once for the target's files (Catch2's header
#   alone is 18,000 lines).
function(clreduce_add_catch_library)
  if(NOT TARGET clreduce_catch)
    find_package(Catch2 REQUIRED)
    add_library(clreduce_catch STATIC ${PROJECT_SOURCE_DIR}/tests/support/catch_implementation.cpp)
    target_link_libraries(clreduce_catch PUBLIC Catch2::Catch2)
    target_include_directories(clreduce_catch PUBLIC ${PROJECT_SOURCE_DIR}/tests/support)  # catch_session.hpp
    clreduce_test_target(clreduce_catch)
    if(CLREDUCE_SANITIZE AND CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
      target_compile_options(clreduce_catch PRIVATE -fno-sanitize=all -g0)
    endif()
  endif()
endfunction()

function(clreduce_test_target target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "PRECOMPILE")
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<NOT:$<CONFIG:Debug>>>:-O1>)
  endif()
  if(arg_PRECOMPILE)
    target_precompile_headers(${target} PRIVATE ${arg_PRECOMPILE})
  endif()
endfunction()
