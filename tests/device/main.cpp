#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>

#include <unistd.h>

#include "test_support.hpp"

int main(int argc, char** argv) {
    clreduce::test::print_seed();
    // The tests never touch the user's caches: they get a fresh folder of their own unless
    // CLREDUCE_CACHE_DIR names one.
    std::filesystem::path own_folder;
    if (std::getenv("CLREDUCE_CACHE_DIR") == nullptr) {
        const auto folder = std::filesystem::temp_directory_path() / ("clreduce-tests-" + std::to_string(::getpid()));
        std::filesystem::create_directories(folder);
        setenv("CLREDUCE_CACHE_DIR", folder.c_str(), 1);
        own_folder = folder;
    }
    unsetenv("CLREDUCE_TUNING_FILE");  // the tuning file, too, is the private folder's
    const int failed = Catch::Session().run(argc, argv);
    if (!own_folder.empty()) {
        std::error_code ignored;
        std::filesystem::remove_all(own_folder, ignored);
    }
    return failed;
}
