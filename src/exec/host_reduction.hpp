#pragma once
// The host path (LaunchPlan::on_host): host data reduced by the host's own threads, reading it
// where it lies, into the state the plan's kernels would leave for the same values in a
// buffer, so the result has the device's bits without a launch, a copy or a read back. A pass
// over host memory runs at the host memory's speed; crossing to a GPU runs at the link's, and
// a launch and its read cost a CPU device tens of microseconds (docs/performance.md, "Where
// host data is reduced").
//   order-free operations (host_order_free.hpp): integer sums, products, counts, extremes and
//     bit operations, counts of floats, argmin/argmax/argminmax of any type;
//   plan-order float sums (host_plan_order.hpp): sum, mean, sum_of_squares, norm_l1 and
//     norm_l2 of floats and doubles in FloatMode::deterministic, in the plan's order;
//   plan-order statistics (host_plan_moments.hpp) of int32, uint32, float and double.
// The rest (float products, statistics of 8/16-bit data, transforms, half, the
// other float modes, the 192-bit exact sums of 64-bit squares) run on the device. Host
// segments run on the host too (api/segment_operations.cpp): batches, rows, host offsets and a
// matrix's columns of the order-free operations (host_order_free_columns.cpp for the columns),
// and the plan-order float sums of those (host_plan_segments.hpp); images on the device.
#include <cstdint>

#include <clreduce/device_info.hpp>
#include <clreduce/launch_params.hpp>

#include "ops/operation_table.hpp"

namespace clreduce {

// Whether `plan` (with its plug-in `kernel`) is one the host path reproduces bit for bit.
bool host_path_reproduces(const LaunchPlan& plan, const OpKernel& kernel);

// The default LaunchParams::host_path_bytes of a device (device/vendor.hpp).
std::uint64_t default_host_path_bytes(const DeviceInfo& device);

// Runs `plan` over `data` (count elements of plan.element, at any address) and writes the
// state bits the kernels' launch sequence would have left (exec/launch_sequence.hpp). Only for
// plans host_path_reproduces() accepts. False, with nothing written, where the data turns out
// to need the device after all (host_order_free.hpp: a float min of +0 and -0); the caller
// then runs the plan on the device.
bool reduce_on_host(const LaunchPlan& plan, const OpKernel& kernel, const void* data, std::uint64_t count,
                    unsigned char* result_bits);

}  // namespace clreduce
