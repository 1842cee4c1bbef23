#pragma once
// The reference of a plain sum: integers exactly (modulo 2^64, as the device's 64-bit
// accumulators wrap), floating point as a long double sum with the bound a device result
// must meet.
#include <cstdint>
#include <type_traits>

#include <clreduce/element_type.hpp>

namespace clreduce::testing {

// Integer sums, computed modulo 2^64 like the device does.
template <class T, std::enable_if_t<std::is_integral_v<T>, int> = 0>
sum_type_t<T> exact_sum(const T* data, std::uint64_t n) {
    std::uint64_t acc = 0;
    for (std::uint64_t i = 0; i < n; ++i) acc += static_cast<std::uint64_t>(static_cast<sum_type_t<T>>(data[i]));
    return static_cast<sum_type_t<T>>(acc);
}

// Floating-point sums: a long double reference and the bound a device result must meet.
struct FloatReference {
    long double sum = 0;
    long double abs_sum = 0;  // sum of |x|
    // |device - sum| <= bound: the worst case of any summation order in the accumulator,
    // (n - 1) * u * sum|x| (u = 2^-53 for double, 2^-24 for float accumulators), plus the
    // reference's own error.
    long double bound(std::uint64_t n, ElementType accumulator) const;
};

template <class T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
FloatReference float_reference(const T* data, std::uint64_t n) {
    FloatReference r;
    for (std::uint64_t i = 0; i < n; ++i) {
        r.sum += data[i];
        r.abs_sum += data[i] < 0 ? -static_cast<long double>(data[i]) : static_cast<long double>(data[i]);
    }
    return r;
}

}  // namespace clreduce::testing
