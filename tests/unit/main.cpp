#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "test_support.hpp"

// The unit tests' seed is printed like the device tests' one; no device is opened here.
int main(int argc, char** argv) {
    clreduce::test::print_seed();
    return Catch::Session().run(argc, argv);
}
