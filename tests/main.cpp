#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "test_support.hpp"

int main(int argc, char** argv) {
    clreduce::test::print_seed();
    return Catch::Session().run(argc, argv);
}
