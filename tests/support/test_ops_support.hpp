#pragma once
// The operation tests' data and checks: every operation of one data set against the exact
// CPU references (tests/support/op_reference.hpp) and OpenCV where it has the case.
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <catch2/catch.hpp>

#include <reference/op_reference.hpp>
#include <reference/opencv_reference.hpp>

#include "statistics_checks.hpp"
#include "test_support.hpp"

namespace clreduce::test {

// Seeded values: integers over their whole range (8/16-bit) or |x| < 2^20 (32/64-bit, so
// that cv::sum's double sums are exact), floats uniform in [-1000, 1000); about 1 in 8 is 0.
template <class T>
std::vector<T> op_values(std::uint64_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<T> out(n);
    for (auto& v : out) {
        if (rng() % 8 == 0) {
            v = T(0);
        } else if constexpr (std::is_integral_v<T>) {
            using W = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;
            const bool small = sizeof(T) <= 2;
            const W lo = small ? W(std::numeric_limits<T>::min()) : std::is_signed_v<T> ? W(-(1 << 20)) : W(0);
            const W hi = small ? W(std::numeric_limits<T>::max()) : W((1 << 20) - 1);
            v = static_cast<T>(std::uniform_int_distribution<W>(lo, hi)(rng));
        } else {
            v = std::uniform_real_distribution<T>(T(-1000), T(1000))(rng);
        }
    }
    return out;
}

// Values of both signs over `binades` binades around 1 (centred), so that a different order of
// additions shows in a float sum's last bits.
template <class T>
std::vector<T> wide_values(std::uint64_t n, std::uint64_t seed, int binades) {
    std::mt19937_64 rng(seed);
    std::vector<T> v(n);
    for (auto& x : v) {
        const double m = std::ldexp(double(rng() >> 11), -53) - 0.5;
        x = static_cast<T>(static_cast<float>(std::ldexp(m, int(rng() % binades) - binades / 2)));
    }
    return v;
}

// Values whose product stays in range and is not trivially 0: integers 1..3 and -1,
// floats in [0.5, 2).
template <class T>
std::vector<T> product_values(std::uint64_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<T> out(n);
    for (auto& v : out) {
        if constexpr (std::is_integral_v<T>) {
            const int k = static_cast<int>(rng() % 4);
            v = static_cast<T>(k == 3 ? (std::is_signed_v<T> ? -1 : 1) : k + 1);
        } else {
            v = std::uniform_real_distribution<T>(T(0.5), T(2))(rng);
        }
    }
    return out;
}

template <class T>
long double rounding_unit(ElementType accumulator) {
    return is_floating(accumulator) ? testing::unit_roundoff(accumulator) : 0.0L;
}

// A float result against an Approx reference, with the reference's explanation on failure.
inline void check_approx(const testing::Approx& expected, long double got, const std::string& what) {
    INFO(what << ": got " << double(got) << ", " << expected.mismatch(got));
    CHECK(expected.accepts(got));
}

// Every operation over elements [offset, offset + n) of `host` (copied to `buffer`).
template <class T>
void check_operations(const Reducer& r, const cl::Buffer& buffer, const std::vector<T>& host, std::uint64_t offset,
                      std::uint64_t n, const LaunchParams& params, const std::string& label) {
    using namespace clreduce::testing;
    const T* data = host.data() + offset;
    const ImageShape shape = row_of(n);
    CallInfo info;
    INFO(label << " n=" << n << " offset=" << offset);

    // sum, mean
    {
        const auto got = r.sum<T>(buffer, offset, n, params, &info);
        INFO("sum " << info.plan.describe());
        if constexpr (std::is_integral_v<T>) {
            CHECK(got == wrapped_sum<sum_type_t<T>>(data, n));
        } else {
            check_approx(reference_sum(data, n, rounding_unit<T>(info.plan.accumulator)), got, "sum");
        }
        if (auto cv = cv_sum(data, shape)) {
            if constexpr (std::is_integral_v<T>)
                CHECK(double(got) == (*cv)[0]);
            else
                CHECK(std::fabs(double(got) - (*cv)[0]) <=
                      1e-5 * double(exact_abs_sum_of_values(data, n).to_long_double()) + 1e-12);
        }
        if (n > 0) {
            const double mean = r.mean<T>(buffer, offset, n, params, &info);
            check_approx(reference_mean(data, n,
                                        std::is_integral_v<T> ? std::ldexp(1.0L, -53)
                                                              : rounding_unit<T>(info.plan.accumulator)),
                         mean, "mean");
            if (auto cv = cv_mean(data, shape)) CHECK(std::fabs(mean - (*cv)[0]) <= 1e-5 * (1 + std::fabs((*cv)[0])));
        } else {
            CHECK_THROWS_AS(r.mean<T>(buffer, offset, n, params), InvalidArgument);
        }
    }
    // count_nonzero
    {
        const std::uint64_t got = r.count_nonzero<T>(buffer, offset, n, params, &info);
        CHECK(got == reference_count_nonzero(data, n));
        if (auto cv = cv_count_nonzero(data, shape)) CHECK(got == *cv);
    }
    // min, max, minmax, argmin, argmax
    if (n > 0) {
        const auto lo = reference_min(data, n), hi = reference_max(data, n);
        const T mn = r.min<T>(buffer, offset, n, params, &info);
        const T mx = r.max<T>(buffer, offset, n, params, &info);
        CHECK(mn == lo.value);
        CHECK(mx == hi.value);
        const clreduce::MinMax<T> both = r.minmax<T>(buffer, offset, n, params, &info);
        CHECK(both.min == lo.value);
        CHECK(both.max == hi.value);
        const clreduce::ArgResult<T> amin = r.argmin<T>(buffer, offset, n, params, &info);
        const clreduce::ArgResult<T> amax = r.argmax<T>(buffer, offset, n, params, &info);
        INFO("argmin " << amin.index << " (expected " << lo.index << "), argmax " << amax.index << " (expected "
                       << hi.index << ")");
        CHECK(amin.value == lo.value);
        CHECK(amin.index == lo.index);
        CHECK(amax.value == hi.value);
        CHECK(amax.index == hi.index);
        if (auto cv = cv_min_max_loc(data, shape)) {
            CHECK(double(mn) == cv->min);
            CHECK(double(mx) == cv->max);
            CHECK(amin.index == cv->min_index);
            CHECK(amax.index == cv->max_index);
        }
    } else {
        CHECK_THROWS_AS(r.min<T>(buffer, offset, n, params), InvalidArgument);
        CHECK_THROWS_AS(r.argmax<T>(buffer, offset, n, params), InvalidArgument);
    }
    // sum_of_squares, norms
    {
        const auto squares = r.sum_of_squares<T>(buffer, offset, n, params, &info);
        const double l1 = r.norm_l1<T>(buffer, offset, n, params, &info);
        const double l2 = r.norm_l2<T>(buffer, offset, n, params, &info);
        const double inf = r.norm_inf<T>(buffer, offset, n, params, &info);
        if constexpr (std::is_integral_v<T>) {
            CHECK(squares == wrapped_sum_of_squares<std::uint64_t>(data, n));
            CHECK(l1 == double(wrapped_norm_l1<std::uint64_t>(data, n)));
            CHECK(inf == double(integer_norm_inf(data, n)));
            check_approx(reference_norm_l2(data, n, std::ldexp(1.0L, -53)), l2, "norm_l2");
        } else {
            const long double u = rounding_unit<T>(info.plan.accumulator);
            check_approx(reference_sum_of_squares(data, n, u), squares, "sum_of_squares");
            check_approx(reference_norm_l1(data, n, u), l1, "norm_l1");
            check_approx(reference_norm_l2(data, n, u), l2, "norm_l2");
            CHECK(inf == double(float_norm_inf(data, n)));
        }
        const double rel = 1e-6;
        if (auto cv = cv_norm(data, shape, CvNorm::l1)) CHECK(std::fabs(l1 - *cv) <= rel * (1 + *cv));
        if (auto cv = cv_norm(data, shape, CvNorm::l2)) CHECK(std::fabs(l2 - *cv) <= rel * (1 + *cv));
        if (auto cv = cv_norm(data, shape, CvNorm::inf)) CHECK(inf == *cv);
    }
    check_statistics_call(r, buffer, host, offset, n, params);
}

template <class T>
void check_product(const Reducer& r, const cl::Buffer& buffer, const std::vector<T>& host, std::uint64_t offset,
                   std::uint64_t n, const LaunchParams& params, const std::string& label) {
    using namespace clreduce::testing;
    const T* data = host.data() + offset;
    CallInfo info;
    const auto got = r.product<T>(buffer, offset, n, params, &info);
    INFO(label << " product n=" << n << " offset=" << offset << " " << info.plan.describe());
    if constexpr (std::is_integral_v<T>)
        CHECK(got == wrapped_product<sum_type_t<T>>(data, n));
    else
        check_approx(reference_product(data, n, rounding_unit<T>(info.plan.accumulator)), got, "product");
}

}  // namespace clreduce::test
