#include <catch2/catch.hpp>

#include "catch_session.hpp"

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>

#include <unistd.h>

#include "test_support.hpp"

int main(int argc, char** argv) {
    clreduce::test::print_seed();
    // The tests never touch the user's caches. Unless CLREDUCE_CACHE_DIR names a folder,
    // programs are compiled in memory only: within one process a saved binary is never read
    // back, and giving one costs PoCL a compile of every kernel of the program, most of a cold
    // run's time. The program cache's own tests make folders of their own (FreshCacheFolder).
    // The tuning file is a private one in a fresh folder.
    if (std::getenv("CLREDUCE_CACHE_DIR") == nullptr) setenv("CLREDUCE_CACHE_DIR", "off", 1);
    const auto own_folder = std::filesystem::temp_directory_path() / ("clreduce-tests-" + std::to_string(::getpid()));
    std::filesystem::create_directories(own_folder);
    setenv("CLREDUCE_TUNING_FILE", (own_folder / "tuning.json").c_str(), 1);
    const int failed = clreduce::test::run_catch_session(argc, argv);
    if (clreduce::test::skipped_cases() > 0)
        std::cout << "clreduce tests: " << clreduce::test::skipped_cases()
                  << " test case(s) SKIPPED (counted as passed above)\n";
    std::error_code ignored;
    std::filesystem::remove_all(own_folder, ignored);
    return failed;
}
