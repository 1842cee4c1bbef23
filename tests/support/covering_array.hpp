#pragma once
// Pairwise covering arrays: rows of levels, one level per factor, such that every two levels of
// every two factors meet in some row. The device tests sweep their factors (element type,
// operation, launch shape, size, offset, mapping, segment list) through these instead of full
// products: a fault that needs two factors' levels together is still met, at a fraction of the
// calls and kernel builds.
//
// Greedy, as AETG does it: while a pair is uncovered, make a number of candidate rows, each
// starting from an uncovered pair and giving every other factor (in a random order) the level
// that covers most uncovered pairs with the factors already set; keep the candidate that covers
// most. The rows depend only on the levels and the seed (the random choices use the seed's
// mt19937_64 and `%`, the same on every standard library), so a printed seed repeats a run.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace clreduce::test {

// Row r's level of factor f is rows[r][f], in [0, levels[f]).
using CoveringRows = std::vector<std::vector<std::size_t>>;

// Whether level x of factor a may meet level y of factor b (a < b) in a row: a call that refuses
// that pair (a mapping that takes listed segments only, with a batch) is left out, and the pair
// needs no row.
using AllowedPair = std::function<bool(std::size_t a, std::size_t x, std::size_t b, std::size_t y)>;

namespace covering_detail {

// Which pairs of levels are still uncovered, for every two factors a < b.
class PairTable {
public:
    PairTable(const std::vector<std::size_t>& levels, const AllowedPair& allowed)
        : levels_(levels), index_(levels.size()) {
        std::size_t size = 0;
        for (std::size_t a = 0; a < levels.size(); ++a) {
            index_[a].resize(levels.size());
            for (std::size_t b = a + 1; b < levels.size(); ++b) {
                index_[a][b] = size;
                size += levels[a] * levels[b];
            }
        }
        uncovered_.assign(size, 1);
        left_ = size;
        if (!allowed) return;
        for (std::size_t a = 0; a < levels.size(); ++a)
            for (std::size_t b = a + 1; b < levels.size(); ++b)
                for (std::size_t x = 0; x < levels[a]; ++x)
                    for (std::size_t y = 0; y < levels[b]; ++y)
                        if (!allowed(a, x, b, y)) {
                            uncovered_[slot(a, x, b, y)] = 0;
                            --left_;
                        }
    }
    std::size_t left() const { return left_; }
    bool uncovered(std::size_t a, std::size_t x, std::size_t b, std::size_t y) const {
        return a < b ? uncovered_[slot(a, x, b, y)] != 0 : uncovered_[slot(b, y, a, x)] != 0;
    }
    // Marks every pair of `row` covered; returns how many were not before.
    std::size_t cover(const std::vector<std::size_t>& row) {
        std::size_t newly = 0;
        for (std::size_t a = 0; a < row.size(); ++a)
            for (std::size_t b = a + 1; b < row.size(); ++b) {
                char& cell = uncovered_[slot(a, row[a], b, row[b])];
                newly += cell;
                cell = 0;
            }
        left_ -= newly;
        return newly;
    }
    // How many pairs `row` would cover that are uncovered.
    std::size_t gain(const std::vector<std::size_t>& row) const {
        std::size_t n = 0;
        for (std::size_t a = 0; a < row.size(); ++a)
            for (std::size_t b = a + 1; b < row.size(); ++b) n += uncovered_[slot(a, row[a], b, row[b])];
        return n;
    }
    // The k-th uncovered pair (k < left()), as factor a < b and their levels.
    void nth_uncovered(std::size_t k, std::size_t& a, std::size_t& x, std::size_t& b, std::size_t& y) const {
        for (a = 0; a < levels_.size(); ++a)
            for (b = a + 1; b < levels_.size(); ++b)
                for (x = 0; x < levels_[a]; ++x)
                    for (y = 0; y < levels_[b]; ++y)
                        if (uncovered_[slot(a, x, b, y)] != 0 && k-- == 0) return;
        throw std::logic_error("covering array: no uncovered pair left");
    }

private:
    std::size_t slot(std::size_t a, std::size_t x, std::size_t b, std::size_t y) const {
        return index_[a][b] + x * levels_[b] + y;
    }
    std::vector<std::size_t> levels_;
    std::vector<std::vector<std::size_t>> index_;
    std::vector<char> uncovered_;
    std::size_t left_ = 0;
};

}  // namespace covering_detail

// Whether `row`'s levels may all meet.
inline bool allowed_row(const std::vector<std::size_t>& row, const AllowedPair& allowed) {
    if (!allowed) return true;
    for (std::size_t a = 0; a < row.size(); ++a)
        for (std::size_t b = a + 1; b < row.size(); ++b)
            if (!allowed(a, row[a], b, row[b])) return false;
    return true;
}

// T's position in the tuple type Types: a test case's type list, where a covering array takes
// the element type as a factor and each type's case runs its own rows.
template <class T, class Types, std::size_t I = 0>
constexpr std::size_t index_in() {
    if constexpr (std::is_same_v<T, std::tuple_element_t<I, Types>>)
        return I;
    else
        return index_in<T, Types, I + 1>();
}

