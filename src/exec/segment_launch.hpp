#pragma once
// The launch sequence of a segmented reduction (cl_kernels/segments.cl): the segments' launch,
// the launch that combines the partials of groups sharing a segment where the plan has them,
// and the states read back (synchronous) or the values left on the device (asynchronous).
#include <cstdint>

#include <clreduce/device_info.hpp>
#include <clreduce/launch_params.hpp>
#include <clreduce/opencl.hpp>

#include "exec/chain.hpp"
#include "exec/execution_slot.hpp"
#include "kernels/kernel_spec.hpp"

namespace clreduce {

// Where the segments are, as the kernel reads them (elements from the call's offset).
struct SegmentList {
    // Listed: segment s is [begins[begins_at + s], ends[ends_at + s]); null for regular ones.
    const cl::Buffer* begins = nullptr;
    const cl::Buffer* ends = nullptr;
    std::uint64_t begins_at = 0;
    std::uint64_t ends_at = 0;
    // Regular: segment s is [s * step, s * step + length).
    std::uint64_t step = 0;
    std::uint64_t length = 0;
    std::uint64_t extent = 0;  // elements the segments may address
    bool listed() const { return begins != nullptr; }
};

// What a synchronous segmented launch read back: plan.segments states of `state_bytes` each,
// in segment order (in the slot's pinned memory: valid while the slot is held), and whether a
// listed segment was out of order or past the extent (read as empty).
struct SegmentStates {
    const unsigned char* states = nullptr;
    std::size_t state_bytes = 0;
    bool bad = false;
};

// Enqueues the plan's launches over `input` from element `offset`. Synchronous
// (device == nullptr): waits for the states and returns them, read into `states_out` where
// given (room for every state: the caller's results, where each state's bits are its result),
// else into the slot's pinned memory. Asynchronous: the kernels write each segment's value as
// first.result_type into *device, one after another, and nothing is waited for.
SegmentStates launch_segments(cl::CommandQueue& queue, const DeviceInfo& info, const LaunchPlan& plan,
                              const KernelSpec& first, const cl::Buffer& input, std::uint64_t offset,
                              const SegmentList& list, ExecutionSlot& slot, Chain& chain,
                              const DeviceResult* device = nullptr, unsigned char* states_out = nullptr);

}  // namespace clreduce
