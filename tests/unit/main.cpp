#include <catch2/catch.hpp>

#include "catch_session.hpp"

#include "test_support.hpp"

// The unit tests' seed is printed like the device tests' one; no device is opened here.
int main(int argc, char** argv) {
    clreduce::test::print_seed();
    return clreduce::test::run_catch_session(argc, argv);
}
