#include "exec/segment_launch.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>

#include <clreduce/error.hpp>

#include "exec/enqueue.hpp"
#include "ops/operation_table.hpp"

namespace clreduce {
namespace {

// The segments' launch (segments.cl's teams or columns: the kernel is the spec's), the long segments' chunks and their
// finish where the plan splits them, the combining launch where groups share segments.
void launch_segment_passes(cl::CommandQueue& queue, const DeviceInfo& info, const LaunchPlan& plan,
                           const KernelSpec& first, const cl::Buffer& input, std::uint64_t offset,
                           const SegmentList& list, ExecutionSlot& slot, const cl::Buffer& states, cl_ulong counts_at,
                           const cl::Buffer& result_out, cl_ulong result_offset, const cl::Buffer& result_status,
                           bool device_result, std::uint64_t max_longs, std::uint64_t max_chunks, Chain& chain) {
    using Buffer = ExecutionSlot::SegmentBuffer;
    const std::size_t state_bytes = state_size(first.op, plan.accumulator);
    const std::uint64_t segments = plan.segments;
    const std::uint32_t parts = plan.groups_per_segment;
    const std::uint32_t wg = plan.work_group_size;
    const std::uint64_t split = list.listed() && parts == 1 ? plan.segment_split : 0;
    const bool combined = parts > 1;
    const cl::Buffer& first_out = combined ? slot.partials(segments * parts * state_bytes) : states;
    const cl::Buffer& begins = list.listed() ? *list.begins : states;
    const cl::Buffer& ends = list.listed() ? *list.ends : states;
    const cl::Buffer& longs = slot.segment_buffer(Buffer::longs, max_longs * 3 * sizeof(cl_ulong));
    const cl::Buffer& chunks = slot.segment_buffer(Buffer::chunks, max_chunks * 2 * sizeof(cl_ulong));
    const std::uint64_t length = list.length;
    // The segments kernel's arguments, which the medium kernel takes too (the elements' ones
    // unused: those launches count the elements they read).
    const auto segment_args = [&](cl::Kernel& k) {
        set_args(k, input, cl_ulong(offset), cl_ulong(list.extent), cl_ulong(segments), begins,
                 cl_ulong(list.begins_at), ends, cl_ulong(list.ends_at), cl_ulong(list.step), cl_ulong(length),
                 cl_uint(parts), first_out, result_out, result_offset, result_status, states, counts_at,
                 cl_ulong(split), longs, chunks, cl_uint(max_longs), cl_uint(max_chunks), begins, cl_ulong(0), ends,
                 cl_ulong(0), cl_ulong(0), cl_ulong(0), cl_uint(0));
    };
    cl::Kernel& kernel = slot.kernel(first);
    segment_args(kernel);
    enqueue_groups(queue, kernel, plan.groups, wg, chain);
    if (list.listed() && plan.segment_medium != 0) {
        // The segments the first launch left: a group looks at wg of them (before the chunks,
        // to which it gives long ones' rests).
        KernelSpec spec = first;
        spec.segment_kernel = KernelSpec::SegmentKernel::medium;
        cl::Kernel& medium = slot.kernel(spec);
        segment_args(medium);
        enqueue_groups(queue, medium, ceil_div(segments, wg), wg, chain);
    }
    if (split != 0) {
        // Every group shares the chunks, then each long segment's pieces are combined in order
        // (both read the counts after the flag word).
        const cl::Buffer& partials = slot.partials(max_chunks * state_bytes);
        const std::uint64_t groups = std::uint64_t(std::max<std::uint32_t>(info.compute_units, 1)) * 8;
        KernelSpec spec = first;
        spec.segment_kernel = KernelSpec::SegmentKernel::chunks;
        cl::Kernel& share = slot.kernel(spec);
        set_args(share, input, cl_ulong(offset), begins, cl_ulong(list.begins_at), ends, cl_ulong(list.ends_at),
                 cl_ulong(split), states, counts_at + 1, chunks, partials);
        enqueue_groups(queue, share, groups, wg, chain);
        spec.segment_kernel = KernelSpec::SegmentKernel::finish_long;
        cl::Kernel& finish = slot.kernel(spec);
        set_args(finish, states, counts_at + 1, longs, partials, states, result_out, result_offset, result_status,
                 input, cl_ulong(offset), cl_ulong(list.extent), cl_ulong(segments), begins, cl_ulong(list.begins_at),
                 ends, cl_ulong(list.ends_at), cl_ulong(split));
        enqueue_groups(queue, finish, groups, wg, chain);
    }
    if (combined) {
        KernelSpec spec = segment_spec(plan, {first.op, first.map}, info, false, true);
        spec.combine = first.combine;
        spec.combine_identity = first.combine_identity;
        spec.device_result = device_result;
        spec.result_type = first.result_type;
        spec.result_kind = first.result_kind;
        spec.result_check = first.result_check;
        spec.result_modulo = first.result_modulo;
        cl::Kernel& combine = slot.kernel(spec);
        // Its segments are runs of `parts` states; a device result counts the segments' own
        // elements (listed: from their begins and ends).
        set_args(combine, first_out, cl_ulong(0), cl_ulong(segments * parts), cl_ulong(segments), states, cl_ulong(0),
                 states, cl_ulong(0), cl_ulong(parts), cl_ulong(parts), cl_uint(1), states, result_out, result_offset,
                 result_status, states, counts_at, cl_ulong(0), longs, chunks, cl_uint(0), cl_uint(0), begins,
                 cl_ulong(list.begins_at), ends, cl_ulong(list.ends_at), cl_ulong(length), cl_ulong(list.extent),
                 cl_uint(list.listed() ? 1 : 0));
        enqueue_groups(queue, combine, segments, wg, chain);
    }
}

}  // namespace

SegmentStates launch_segments(cl::CommandQueue& queue, const DeviceInfo& info, const LaunchPlan& plan,
                              const KernelSpec& first, const cl::Buffer& input, std::uint64_t offset,
                              const SegmentList& list, ExecutionSlot& slot, Chain& chain, const DeviceResult* device,
                              unsigned char* states_out) {
    using Buffer = ExecutionSlot::SegmentBuffer;
    const std::size_t state_bytes = state_size(first.op, plan.accumulator);
    const std::uint64_t segments = plan.segments;
    const std::uint32_t parts = plan.groups_per_segment;
    // Long listed segments split into chunks (segments.cl). Disjoint segments have at most
    // extent / split long ones (and no more than there are segments), and extent / chunk + that
    // many chunks; the tables have that room. Overlapping or repeated segments may ask for more:
    // the kernels then reduce every long segment whole instead (segments.cl), never writing
    // past the room. The counts are 32-bit words.
    const std::uint64_t split = list.listed() && parts == 1 ? plan.segment_split : 0;
    const std::uint64_t max_longs = split != 0 ? std::min(list.extent / (split + 1) + 1, segments) : 0;
    const std::uint64_t max_chunks = split != 0 ? ceil_div(list.extent, plan.segment_chunk) + max_longs : 0;
    if (max_chunks >= std::numeric_limits<cl_uint>::max())
        throw InvalidArgument("segments over " + std::to_string(list.extent) + " elements need " +
                              std::to_string(max_chunks) + " chunks of " + std::to_string(plan.segment_chunk) +
                              " elements; at most 2^32 - 2 fit (use groups_per_segment > 1)");
    // The states (also for an asynchronous call's long segments), then four words: the flag
    // of a bad listed segment, the counts of chunks and of long segments, and the flag of
    // tables without room, zeroed first.
    const bool states_kept = device == nullptr || split != 0;
    const std::uint64_t flag_at = states_kept ? (segments * state_bytes + 7) / 8 * 8 : 0;
    const cl::Buffer& states = slot.segment_buffer(Buffer::states, flag_at + 4 * sizeof(cl_uint));
    check(queue.enqueueFillBuffer(states, cl_uint(0), static_cast<size_t>(flag_at), 4 * sizeof(cl_uint), chain.wait(),
                                  chain.event()),
          "clEnqueueFillBuffer");
    chain.done(false);
    const cl_ulong counts_at = flag_at / sizeof(cl_uint);
    const cl::Buffer& result_out = device != nullptr ? *device->buffer : states;
    const cl_ulong result_offset = device != nullptr ? device->offset : 0;
    // The caller's status word where the kernels check the results (KernelSpec::result_check);
    // elsewhere the states buffer stands in, unread.
    const cl::Buffer& result_status = device != nullptr && device->status != nullptr ? *device->status : states;
    launch_segment_passes(queue, info, plan, first, input, offset, list, slot, states, counts_at, result_out,
                          result_offset, result_status, device != nullptr, max_longs, max_chunks, chain);
    SegmentStates out;
    out.state_bytes = state_bytes;
    if (device != nullptr) return out;
    cl_uint flag = 0;
    if (states_out != nullptr) {
        // The states straight into the caller's memory, then the flag word where segments are
        // listed (regular ones cannot be out of order).
        const bool flagged = list.listed();
        check(queue.enqueueReadBuffer(states, flagged ? CL_FALSE : CL_TRUE, 0,
                                      static_cast<size_t>(segments * state_bytes), states_out, chain.wait(),
                                      chain.event()),
              "clEnqueueReadBuffer");
        chain.done(false);
        if (flagged) {
            check(queue.enqueueReadBuffer(states, CL_TRUE, static_cast<size_t>(flag_at), sizeof flag, &flag,
                                          chain.wait(), chain.event()),
                  "clEnqueueReadBuffer");
            chain.done(false);
        }
        out.states = states_out;
        out.bad = flag != 0;
        return out;
    }
    unsigned char* pinned = slot.host_result(flag_at + sizeof(cl_uint));
    check(queue.enqueueReadBuffer(states, CL_TRUE, 0, static_cast<size_t>(flag_at + sizeof(cl_uint)), pinned,
                                  chain.wait(), chain.event()),
          "clEnqueueReadBuffer");
    chain.done(false);
    std::memcpy(&flag, pinned + flag_at, sizeof flag);
    out.states = pinned;
    out.bad = flag != 0;
    return out;
}

}  // namespace clreduce
