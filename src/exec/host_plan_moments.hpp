#pragma once
// The host path's statistics (ops/moments.cl: count, shift, sums of the deviations and of their
// squares, extremes) of int32, uint32, float and double data in a double accumulator, in the
// plan's order, so that host data gets the bits the kernels give the same values in a buffer:
// level 1 (each lane of a work-item's vectors keeps its own sums about its first value, the
// lanes combine in order, the scalar tail in group 0), level 2 (reduce.cl's tree) and the last
// group's loop and tree, each step the kernel's formula (FP_CONTRACT off on both sides). The
// extremes depend on no order but for a zero's sign and a NaN's bits: where the data's extreme
// is a zero of both signs (which one fmin returns is the device's choice), or where the data
// holds no number (which NaN fmin leaves is the device's), the call goes to the device.
#include <cstdint>

#include <clreduce/launch_params.hpp>

#include "ops/operation_table.hpp"

namespace clreduce {

// Whether `plan` is one of these, with work-items of at least 16 elements (below, the
// combines outweigh the reads: the device runs it).
bool moments_on_host(const LaunchPlan& plan, const OpKernel& kernel);

// Writes the state (48 bytes: ulong count, then shift, s1, s2, lo, hi as doubles) the kernels'
// launch sequence would leave for `plan` over `count` elements at `data` (any address); false,
// with nothing written, where the device decides (a zero of both signs as an extreme, no number).
bool reduce_moments_on_host(const LaunchPlan& plan, const unsigned char* data, std::uint64_t count,
                            unsigned char* state_bits);

}  // namespace clreduce
