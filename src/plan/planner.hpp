#pragma once
// The one planner: a call's whole launch plan, from the caller's LaunchParams, then this
// device's tuned entry, then the known-device table, then the defaults, in the stages of
// plan_stages.hpp. Every call form (synchronous, asynchronous, image, host data, segments,
// transform_reduce) is planned and refused here and nowhere else, so Reducer::plan() returns
// exactly what a call launches, and refuses what it refuses.
#include <cstdint>
#include <optional>

#include <clreduce/device_info.hpp>
#include <clreduce/launch_params.hpp>
#include <clreduce/results.hpp>

#include "ops/operation_table.hpp"

namespace clreduce {

// Values between the caller's overrides and the device defaults: a tuning-database or
// known-device entry for the size bucket `n` (segmented calls: a segment entry's team and
// work-group size, n its segment length).
struct TunedParams {
    LaunchParams params;
    ParamSource source = ParamSource::tuned;
    std::uint64_t n = 0;
};

// What is being planned.
struct PlanRequest {
    Operation op = Operation::sum;  // for transform_reduce: combine_operation(combine)
    ElementType element = ElementType::int32;
    std::uint64_t n = 0;
    CallForm form = CallForm::sync;
    bool transform = false;  // transform_reduce: accumulates in the sum's accumulator
    // transform_reduce with a combine of the user's own (CombineExpression): planned as a
    // product (`op`), run by ops/user_combine.cl, never finished atomically.
    bool user_combine = false;
    std::uint64_t segments = 0;     // CallForm::segments: how many (n: the elements they address)
    std::uint64_t column_rows = 0;  // column segments (Segments::columns): the rows, else 0
    bool columns = false;
    bool listed = false;  // segments from offsets or begin/end arrays (lengths may vary)
    // Segments whose results stay in a device buffer (the segmented *_async calls).
    bool device_results = false;
    std::uint32_t channels = 1;  // CallForm::image: the image's channels, which share a launch
};

// Resolves overrides against `tuned` (when given) and the device defaults; validates every
// override (InvalidArgument) and the level 3 choice (Unsupported). Tuned values that make no
// valid plan for this request are dropped for the defaults.
LaunchPlan make_plan(const PlanRequest& request, const DeviceInfo& device, const LaunchParams& overrides = {},
                     const TunedParams* tuned = nullptr);

// A synchronous call of `op` (the tuner's and the tests' shorthand).
LaunchPlan make_plan(Operation op, ElementType element, std::uint64_t n, const DeviceInfo& device,
                     const LaunchParams& overrides = {});
LaunchPlan make_plan(Operation op, ElementType element, std::uint64_t n, const DeviceInfo& device,
                     const LaunchParams& overrides, const TunedParams& tuned);
// The same for a sum.
LaunchPlan make_plan(ElementType element, std::uint64_t n, const DeviceInfo& device,
                     const LaunchParams& overrides = {});
LaunchPlan make_plan(ElementType element, std::uint64_t n, const DeviceInfo& device, const LaunchParams& overrides,
                     const TunedParams& tuned);

// The plug-in and element map a plan's kernels run.
OpKernel plan_kernel(const LaunchPlan& plan);

}  // namespace clreduce
