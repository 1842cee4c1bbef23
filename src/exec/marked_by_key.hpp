#pragma once
// reduce_by_key in two launches for the plans the one launch takes (fused_by_key_fits) beyond
// its size: run_heads.cl's mark pass reads the keys, then cl_kernels/by_key_values.cl reads the
// values and the marks once and writes each run's key and state, finishing the runs that cross
// its chunks in the group that ends last. The keys are read once, and a key again only where a
// run begins.
#include <functional>

#include <clreduce/device_info.hpp>
#include <clreduce/opencl.hpp>

#include "exec/chain.hpp"
#include "exec/execution_slot.hpp"
#include "exec/fused_by_key.hpp"

namespace clreduce {

// The two launches of `plan` (fused_by_key_fits; its work-group size and groups set here), then
// the runs' keys read into key_room(runs) and their states, which are their results, into
// result_room(runs). Waits for both reads.
void marked_by_key(cl::CommandQueue& queue, const DeviceInfo& info, LaunchPlan& plan, const OpKernel& kernel,
                   ExecutionSlot& slot, Chain& chain, const FusedInput& input,
                   const std::function<void*(std::uint64_t)>& key_room,
                   const std::function<void*(std::uint64_t)>& result_room);

}  // namespace clreduce
