#include "exec/marked_by_key.hpp"

#include <clreduce/error.hpp>

#include "exec/enqueue.hpp"
#include "exec/run_heads.hpp"

namespace clreduce {

void marked_by_key(cl::CommandQueue& queue, const DeviceInfo& info, LaunchPlan& plan, const OpKernel& kernel,
                   ExecutionSlot& slot, Chain& chain, const FusedInput& input,
                   const std::function<void*(std::uint64_t)>& key_room,
                   const std::function<void*(std::uint64_t)>& result_room) {
    using Buffer = ExecutionSlot::SegmentBuffer;
    const MarkedHeads marked =
        mark_run_heads(queue, info, slot, chain, DeviceKeys{input.keys, input.key_offset, input.key_size, input.count});
    // The values pass takes the mark pass's chunks, in groups of its size (a chunk is a whole
    // number of its tiles).
    KernelSpec spec = by_key_spec(plan, kernel, info, input.key_size, input.value_offset % 4 == 0);
    spec.by_key_marked = true;
    spec.work_group_size = marked.work_group;
    plan.by_key_marked = true;
    plan.work_group_size = marked.work_group;
    plan.groups = marked.groups;
    cl::Kernel& k = slot.kernel(spec);

    const std::size_t state_bytes = state_size(kernel.op, plan.accumulator);
    const std::uint64_t runs = marked.runs;
    const cl::Buffer& run_keys = slot.segment_buffer(Buffer::run_keys, runs * input.key_size);
    const cl::Buffer& states = slot.segment_buffer(Buffer::states, runs * state_bytes);
    const cl::Buffer& carries = slot.segment_buffer(Buffer::run_carries, 2 * marked.groups * state_bytes);
    set_args(k, *input.keys, cl_ulong(input.key_offset), *input.values, cl_ulong(input.value_offset),
             cl_ulong(input.count), cl_ulong(marked.chunk), *marked.mask, *marked.counts, run_keys, states, carries,
             slot.done_counter());
    enqueue_groups(queue, k, marked.groups, marked.work_group, chain);

    // The keys, then the states (the last read blocking; each after the one before on an
    // out-of-order queue).
    void* keys_out = key_room(runs);
    void* results_out = result_room(runs);
    check(queue.enqueueReadBuffer(run_keys, CL_FALSE, 0, static_cast<size_t>(runs * input.key_size), keys_out,
                                  chain.wait(), chain.event()),
          "clEnqueueReadBuffer");
    chain.done(false);
    check(queue.enqueueReadBuffer(states, CL_TRUE, 0, static_cast<size_t>(runs * state_bytes), results_out,
                                  chain.wait(), chain.event()),
          "clEnqueueReadBuffer");
    chain.done(false);
}

}  // namespace clreduce
