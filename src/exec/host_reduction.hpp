#pragma once
// The host path of a CPU device (LaunchPlan::on_host): small host data reduced on the calling
// thread, in the order the plan's kernels would add it, so the result has the kernels' bits
// without a launch. On a CPU device a launch and its result read cost tens of microseconds
// (PoCL 3.1, docs/performance.md), more than reading a few hundred KiB.
#include <cstdint>

#include <clreduce/device_info.hpp>
#include <clreduce/launch_params.hpp>

#include "ops/operation_table.hpp"

namespace clreduce {

// Whether `plan` (with its plug-in) is one the host path reproduces bit for bit: sum and mean
// of 8- to 32-bit integers into a 64-bit integer accumulator (exact, or modulo 2^64 as the
// kernels wrap), and of float and double into a double accumulator in FloatMode::deterministic
// with the exact atomic or the last-group finish (level 1 by vectors and lanes, level 2's tree,
// and level 3's one rounding of the groups' exact sum or the last group's loop and tree, as
// cl_kernels/reduce.cl and ops/add.cl do them).
bool host_path_reproduces(const LaunchPlan& plan, const OpKernel& kernel);

// The default LaunchParams::host_path_bytes of a device: 0 but on CPU devices.
std::uint64_t default_host_path_bytes(const DeviceInfo& device);

// Runs `plan` over `data` (count elements of plan.element) and writes the result bits the
// kernels' launch sequence would have left (exec/launch_sequence.hpp). Only for plans
// host_path_reproduces() accepts.
void reduce_on_host(const LaunchPlan& plan, const void* data, std::uint64_t count, unsigned char* result_bits);

}  // namespace clreduce
