#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace clreduce {

// Element and accumulator types the kernels are specialised for.
enum class ElementType { int32, uint32, int64, uint64, float32, float64 };

std::string_view type_name(ElementType type);  // "int32", "float32", ...
std::size_t type_size(ElementType type);       // bytes
bool is_floating(ElementType type);
// Parses type_name()'s spelling; also accepts "float" and "double". Throws InvalidArgument.
ElementType parse_type(std::string_view name);

// The C++ element types clreduce reduces, with the type their sum is returned in.
// Integer sums are computed modulo 2^64 in the accumulator type; float sums in double
// where the device has fp64 (otherwise in float) and returned as double.
template <class T>
struct element_traits;

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

}  // namespace clreduce
