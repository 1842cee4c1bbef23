#pragma once
// Runs the Catch2 test cases a command line selects (Catch::Session().run); compiled once in
// catch_implementation.cpp for every test binary.
namespace clreduce::test {
int run_catch_session(int argc, char** argv);
}
