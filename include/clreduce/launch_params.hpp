#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include <clreduce/device_info.hpp>
#include <clreduce/element_type.hpp>
#include <clreduce/operation.hpp>

namespace clreduce {

// Level 1 addressing (the paper's two variants):
//   global: work-item g reads vectors g, g + G, g + 2G, ... (G = all work-items of the launch)
//   local:  work-group w owns the tile [w*L*times, (w+1)*L*times); work-item l reads tile + l + i*L
enum class Stride { global, local };

// Level 3: how the per-group results become one.
//   atomic:      one launch, each group atomically adds into the result (integer accumulators)
//   second_pass: groups store partials, one more single-group launch combines them
//                (deterministic; used for floating point)
enum class InterGroup { atomic, second_pass };

// How floating-point additive reductions (sum, mean, sum_of_squares, norm_l1, norm_l2 and
// transform_reduce with Combine::sum) accumulate. Integer reductions are exact (modulo the
// accumulator's width) whatever the mode.
//   deterministic      (default) fixed order: in-thread, tree, partials and a second pass.
//                      Bit-identical run after run on one device with one plan; no float
//                      atomics. Error <= (n - 1) * u * sum|x| (u of the accumulator).
//   atomic             groups add their results into the accumulator with a compare-and-swap
//                      loop on its bits: one launch, but the order of the group results, hence
//                      the last bits, may change from run to run. Needs 64-bit atomics for a
//                      double accumulator.
//   compensated        Neumaier (improved Kahan) sums in every work-item, tree step and pass:
//                      deterministic; error about 2u * sum|x| + n * u^2 * sum|x|.
//   correctly_rounded  the exactly rounded true sum (long fixed-point accumulator): identical
//                      on every device and plan. Only where the device can host it.
enum class FloatMode { deterministic, atomic, compensated, correctly_rounded };

std::string_view to_string(Stride stride);
std::string_view to_string(InterGroup inter_group);
std::string_view to_string(FloatMode mode);
FloatMode parse_float_mode(std::string_view name);  // to_string's spelling; throws InvalidArgument

// Per-call overrides. Every field left empty takes the device default (see default_plan).
struct LaunchParams {
    std::optional<std::uint32_t> times;            // vectors each work-item accumulates, >= 1
    std::optional<std::uint32_t> work_group_size;  // power of two, <= device maximum
    std::optional<Stride> stride;
    std::optional<std::uint32_t> vector_width;  // 1, 2, 4, 8 or 16 elements per load
    std::optional<InterGroup> inter_group;
    std::optional<FloatMode> float_mode;  // floating-point additive reductions only
    // Accumulator type (int32, uint32, int64, uint64, float32 or float64) of additive
    // reductions and product; default: accumulator_for(). Narrower accumulators wrap
    // around (integers, modulo 2^bits) or round (floats) as that type does. The extremum
    // operations (min, max, minmax, argmin, argmax) compare in the element type and ignore it.
    std::optional<ElementType> accumulator;
};

// Fully resolved parameters for one call: what the kernels were specialised with.
struct LaunchPlan {
    Operation operation = Operation::sum;
    FloatMode float_mode = FloatMode::deterministic;
    ElementType element = ElementType::int32;
    ElementType accumulator = ElementType::int64;
    std::uint32_t times = 1;
    std::uint32_t work_group_size = 1;
    Stride stride = Stride::global;
    std::uint32_t vector_width = 1;
    InterGroup inter_group = InterGroup::second_pass;
    std::uint64_t groups = 1;  // work-groups of the first launch

    std::string describe() const;  // one line, for logs and the perf tool
};

// Accumulator the sum of `element` uses on this device.
ElementType accumulator_for(ElementType element, const DeviceInfo& device);
// Accumulator (kernel state's value type) of `op` over `element` on this device, by default.
ElementType accumulator_for(Operation op, ElementType element, const DeviceInfo& device);

// Throws Unsupported if the device cannot reduce `element` (e.g. float64 without fp64,
// float16 without cl_khr_fp16).
void require_support(ElementType element, const DeviceInfo& device);

// Resolves overrides against the device defaults for n elements; validates every
// override (InvalidArgument) and the inter-group choice (Unsupported).
LaunchPlan make_plan(ElementType element, std::uint64_t n, const DeviceInfo& device,
                     const LaunchParams& overrides = {});
// The same for any operation (the one above is Operation::sum).
LaunchPlan make_plan(Operation op, ElementType element, std::uint64_t n, const DeviceInfo& device,
                     const LaunchParams& overrides = {});

}  // namespace clreduce
