#pragma once
// What the asynchronous tests compare: results field by field (a structure's padding is not
// part of it), and the values they reduce.
#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

#include "test_ops_support.hpp"

namespace clreduce::test {

constexpr unsigned char kMarker = 0xAB;

template <class V>
inline bool same_field(const V& a, const V& b) {
    return same_bits(a, b);
}
template <class T>
bool same_result_fields(const MinMax<T>& a, const MinMax<T>& b) {
    return same_field(a.min, b.min) && same_field(a.max, b.max);
}
template <class T>
bool same_result_fields(const ArgResult<T>& a, const ArgResult<T>& b) {
    return same_field(a.value, b.value) && a.index == b.index;
}
template <class T>
bool same_result_fields(const ArgMinMax<T>& a, const ArgMinMax<T>& b) {
    return same_result_fields(a.min, b.min) && same_result_fields(a.max, b.max);
}
template <class T>
bool same_result_fields(const Statistics<T>& a, const Statistics<T>& b) {
    return a.count == b.count && same_field(a.min, b.min) && same_field(a.max, b.max) && same_field(a.sum, b.sum) &&
           same_field(a.mean, b.mean) && same_field(a.variance, b.variance);
}

// A zeroed status word (AsyncTarget::status), and its value once the calls are done.
inline cl::Buffer status_word(const Reducer& r) {
    cl_uint zero = 0;
    return cl::Buffer(r.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, &zero);
}
inline std::uint32_t read_status(const Reducer& r, const cl::Buffer& status) {
    cl_uint word = 0;
    check(r.queue().enqueueReadBuffer(status, CL_TRUE, 0, sizeof word, &word), "clEnqueueReadBuffer");
    return word;
}

template <class T>
bool same_result(const T& a, const T& b) {
    if constexpr (std::is_arithmetic_v<T> || std::is_same_v<T, half>)
        return same_bits(a, b);
    else
        return same_result_fields(a, b);
}

// Values for the 64-bit types over their whole range (so that means and norms take their
// exact 128- and 192-bit states far past 2^53), op_values' elsewhere.
template <class T>
std::vector<T> async_values(std::uint64_t n, std::uint64_t seed) {
    std::vector<T> v = op_values<T>(n, seed);
    std::mt19937_64 rng(seed + 1);
    if constexpr (std::is_integral_v<T> && sizeof(T) == 8) {
        for (auto& x : v)
            if (x != 0) x = static_cast<T>(rng());
    }
    return v;
}

}  // namespace clreduce::test
