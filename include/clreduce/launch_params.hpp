#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include <clreduce/device_info.hpp>
#include <clreduce/element_type.hpp>

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

std::string_view to_string(Stride stride);
std::string_view to_string(InterGroup inter_group);

// Per-call overrides. Every field left empty takes the device default (see default_plan).
struct LaunchParams {
    std::optional<std::uint32_t> times;            // vectors each work-item accumulates, >= 1
    std::optional<std::uint32_t> work_group_size;  // power of two, <= device maximum
    std::optional<Stride> stride;
    std::optional<std::uint32_t> vector_width;  // 1, 2, 4, 8 or 16 elements per load
    std::optional<InterGroup> inter_group;
};

// Fully resolved parameters for one call: what the kernels were specialised with.
struct LaunchPlan {
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

// Throws Unsupported if the device cannot reduce `element` (e.g. float64 without fp64).
void require_support(ElementType element, const DeviceInfo& device);

// Resolves overrides against the device defaults for n elements; validates every
// override (InvalidArgument) and the inter-group choice (Unsupported).
LaunchPlan make_plan(ElementType element, std::uint64_t n, const DeviceInfo& device,
                     const LaunchParams& overrides = {});

}  // namespace clreduce
