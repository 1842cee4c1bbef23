// The fuzz targets' checks (fuzz/fuzz_checks.hpp) on their seed corpora (fuzz/corpus/<target>/)
// and on every input that once broke one (fuzz/regressions/<target>/, named after what it
// broke), so that a fixed fault stays fixed without a fuzzer. Host only.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_checks.hpp"
#include "source_dir.hpp"

namespace clreduce::test {
namespace {

namespace fs = std::filesystem;

std::string read_bytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

// Runs `check` on every file of fuzz/corpus/<target>/ and fuzz/regressions/<target>/;
// returns how many there were.
std::size_t replay(const std::string& target, const std::function<void(std::string_view)>& check) {
    std::size_t files = 0;
    for (const char* folder : {"corpus", "regressions"}) {
        const fs::path dir = fs::path(clreduce::test::source_dir()) / "fuzz" / folder / target;
        if (!fs::is_directory(dir)) continue;
        for (const auto& entry : fs::directory_iterator(dir)) {
            if (!entry.is_regular_file()) continue;
            INFO(entry.path().string());
            const std::string bytes = read_bytes(entry.path());
            CHECK_NOTHROW(check(bytes));
            ++files;
        }
    }
    return files;
}

}  // namespace

TEST_CASE("fuzz inputs: transform expressions", "[fuzz]") {
    CHECK(replay("transform_expression", fuzz::check_transform_expression) >= 5);
}

TEST_CASE("fuzz inputs: tuning database files", "[fuzz]") {
    CHECK(replay("tuning_database", fuzz::check_tuning_database) >= 5);
}

TEST_CASE("fuzz inputs: program binary cache files", "[fuzz]") {
    CHECK(replay("program_file", fuzz::check_program_file) >= 5);
}

TEST_CASE("fuzz inputs: device specs", "[fuzz]") { CHECK(replay("device_spec", fuzz::check_device_spec) >= 5); }

TEST_CASE("fuzz inputs: partial byte strings", "[fuzz]") {
    CHECK(replay("partial_bytes", fuzz::check_partial_bytes) >= 5);
}

}  // namespace clreduce::test
