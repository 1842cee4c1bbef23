#pragma once
// Exact CPU references and test data for sums, shared by the tests and clreduce-perf.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <clreduce/element_type.hpp>

namespace clreduce::testing {

// Random values with a fixed seed. `narrow` keeps integer magnitudes small enough
// (|x| < 2^20) that a sum of up to 2^33 of them is exact in a double, so cv::sum can be
// compared bit for bit; otherwise integers span their whole range. 8- and 16-bit integers
// span their whole range either way. Floats are uniform in [-1000, 1000) with a few values
// scaled up to 1e6.
template <class T>
std::vector<T> random_values(std::uint64_t n, std::uint64_t seed, bool narrow = true);
// What random_values<T>(n, seed, narrow) draws, for the perf tools' headers.
template <class T>
std::string random_values_description(bool narrow = true);

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

// cv::sum of the same data where OpenCV has the case (int8, uint8, int16, uint16, int32,
// float32, float64; uint32 when every value is below 2^31, viewed as int32). has_value is false where it has none or when
// clreduce was built without OpenCV.
struct OpenCVSum {
    bool has_value = false;
    double value = 0;
};
template <class T>
OpenCVSum opencv_sum(const T* data, std::uint64_t n);

bool have_opencv();

// Everything a sum of one data set is checked against, computed once.
template <class T>
struct Expected {
    std::uint64_t n = 0;
    sum_type_t<T> exact{};   // integers: the exact sum modulo 2^64; floats: unused
    FloatReference floats;   // floats only
    OpenCVSum opencv;

    static Expected compute(const T* data, std::uint64_t n);
    // Empty when `got` is right, else what is wrong. Integers must equal the exact sum and
    // cv::sum bit for bit; floats must lie within the stated bound of the long double
    // reference, and within that bound plus cv::sum's own bound of cv::sum.
    std::string mismatch(sum_type_t<T> got, ElementType accumulator) const;
};

}  // namespace clreduce::testing

namespace clreduce::testing {

// Calls f(T{}) with the C++ type of `type` (the ten types the perf commands take; float16
// throws std::invalid_argument).
template <class F>
decltype(auto) with_element_type(ElementType type, F&& f) {
    switch (type) {
        case ElementType::int8: return f(std::int8_t{});
        case ElementType::uint8: return f(std::uint8_t{});
        case ElementType::int16: return f(std::int16_t{});
        case ElementType::uint16: return f(std::uint16_t{});
        case ElementType::int32: return f(std::int32_t{});
        case ElementType::uint32: return f(std::uint32_t{});
        case ElementType::int64: return f(std::int64_t{});
        case ElementType::uint64: return f(std::uint64_t{});
        case ElementType::float32: return f(float{});
        case ElementType::float64: return f(double{});
        case ElementType::float16: break;
    }
    throw std::invalid_argument("this command takes int8, uint8, int16, uint16, int32, uint32, int64, uint64, "
                                "float32 or float64, not " + std::string(type_name(type)));
}

inline std::string random_values_description(ElementType type, bool narrow = true) {
    return with_element_type(type, [&](auto tag) { return random_values_description<decltype(tag)>(narrow); });
}

}  // namespace clreduce::testing
