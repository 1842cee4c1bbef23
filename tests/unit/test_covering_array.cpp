// The pairwise covering arrays the device tests sweep their factors with
// (tests/support/covering_array.hpp): every pair of levels covered for random factor sizes, the
// same rows from the same seed, few rows, and the check itself failing where a pair is missing.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include "covering_array.hpp"
#include "test_support.hpp"

namespace clreduce::test {
namespace {

std::uint64_t product(const std::vector<std::size_t>& levels) {
    std::uint64_t n = 1;
    for (std::size_t l : levels) n *= l;
    return n;
}

}  // namespace

TEST_CASE("covering arrays cover every pair of levels for random factor sizes", "[covering-array]") {
    std::mt19937_64 rng(seed_for(0xc0fe));
    for (int trial = 0; trial < 300; ++trial) {
        std::vector<std::size_t> levels(1 + rng() % 8);
        for (auto& l : levels) l = 1 + rng() % 12;
        const std::uint64_t seed = rng();
        INFO("trial " << trial << ", covering array seed " << seed << ", " << levels.size() << " factors");
        const CoveringRows rows = pairwise_rows(levels, seed);
        CHECK(missing_pair(levels, rows).empty());
        CHECK(rows.size() <= product(levels));
        CHECK(pairwise_rows(levels, seed) == rows);  // the seed repeats the rows
        // Each level of each factor appears (also for a lone factor).
        for (std::size_t f = 0; f < levels.size(); ++f) {
            std::vector<char> seen(levels[f]);
            for (const auto& row : rows) seen[row[f]] = 1;
            CHECK(std::count(seen.begin(), seen.end(), 1) == static_cast<long>(levels[f]));
        }
        // The greedy rows each covered a new pair: without the last one a pair is missing.
        if (levels.size() >= 2 && rows.size() > 1) {
            CoveringRows fewer(rows.begin(), rows.end() - 1);
            CHECK_FALSE(missing_pair(levels, fewer).empty());
        }
    }
}

TEST_CASE("covering arrays leave out the pairs a call refuses and cover every other", "[covering-array]") {
    // Factors as the segment tests have them: type, mapping, segment list, operation; the last
    // two mappings take only the first two lists, the two before them the first three.
    const std::vector<std::size_t> levels{5, 12, 5, 13};
    const AllowedPair allowed = [](std::size_t a, std::size_t x, std::size_t b, std::size_t y) {
        if (a != 1 || b != 2) return true;
        return x >= 10 ? y <= 1 : x >= 8 ? y <= 2 : true;
    };
    const std::uint64_t seed = seed_for(0xa11);
    INFO("covering array seed " << seed);
    const CoveringRows rows = pairwise_rows(levels, seed, allowed);
    CHECK(missing_pair(levels, rows, allowed).empty());
    for (const auto& row : rows) CHECK(allowed_row(row, allowed));
    // Checked without the rule, the refused pairs are missing; a refused pair in a row is named.
    CHECK(missing_pair(levels, rows).find("with factor 2") != std::string::npos);
    CoveringRows bad = rows;
    bad.push_back({0, 11, 4, 0});
    CHECK(missing_pair(levels, bad, allowed) == "row " + std::to_string(rows.size()) + " holds a pair not allowed");
    // Level 1 of factor 0 may meet factor 1 but no level of factor 2: no row can hold it, so
    // its pairs with factor 1 cannot be covered; refused, not left out.
    const AllowedPair stuck = [](std::size_t a, std::size_t x, std::size_t b, std::size_t) {
        return !(a == 0 && b == 2 && x == 1);
    };
    CHECK_THROWS_AS(pairwise_rows({2, 2, 2}, 1, stuck), std::invalid_argument);
}

TEST_CASE("covering arrays are small: near the largest pair of factors' product", "[covering-array]") {
    // 3^4 has an optimum of 9 rows; ten 2-level factors need 6 at least.
    CHECK(pairwise_rows({3, 3, 3, 3}, seed()).size() <= 12);
    CHECK(pairwise_rows({2, 2, 2, 2, 2, 2, 2, 2, 2, 2}, seed()).size() <= 10);
    // At least the two largest factors' product, and not far above it.
    const std::vector<std::size_t> levels{12, 5, 2, 3, 3, 5, 3};
    const std::size_t n = pairwise_rows(levels, seed()).size();
    CHECK(n >= 60);
    CHECK(n <= 75);
    CHECK(pairwise_rows({7}, 1).size() == 7);
    CHECK(pairwise_rows({}, 1) == CoveringRows{{}});
    CHECK_THROWS_AS(pairwise_rows({3, 0, 2}, 1), std::invalid_argument);
}

TEST_CASE("the full product: every allowed combination once", "[covering-array]") {
    const CoveringRows rows = all_rows({2, 3, 2});
    REQUIRE(rows.size() == 12);
    CHECK(rows.front() == std::vector<std::size_t>{0, 0, 0});
    CHECK(rows[1] == std::vector<std::size_t>{0, 0, 1});
    CHECK(rows.back() == std::vector<std::size_t>{1, 2, 1});
    CHECK(std::set<std::vector<std::size_t>>(rows.begin(), rows.end()).size() == 12);
    CHECK(missing_pair({2, 3, 2}, rows).empty());
    const AllowedPair no_last = [](std::size_t a, std::size_t x, std::size_t b, std::size_t y) {
        return !(a == 0 && b == 2 && x == 1 && y == 1);
    };
    CHECK(all_rows({2, 3, 2}, no_last).size() == 9);
    CHECK(all_rows({}) == CoveringRows{{}});
    CHECK(all_rows({3, 0}).empty());
}

TEST_CASE("the pair check names a missing pair and bad rows", "[covering-array]") {
    const std::vector<std::size_t> levels{2, 2};
    const CoveringRows full{{0, 0}, {0, 1}, {1, 0}, {1, 1}};
    CHECK(missing_pair(levels, full).empty());
    CHECK(missing_pair(levels, {{0, 0}, {0, 1}, {1, 1}}) == "factor 0 level 1 with factor 1 level 0");
    CHECK(missing_pair(levels, {{0, 0}, {0, 1}, {1, 0}, {1, 2}}) == "row 3: factor 1 out of range");
    CHECK(missing_pair(levels, {{0, 0, 0}}) == "row 0 has the wrong number of factors");
    CHECK(missing_pair({3}, {{0}, {2}}) == "factor 0 level 1");
    // Three factors: one pair of the last two left out of an otherwise full product.
    const std::vector<std::size_t> three{2, 3, 2};
    CoveringRows rows;
    for (std::size_t a = 0; a < 2; ++a)
        for (std::size_t b = 0; b < 3; ++b)
            for (std::size_t c = 0; c < 2; ++c)
                if (!(b == 2 && c == 1)) rows.push_back({a, b, c});
    CHECK(missing_pair(three, rows) == "factor 1 level 2 with factor 2 level 1");
}

}  // namespace clreduce::test
