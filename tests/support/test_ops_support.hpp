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

// op_values with what the host path's order-free rules must get right: ties of the extreme (the lowest index
// wins), -0.0 beside 0.0, NaN (loses to every number), the type's extremes.
// Variant 0: plain values (finite squares, so that the float sums' roundings show).
template <class T>
std::vector<T> edge_values(std::uint64_t n, std::uint64_t seed, int variant) {
    std::vector<T> v = op_values<T>(n, seed);
    if (variant == 0) return v;
    std::mt19937_64 rng(seed);
    for (std::uint64_t k = 0; k < n / 50 + 1; ++k) v[rng() % n] = std::numeric_limits<T>::max();
    for (std::uint64_t k = 0; k < n / 50 + 1; ++k) v[rng() % n] = std::numeric_limits<T>::lowest();
    if constexpr (std::is_floating_point_v<T>) {
        for (std::uint64_t k = 0; k < n / 10 + 1; ++k) v[rng() % n] = (k % 2) ? T(-0.0) : T(0.0);
        if (variant == 2)
            for (std::uint64_t k = 0; k < n / 3 + 1; ++k) v[rng() % n] = std::numeric_limits<T>::quiet_NaN();
        if (variant == 3) std::fill(v.begin(), v.end(), std::numeric_limits<T>::quiet_NaN());
        if (variant == 4)  // zeros of both signs only: which one an extreme gives is its index's
            for (std::uint64_t k = 0; k < n; ++k) v[k] = (rng() % 2) ? T(-0.0) : T(0.0);
    } else if (variant == 2) {
        std::fill(v.begin(), v.end(), std::numeric_limits<T>::max());
    }
    return v;
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

// The operations the sweeps check, each against its reference in check_operation (ranges) and
// check_segment_operation (segments). The covering arrays of the device tests take their
// operation factor from this list: an operation added here with its cases joins every sweep.
inline const std::vector<Operation>& checked_operations() {
    static const std::vector<Operation> ops{
        Operation::sum,     Operation::mean,     Operation::count_nonzero,  Operation::min,        Operation::max,
        Operation::minmax,  Operation::argmin,   Operation::argmax,         Operation::argminmax,  Operation::norm_l1,
        Operation::norm_l2, Operation::norm_inf, Operation::sum_of_squares, Operation::statistics, Operation::product};
    return ops;
}

// One operation over elements [offset, offset + n) of `host` (copied to `buffer`), against the
// exact references and OpenCV where it has the case; an empty range's refusal where the result is
// undefined. Products take data whose product stays in range (product_values, check_product).
template <class T>
void check_operation(const Reducer& r, const cl::Buffer& buffer, const std::vector<T>& host, std::uint64_t offset,
                     std::uint64_t n, const LaunchParams& params, Operation op, const std::string& label) {
    using namespace clreduce::testing;
    const T* data = host.data() + offset;
    const ImageShape shape = row_of(n);
    CallInfo info;
    INFO(label << " " << operation_name(op) << " n=" << n << " offset=" << offset);
    const long double u_mean = std::is_integral_v<T> ? std::ldexp(1.0L, -53) : 0.0L;
    switch (op) {
        case Operation::sum: {
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
            return;
        }
        case Operation::mean: {
            if (n == 0) {
                CHECK_THROWS_AS(r.mean<T>(buffer, offset, n, params), InvalidArgument);
                return;
            }
            const double mean = r.mean<T>(buffer, offset, n, params, &info);
            INFO("mean " << info.plan.describe());
            check_approx(reference_mean(data, n,
                                        std::is_integral_v<T> ? u_mean : rounding_unit<T>(info.plan.accumulator)),
                         mean, "mean");
            if (auto cv = cv_mean(data, shape)) CHECK(std::fabs(mean - (*cv)[0]) <= 1e-5 * (1 + std::fabs((*cv)[0])));
            return;
        }
        case Operation::count_nonzero: {
            const std::uint64_t got = r.count_nonzero<T>(buffer, offset, n, params, &info);
            CHECK(got == reference_count_nonzero(data, n));
            if (auto cv = cv_count_nonzero(data, shape)) CHECK(got == *cv);
            return;
        }
        case Operation::min:
        case Operation::max:
        case Operation::minmax:
        case Operation::argmin:
        case Operation::argmax:
        case Operation::argminmax: {
            if (n == 0) {
                if (op == Operation::min) CHECK_THROWS_AS(r.min<T>(buffer, offset, n, params), InvalidArgument);
                if (op == Operation::max) CHECK_THROWS_AS(r.max<T>(buffer, offset, n, params), InvalidArgument);
                if (op == Operation::minmax) CHECK_THROWS_AS(r.minmax<T>(buffer, offset, n, params), InvalidArgument);
                if (op == Operation::argmin) CHECK_THROWS_AS(r.argmin<T>(buffer, offset, n, params), InvalidArgument);
                if (op == Operation::argmax) CHECK_THROWS_AS(r.argmax<T>(buffer, offset, n, params), InvalidArgument);
                if (op == Operation::argminmax)
                    CHECK_THROWS_AS(r.argminmax<T>(buffer, offset, n, params), InvalidArgument);
                return;
            }
            const auto lo = reference_min(data, n), hi = reference_max(data, n);
            const auto cv = cv_min_max_loc(data, shape);
            if (op == Operation::min) {
                const T mn = r.min<T>(buffer, offset, n, params, &info);
                CHECK(value_of(mn) == lo.value);
                if (cv) CHECK(double(value_of(mn)) == cv->min);
            } else if (op == Operation::max) {
                const T mx = r.max<T>(buffer, offset, n, params, &info);
                CHECK(value_of(mx) == hi.value);
                if (cv) CHECK(double(value_of(mx)) == cv->max);
            } else if (op == Operation::minmax) {
                const clreduce::MinMax<T> both = r.minmax<T>(buffer, offset, n, params, &info);
                CHECK(value_of(both.min) == lo.value);
                CHECK(value_of(both.max) == hi.value);
            } else if (op == Operation::argminmax) {
                const clreduce::ArgMinMax<T> both = r.argminmax<T>(buffer, offset, n, params, &info);
                INFO("indices " << both.min.index << ", " << both.max.index << " (expected " << lo.index << ", "
                                << hi.index << ")");
                CHECK(value_of(both.min.value) == lo.value);
                CHECK(both.min.index == lo.index);
                CHECK(value_of(both.max.value) == hi.value);
                CHECK(both.max.index == hi.index);
                if (cv) CHECK(both.min.index == cv->min_index);
                if (cv) CHECK(both.max.index == cv->max_index);
            } else {
                const bool is_min = op == Operation::argmin;
                const clreduce::ArgResult<T> got = is_min ? r.argmin<T>(buffer, offset, n, params, &info)
                                                          : r.argmax<T>(buffer, offset, n, params, &info);
                const auto& want = is_min ? lo : hi;
                INFO("index " << got.index << " (expected " << want.index << ")");
                CHECK(value_of(got.value) == want.value);
                CHECK(got.index == want.index);
                if (cv) CHECK(got.index == (is_min ? cv->min_index : cv->max_index));
            }
            return;
        }
        case Operation::sum_of_squares: {
            const auto squares = r.sum_of_squares<T>(buffer, offset, n, params, &info);
            if constexpr (std::is_integral_v<T>)
                CHECK(squares == wrapped_sum_of_squares<std::uint64_t>(data, n));
            else
                check_approx(reference_sum_of_squares(data, n, rounding_unit<T>(info.plan.accumulator)), squares,
                             "sum_of_squares");
            return;
        }
        case Operation::norm_l1:
        case Operation::norm_l2:
        case Operation::norm_inf: {
            const CvNorm kind = op == Operation::norm_l1   ? CvNorm::l1
                                : op == Operation::norm_l2 ? CvNorm::l2
                                                           : CvNorm::inf;
            const double got = op == Operation::norm_l1   ? r.norm_l1<T>(buffer, offset, n, params, &info)
                               : op == Operation::norm_l2 ? r.norm_l2<T>(buffer, offset, n, params, &info)
                                                          : r.norm_inf<T>(buffer, offset, n, params, &info);
            const long double u =
                std::is_integral_v<T> ? std::ldexp(1.0L, -53) : rounding_unit<T>(info.plan.accumulator);
            if (op == Operation::norm_inf) {
                if constexpr (std::is_integral_v<T>)
                    CHECK(got == double(integer_norm_inf(data, n)));
                else
                    CHECK(got == double(float_norm_inf(data, n)));
            } else if (op == Operation::norm_l2) {
                check_approx(reference_norm_l2(data, n, u), got, "norm_l2");
            } else if constexpr (std::is_integral_v<T>) {
                CHECK(got == double(wrapped_norm_l1<std::uint64_t>(data, n)));
            } else {
                check_approx(reference_norm_l1(data, n, u), got, "norm_l1");
            }
            if (auto cv = cv_norm(data, shape, kind)) {
                if (op == Operation::norm_inf)
                    CHECK(got == *cv);
                else
                    CHECK(std::fabs(got - *cv) <= 1e-6 * (1 + *cv));
            }
            return;
        }
        case Operation::statistics: check_statistics_call(r, buffer, host, offset, n, params); return;
        case Operation::product: {
            const auto got = r.product<T>(buffer, offset, n, params, &info);
            INFO("product " << info.plan.describe());
            if constexpr (std::is_integral_v<T>)
                CHECK(got == wrapped_product<sum_type_t<T>>(data, n));
            else
                check_approx(reference_product(data, n, rounding_unit<T>(info.plan.accumulator)), got, "product");
            return;
        }
    }
    FAIL("no check for operation " << operation_name(op));
}

// Every checked operation but the product (check_product, on its own data) over elements
// [offset, offset + n) of `host` (copied to `buffer`).
template <class T>
void check_operations(const Reducer& r, const cl::Buffer& buffer, const std::vector<T>& host, std::uint64_t offset,
                      std::uint64_t n, const LaunchParams& params, const std::string& label) {
    for (Operation op : checked_operations())
        if (op != Operation::product) check_operation(r, buffer, host, offset, n, params, op, label);
}

// The product over elements [offset, offset + n) of `host`, data whose product stays in range.
template <class T>
void check_product(const Reducer& r, const cl::Buffer& buffer, const std::vector<T>& host, std::uint64_t offset,
                   std::uint64_t n, const LaunchParams& params, const std::string& label) {
    check_operation(r, buffer, host, offset, n, params, Operation::product, label);
}

}  // namespace clreduce::test
