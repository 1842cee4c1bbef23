#pragma once
// The segment mapping of a segmented call (cl_kernels/segments.cl): how many work-items reduce
// one segment, and how many work-groups share one, from the caller's LaunchParams or from the
// segments' average length and count.
#include <cstdint>
#include <optional>

#include <clreduce/device_info.hpp>
#include <clreduce/launch_params.hpp>

namespace clreduce {

// What decides a segmented call's mapping besides the caller's LaunchParams and the tuning
// table's team (`tuned_team`, for the segments' kind and average length, from `tuned_source`).
struct SegmentCallShape {
    std::uint64_t segments = 0;
    std::uint64_t extent = 0;  // elements the segments address in all
    bool listed = false;       // offsets or begin/end arrays (else batches or rows)
    std::optional<std::uint32_t> tuned_team;
    ParamSource tuned_source = ParamSource::tuned;
};

// Sets plan.segments, segment_team, groups_per_segment and groups;
// plan.work_group_size and vector_width are set. InvalidArgument for overrides that make no
// mapping. The tuned team comes between the caller's segment_team and the rule;
// plan.sources.segment_team says which decided.
void plan_segment_mapping(LaunchPlan& plan, const SegmentCallShape& shape, const DeviceInfo& device,
                          const LaunchParams& params);

// The same for the `columns` columns of a matrix of `rows` rows (Segments::columns): a group
// spans wg / segment_team columns, each read by segment_team lanes that split its rows (a
// group spans every column of a narrow matrix), and groups share the rows of each column
// until the device is full.
void plan_column_mapping(LaunchPlan& plan, std::uint64_t columns, std::uint64_t rows, const DeviceInfo& device,
                         const LaunchParams& params);

// Segmented calls finish every segment in its group or by a second launch: Unsupported for any
// other level 3 the caller asks for.
void check_segment_level3(const LaunchParams& params);

}  // namespace clreduce
