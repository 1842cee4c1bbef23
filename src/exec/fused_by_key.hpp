#pragma once
// reduce_by_key in one launch (cl_kernels/by_key.cl): the keys and values in device buffers
// read once, each run's key and state written, for the plans whose states no order of
// combining changes and whose states are their results (fused_by_key_fits). The other plans
// find the runs first (exec/run_heads.hpp) and reduce them as segments.
#include <cstdint>
#include <functional>

#include <clreduce/device_info.hpp>
#include <clreduce/launch_params.hpp>
#include <clreduce/opencl.hpp>

#include "exec/chain.hpp"
#include "exec/execution_slot.hpp"
#include "kernels/kernel_spec.hpp"
#include "ops/operation_table.hpp"

namespace clreduce {

// Whether `plan` (a segmented plan of the call's operation and values) runs reduce_by_key in
// one launch with results of type `result`: an integer accumulator (no float: the tiles combine
// in an order that depends on timing, which only exact states ignore), a plug-in that keeps
// one value, that value the result as it stands (an integer sum kept whole, a product,
// bitwise, min and max, whose runs are never empty), no transform or user's combine.
bool fused_by_key_fits(const LaunchPlan& plan, const OpKernel& kernel, ElementType result);

// The default LaunchParams::by_key_one_launch_keys of a device: 2^22 keys on GPUs, up to where
// the one launch took less wall time than the passes (and less device time below that), 0 on
// CPU devices, where it took longer at every size (docs/performance.md, "Reduce by key").
std::uint64_t default_by_key_one_launch_keys(const DeviceInfo& device);

// The one launch's kernel for `plan` (fused_by_key_fits) over keys of `key_size` bytes, both
// ranges starting at a multiple of four elements where `aligned` (also for the tests that
// compile the library's kernels for other devices).
KernelSpec by_key_spec(const LaunchPlan& plan, const OpKernel& kernel, const DeviceInfo& device, std::uint32_t key_size,
                       bool aligned);

// Where the keys and values are (elements from their offsets), and how many of each.
struct FusedInput {
    const cl::Buffer* keys = nullptr;
    std::uint64_t key_offset = 0;
    std::uint32_t key_size = 4;
    const cl::Buffer* values = nullptr;
    std::uint64_t value_offset = 0;
    std::uint32_t value_size = 4;
    std::uint64_t count = 0;  // > 0
};

// The one launch of `plan` (fused_by_key_fits; its work-group size and groups, the tiles, set
// here), then the runs' keys read into key_room(runs)
// and their states, which are their results, into result_room(runs). Waits for both reads.
// The launch runs again with room for every run where the slot's outputs had less.
void fused_by_key(cl::CommandQueue& queue, const DeviceInfo& info, LaunchPlan& plan, const OpKernel& kernel,
                  ExecutionSlot& slot, Chain& chain, const FusedInput& input,
                  const std::function<void*(std::uint64_t)>& key_room,
                  const std::function<void*(std::uint64_t)>& result_room);

}  // namespace clreduce
