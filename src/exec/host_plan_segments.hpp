#pragma once
// The host path's float sums of many segments (batches, a matrix's rows or columns, host CSR
// offsets) in the plan's order: sum, mean, sum_of_squares, norm_l1 and norm_l2 of float and
// double data into a double accumulator, FloatMode::deterministic, as host_plan_order.hpp does
// for one range. Each segment's state is the one cl_kernels/segments.cl leaves:
//   clreduce_reduce_segments: lane L of a segment's groups_per_segment * segment_team lanes adds
//     vectors L, L + lanes, ... lane by lane from zero, then its lanes' tree of halves, then its
//     share of the scalar tail; each group's team adds its lanes by level 2's tree;
//   clreduce_reduce_columns: lane L adds rows L, L + lanes, ... of its column from zero; each
//     group's team adds its lanes by the same tree;
//   where groups share a segment, the combining launch: work-item k adds the groups' values k,
//     k + wg, ... from zero, then the group's tree.
// A host thread takes one group's part of a segment (a run of segments, or a block of columns)
// at a time; the parts are combined once every part is done.
#include <cstddef>
#include <cstdint>

#include <clreduce/launch_params.hpp>

#include "exec/host_order_free.hpp"
#include "ops/operation_table.hpp"

namespace clreduce {

// Whether `plan` (a segmented call's) is one of these.
bool segments_plan_order_on_host(const LaunchPlan& plan, const OpKernel& kernel);

// Whether these segments fit the host's copy of the plan: listed ones (offsets) no longer than
// the plan's split (the longer ones' rests are chunks that every group shares, ordered by the
// device's atomics; such calls run on the device).
bool segments_fit_plan_order(const LaunchPlan& plan, const HostSegments& segments);

// Each segment's state (a double) into states + s * sizeof(double), any alignment.
void reduce_segments_in_plan_order(const LaunchPlan& plan, const OpKernel& kernel, const unsigned char* data,
                                   const HostSegments& segments, unsigned char* states);

// Whether the columns' lanes (groups_per_segment * segment_team values a column, kept until every
// row is read) take no more memory than the elements do.
bool columns_fit_plan_order(const LaunchPlan& plan, const HostColumns& columns);

// Each column's state (a double) into states + c * sizeof(double), any alignment.
void reduce_columns_in_plan_order(const LaunchPlan& plan, const OpKernel& kernel, const unsigned char* data,
                                  const HostColumns& columns, unsigned char* states);

}  // namespace clreduce
