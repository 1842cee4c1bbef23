#pragma once
// Checks of Reducer::statistics against the CPU reference (reference/statistics_reference.hpp),
// shared by the single-range, segment and statistics tests.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <type_traits>

#include <clreduce/clreduce.hpp>
#include <reference/statistics_reference.hpp>

namespace clreduce::test {

// Whether statistics() refuses these data or parameters (docs/usage.md's error table): 64-bit
// integers, an empty range, an integer accumulator, an atomic level 3 or a correctly rounded
// mode, which its state does not have; in column reductions, more than one column per
// work-item (its 48-byte states are read one column at a time).
template <class T>
bool statistics_refused(std::uint64_t n, const LaunchParams& params, bool columns = false) {
    if (columns && params.vector_width.value_or(1) > 1) return true;
    if constexpr (std::is_integral_v<T>)
        if (sizeof(T) == 8) return true;
    if (n == 0) return true;
    if (params.accumulator && !is_floating(*params.accumulator)) return true;
    if (params.inter_group == InterGroup::atomic || params.inter_group == InterGroup::exact_atomic) return true;
    return params.float_mode == FloatMode::correctly_rounded;
}

// One result against the reference of data[0, n), accumulated with unit roundoff u.
template <class T>
void check_statistics(const Statistics<T>& got, const T* data, std::uint64_t n, long double u) {
    using namespace clreduce::testing;
    const StatisticsReference ref = reference_statistics(data, n, u);
    CHECK(got.count == ref.count);
    const long double lo = value_of(got.min), hi = value_of(got.max);
    if (std::isnan(ref.min)) {
        CHECK(std::isnan(lo));
        CHECK(std::isnan(hi));
    } else {
        CHECK(lo == ref.min);
        CHECK(hi == ref.max);
    }
    if (!ref.finite) {
        CHECK_FALSE(std::isfinite(got.mean + got.variance));
        return;
    }
    INFO("mean " << got.mean << ": " << ref.mean.mismatch(got.mean));
    CHECK(ref.mean.accepts(got.mean));
    INFO("variance " << got.variance << ": " << ref.variance.mismatch(got.variance));
    CHECK(ref.variance.accepts(got.variance));
    CHECK(got.variance >= 0);
    // sum = count * mean, within the mean's tolerance times count
    CHECK(std::fabs(got.sum - static_cast<double>(ref.mean.value * n)) <= (ref.mean.tolerance + 1e-300L) * n * 2);
}

// statistics() over elements [offset, offset + n) of `host` (copied to `buffer`): the reference
// values, or the refusal its parameters call for.
template <class T>
void check_statistics_call(const Reducer& r, const cl::Buffer& buffer, const std::vector<T>& host, std::uint64_t offset,
                           std::uint64_t n, const LaunchParams& params) {
    if (statistics_refused<T>(n, params)) {
        CHECK_THROWS_AS(r.statistics<T>(buffer, offset, n, params), Error);
        return;
    }
    CallInfo info;
    const Statistics<T> got = r.statistics<T>(buffer, offset, n, params, &info);
    INFO("statistics " << info.plan.describe());
    check_statistics(got, host.data() + offset, n, testing::unit_roundoff(info.plan.accumulator));
}

}  // namespace clreduce::test
