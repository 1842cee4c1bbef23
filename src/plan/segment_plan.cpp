#include "plan/segment_plan.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <clreduce/error.hpp>

namespace clreduce {
namespace {

bool is_power_of_two(std::uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

std::uint64_t floor_power_of_two(std::uint64_t v) {
    std::uint64_t p = 1;
    while (p * 2 <= v) p *= 2;
    return p;
}

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return a / b + (a % b != 0 ? 1 : 0); }

// A whole group per segment reads kVectorsPerItem vectors per work-item or more before more
// groups share a segment; shared segments aim at kGroupsPerUnit groups per compute unit in all,
// and no more: a few groups past one wave of them leave the device idle for a second wave.
constexpr std::uint64_t kVectorsPerItem = 64;
constexpr std::uint64_t kGroupsPerUnit = 8;
constexpr std::uint64_t kSplitVectorsPerLane = 64;
constexpr std::uint64_t kChunkVectorsPerItem = 16;
// experimental::SegmentOptions::medium: the second launch's teams keep up to this many vectors a lane
// of a segment, the rest goes to the chunks: more a lane leaves a team walking one segment
// while the others wait, fewer costs the chunks' extra launches.
constexpr std::uint64_t kMediumSplitVectorsPerLane = 32;
}  // namespace

void check_segment_level3(const LaunchParams& params) {
    if (params.inter_group && *params.inter_group != InterGroup::second_pass)
        throw Unsupported(
            "segmented calls finish each segment in its work-group, or by a second launch over the "
            "partials of groups that share one (InterGroup::second_pass), not InterGroup::" +
            std::string(to_string(*params.inter_group)));
}

namespace {

std::uint32_t explicit_team(const LaunchParams& params, std::uint32_t wg) {
    if (!is_power_of_two(*params.segment_team) || *params.segment_team > wg)
        throw InvalidArgument("segment_team must be a power of two no larger than work_group_size (" +
                              std::to_string(wg) + "), got " + std::to_string(*params.segment_team));
    return *params.segment_team;
}

// Vectors a lane loads before it adds any (segments.cl's CLREDUCE_SEGMENT_UNROLL), from the
// vectors it reads on average: a loop that loads and adds one at a time waits a memory round
// trip an iteration. Several loads pay where a lane reads several vectors; where it reads two
// or fewer, the unused loads' bound checks cost more than they hide. No more than 16 elements
// a lane (registers). Floats widened to a double accumulator in segments of equal length keep
// one load up to 4 vectors a lane (there the loads ahead cost more than they hide), but not in
// listed ones, whose lanes' counts differ and where the loads ahead pay. Measured in
// docs/performance.md, "Many reductions per call". `per_segment`: the vectors (for columns:
// rows) of one segment, which its lanes and groups share.
std::uint32_t segment_loads(const LaunchParams& params, const LaunchPlan& plan, double per_segment,
                            bool equal_lengths) {
    if (params.segment_loads) {
        if (!is_power_of_two(*params.segment_loads) || *params.segment_loads > 16)
            throw InvalidArgument("segment_loads must be a power of two no larger than 16, got " +
                                  std::to_string(*params.segment_loads));
        return *params.segment_loads;
    }
    const double vectors_per_lane = per_segment / (double(plan.segment_team) * plan.groups_per_segment);
    const std::uint32_t most = std::max<std::uint32_t>(16 / std::max<std::uint32_t>(plan.vector_width, 1), 1);
    const bool widened = equal_lengths && is_floating(plan.element) && plan.element != plan.accumulator;
    const std::uint32_t loads = vectors_per_lane <= (widened ? 4 : 2) ? 1 : vectors_per_lane < 4 ? 2 : 4;
    return std::min(loads, most);
}

void set_groups(LaunchPlan& plan, std::uint64_t segments) {
    const std::uint64_t per_group = plan.work_group_size / plan.segment_team;
    plan.groups = ceil_div(segments, per_group) * plan.groups_per_segment;
    constexpr std::uint64_t kMaxGroups = (1ull << 31) - 1;
    if (plan.groups > kMaxGroups)
        throw InvalidArgument(std::to_string(segments) + " segments need " + std::to_string(plan.groups) +
                              " work-groups with segment_team " + std::to_string(plan.segment_team) +
                              "; use a smaller segment_team or fewer groups_per_segment");
}

}  // namespace

void plan_column_mapping(LaunchPlan& plan, std::uint64_t columns, std::uint64_t rows, const DeviceInfo& device,
                         const LaunchParams& params) {
    if (params.experimental_segments.medium != 0)
        throw InvalidArgument(
            "experimental::SegmentOptions::medium takes listed segments (offsets, begin/end arrays), not a matrix's "
            "columns");
    const std::uint32_t wg = plan.work_group_size;
    plan.segments = columns;
    plan.segment_columns = true;
    plan.times = 1;
    plan.stride = Stride::global;
    plan.inter_group = InterGroup::second_pass;
    plan.segment_split = 0;
    plan.segment_chunk = 0;
    // A work-item reads vector_width adjacent columns (a slot). Lanes per slot: one where a
    // group's slots fill it, else as many as leave every column of a narrow matrix in one group.
    const std::uint64_t slots = ceil_div(columns, plan.vector_width);
    plan.segment_team =
        params.segment_team
            ? explicit_team(params, wg)
            : static_cast<std::uint32_t>(slots >= wg ? 1 : floor_power_of_two(wg / std::max<std::uint64_t>(slots, 1)));
    plan.sources.segment_team = params.segment_team ? ParamSource::override : ParamSource::device_default;
    if (params.groups_per_segment) {
        if (*params.groups_per_segment < 1) throw InvalidArgument("groups_per_segment must be at least 1, got 0");
        plan.groups_per_segment = *params.groups_per_segment;
    } else {
        // Groups share the rows until the device has kGroupsPerUnit groups per compute unit,
        // each lane reading kVectorsPerItem rows or more.
        const std::uint64_t wanted = std::uint64_t(std::max<std::uint32_t>(device.compute_units, 1)) * kGroupsPerUnit;
        const std::uint64_t column_groups = std::max<std::uint64_t>(ceil_div(slots, wg / plan.segment_team), 1);
        plan.groups_per_segment = static_cast<std::uint32_t>(
            std::clamp<std::uint64_t>(std::min(wanted / column_groups,
                                               rows / (std::uint64_t(plan.segment_team) * kVectorsPerItem)),
                                      1, 1u << 16));
    }
    plan.segment_loads = segment_loads(params, plan, static_cast<double>(rows), false);
    set_groups(plan, slots);
}

namespace {

// experimental::SegmentOptions::medium, where the caller asks for it (InvalidArgument where it cannot be).
void plan_medium_segments(LaunchPlan& plan, const SegmentCallShape& shape, const LaunchParams& params) {
    plan.segment_medium = 0;
    if (params.experimental_segments.medium == 0) return;
    const std::uint64_t medium = params.experimental_segments.medium;
    const std::uint32_t medium_team = std::min<std::uint32_t>(plan.work_group_size, 32);
    if (!shape.listed)
        throw InvalidArgument(
            "experimental::SegmentOptions::medium takes listed segments (offsets, begin/end arrays), not batches or "
            "rows");
    if (plan.segment_team >= medium_team || plan.groups_per_segment != 1)
        throw InvalidArgument(
            "experimental::SegmentOptions::medium needs teams of fewer than " + std::to_string(medium_team) +
            " lanes, one group a segment; this call's segment_team is " + std::to_string(plan.segment_team) +
            ", groups_per_segment " + std::to_string(plan.groups_per_segment));
    const std::uint64_t split = std::uint64_t(medium_team) * plan.vector_width * kMediumSplitVectorsPerLane;
    if (medium >= split)
        throw InvalidArgument("experimental::SegmentOptions::medium must be below " + std::to_string(split) +
                              " elements (longer segments' rests are shared in chunks), got " + std::to_string(medium));
    plan.segment_medium = medium;
    plan.segment_split = split;
}

}  // namespace

void plan_segment_mapping(LaunchPlan& plan, const SegmentCallShape& shape, const DeviceInfo& device,
                          const LaunchParams& params) {
    const std::uint32_t wg = plan.work_group_size;
    const std::uint64_t segments = shape.segments, extent = shape.extent;
    plan.segments = segments;
    plan.times = 1;
    plan.stride = Stride::global;
    plan.inter_group = InterGroup::second_pass;
    // Long listed segments' rests are shared in chunks of this many elements.
    plan.segment_chunk = std::uint64_t(wg) * plan.vector_width * kChunkVectorsPerItem;
    const std::optional<std::uint32_t> tuned_team = shape.tuned_team;
    const ParamSource tuned_source = shape.tuned_source;
    // Vectors per segment on average, and a team of lanes to read each segment in a few
    // coalesced steps: half as many lanes as vectors for short segments, about 2 sqrt(average)
    // in between, a quarter for long ones, two lanes at least from two vectors on: the team
    // sizes that measured fastest per length on NVIDIA GPUs, where tuning does not say otherwise.
    const std::uint64_t average = segments == 0 ? 0 : ceil_div(ceil_div(extent, segments), plan.vector_width);
    if (params.segment_team) {
        plan.segment_team = explicit_team(params, wg);
        plan.sources.segment_team = ParamSource::override;
    } else if (tuned_team && *tuned_team <= wg) {  // (a power of two: usable_tuned in planner.cpp)
        plan.segment_team = *tuned_team;
        plan.sources.segment_team = tuned_source;
    } else {
        plan.sources.segment_team = ParamSource::device_default;
        const double a = static_cast<double>(average);
        const double lanes = std::max(std::min(a / 2, 2 * std::sqrt(a)), a / 4);
        const std::uint64_t least = average >= 2 ? 2 : 1;
        plan.segment_team = static_cast<std::uint32_t>(
            std::clamp<std::uint64_t>(floor_power_of_two(static_cast<std::uint64_t>(lanes)), least, wg));
    }
    const bool whole_group = plan.segment_team == wg;
    if (params.groups_per_segment) {
        if (*params.groups_per_segment < 1) throw InvalidArgument("groups_per_segment must be at least 1, got 0");
        if (*params.groups_per_segment > 1 && !whole_group)
            throw InvalidArgument(
                "groups_per_segment > 1 needs a whole work-group per segment (segment_team = "
                "work_group_size = " +
                std::to_string(wg) + "), got segment_team " + std::to_string(plan.segment_team));
        plan.groups_per_segment = *params.groups_per_segment;
    } else {
        // Few, long segments: groups share them until the device has kGroupsPerUnit groups per
        // compute unit, each with kVectorsPerItem vectors per work-item or more.
        const std::uint64_t wanted = std::uint64_t(std::max<std::uint32_t>(device.compute_units, 1)) * kGroupsPerUnit;
        std::uint64_t parts = 1;
        if (whole_group && segments > 0 && segments < wanted)
            parts =
                std::clamp<std::uint64_t>(std::min(wanted / segments, average / (std::uint64_t(wg) * kVectorsPerItem)),
                                          1, 1u << 16);
        plan.groups_per_segment = static_cast<std::uint32_t>(parts);
    }
    // Past kSplitVectorsPerLane vectors per lane a listed segment is split into chunks that
    // every group shares (kChunkVectorsPerItem vectors per work-item each).
    plan.segment_split =
        plan.groups_per_segment == 1 ? std::uint64_t(plan.segment_team) * plan.vector_width * kSplitVectorsPerLane : 0;
    plan.segment_loads = segment_loads(params, plan, static_cast<double>(average), !shape.listed);
    plan_medium_segments(plan, shape, params);
    set_groups(plan, segments);
}

}  // namespace clreduce
