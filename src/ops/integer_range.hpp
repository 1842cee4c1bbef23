#pragma once
// Where an integer additive reduction could overflow its accumulator, and the exact state that
// keeps it exact there (IntegerOverflow in launch_params.hpp, docs/numerics.md).
#include <cstdint>

#include <clreduce/element_type.hpp>
#include <clreduce/launch_params.hpp>
#include <clreduce/operation.hpp>

#include "ops/operation_table.hpp"

namespace clreduce {

// What the planner decides for an integer accumulator.
struct IntegerState {
    ElementType accumulator;   // the type each element's term is widened to
    std::uint32_t exact_bits;  // 0: the accumulator cannot overflow for n; else 128 or 192
};

// For `op` (its element map `map`: the transform for transform_reduce) over n elements of
// `element` with the integer accumulator planned so far. `named`: the caller chose the
// accumulator. Throws InvalidArgument where a named accumulator cannot hold every term and
// the result must be exact (IntegerOverflow::check, or mean and the norms, which are exact
// under either rule).
IntegerState plan_integer_state(Operation op, ElementMap map, ElementType element, ElementType accumulator,
                                std::uint64_t n, IntegerOverflow rule, bool named);

// The plug-in of an exact state of `bits` (128 or 192).
KernelOp exact_integer_plugin(std::uint32_t bits);

}  // namespace clreduce