namespace covering_detail {

// One greedy construction: each row the best of kCandidates random completions of an
// uncovered pair.
inline CoveringRows greedy_rows(const std::vector<std::size_t>& levels, std::uint64_t seed,
                                const AllowedPair& allowed) {
    constexpr int kCandidates = 24;
    std::mt19937_64 rng(seed);
    covering_detail::PairTable table(levels, allowed);
    CoveringRows rows;
    const std::size_t k = levels.size();
    std::vector<std::size_t> order(k), row(k), best(k);
    std::vector<char> set(k);
    while (table.left() > 0) {
        std::size_t best_gain = 0;
        for (int c = 0; c < kCandidates; ++c) {
            bool complete = true;
            std::size_t a, x, b, y;
            table.nth_uncovered(static_cast<std::size_t>(rng() % table.left()), a, x, b, y);
            std::fill(set.begin(), set.end(), 0);
            row[a] = x;
            row[b] = y;
            set[a] = set[b] = 1;
            for (std::size_t f = 0; f < k; ++f) order[f] = f;
            for (std::size_t f = k; f > 1; --f) std::swap(order[f - 1], order[rng() % f]);  // Fisher-Yates
            for (std::size_t f : order) {
                if (set[f]) continue;
                const std::size_t start = static_cast<std::size_t>(rng() % levels[f]);
                std::size_t chosen = levels[f], most = 0;
                for (std::size_t i = 0; i < levels[f]; ++i) {
                    const std::size_t level = (start + i) % levels[f];
                    std::size_t n = 0;
                    bool fits = true;
                    for (std::size_t g = 0; g < k && fits; ++g) {
                        if (!set[g]) continue;
                        fits = !allowed || (f < g ? allowed(f, level, g, row[g]) : allowed(g, row[g], f, level));
                        if (fits && table.uncovered(f, level, g, row[g])) ++n;
                    }
                    if (fits && (chosen == levels[f] || n > most)) {
                        most = n;
                        chosen = level;
                    }
                }
                if (chosen == levels[f]) {
                    complete = false;
                    break;
                }
                row[f] = chosen;
                set[f] = 1;
            }
            if (!complete) continue;
            const std::size_t gain = table.gain(row);
            if (gain > best_gain) {
                best_gain = gain;
                best = row;
            }
        }
        if (best_gain == 0) throw std::invalid_argument("covering array: no allowed row covers the pairs left");
        table.cover(best);
        rows.push_back(best);
    }
    return rows;
}

}  // namespace covering_detail

// Rows covering every allowed pair of levels of every two factors, each row allowed; factor f
// has levels[f] levels (at least 1). One factor: a row per level; no factor: one empty row.
// The smallest of four greedy constructions from seeds derived from `seed` (one alone passes
// 12 rows for 3^4, whose optimum is 9, for about one seed in 120). Throws where the greedy
// choice cannot complete a row under `allowed` (a constraint between three factors), rather
// than leave a pair out.
inline CoveringRows pairwise_rows(const std::vector<std::size_t>& levels, std::uint64_t seed,
                                  const AllowedPair& allowed = {}) {
    for (std::size_t f = 0; f < levels.size(); ++f)
        if (levels[f] == 0)
            throw std::invalid_argument("covering array: factor " + std::to_string(f) + " has no level");
    if (levels.size() <= 1) {
        CoveringRows rows;
        for (std::size_t x = 0; x < (levels.empty() ? 1 : levels[0]); ++x)
            rows.push_back(levels.empty() ? std::vector<std::size_t>{} : std::vector<std::size_t>{x});
        return rows;
    }
    constexpr int kAttempts = 4;
    CoveringRows smallest;
    for (int attempt = 0; attempt < kAttempts; ++attempt) {
        CoveringRows rows =
            covering_detail::greedy_rows(levels, seed + 0x9e3779b97f4a7c15ull * std::uint64_t(attempt), allowed);
        if (attempt == 0 || rows.size() < smallest.size()) smallest = std::move(rows);
    }
    return smallest;
}

// Every allowed combination of levels (the full product, in order: the last factor fastest),
// for the long sweeps.
inline CoveringRows all_rows(const std::vector<std::size_t>& levels, const AllowedPair& allowed = {}) {
    CoveringRows rows;
    std::vector<std::size_t> row(levels.size(), 0);
    for (std::size_t f = 0; f < levels.size(); ++f)
        if (levels[f] == 0) return rows;
    while (true) {
        if (allowed_row(row, allowed)) rows.push_back(row);
        std::size_t f = levels.size();
        while (f > 0 && ++row[f - 1] == levels[f - 1]) row[--f] = 0;
        if (f == 0) return rows;
    }
}

// The first allowed pair of levels no row holds ("factor a level x with factor b level y"), or ""
// when every one is covered; a row of the wrong length, a level out of range or a row holding a
// pair that is not allowed is named too.
inline std::string missing_pair(const std::vector<std::size_t>& levels, const CoveringRows& rows,
                                const AllowedPair& allowed = {}) {
    for (std::size_t r = 0; r < rows.size(); ++r) {
        if (rows[r].size() != levels.size()) return "row " + std::to_string(r) + " has the wrong number of factors";
        for (std::size_t f = 0; f < levels.size(); ++f)
            if (rows[r][f] >= levels[f])
                return "row " + std::to_string(r) + ": factor " + std::to_string(f) + " out of range";
        if (!allowed_row(rows[r], allowed)) return "row " + std::to_string(r) + " holds a pair not allowed";
    }
    if (levels.size() == 1) {
        for (std::size_t x = 0; x < levels[0]; ++x) {
            bool found = false;
            for (const auto& row : rows) found = found || row[0] == x;
            if (!found) return "factor 0 level " + std::to_string(x);
        }
        return "";
    }
    covering_detail::PairTable table(levels, allowed);
    for (const auto& row : rows) table.cover(row);
    if (table.left() == 0) return "";
    std::size_t a, x, b, y;
    table.nth_uncovered(0, a, x, b, y);
    return "factor " + std::to_string(a) + " level " + std::to_string(x) + " with factor " + std::to_string(b) +
           " level " + std::to_string(y);
}

}  // namespace clreduce::test
