// The docs and the public headers state one contract: statements of the old one (integer sums
// modulo 2^64, transforms typed as sum_type_t and BuildError for non-expressions, misaligned
// result offsets) are gone from every page and header, and the pages state the current rules
// where the code has them (the planner's 2^bits, transform_type_t, an empty device spec
// refused). Host only; reads README.md, docs/*.md and include/clreduce/*.hpp.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "source_dir.hpp"

namespace clreduce::test {
namespace {

std::string read(const std::filesystem::path& path) {
    std::ifstream file(path);
    REQUIRE(file);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

// Every page and public header, by its path under the source tree.
std::vector<std::filesystem::path> contract_files() {
    const std::filesystem::path root = source_dir();
    std::vector<std::filesystem::path> files{root / "README.md"};
    for (const char* folder : {"docs", "include/clreduce"})
        for (const auto& entry : std::filesystem::directory_iterator(root / folder))
            if (entry.path().extension() == ".md" || entry.path().extension() == ".hpp") files.push_back(entry.path());
    return files;
}

// The row of docs/usage.md's operations table that starts with `start`.
std::string table_row(const std::string& page, const std::string& start) {
    const std::size_t at = page.find("\n" + start);
    REQUIRE(at != std::string::npos);
    return page.substr(at + 1, page.find('\n', at + 1) - at - 1);
}

TEST_CASE("docs and headers state one contract: nothing of the old one is left", "[docs]") {
    const std::vector<std::string> old_statements{
        "exact mod 2^64",                               // usage.md's table: sums are exact or Overflow
        "exact below 2^64",                             // norm_l1 is exact whatever its size
        "wrapping modulo 2^64",                         // sum_of_squares: exact or Overflow
        "computed modulo 2^64 in a 64-bit",             // element_type.hpp: integer sums are exact
        "asks for C++'s modulo 2^64 instead",           // numerics.md: 2^bits of the accumulator
        "misaligned or out-of-range `result_offset`",   // it counts results: always aligned
        "fails to compile: `BuildError` with the log",  // non-expressions: InvalidArgument
        "(the element in its OpenCL type",              // x is the element converted to the accumulator
    };
    for (const auto& file : contract_files()) {
        const std::string text = read(file);
        for (const std::string& old : old_statements) {
            INFO(file.string() << " still says: " << old);
            CHECK(text.find(old) == std::string::npos);
        }
    }
}

TEST_CASE("docs/usage.md states the rules the code has", "[docs]") {
    const std::string usage = read(std::filesystem::path(source_dir()) / "docs/usage.md");
    // transform_reduce returns transform_type_t<T> (reducer.hpp), not sum_type_t<T>.
    CHECK_THAT(table_row(usage, "| `transform_reduce("), Catch::Contains("`transform_type_t<T>`"));
    CHECK_THAT(table_row(usage, "| `sum` |"), Catch::Contains("exact, or `Overflow`"));
    CHECK_THAT(table_row(usage, "| `norm_l1` |"), Catch::Contains("exact, then rounded once"));
    // An empty device spec: refused, in the device-selection text and in the error table alike.
    CHECK_THAT(usage, Catch::Contains("An empty spec (`Reducer(\"\")`) and a spec that matches nothing throw"));
    CHECK_THAT(usage, Catch::Contains("| `InvalidArgument` | an empty device spec (`Reducer(\"\")`)"));
    CHECK_THAT(usage, Catch::Contains("- any other non-empty text:"));
    const std::string numerics = read(std::filesystem::path(source_dir()) / "docs/numerics.md");
    CHECK_THAT(numerics, Catch::Contains("modulo 2^bits of the\n   accumulator instead"));
}

}  // namespace
}  // namespace clreduce::test
