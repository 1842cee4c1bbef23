#include "exec/launch_sequence.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <tuple>

#include <clreduce/error.hpp>

#include "delivery/result_read.hpp"
#include "exec/host_stream.hpp"
#include "exec/pinned_ranges.hpp"
#include "ops/exact_state.hpp"
#include "ops/operation_table.hpp"

namespace clreduce {
namespace {

// `value` rounded to the floating-point accumulator type, as its bits.
void store_rounded(double value, ElementType accumulator, unsigned char* bits) {
    if (accumulator == ElementType::float32) {
        const float f = static_cast<float>(value);
        std::memcpy(bits, &f, sizeof f);
    } else {
        std::memcpy(bits, &value, sizeof value);
    }
}

}  // namespace

void launch_reduction(cl::CommandQueue& queue, const DeviceInfo& info, DeliveryWay way, const LaunchPlan& plan,
                      const KernelSpec& first, const cl::Buffer& input, std::uint64_t offset, std::uint64_t count,
                      ExecutionSlot& slot, Chain& chain, unsigned char* result_bits, const Pitch* pitch,
                      const DeviceResult* device) {
    const std::size_t state_bytes = state_size(first.op, plan.accumulator);
    if (state_bytes > kMaxStateBytes) throw Error("internal: state larger than kMaxStateBytes");
    const bool last_group = first.finish == Finish::last_group;
    const bool exact = first.finish == Finish::exact_atomic;
    // The result words: states, or sets of the exact atomic finish's fixed-point numbers; a
    // pair per channel where an image's channels share the launch (atomic, store and last-group
    // finishes), then the last-group finish's partials, a group's state per channel.
    const std::size_t word_bytes = exact ? first.exact_copies * exact_state_size(plan.accumulator) : state_bytes;
    const bool all_channels = first.all_channels && pitch != nullptr;
    const std::uint32_t pairs = all_channels ? pitch->channels : 1;
    if (all_channels && (exact || first.finish == Finish::second_pass || device != nullptr))
        throw Error("internal: an image's channels share a launch with an atomic, store or last-group finish only");
    const cl::Buffer& result = slot.result(word_bytes, 2 * pairs + (last_group ? pairs * plan.groups : 0));
    const cl_uint word = slot.next_word;
    const std::tuple<KernelOp, ElementType, std::uint32_t, std::uint32_t> identity{first.op, plan.accumulator,
                                                                                   exact ? first.exact_copies : 0,
                                                                                   pairs};
    const cl::Buffer& result_out = device != nullptr ? *device->buffer : result;
    const cl_ulong result_offset = device != nullptr ? device->offset : 0;
    // The caller's status word where the kernels check the result (KernelSpec::result_check);
    // elsewhere any buffer stands in, unread.
    const cl::Buffer& result_status = device != nullptr && device->status != nullptr ? *device->status : result;
    try {
        if ((first.finish == Finish::atomic || exact) && slot.prepared_for != identity) {
            const std::uint64_t start = exact ? 0 : atomic_identity(first.op, plan.accumulator);
            const std::size_t fill_bytes = 2 * pairs * word_bytes;
            cl_int err = word_bytes == 4
                             ? queue.enqueueFillBuffer(result, static_cast<std::uint32_t>(start), 0, fill_bytes,
                                                       chain.wait(), chain.event())
                             : queue.enqueueFillBuffer(result, start, 0, fill_bytes, chain.wait(), chain.event());
            check(err, "clEnqueueFillBuffer");
            chain.done(false);
        }
        const cl::Buffer& first_out =
            first.finish == Finish::second_pass ? slot.partials(plan.groups * state_bytes) : result;
        cl::Kernel& kernel = slot.kernel(first);
        check(kernel.setArg(0, input), "clSetKernelArg");
        check(kernel.setArg(1, cl_ulong(offset)), "clSetKernelArg");
        check(kernel.setArg(2, cl_ulong(count)), "clSetKernelArg");
        check(kernel.setArg(3, first_out), "clSetKernelArg");
        check(kernel.setArg(4, word), "clSetKernelArg");
        check(kernel.setArg(5, result_out), "clSetKernelArg");
        check(kernel.setArg(6, result_offset), "clSetKernelArg");
        check(kernel.setArg(7, result_status), "clSetKernelArg");
        check(kernel.setArg(8, slot.done_counter()), "clSetKernelArg");
        check(kernel.setArg(9, cl_ulong(count)), "clSetKernelArg");  // the elements a device result stands for
        if (pitch != nullptr) {
            check(kernel.setArg(10, cl_ulong(pitch->cols)), "clSetKernelArg");
            check(kernel.setArg(11, cl_ulong(pitch->pitch)), "clSetKernelArg");
            check(kernel.setArg(12, cl_uint(pitch->channels)), "clSetKernelArg");
            check(kernel.setArg(13, cl_uint(pitch->channel)), "clSetKernelArg");
            if (pitch->mask != nullptr) {
                check(kernel.setArg(14, *pitch->mask), "clSetKernelArg");
                check(kernel.setArg(15, cl_ulong(pitch->mask_offset)), "clSetKernelArg");
                check(kernel.setArg(16, cl_ulong(pitch->mask_pitch)), "clSetKernelArg");
            }
        }
        check(queue.enqueueNDRangeKernel(kernel, cl::NullRange,
                                         cl::NDRange(static_cast<size_t>(plan.groups * plan.work_group_size)),
                                         cl::NDRange(plan.work_group_size), chain.wait(), chain.event()),
              "clEnqueueNDRangeKernel");
        chain.done(true);

        if (first.finish == Finish::second_pass) {
            cl::Kernel& combine = slot.kernel(second_pass_spec(plan, first, info));
            check(combine.setArg(0, first_out), "clSetKernelArg");
            check(combine.setArg(1, cl_ulong(0)), "clSetKernelArg");
            check(combine.setArg(2, cl_ulong(plan.groups)), "clSetKernelArg");
            check(combine.setArg(3, result), "clSetKernelArg");
            check(combine.setArg(4, word), "clSetKernelArg");
            check(combine.setArg(5, result_out), "clSetKernelArg");
            check(combine.setArg(6, result_offset), "clSetKernelArg");
            check(combine.setArg(7, result_status), "clSetKernelArg");
            check(combine.setArg(8, slot.done_counter()), "clSetKernelArg");
            check(combine.setArg(9, cl_ulong(count)), "clSetKernelArg");
            check(queue.enqueueNDRangeKernel(combine, cl::NullRange, cl::NDRange(plan.work_group_size),
                                             cl::NDRange(plan.work_group_size), chain.wait(), chain.event()),
                  "clEnqueueNDRangeKernel");
            chain.done(true);
        }
        if (device == nullptr) {
            ReadSchedule schedule;
            schedule.enqueued = Clock::now();
            schedule.polled = way.polled;
            if (way.polled) schedule.sentinel = slot.next_sentinel();
            if (way.paced) {
                schedule.pacing = &slot.pacing(first);
                schedule.fastest_read_us = &slot.fastest_read_us;
            }
            // Every channel's pair of words at once, else the one word.
            const std::size_t read_bytes = all_channels ? 2 * pairs * word_bytes : word_bytes;
            unsigned char* pinned = slot.host_result(read_bytes);
            const double waited_us = read_result(queue, result, all_channels ? 0 : word * word_bytes, read_bytes,
                                                 pinned, chain.wait(), schedule);
            if (chain.info() != nullptr) chain.info()->read_wait_us += waited_us;
            if (all_channels)
                for (std::uint32_t c = 0; c < pairs; ++c)
                    std::memcpy(pitch->channel_bits[c], pinned + (2 * c + word) * word_bytes, state_bytes);
            else if (exact && first.op == KernelOp::add_exact)  // the state, for the call to round
                merge_exact_states(pinned, first.exact_copies, plan.accumulator, result_bits);
            else if (exact)
                store_rounded(round_exact_states(pinned, first.exact_copies, plan.accumulator), plan.accumulator,
                              result_bits);
            else
                std::memcpy(result_bits, pinned, state_bytes);
        }
    } catch (...) {
        slot.prepared_for.reset();
        throw;
    }
    // A device result leaves the result words alone: the next call uses the same word. Its
    // partials, though, may have overwritten words laid out for another state size.
    if (device != nullptr) {
        if (last_group) slot.prepared_for.reset();
        return;
    }
    slot.next_word = word ^ 1u;
    slot.prepared_for = identity;
}

namespace {

// The byte offset of `data` in the buffer a CPU device reads it through in place: from the
// device's base alignment at or below it (see host_data_buffer).
std::uintptr_t wrap_offset(const DeviceInfo& info, const void* data) {
    const std::uintptr_t align = std::clamp<std::uintptr_t>(info.base_address_alignment, 1, 4096);
    return reinterpret_cast<std::uintptr_t>(data) % align;
}

// Host memory as a buffer a CPU device reads in place (see host_data_buffer).
HostInput wrap_host_memory(const cl::Context& context, const DeviceInfo& info, const void* data, std::uint64_t bytes) {
    const auto address = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t offset = wrap_offset(info, data);
    cl_int err = CL_SUCCESS;
    cl::Buffer wrapped(context, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, static_cast<size_t>(bytes + offset),
                       reinterpret_cast<void*>(address - offset), &err);
    check(err, "clCreateBuffer(CL_MEM_USE_HOST_PTR)");
    return {std::move(wrapped), offset};
}

void check_host_bytes(const DeviceInfo& info, std::uint64_t bytes) {
    if (bytes > info.max_alloc_size)
        throw InvalidArgument(std::to_string(bytes) + " bytes of host data exceed the device's largest buffer (" +
                              std::to_string(info.max_alloc_size) + " bytes)");
}

// One non-blocking write of `bytes` from `data` into `device`, in the call's chain.
void write_in_chain(cl::CommandQueue& queue, Chain& chain, const cl::Buffer& device, const void* data,
                    std::uint64_t bytes) {
    try {
        check(queue.enqueueWriteBuffer(device, CL_FALSE, 0, static_cast<size_t>(bytes), data, chain.wait(),
                                       chain.event()),
              "clEnqueueWriteBuffer");
    } catch (...) {
        // The write may still be reading `data`; do not return before it stops.
        queue.finish();
        throw;
    }
    chain.done(false);
}

}  // namespace

HostInput host_data_buffer(const cl::Context& context, cl::CommandQueue& queue, const DeviceInfo& info,
                           ExecutionSlot& slot, Chain& chain, const void* data, std::uint64_t bytes,
                           std::uint32_t element_bytes, const HostStaging& staging) {
    check_host_bytes(info, bytes);
    // A CPU device reads host memory as fast as its own: copying first would read the data
    // twice and write it once (on PoCL the copy cost more than the reduction). The kernels
    // only read it, so CL_MEM_READ_ONLY lets the pointer stay const. The buffer starts at the
    // device's base alignment at or below the data (PoCL copies a host pointer that is not
    // aligned so, on every launch), which is on the same memory page; the kernels read from `offset` on only, in whole
    // elements: data at an address that is not a multiple of its element size is copied (below) instead. No bytes
    // (segments that are all empty): the kernels read nothing, but take a buffer; an OpenCL buffer cannot be empty.
    if (bytes == 0) return {slot.staging(std::max<std::uint32_t>(element_bytes, 1)), 0, false};
    const bool cpu = (info.type & CL_DEVICE_TYPE_CPU) != 0;
    const std::uintptr_t offset = wrap_offset(info, data);
    const bool whole_elements = offset % std::max<std::uint32_t>(element_bytes, 1) == 0;
    if (cpu && whole_elements && bytes + offset <= info.max_alloc_size && staging.mode != HostStaging::Mode::always)
        return wrap_host_memory(context, info, data, bytes);
    const cl::Buffer& device = slot.staging(bytes);
    // Data in a PinnedHostMemory of this context: one write at the link's speed, no host copy.
    const bool pinned = in_pinned_range(context(), data, bytes);
    const bool streamed = !pinned && (staging.mode == HostStaging::Mode::always ||
                                      (staging.mode == HostStaging::Mode::automatic && bytes >= staging.min_bytes));
    if (streamed) {
        stream_host_data(queue, slot, chain, device, data, bytes, staging);
        return {device, 0, true};
    }
    write_in_chain(queue, chain, device, data, bytes);
    return {device, 0, true};
}

HostInput host_mask_buffer(const cl::Context& context, cl::CommandQueue& queue, const DeviceInfo& info,
                           ExecutionSlot& slot, Chain& chain, const void* data, std::uint64_t bytes,
                           const HostStaging& staging) {
    check_host_bytes(info, bytes);
    const bool cpu = (info.type & CL_DEVICE_TYPE_CPU) != 0;
    if (cpu && staging.mode != HostStaging::Mode::always) return wrap_host_memory(context, info, data, bytes);
    const cl::Buffer& device = slot.mask_staging(bytes);
    write_in_chain(queue, chain, device, data, bytes);
    return {device, 0, true};
}

}  // namespace clreduce
