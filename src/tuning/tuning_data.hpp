#pragma once
// The data Reducer::tune() measures on, element i of a seeded set; `clreduce-perf tune --check`
// measures on the same. Integers up to 32 bits span their whole range; 64-bit ones the
// 32-bit range (int32's or uint32's), so that their sums of fewer than 2^32 values fit the
// result type: a default (IntegerOverflow::check) sum that overflowed would throw, and the
// tuner measures the default call. Checked exactly. Floats are k * 2^-20 for k in 1..2^20: every partial sum of up to
// 2^32 of them is exact in a double (at most 52 bits, from 2^-20 to 2^32), so a lost or doubled element shows as a
// wrong result, and the sums fill their significands as real data does, which the exact atomic finish's cost depends on
// (it skips zero digits).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include <clreduce/element_type.hpp>
#include <clreduce/error.hpp>
#include <clreduce/opencl.hpp>

namespace clreduce {

inline std::uint64_t tuning_mix(std::uint64_t x) {  // splitmix64
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

template <class T>
T tuning_value(std::uint64_t seed, std::uint64_t i) {
    const std::uint64_t bits = tuning_mix(seed ^ (i * 0xd1b54a32d192ed03ull));
    if constexpr (std::is_floating_point_v<T>)
        return std::ldexp(T(1 + bits % (1u << 20)), -20);
    else if constexpr (sizeof(T) == 8)
        return std::is_signed_v<T> ? static_cast<T>(static_cast<std::int32_t>(bits)) : static_cast<T>(bits >> 32);
    else
        return static_cast<T>(bits);
}

// The sum of the first n values: modulo 2^64 for integers, in long double for floats.
struct TuningReference {
    std::uint64_t wrapped = 0;
    long double sum = 0;
    long double abs_sum = 0;
};

template <class T>
void add_to_reference(TuningReference& ref, T v) {
    if constexpr (std::is_integral_v<T>) {
        ref.wrapped += static_cast<std::uint64_t>(static_cast<sum_type_t<T>>(v));
    } else {
        ref.sum += v;
        ref.abs_sum += std::fabs(static_cast<long double>(v));
    }
}

// Whether a sum of n tuning values matches its reference: integers modulo 2^64 exactly; floats
// exactly in a double accumulator (every partial sum is exact there), else within the
// recursive summation's bound (n - 1) u sum|x| (+1 for the reference's own rounding).
template <class T>
bool tuning_result_correct(sum_type_t<T> got, const TuningReference& ref, std::uint64_t n, ElementType accumulator) {
    if constexpr (std::is_integral_v<T>) {
        return static_cast<std::uint64_t>(got) == ref.wrapped;
    } else {
        if (accumulator == ElementType::float64) return static_cast<long double>(got) == ref.sum;
        const long double bound = (long double)(n > 0 ? n - 1 : 0) * std::ldexp(1.0L, -24) * ref.abs_sum + 1;
        return std::fabs(static_cast<long double>(got) - ref.sum) <= bound;
    }
}

// Writes the values [0, sizes.back()) into `buffer` in chunks (blocking) and returns the
// reference of each prefix [0, sizes[k]); `sizes` ascending.
template <class T>
std::vector<TuningReference> upload_tuning_data(const cl::CommandQueue& queue, const cl::Buffer& buffer,
                                                const std::vector<std::uint64_t>& sizes, std::uint64_t seed) {
    std::vector<TuningReference> refs;
    TuningReference acc;
    std::vector<T> chunk;
    std::uint64_t i = 0;
    for (std::uint64_t end : sizes) {
        while (i < end) {
            const std::uint64_t count = std::min<std::uint64_t>(end - i, 1ull << 22);
            chunk.resize(count);
            for (std::uint64_t k = 0; k < count; ++k) {
                chunk[k] = tuning_value<T>(seed, i + k);
                add_to_reference(acc, chunk[k]);
            }
            check(queue.enqueueWriteBuffer(buffer, CL_TRUE, i * sizeof(T), count * sizeof(T), chunk.data()),
                  "clEnqueueWriteBuffer");
            i += count;
        }
        refs.push_back(acc);
    }
    return refs;
}

// Interleaved re-timing rounds for `candidates` whose kernels take `kernel_us` together per
// round: at least 15, more where kernels are short (up to 201, about 0.2 s of calls), since
// kernels of a few microseconds differ by less than the noise of 15 samples.
inline int retiming_rounds(double kernel_us, std::size_t candidates) {
    const double call_overhead_us = 20;  // a profiled call's wall time beyond its kernels
    const double round_us = kernel_us + call_overhead_us * static_cast<double>(candidates);
    const double fit = round_us > 0 ? 200000.0 / round_us : 201.0;
    return static_cast<int>(std::clamp(fit, 15.0, 201.0));
}

}  // namespace clreduce
