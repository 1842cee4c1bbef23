#pragma once
// The planner's stages, in the order resolve() (planner.cpp) runs them:
//   1. semantics: the form's and the operation's checks, the float mode;
//   2. accumulator and exactness: the accumulator, the correctly rounded state, the exact
//      integer state, and the refusals of results left on the device that these imply;
//   3. launch shape: vector width, work-group size, times, stride, groups (segmented calls:
//      their mapping), each value the caller's, else the tuned entry's (checked by
//      usable_tuned), else the known-device entry's, else the device default (launch_shape.cpp);
//   4. level 3: how the groups' results become one (launch_shape.cpp);
//   5. form rules: what the call's form adds (the host path, segmented results on the device)
//      and what the plan promises (reproducibility, the tuned entry it used).
#include <cstddef>
#include <cstdint>

#include <clreduce/device_info.hpp>
#include <clreduce/launch_params.hpp>

#include "ops/operation_table.hpp"
#include "plan/planner.hpp"

namespace clreduce::plan_stages {

// Largest work-group count one launch may use (NVIDIA's grid x limit is 2^31 - 1).
constexpr std::uint64_t kMaxGroups = (1ull << 31) - 1;

// The local memory a work-group's states take: state_bytes a work-item, group_bytes a group;
// the correctly rounded sum's expansions (exact atomic finish) where `expansions`.
struct StateFootprint {
    std::size_t state_bytes = 0;
    std::size_t group_bytes = 0;
    bool expansions = false;
    // Default shapes with the expansions' long work-items and few groups (launch_shape.cpp,
    // default_times): on a GPU, images of the fused statistics and argmin/argmax, and
    // argmin/argmax ranges of 2- and 4-byte elements (planner.cpp, state_footprint).
    bool long_items = false;
    // Set with long_items only: the groups per compute unit aimed at, where not the expansions' (0).
    std::uint32_t groups_per_compute_unit = 0;
    std::size_t load_bytes = 0;  // the default vector's bytes; 0: the device's (vendor.hpp)
    bool exact_fits = false;     // the exact atomic finish is available for this plan
};

// The tuned or known-device entry this plan may take values from, once checked for it.
struct TunedChoice {
    const TunedParams* entry = nullptr;  // null: none applies
    LaunchParams usable;                 // the entry's values this plan can take (usable_tuned)
    const LaunchParams* values() const { return entry != nullptr ? &usable : nullptr; }
    ParamSource source() const { return entry != nullptr ? entry->source : ParamSource::tuned; }
};

// The tuned entry's values a call can take, each checked as an override is: a value the call
// would refuse is left out and the default takes its place, so that a tuned entry never makes
// a call fail.
LaunchParams usable_tuned(LaunchParams t, const DeviceInfo& device, const StateFootprint& state);

// Stage 3. Sets the plan's launch shape (segmented calls: their mapping too). False where the
// tuned entry's shape needs more than kMaxGroups work-groups for this n: the caller plans the
// shape again without it (the entry's values were measured together, so none of them stays).
bool plan_launch_shape(LaunchPlan& plan, const PlanRequest& request, const DeviceInfo& device,
                       const LaunchParams& params, const StateFootprint& state, const TunedChoice& tuned);

// Stage 4 (not for segmented calls, which finish in their groups or a second launch).
void plan_level3(LaunchPlan& plan, const OpKernel& kernel, const PlanRequest& request, const DeviceInfo& device,
                 const LaunchParams& params, const StateFootprint& state, const TunedChoice& tuned);

}  // namespace clreduce::plan_stages
