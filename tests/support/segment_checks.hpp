#pragma once
// Checks every operation of a segmented call against the exact CPU references (the segment
// tests of rows, offsets, batches and columns share it).
#include <catch2/catch.hpp>

#include <algorithm>
#include <utility>
#include <vector>

#include "statistics_checks.hpp"
#include "test_ops_support.hpp"

namespace clreduce::test {

using namespace clreduce::testing;

// Each operation of `segments` (from element `offset` of `buffer`, whose host copy is `host`)
// per segment against the references; segment s is host[offset + bounds[s]..).
template <class T>
inline void check_all_operations(const Reducer& r, const cl::Buffer& buffer, const std::vector<T>& host,
                                 std::uint64_t offset, const Segments& segments,
                                 const std::vector<std::pair<std::uint64_t, std::uint64_t>>& bounds,
                                 const LaunchParams& params) {
    CallInfo info;
    const auto sums = r.sum<T>(buffer, offset, segments, params, &info);
    INFO("plan " << info.plan.describe());
    REQUIRE(sums.size() == bounds.size());
    const auto counts = r.count_nonzero<T>(buffer, offset, segments, params);
    const auto squares = r.sum_of_squares<T>(buffer, offset, segments, params);
    const auto l1 = r.norm_l1<T>(buffer, offset, segments, params);
    const auto l2 = r.norm_l2<T>(buffer, offset, segments, params);
    const bool any_empty = std::any_of(bounds.begin(), bounds.end(), [](auto b) { return b.first == b.second; });
    std::vector<T> mins, maxs;
    std::vector<clreduce::MinMax<T>> both;
    std::vector<clreduce::ArgResult<T>> amins, amaxs;
    std::vector<double> means, infs;
    std::vector<Statistics<T>> stats;
    CallInfo stats_info;
    const bool stats_refused = statistics_refused<T>(1, params, segments.kind() == Segments::Kind::columns);
    if (stats_refused || any_empty) {
        CHECK_THROWS_AS(r.statistics<T>(buffer, offset, segments, params), Error);
        if (!stats_refused)
            CHECK_THROWS_WITH(r.statistics<T>(buffer, offset, segments, params), Catch::Contains("which is empty"));
    } else {
        stats = r.statistics<T>(buffer, offset, segments, params, &stats_info);
        REQUIRE(stats.size() == bounds.size());
    }
    if (any_empty) {
        CHECK_THROWS_WITH(r.min<T>(buffer, offset, segments, params), Catch::Contains("which is empty"));
        CHECK_THROWS_WITH(r.argmax<T>(buffer, offset, segments, params), Catch::Contains("which is empty"));
        CHECK_THROWS_WITH(r.mean<T>(buffer, offset, segments, params), Catch::Contains("which is empty"));
    } else {
        mins = r.min<T>(buffer, offset, segments, params);
        maxs = r.max<T>(buffer, offset, segments, params);
        both = r.minmax<T>(buffer, offset, segments, params);
        amins = r.argmin<T>(buffer, offset, segments, params);
        amaxs = r.argmax<T>(buffer, offset, segments, params);
        means = r.mean<T>(buffer, offset, segments, params);
    }
    infs = r.norm_inf<T>(buffer, offset, segments, params);
    for (std::size_t s = 0; s < bounds.size(); ++s) {
        const T* data = host.data() + offset + bounds[s].first;
        const std::uint64_t n = bounds[s].second - bounds[s].first;
        INFO("segment " << s << " [" << bounds[s].first << ", " << bounds[s].second << ")");
        CHECK(counts[s] == reference_count_nonzero(data, n));
        if constexpr (std::is_integral_v<T>) {
            CHECK(sums[s] == wrapped_sum<sum_type_t<T>>(data, n));
            CHECK(squares[s] == wrapped_sum_of_squares<std::uint64_t>(data, n));
            CHECK(l1[s] == double(wrapped_norm_l1<std::uint64_t>(data, n)));
            CHECK(infs[s] == double(integer_norm_inf(data, n)));
            check_approx(reference_norm_l2(data, n, std::ldexp(1.0L, -53)), l2[s], "norm_l2");
        } else {
            const long double u = rounding_unit<T>(info.plan.accumulator);
            check_approx(reference_sum(data, n, u), sums[s], "sum");
            check_approx(reference_sum_of_squares(data, n, u), squares[s], "sum_of_squares");
            check_approx(reference_norm_l1(data, n, u), l1[s], "norm_l1");
            check_approx(reference_norm_l2(data, n, u), l2[s], "norm_l2");
            CHECK(infs[s] == double(float_norm_inf(data, n)));
        }
        if (any_empty) continue;
        if (!stats.empty()) check_statistics(stats[s], data, n, unit_roundoff(stats_info.plan.accumulator));
        const auto lo = reference_min(data, n), hi = reference_max(data, n);
        CHECK(mins[s] == lo.value);
        CHECK(maxs[s] == hi.value);
        CHECK(both[s].min == lo.value);
        CHECK(both[s].max == hi.value);
        CHECK(amins[s].value == lo.value);
        CHECK(amins[s].index == lo.index);
        CHECK(amaxs[s].value == hi.value);
        CHECK(amaxs[s].index == hi.index);
        check_approx(reference_mean(data, n,
                                    std::is_integral_v<T> ? std::ldexp(1.0L, -53)
                                                          : rounding_unit<T>(info.plan.accumulator)),
                     means[s], "mean");
    }
}

inline std::vector<std::pair<std::uint64_t, std::uint64_t>> bounds_of(const std::vector<std::uint64_t>& offsets) {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
    for (std::size_t s = 0; s + 1 < offsets.size(); ++s) out.emplace_back(offsets[s], offsets[s + 1]);
    return out;
}

}  // namespace clreduce::test
