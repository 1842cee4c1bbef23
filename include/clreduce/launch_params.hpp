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

// Where a plan's value came from, in order of precedence: the caller's LaunchParams, this
// device's tuning-database entry, clreduce's table of measured devices, the device default.
enum class ParamSource { override, tuned, known_device, device_default };

std::string_view to_string(Stride stride);
std::string_view to_string(InterGroup inter_group);
std::string_view to_string(ParamSource source);  // "override", "tuned", "known device", "default"

// Per-call overrides. Every field left empty takes the tuned value (README, "Tuning"), else
// the device default.
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

    struct Sources {
        ParamSource times = ParamSource::device_default;
        ParamSource work_group_size = ParamSource::device_default;
        ParamSource stride = ParamSource::device_default;
        ParamSource vector_width = ParamSource::device_default;
        ParamSource inter_group = ParamSource::device_default;
    } sources;
    std::uint64_t tuned_n = 0;  // size bucket of the tuned or known-device entry used; 0: none

    std::string describe() const;          // one line, for logs and the perf tool
    std::string describe_sources() const;  // "times=tuned(4096) wg=override ..."
};

// Values between the caller's overrides and the device defaults: a tuning-database or
// known-device entry for the size bucket `n`.
struct TunedParams {
    LaunchParams params;
    ParamSource source = ParamSource::tuned;
    std::uint64_t n = 0;
};

// Accumulator the sum of `element` uses on this device.
ElementType accumulator_for(ElementType element, const DeviceInfo& device);

// Throws Unsupported if the device cannot reduce `element` (e.g. float64 without fp64).
void require_support(ElementType element, const DeviceInfo& device);

// Resolves overrides against the device defaults for n elements; validates every
// override (InvalidArgument) and the inter-group choice (Unsupported).
LaunchPlan make_plan(ElementType element, std::uint64_t n, const DeviceInfo& device,
                     const LaunchParams& overrides = {});
// As above, with `tuned` below the overrides. Tuned values that make no valid plan for this
// n (e.g. too many work-groups far from their bucket) are dropped for the defaults.
LaunchPlan make_plan(ElementType element, std::uint64_t n, const DeviceInfo& device,
                     const LaunchParams& overrides, const TunedParams& tuned);

}  // namespace clreduce
