#pragma once
// The C++ element type of an ElementType, for code that picks a template by a runtime type.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <clreduce/element_type.hpp>

namespace clreduce::testing {

// Calls f(T{}) with the C++ type of `type` (visit_type, for the ten types the perf commands
// take; float16 throws std::invalid_argument).
template <class F>
decltype(auto) with_element_type(ElementType type, F&& f) {
    if (type == ElementType::float16)
        throw std::invalid_argument(
            "this command takes int8, uint8, int16, uint16, int32, uint32, int64, uint64, "
            "float32 or float64, not float16");
    return visit_type(type, [&](auto tag) -> decltype(f(std::int32_t{})) {
        if constexpr (std::is_same_v<decltype(tag), half>)
            return f(std::int32_t{});  // not reached
        else
            return f(tag);
    });
}

}  // namespace clreduce::testing
