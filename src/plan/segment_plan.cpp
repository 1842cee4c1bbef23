#include "plan/segment_plan.hpp"

#include <algorithm>
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
// groups share a segment; shared segments aim at kGroupsPerUnit groups per compute unit in all.
constexpr std::uint64_t kVectorsPerItem = 64;
constexpr std::uint64_t kGroupsPerUnit = 8;
constexpr std::uint64_t kSplitVectorsPerLane = 64;
constexpr std::uint64_t kChunkVectorsPerItem = 16;

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
    const std::uint32_t wg = plan.work_group_size;
    plan.segments = columns;
    plan.segment_columns = true;
    plan.times = 1;
    plan.stride = Stride::global;
    plan.inter_group = InterGroup::second_pass;
    plan.segment_split = 0;
    plan.segment_chunk = 0;
    // Lanes per column: one where a group's columns fill it, else as many as leave every
    // column of a narrow matrix in one group.
    plan.segment_team = params.segment_team
                            ? explicit_team(params, wg)
                            : static_cast<std::uint32_t>(
                                  columns >= wg ? 1 : floor_power_of_two(wg / std::max<std::uint64_t>(columns, 1)));
    if (params.groups_per_segment) {
        if (*params.groups_per_segment < 1) throw InvalidArgument("groups_per_segment must be at least 1, got 0");
        plan.groups_per_segment = *params.groups_per_segment;
    } else {
        // Groups share the rows until the device has kGroupsPerUnit groups per compute unit,
        // each lane reading kVectorsPerItem rows or more.
        const std::uint64_t wanted = std::uint64_t(std::max<std::uint32_t>(device.compute_units, 1)) * kGroupsPerUnit;
        const std::uint64_t column_groups = std::max<std::uint64_t>(ceil_div(columns, wg / plan.segment_team), 1);
        plan.groups_per_segment = static_cast<std::uint32_t>(
            std::clamp<std::uint64_t>(std::min(ceil_div(wanted, column_groups),
                                               rows / (std::uint64_t(plan.segment_team) * kVectorsPerItem)),
                                      1, 1u << 16));
    }
    set_groups(plan, columns);
}

void plan_segment_mapping(LaunchPlan& plan, std::uint64_t segments, std::uint64_t extent, const DeviceInfo& device,
                          const LaunchParams& params) {
    const std::uint32_t wg = plan.work_group_size;
    plan.segments = segments;
    plan.times = 1;
    plan.stride = Stride::global;
    plan.inter_group = InterGroup::second_pass;
    // Vectors per segment on average: a team of a quarter as many lanes reads each segment in
    // about four coalesced steps, but two lanes at least from two vectors on (measured on the
    // H100, float32, 2^28 elements: 16-element segments 0.97 of the read-only kernel with two
    // lanes, 0.57 with one, 0.93 with four; 256-element ones 0.99 with 16 lanes, 4096-element
    // ones 1.00 with 256; uniform 0-2048 0.81 / 0.88 / 0.91 with 16 / 64 / 32 lanes).
    const std::uint64_t average = segments == 0 ? 0 : ceil_div(ceil_div(extent, segments), plan.vector_width);
    if (params.segment_team) {
        plan.segment_team = explicit_team(params, wg);
    } else {
        const std::uint64_t least = average >= 2 ? 2 : 1;
        plan.segment_team =
            static_cast<std::uint32_t>(std::clamp<std::uint64_t>(floor_power_of_two(average / 4), least, wg));
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
            parts = std::clamp<std::uint64_t>(std::min(ceil_div(wanted, segments),
                                                       average / (std::uint64_t(wg) * kVectorsPerItem)),
                                              1, 1u << 16);
        plan.groups_per_segment = static_cast<std::uint32_t>(parts);
    }
    // Past kSplitVectorsPerLane vectors per lane a listed segment is split into chunks that
    // every group shares (kChunkVectorsPerItem vectors per work-item each).
    plan.segment_split =
        plan.groups_per_segment == 1 ? std::uint64_t(plan.segment_team) * plan.vector_width * kSplitVectorsPerLane : 0;
    plan.segment_chunk = std::uint64_t(wg) * plan.vector_width * kChunkVectorsPerItem;
    set_groups(plan, segments);
}

}  // namespace clreduce
