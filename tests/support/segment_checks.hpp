#pragma once
// Checks every operation of a segmented call against the exact CPU references (the segment
// tests of rows, offsets, batches and columns share it).
#include <catch2/catch.hpp>

#include <algorithm>
#include <tuple>
#include <utility>
#include <vector>

#include "statistics_checks.hpp"
#include "test_ops_support.hpp"

namespace clreduce::test {

using namespace clreduce::testing;

// The element types of the segment and column sweeps, in their test cases' order.
using SegmentSweepTypes = std::tuple<std::int32_t, float, std::uint8_t, std::int64_t, double>;

// The operations the segment sweeps check: the checked operations but the product (its data
// must stay in range: "transform_reduce and product per segment" in test_segments.cpp).
inline std::vector<Operation> segment_operations() {
    std::vector<Operation> out;
    for (Operation op : checked_operations())
        if (op != Operation::product) out.push_back(op);
    return out;
}

// One operation of `segments` (from element `offset` of `buffer`, whose host copy is `host`) per
// segment against the references; segment s is host[offset + bounds[s]..). Where a segment is
// empty, the operations without a result for it are refused naming it.
template <class T>
inline void check_segment_operation(const Reducer& r, const cl::Buffer& buffer, const std::vector<T>& host,
                                    std::uint64_t offset, const Segments& segments,
                                    const std::vector<std::pair<std::uint64_t, std::uint64_t>>& bounds,
                                    const LaunchParams& params, Operation op) {
    INFO("operation " << operation_name(op));
    CallInfo info;
    const bool any_empty = std::any_of(bounds.begin(), bounds.end(), [](auto b) { return b.first == b.second; });
    const auto each = [&](const auto& results, const auto& check) {
        INFO("plan " << info.plan.describe());
        REQUIRE(results.size() == bounds.size());
        for (std::size_t s = 0; s < bounds.size(); ++s) {
            const T* data = host.data() + offset + bounds[s].first;
            const std::uint64_t n = bounds[s].second - bounds[s].first;
            INFO("segment " << s << " [" << bounds[s].first << ", " << bounds[s].second << ")");
            check(results[s], data, n);
        }
    };
    const long double u_int = std::ldexp(1.0L, -53);
    switch (op) {
        case Operation::sum:
            return each(r.sum<T>(buffer, offset, segments, params, &info),
                        [&](auto got, const T* data, std::uint64_t n) {
                if constexpr (std::is_integral_v<T>)
                    CHECK(got == wrapped_sum<sum_type_t<T>>(data, n));
                else
                    check_approx(reference_sum(data, n, rounding_unit<T>(info.plan.accumulator)), got, "sum");
            });
        case Operation::count_nonzero:
            return each(r.count_nonzero<T>(buffer, offset, segments, params, &info),
                        [&](auto got, const T* data, std::uint64_t n) {
                CHECK(got == reference_count_nonzero(data, n));
            });
        case Operation::sum_of_squares:
            return each(r.sum_of_squares<T>(buffer, offset, segments, params, &info),
                        [&](auto got, const T* data, std::uint64_t n) {
                if constexpr (std::is_integral_v<T>)
                    CHECK(got == wrapped_sum_of_squares<std::uint64_t>(data, n));
                else
                    check_approx(reference_sum_of_squares(data, n, rounding_unit<T>(info.plan.accumulator)), got,
                                 "sum_of_squares");
            });
        case Operation::norm_l1:
            return each(r.norm_l1<T>(buffer, offset, segments, params, &info),
                        [&](double got, const T* data, std::uint64_t n) {
                if constexpr (std::is_integral_v<T>)
                    CHECK(got == double(wrapped_norm_l1<std::uint64_t>(data, n)));
                else
                    check_approx(reference_norm_l1(data, n, rounding_unit<T>(info.plan.accumulator)), got, "norm_l1");
            });
        case Operation::norm_l2:
            return each(r.norm_l2<T>(buffer, offset, segments, params, &info),
                        [&](double got, const T* data, std::uint64_t n) {
                const long double u = std::is_integral_v<T> ? u_int : rounding_unit<T>(info.plan.accumulator);
                check_approx(reference_norm_l2(data, n, u), got, "norm_l2");
            });
        case Operation::norm_inf:
            return each(r.norm_inf<T>(buffer, offset, segments, params, &info),
                        [&](double got, const T* data, std::uint64_t n) {
                if constexpr (std::is_integral_v<T>)
                    CHECK(got == double(integer_norm_inf(data, n)));
                else
                    CHECK(got == double(float_norm_inf(data, n)));
            });
        case Operation::statistics: {
            const bool refused = statistics_refused<T>(1, params, segments.kind() == Segments::Kind::columns);
            if (refused || any_empty) {
                CHECK_THROWS_AS(r.statistics<T>(buffer, offset, segments, params), Error);
                if (!refused)
                    CHECK_THROWS_WITH(r.statistics<T>(buffer, offset, segments, params),
                                      Catch::Contains("which is empty"));
                return;
            }
            return each(r.statistics<T>(buffer, offset, segments, params, &info),
                        [&](const clreduce::Statistics<T>& got, const T* data, std::uint64_t n) {
                check_statistics(got, data, n, unit_roundoff(info.plan.accumulator));
            });
        }
        default: break;
    }
    // The operations without a result for an empty segment.
    if (any_empty) {
        switch (op) {
            case Operation::min:
                CHECK_THROWS_WITH(r.min<T>(buffer, offset, segments, params), Catch::Contains("which is empty"));
                return;
            case Operation::max:
                CHECK_THROWS_WITH(r.max<T>(buffer, offset, segments, params), Catch::Contains("which is empty"));
                return;
            case Operation::minmax:
                CHECK_THROWS_WITH(r.minmax<T>(buffer, offset, segments, params), Catch::Contains("which is empty"));
                return;
            case Operation::argmin:
                CHECK_THROWS_WITH(r.argmin<T>(buffer, offset, segments, params), Catch::Contains("which is empty"));
                return;
            case Operation::argmax:
                CHECK_THROWS_WITH(r.argmax<T>(buffer, offset, segments, params), Catch::Contains("which is empty"));
                return;
            case Operation::argminmax:
                CHECK_THROWS_WITH(r.argminmax<T>(buffer, offset, segments, params), Catch::Contains("which is empty"));
                return;
            case Operation::mean:
                CHECK_THROWS_WITH(r.mean<T>(buffer, offset, segments, params), Catch::Contains("which is empty"));
                return;
            default: FAIL("no check for operation " << operation_name(op)); return;
        }
    }
    switch (op) {
        case Operation::min:
            return each(r.min<T>(buffer, offset, segments, params, &info),
                        [&](T got, const T* data, std::uint64_t n) { CHECK(got == reference_min(data, n).value); });
        case Operation::max:
            return each(r.max<T>(buffer, offset, segments, params, &info),
                        [&](T got, const T* data, std::uint64_t n) { CHECK(got == reference_max(data, n).value); });
        case Operation::minmax:
            return each(r.minmax<T>(buffer, offset, segments, params, &info),
                        [&](const clreduce::MinMax<T>& got, const T* data, std::uint64_t n) {
                CHECK(got.min == reference_min(data, n).value);
                CHECK(got.max == reference_max(data, n).value);
            });
        case Operation::argmin:
        case Operation::argmax: {
            const bool is_min = op == Operation::argmin;
            return each(is_min ? r.argmin<T>(buffer, offset, segments, params, &info)
                               : r.argmax<T>(buffer, offset, segments, params, &info),
                        [&](const clreduce::ArgResult<T>& got, const T* data, std::uint64_t n) {
                const auto want = is_min ? reference_min(data, n) : reference_max(data, n);
                CHECK(got.value == want.value);
                CHECK(got.index == want.index);
            });
        }
        case Operation::argminmax:
            return each(r.argminmax<T>(buffer, offset, segments, params, &info),
                        [&](const clreduce::ArgMinMax<T>& got, const T* data, std::uint64_t n) {
                const auto lo = reference_min(data, n), hi = reference_max(data, n);
                CHECK(got.min.value == lo.value);
                CHECK(got.min.index == lo.index);
                CHECK(got.max.value == hi.value);
                CHECK(got.max.index == hi.index);
            });
        case Operation::mean:
            return each(r.mean<T>(buffer, offset, segments, params, &info),
                        [&](double got, const T* data, std::uint64_t n) {
                const long double u = std::is_integral_v<T> ? u_int : rounding_unit<T>(info.plan.accumulator);
                check_approx(reference_mean(data, n, u), got, "mean");
            });
        default: FAIL("no check for operation " << operation_name(op));
    }
}

// Every segment operation of `segments` per segment against the references.
template <class T>
inline void check_all_operations(const Reducer& r, const cl::Buffer& buffer, const std::vector<T>& host,
                                 std::uint64_t offset, const Segments& segments,
                                 const std::vector<std::pair<std::uint64_t, std::uint64_t>>& bounds,
                                 const LaunchParams& params) {
    for (Operation op : segment_operations())
        check_segment_operation(r, buffer, host, offset, segments, bounds, params, op);
}

inline std::vector<std::pair<std::uint64_t, std::uint64_t>> bounds_of(const std::vector<std::uint64_t>& offsets) {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
    for (std::size_t s = 0; s + 1 < offsets.size(); ++s) out.emplace_back(offsets[s], offsets[s + 1]);
    return out;
}

}  // namespace clreduce::test
