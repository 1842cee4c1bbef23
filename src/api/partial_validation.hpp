#pragma once
// What a Partial's state can hold, checked when bytes from elsewhere become a Partial
// (Partial::from_bytes): the fields may each be valid and the state still one no reduction of
// that operation leaves (an argmin index past the count, a statistics count that is not the
// header's). Kept apart from the byte format, which changes by version.
#include <cstddef>
#include <cstdint>
#include <string>

#include <clreduce/element_type.hpp>
#include <clreduce/operation.hpp>

#include "ops/operation_table.hpp"

namespace clreduce {

// Why a state of `plugin` and `map` in `accumulator`, standing for `count` elements of type
// `element`, cannot be a partial of `op`; empty where it can be. The plug-in, map, accumulator
// and the state's size are already checked against the operation.
std::string partial_state_fault(Operation op, ElementType element, ElementType accumulator, KernelOp plugin,
                                ElementMap map, std::uint64_t count, const std::uint8_t* state, std::size_t bytes);

// A state of format versions 1 to 3 in the layout of version 4: their statistics of integer
// elements in a float32 accumulator kept the extremes as floats (rounded, ops/moments.cl),
// version 4 as the 32-bit integers they are (state_value.hpp). Those floats, which must be
// values of the element type, become those integers in place; other states are left as they
// are. Returns why the state cannot be converted, empty where it can.
std::string upgrade_moments_extremes(ElementType element, ElementType accumulator, KernelOp plugin, std::uint64_t count,
                                     std::uint8_t* state);

}  // namespace clreduce
