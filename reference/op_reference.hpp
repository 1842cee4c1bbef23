#pragma once
// CPU references for every operation clreduce offers, for every element type: exact for
// integers (modulo 2^64, as the device's 64-bit accumulators wrap), and for floating point
// a high-precision value with the tolerance a correct device result must meet.
//
// Element types: int8..uint64, float, double, and half, given as any type with a
// `std::uint16_t bits` member (its IEEE binary16 bits), whose value is taken as float.
// Image data (channels, row pitch): extract_channel() makes a plain array first.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <clreduce/element_type.hpp>

#include "reference/exact_float_sum.hpp"

namespace clreduce::testing {

// ---- half -------------------------------------------------------------------------------
float half_to_float(std::uint16_t bits);  // exact (every half is a float)
// Round to nearest even; beyond half's range ±inf; NaN stays a (quiet) NaN.
std::uint16_t float_to_half(float x);

template <class T, class = void>
struct is_half_like : std::false_type {};
template <class T>
struct is_half_like<T, std::void_t<decltype(std::declval<const T&>().bits)>> : std::true_type {};

// The numeric value of an element: itself, or a half's value as float.
template <class T>
using value_t = std::conditional_t<is_half_like<T>::value, float, T>;
template <class T>
value_t<T> value_of(const T& x) {
    if constexpr (is_half_like<T>::value)
        return half_to_float(x.bits);
    else
        return x;
}
template <class T>
constexpr bool is_float_like_v = std::is_floating_point_v<value_t<T>>;

// Largest relative rounding error of one operation in an accumulator of this type:
// 2^-53 (float64), 2^-24 (float32); 0 for integer accumulators (exact).
long double unit_roundoff(ElementType accumulator);

// ---- image data -------------------------------------------------------------------------
// Channel c of an interleaved rows x cols image of `channels` channels whose rows start
// step_bytes apart (step_bytes >= cols * channels * sizeof(T)), row by row.
template <class T>
std::vector<T> extract_channel(const T* data, std::uint64_t rows, std::uint64_t cols, int channels,
                               std::uint64_t step_bytes, int c) {
    if (channels < 1 || c < 0 || c >= channels || step_bytes < cols * channels * sizeof(T))
        throw std::invalid_argument("extract_channel: bad channels, channel or step");
    std::vector<T> out;
    out.reserve(rows * cols);
    for (std::uint64_t r = 0; r < rows; ++r) {
        const T* row = reinterpret_cast<const T*>(reinterpret_cast<const unsigned char*>(data) + r * step_bytes);
        for (std::uint64_t i = 0; i < cols; ++i) out.push_back(row[i * channels + c]);
    }
    return out;
}

// ---- integers: exact, modulo 2^64 ------------------------------------------------------
// Each element is sign- or zero-extended to 64 bits and combined modulo 2^64, as the
// device's 64-bit accumulators do; R (int64_t or uint64_t) is how the result is read.
template <class R, class T>
R wrapped_sum(const T* data, std::uint64_t n) {
    static_assert(std::is_integral_v<T>);
    std::uint64_t acc = 0;
    for (std::uint64_t i = 0; i < n; ++i) acc += static_cast<std::uint64_t>(static_cast<std::int64_t>(data[i]));
    return static_cast<R>(acc);
}
template <class R, class T>
R wrapped_product(const T* data, std::uint64_t n) {  // empty product: 1
    static_assert(std::is_integral_v<T>);
    std::uint64_t acc = 1;
    for (std::uint64_t i = 0; i < n; ++i) acc *= static_cast<std::uint64_t>(data[i]);
    return static_cast<R>(acc);
}
template <class R, class T>
R wrapped_sum_of_squares(const T* data, std::uint64_t n) {
    static_assert(std::is_integral_v<T>);
    std::uint64_t acc = 0;
    for (std::uint64_t i = 0; i < n; ++i) {
        const auto x = static_cast<std::uint64_t>(data[i]);
        acc += x * x;
    }
    return static_cast<R>(acc);
}
// |x| as an unsigned 64-bit value (|INT64_MIN| = 2^63).
template <class T>
std::uint64_t magnitude(T x) {
    static_assert(std::is_integral_v<T>);
    if constexpr (std::is_signed_v<T>)
        return x < 0 ? 0 - static_cast<std::uint64_t>(x) : static_cast<std::uint64_t>(x);
    else
        return x;
}
template <class R, class T>
R wrapped_norm_l1(const T* data, std::uint64_t n) {
    std::uint64_t acc = 0;
    for (std::uint64_t i = 0; i < n; ++i) acc += magnitude(data[i]);
    return static_cast<R>(acc);
}
// max |x| (0 for n == 0), exact.
template <class T>
std::uint64_t integer_norm_inf(const T* data, std::uint64_t n) {
    std::uint64_t m = 0;
    for (std::uint64_t i = 0; i < n; ++i) m = std::max(m, magnitude(data[i]));
    return m;
}

// ---- count_nonzero: exact for every type --------------------------------------------------
// x != 0: NaN counts as nonzero, -0.0 as zero (as cv::countNonZero).
template <class T>
std::uint64_t reference_count_nonzero(const T* data, std::uint64_t n) {
    std::uint64_t c = 0;
    for (std::uint64_t i = 0; i < n; ++i) c += value_of(data[i]) != 0;
    return c;
}

// ---- min / max / argmin / argmax / minmax: exact ------------------------------------------
// How NaN takes part in a float min/max:
//   propagate: the first NaN is the result (value NaN, its index), like IEEE 754-2019 minimum;
//   ignore:    NaNs are skipped, like fmin/fmax; all-NaN input gives NaN with index 0.
// -0.0 and +0.0 compare equal (so the first of them wins a tie); tests should compare a
// zero result by value, not by sign.
enum class NanRule { propagate, ignore };

template <class V>
struct Extremum {
    V value{};
    std::uint64_t index = 0;  // first occurrence (ties broken by lowest index)
};
template <class V>
struct MinMax {
    Extremum<V> min, max;
};

namespace detail {
template <class T, class Better>
Extremum<value_t<T>> extremum(const T* data, std::uint64_t n, NanRule rule, Better better) {
    if (n == 0) throw std::invalid_argument("min/max of no elements");
    using V = value_t<T>;
    Extremum<V> best{value_of(data[0]), 0};
    bool have = true;
    if constexpr (std::is_floating_point_v<V>) {
        have = !std::isnan(best.value);
        if (!have && rule == NanRule::propagate) return best;
    }
    for (std::uint64_t i = 1; i < n; ++i) {
        const V v = value_of(data[i]);
        if constexpr (std::is_floating_point_v<V>) {
            if (std::isnan(v)) {
                if (rule == NanRule::propagate) return {v, i};
                continue;
            }
        }
        if (!have || better(v, best.value)) best = {v, i};
        have = true;
    }
    return best;
}
}  // namespace detail

template <class T>
Extremum<value_t<T>> reference_min(const T* data, std::uint64_t n, NanRule rule = NanRule::ignore) {
    return detail::extremum(data, n, rule, [](auto a, auto b) { return a < b; });
}
template <class T>
Extremum<value_t<T>> reference_max(const T* data, std::uint64_t n, NanRule rule = NanRule::ignore) {
    return detail::extremum(data, n, rule, [](auto a, auto b) { return a > b; });
}
template <class T>
MinMax<value_t<T>> reference_minmax(const T* data, std::uint64_t n, NanRule rule = NanRule::ignore) {
    return {reference_min(data, n, rule), reference_max(data, n, rule)};
}
// max |x| for floats (exact: no rounding), NaN by `rule` (ignore: all-NaN input gives NaN,
// as max does); 0 for n == 0.
template <class T>
value_t<T> float_norm_inf(const T* data, std::uint64_t n, NanRule rule = NanRule::ignore) {
    using V = value_t<T>;
    V m = 0;
    bool any = n == 0;
    for (std::uint64_t i = 0; i < n; ++i) {
        const V v = std::fabs(value_of(data[i]));
        if (std::isnan(v)) {
            if (rule == NanRule::propagate) return v;
            continue;
        }
        m = std::max(m, v);
        any = true;
    }
    return any ? m : std::numeric_limits<V>::quiet_NaN();
}

// ---- floating point: a reference value and a tolerance ------------------------------------
// `value` is the exact result rounded to long double (or, for product and norm_l2, a long
// double computation whose own error is folded into `tolerance`). A device result `got`
// is right when it is NaN where value is NaN, the same infinity where value is infinite,
// an infinity of value's sign where the exact result is beyond the returned type's range
// (Overflow::must), any infinity or NaN where only a partial result may overflow
// (Overflow::may: sum|x| is beyond it), and otherwise when |got - value| <= tolerance.
enum class Overflow { never, may, must };
struct Approx {
    long double value = 0;
    long double tolerance = 0;
    Overflow overflow = Overflow::never;
    std::string rule;  // how tolerance was derived, for messages
    bool accepts(long double got) const;
    std::string mismatch(long double got) const;  // empty when accepted
};

// The tolerance rules, with u = unit_roundoff(accumulator), n elements, S the exact sum,
// A = sum |x|. They hold for any order of the additions (the worst case of recursive
// summation, Higham, "Accuracy and Stability of Numerical Algorithms", 2002, ch. 4), so for
// every times, stride and work-group size:
//   sum, plain:         (n - 1) u A
//   sum, compensated:   2 u |S| + 2 (n u)^2 A     (Kahan/Neumaier per thread, with an error-
//                        free combine: Ogita, Rump & Oishi's Sum2 bound u|S| + g(n-1)^2 A,
//                        doubled for the final rounding to the returned type)
//   sum, exact:         0 (the correctly rounded double; compare with ExactSum::to_double)
//   mean:               sum's tolerance / n + (u + 2^-52) |mean| (the result is a double)
//   sum_of_squares:     n u sum x^2  (each square rounded once, then a plain sum of positives)
//   norm_l1:            (n - 1) u A
//   norm_l2:            sqrt(S2 + d) - sqrt(S2) with d the sum_of_squares tolerance, + 2u norm
//   product:            ((1 + u)^(n-1) - 1) |P| + 2 n 2^-64 |P| (the long double reference)
// Each also allows 2^-62 |value| for rounding the reference to long double.
enum class Summation { plain, compensated, exact };
constexpr long double kDoubleMax = std::numeric_limits<double>::max();

template <class T>
ExactSum exact_sum_of_values(const T* data, std::uint64_t n) {
    ExactSum s;
    for (std::uint64_t i = 0; i < n; ++i) {
        if constexpr (std::is_integral_v<T> && std::is_signed_v<T>)
            s.add_integer(data[i]);
        else if constexpr (std::is_integral_v<T>)
            s.add_unsigned(data[i]);
        else
            s.add(static_cast<double>(value_of(data[i])));
    }
    return s;
}
template <class T>
ExactSum exact_abs_sum_of_values(const T* data, std::uint64_t n) {
    ExactSum s;
    for (std::uint64_t i = 0; i < n; ++i) {
        if constexpr (std::is_integral_v<T>)
            s.add_unsigned(magnitude(data[i]));
        else
            s.add(std::fabs(static_cast<double>(value_of(data[i]))));
    }
    return s;
}
// Exact sum of squares. Integers: x^2 as a 128-bit integer. Floats: x*x split into two
// doubles by fma; a square below 2^-968 (whose low part would underflow) is added rounded,
// and `slack` grows by 2^-1074 for each, for the caller's tolerance.
template <class T>
ExactSum exact_sum_of_squares(const T* data, std::uint64_t n, long double* slack = nullptr) {
    ExactSum s;
    for (std::uint64_t i = 0; i < n; ++i) {
        if constexpr (std::is_integral_v<T>) {
            const unsigned __int128 sq = static_cast<unsigned __int128>(magnitude(data[i])) * magnitude(data[i]);
            s.add_scaled(static_cast<std::uint64_t>(sq), false, 0);
            s.add_scaled(static_cast<std::uint64_t>(sq >> 64), false, 64);
        } else {
            const double x = value_of(data[i]);
            try {
                s.add_product(x, x);
            } catch (const std::domain_error&) {
                s.add(x * x);
                if (slack) *slack += std::ldexp(1.0L, -1074);
            }
        }
    }
    return s;
}

Approx sum_approx(const ExactSum& exact, const ExactSum& abs_sum, std::uint64_t n, long double u,
                  Summation summation = Summation::plain, long double overflow_threshold = kDoubleMax);

template <class T>
Approx reference_sum(const T* data, std::uint64_t n, long double u, Summation summation = Summation::plain) {
    return sum_approx(exact_sum_of_values(data, n), exact_abs_sum_of_values(data, n), n, u, summation);
}
template <class T>
Approx reference_mean(const T* data, std::uint64_t n, long double u, Summation summation = Summation::plain) {
    if (n == 0) throw std::invalid_argument("mean of no elements");
    Approx a = reference_sum(data, n, u, summation);
    a.value /= n;
    // The mean is returned as a double: the sum's conversion to double and the division
    // round twice more (also for exact integer sums, u = 0).
    a.tolerance =
        a.tolerance / n + (u + std::ldexp(1.0L, -52)) * std::fabs(a.value) + std::ldexp(std::fabs(a.value), -62);
    a.rule = "mean: " + a.rule + " / n + (u + 2^-52)|mean|";
    return a;
}
template <class T>
Approx reference_norm_l1(const T* data, std::uint64_t n, long double u) {
    const ExactSum abs_sum = exact_abs_sum_of_values(data, n);
    Approx a = sum_approx(abs_sum, abs_sum, n, u, Summation::plain);
    a.rule = "norm_l1: " + a.rule;
    return a;
}
template <class T>
Approx reference_sum_of_squares(const T* data, std::uint64_t n, long double u) {
    long double slack = 0;
    const ExactSum s = exact_sum_of_squares(data, n, &slack);
    Approx a;
    a.value = s.to_long_double();
    a.tolerance = n * u * std::fabs(a.value) + slack + std::ldexp(std::fabs(a.value), -62);
    if (s.is_finite() && std::fabs(a.value) > kDoubleMax) a.overflow = Overflow::must;
    a.rule = "sum_of_squares: n u sum(x^2)";
    return a;
}
template <class T>
Approx reference_norm_l2(const T* data, std::uint64_t n, long double u) {
    const Approx squares = reference_sum_of_squares(data, n, u);
    Approx a;
    a.value = std::sqrt(squares.value);
    const long double grown = std::sqrt(squares.value + squares.tolerance) - a.value;
    a.tolerance = grown + 2 * u * a.value + std::ldexp(a.value, -62);
    a.rule = "norm_l2: sqrt(S2 + d) - sqrt(S2) + 2u norm";
    return a;
}
template <class T>
Approx reference_product(const T* data, std::uint64_t n, long double u) {
    long double p = 1;
    for (std::uint64_t i = 0; i < n; ++i) p *= static_cast<long double>(value_of(data[i]));
    Approx a;
    a.value = p;
    const long double m = n > 0 ? static_cast<long double>(n - 1) : 0.0L;
    a.tolerance = std::fabs(p) * (std::expm1(m * std::log1p(u)) + 2 * n * std::ldexp(1.0L, -64));
    if (std::isfinite(p) && std::fabs(p) > kDoubleMax) a.overflow = Overflow::must;
    a.rule = "product: ((1+u)^(n-1) - 1)|P|";
    return a;
}

}  // namespace clreduce::testing
