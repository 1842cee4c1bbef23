#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace clreduce {

// Element and accumulator types the kernels are specialised for. (New types are appended so
// that the first six keep their values.)
enum class ElementType { int32, uint32, int64, uint64, float32, float64, int8, uint8, int16, uint16, float16 };

std::string_view type_name(ElementType type);  // "int32", "float32", "float16", ...
std::size_t type_size(ElementType type);       // bytes
bool is_floating(ElementType type);            // float16, float32, float64
bool is_signed(ElementType type);              // signed integers and floats
// OpenCL C's name of the type: "char", "uint", "half", "double", ...
std::string_view opencl_type_name(ElementType type);
// Parses type_name()'s spelling; also accepts "float", "double" and "half". Throws InvalidArgument.
ElementType parse_type(std::string_view name);

// IEEE 754 binary16 storage for host data of ElementType::float16. clreduce reads such data
// only on devices with cl_khr_fp16 (elsewhere: Unsupported). Conversions round to nearest even.
struct half {
    std::uint16_t bits = 0;

    half() = default;
    explicit half(float value);
    explicit operator float() const;
    static half from_bits(std::uint16_t b) {
        half h;
        h.bits = b;
        return h;
    }
};

// The C++ element types clreduce reduces, with the type their sum is returned in.
// Integer sums are exact and returned as int64 (signed types) or uint64 (unsigned): in a 64-bit
// accumulator where it cannot overflow for the count, else in a 128-bit state; a sum that does
// not fit the result type throws Overflow, or wraps modulo 2^bits of the accumulator under
// IntegerOverflow::wrap (launch_params.hpp, docs/numerics.md). half and float sums in double
// where the device has fp64 (otherwise in float), returned as double. LaunchParams::accumulator
// chooses another.
template <class T>
struct element_traits;

template <>
struct element_traits<std::int8_t> {
    static constexpr ElementType type = ElementType::int8;
    using sum_type = std::int64_t;
};
template <>
struct element_traits<std::uint8_t> {
    static constexpr ElementType type = ElementType::uint8;
    using sum_type = std::uint64_t;
};
template <>
struct element_traits<std::int16_t> {
    static constexpr ElementType type = ElementType::int16;
    using sum_type = std::int64_t;
};
template <>
struct element_traits<std::uint16_t> {
    static constexpr ElementType type = ElementType::uint16;
    using sum_type = std::uint64_t;
};
template <>
struct element_traits<std::int32_t> {
    static constexpr ElementType type = ElementType::int32;
    using sum_type = std::int64_t;
};
template <>
struct element_traits<std::uint32_t> {
    static constexpr ElementType type = ElementType::uint32;
    using sum_type = std::uint64_t;
};
template <>
struct element_traits<std::int64_t> {
    static constexpr ElementType type = ElementType::int64;
    using sum_type = std::int64_t;
};
template <>
struct element_traits<std::uint64_t> {
    static constexpr ElementType type = ElementType::uint64;
    using sum_type = std::uint64_t;
};
template <>
struct element_traits<half> {
    static constexpr ElementType type = ElementType::float16;
    using sum_type = double;
};
template <>
struct element_traits<float> {
    static constexpr ElementType type = ElementType::float32;
    using sum_type = double;
};
template <>
struct element_traits<double> {
    static constexpr ElementType type = ElementType::float64;
    using sum_type = double;
};

template <class T>
using sum_type_t = typename element_traits<T>::sum_type;

// sum_of_squares()' result: uint64 for integers (squares are never negative), double for floats.
template <class T>
using square_sum_t = std::conditional_t<std::is_same_v<sum_type_t<T>, double>, double, std::uint64_t>;

// Calls f(T{}) with the C++ type of `type` (clreduce::half for float16): the one switch from
// an ElementType to its C++ type.
template <class F>
decltype(auto) visit_type(ElementType type, F&& f) {
    switch (type) {
        case ElementType::int8: return f(std::int8_t{});
        case ElementType::uint8: return f(std::uint8_t{});
        case ElementType::int16: return f(std::int16_t{});
        case ElementType::uint16: return f(std::uint16_t{});
        case ElementType::int32: return f(std::int32_t{});
        case ElementType::uint32: return f(std::uint32_t{});
        case ElementType::int64: return f(std::int64_t{});
        case ElementType::uint64: return f(std::uint64_t{});
        case ElementType::float16: return f(half{});
        case ElementType::float32: return f(float{});
        case ElementType::float64: return f(double{});
    }
    return f(std::int32_t{});  // not reached: every enumerator is handled above
}

}  // namespace clreduce
