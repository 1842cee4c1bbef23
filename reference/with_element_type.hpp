#pragma once
// The C++ element type of an ElementType, for code that picks a template by a runtime type.
#include <cstdint>
#include <stdexcept>
#include <string>

#include <clreduce/element_type.hpp>

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

}  // namespace clreduce::testing
