// Catch2's implementation, compiled once for every Catch2 test binary of the project
// (cmake/test_targets.cmake, clreduce_catch). CATCH_CONFIG_RUNNER: no main() here; each
// binary's main() does its set-up and calls run_catch_session (Catch2 declares its Session
// class only where its implementation is compiled).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "catch_session.hpp"

int clreduce::test::run_catch_session(int argc, char** argv) { return Catch::Session().run(argc, argv); }
