#pragma once
// The launch sequence of one reduction: the result words prepared for an atomic finish, the
// first launch, the second pass where the plan has one, and the result delivered (read back
// for a synchronous call, left on the device for an asynchronous one).
#include <cstdint>

#include <clreduce/device_info.hpp>
#include <clreduce/host_staging.hpp>
#include <clreduce/launch_params.hpp>
#include <clreduce/opencl.hpp>

#include "delivery/result_delivery.hpp"
#include "exec/chain.hpp"
#include "exec/execution_slot.hpp"
#include "kernels/kernel_spec.hpp"

namespace clreduce {

// The largest plug-in state the host reads back.
constexpr std::size_t kMaxStateBytes = 1024;

// Enqueues the plan's launches over [offset, offset + count) of `input`. Synchronous
// (device == nullptr): reads the final state's bits into result_bits as `way` says.
// Asynchronous: the kernels write the value into *device (first.device_result) and nothing
// is waited for.
void launch_reduction(cl::CommandQueue& queue, const DeviceInfo& info, DeliveryWay way, const LaunchPlan& plan,
                      const KernelSpec& first, const cl::Buffer& input, std::uint64_t offset, std::uint64_t count,
                      ExecutionSlot& slot, Chain& chain, unsigned char* result_bits, const Pitch* pitch = nullptr,
                      const DeviceResult* device = nullptr);

// Host data as a buffer the kernels can read from `offset` bytes on, valid until the call's
// commands finish.
struct HostInput {
    cl::Buffer buffer;
    std::uint64_t offset = 0;  // bytes
    bool copied = false;       // a copy into the staging buffer was enqueued ahead of the kernels
};
// On a CPU device the memory itself (CL_MEM_USE_HOST_PTR: a buffer object per call, nothing
// copied or allocated), unless `staging` says always or `data` is not at a multiple of
// `element_bytes` (the kernels read whole elements from `offset`, which must then be a whole
// number of them); elsewhere a copy in the slot's staging buffer (the chain orders it):
// streamed through pinned memory (exec/host_stream.hpp) where `staging` says so and `data`
// does not already lie in a PinnedHostMemory of `context`, else one write straight from
// `data`, enqueued without blocking. The copy starts at offset 0 whatever `data`'s address.
HostInput host_data_buffer(const cl::Context& context, cl::CommandQueue& queue, const DeviceInfo& info,
                           ExecutionSlot& slot, Chain& chain, const void* data, std::uint64_t bytes,
                           std::uint32_t element_bytes, const HostStaging& staging);

// An image's mask from host memory, as host_data_buffer does (in place on a CPU device), in
// the slot's mask buffer elsewhere (one write: masks are a byte a pixel).
HostInput host_mask_buffer(const cl::Context& context, cl::CommandQueue& queue, const DeviceInfo& info,
                           ExecutionSlot& slot, Chain& chain, const void* data, std::uint64_t bytes,
                           const HostStaging& staging);

}  // namespace clreduce
