#include "exec/segment_launch.hpp"

#include <cstring>

#include <clreduce/error.hpp>

#include "ops/operation_table.hpp"

namespace clreduce {
namespace {

void set_args(cl::Kernel& kernel, const cl::Buffer& input, std::uint64_t offset, std::uint64_t extent,
              std::uint64_t segments, const cl::Buffer& begins, std::uint64_t begins_at, const cl::Buffer& ends,
              std::uint64_t ends_at, std::uint64_t step, std::uint64_t length, std::uint32_t parts,
              const cl::Buffer& out, const cl::Buffer& result_out, std::uint64_t result_offset, const cl::Buffer& bad,
              std::uint64_t bad_at) {
    const auto arg = [&](cl_uint index, const auto& value) { check(kernel.setArg(index, value), "clSetKernelArg"); };
    arg(0, input);
    arg(1, cl_ulong(offset));
    arg(2, cl_ulong(extent));
    arg(3, cl_ulong(segments));
    arg(4, begins);
    arg(5, cl_ulong(begins_at));
    arg(6, ends);
    arg(7, cl_ulong(ends_at));
    arg(8, cl_ulong(step));
    arg(9, cl_ulong(length));
    arg(10, cl_uint(parts));
    arg(11, out);
    arg(12, result_out);
    arg(13, cl_ulong(result_offset));
    arg(14, bad);
    arg(15, cl_ulong(bad_at));
}

void enqueue(cl::CommandQueue& queue, cl::Kernel& kernel, std::uint64_t groups, std::uint32_t wg, Chain& chain) {
    check(queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(static_cast<size_t>(groups * wg)),
                                     cl::NDRange(wg), chain.wait(), chain.event()),
          "clEnqueueNDRangeKernel");
    chain.done(true);
}

}  // namespace

SegmentStates launch_segments(cl::CommandQueue& queue, const DeviceInfo& info, const LaunchPlan& plan,
                              const KernelSpec& first, const cl::Buffer& input, std::uint64_t offset,
                              const SegmentList& list, ExecutionSlot& slot, Chain& chain, const DeviceResult* device) {
    const std::size_t state_bytes = state_size(first.op, plan.accumulator);
    const std::uint64_t segments = plan.segments;
    const std::uint32_t parts = plan.groups_per_segment;
    // The states, then the word where the kernel flags a bad listed segment (zeroed first).
    const std::uint64_t flag_at = device != nullptr ? 0 : (segments * state_bytes + 7) / 8 * 8;
    const cl::Buffer& states = slot.segment_states(flag_at + 8);
    check(queue.enqueueFillBuffer(states, cl_uint(0), static_cast<size_t>(flag_at), sizeof(cl_uint), chain.wait(),
                                  chain.event()),
          "clEnqueueFillBuffer");
    chain.done(false);
    const cl::Buffer& result_out = device != nullptr ? *device->buffer : states;
    const std::uint64_t result_offset = device != nullptr ? device->offset : 0;
    const bool combined = parts > 1;
    const cl::Buffer& first_out = combined ? slot.partials(segments * parts * state_bytes) : states;
    const cl::Buffer& begins = list.listed() ? *list.begins : states;
    const cl::Buffer& ends = list.listed() ? *list.ends : states;

    cl::Kernel& kernel = slot.kernel(first);
    set_args(kernel, input, offset, list.extent, segments, begins, list.begins_at, ends, list.ends_at, list.step,
             list.length, parts, first_out, result_out, result_offset, states, flag_at / sizeof(cl_uint));
    enqueue(queue, kernel, plan.groups, plan.work_group_size, chain);
    if (combined) {
        KernelSpec spec = segment_spec(plan, {first.op, first.map}, info, false, true);
        spec.device_result = device != nullptr;
        spec.result_type = first.result_type;
        cl::Kernel& combine = slot.kernel(spec);
        set_args(combine, first_out, 0, segments * parts, segments, states, 0, states, 0, parts, parts, 1, states,
                 result_out, result_offset, states, flag_at / sizeof(cl_uint));
        enqueue(queue, combine, segments, plan.work_group_size, chain);
    }
    SegmentStates out;
    out.state_bytes = state_bytes;
    if (device != nullptr) return out;
    unsigned char* pinned = slot.host_result(flag_at + sizeof(cl_uint));
    check(queue.enqueueReadBuffer(states, CL_TRUE, 0, static_cast<size_t>(flag_at + sizeof(cl_uint)), pinned,
                                  chain.wait(), chain.event()),
          "clEnqueueReadBuffer");
    chain.done(false);
    cl_uint flag = 0;
    std::memcpy(&flag, pinned + flag_at, sizeof flag);
    out.states = pinned;
    out.bad = flag != 0;
    return out;
}

}  // namespace clreduce
