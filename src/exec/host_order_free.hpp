#pragma once
// The host path's operations whose result does not depend on the order of the elements:
// integer sums, products and counts (exact, or modulo 2^64 as the kernels' 64-bit
// accumulators wrap), extremes and bit operations of integers, and argmin/argmax/argminmax of
// any type (the lowest index among the best values, NaN losing to every number: a rule, not an
// order). Any split of the range gives the kernels' state, so the host's threads each take a
// part and the parts' states are combined.
#include <cstdint>

#include <clreduce/launch_params.hpp>

#include "ops/operation_table.hpp"

namespace clreduce {

// Whether `plan` is one of these (with the default accumulator of its operation).
bool order_free_on_host(const LaunchPlan& plan, const OpKernel& kernel);

// The state the kernels would leave for `plan` over `count` elements at `data` (any address),
// into `state` (state_size bytes of the plug-in's struct).
void reduce_order_free(const LaunchPlan& plan, const OpKernel& kernel, const unsigned char* data, std::uint64_t count,
                       unsigned char* state);

}  // namespace clreduce
