#pragma once
// The CPU reference of Reducer::statistics: count, extremes, mean and population variance,
// computed in two passes in long double (the exact sum for the mean), with the tolerance a
// device result in an accumulator of unit roundoff u must meet.
//
// The kernel keeps sums of deviations about a shift that is one of the values
// (cl_kernels/ops/moments.cl), so every deviation is at most R = max - min. With n values:
//   mean:      4 (n + 2) u R + 2 u |mean|       (a sum of n deviations of at most R, each
//              rounded once, the combines' re-expressed sums, and the final shift + s1 / n)
//   variance:  8 (n + 2) u R^2 + 2 u variance   (the same for the squares, and s1^2 / n)
// R bounds the sums of deviations in any order and tree shape, so the bounds hold for every
// launch shape and segment mapping. Both also allow 2n 2^-64 of the long double passes.
#include <cmath>
#include <cstdint>
#include <string>

#include "reference/op_reference.hpp"

namespace clreduce::testing {

struct StatisticsReference {
    std::uint64_t count = 0;
    long double min = 0, max = 0;  // NaN ignored; NaN when every value is NaN
    Approx mean, variance;
    bool finite = true;  // no NaN or infinity among the values: mean and variance are finite
};

template <class T>
StatisticsReference reference_statistics(const T* data, std::uint64_t n, long double u) {
    StatisticsReference r;
    r.count = n;
    const auto lo = reference_min(data, n), hi = reference_max(data, n);
    r.min = lo.value;
    r.max = hi.value;
    for (std::uint64_t i = 0; i < n; ++i)
        if (!std::isfinite(static_cast<long double>(value_of(data[i])))) r.finite = false;
    if (n == 0 || !r.finite) return r;
    const long double mean = exact_sum_of_values(data, n).to_long_double() / static_cast<long double>(n);
    long double m2 = 0;
    for (std::uint64_t i = 0; i < n; ++i) {
        const long double d = static_cast<long double>(value_of(data[i])) - mean;
        m2 += d * d;
    }
    const long double variance = m2 / static_cast<long double>(n);
    const long double range = r.max - r.min;
    const long double nn = static_cast<long double>(n) + 2;
    const long double passes = 2 * nn * std::ldexp(1.0L, -64);
    r.mean = Approx{mean, 4 * nn * u * range + 2 * u * std::fabs(mean) + passes * (std::fabs(mean) + range),
                    Overflow::never, "4 (n+2) u R + 2 u |mean|"};
    r.variance = Approx{variance, 8 * nn * u * range * range + 2 * u * variance + passes * range * range,
                        Overflow::never, "8 (n+2) u R^2 + 2 u var"};
    return r;
}

}  // namespace clreduce::testing
