#pragma once
// A built kernel's own limits against the launch shape it was built for: what the planner
// cannot know before the compiler has run (registers and private memory per work-item). A
// valid call never crashes or hangs: a shape beyond them is refused with InvalidArgument
// naming the resource and its limit, before the kernel is ever enqueued.
#include <cstdint>

#include <clreduce/opencl.hpp>

namespace clreduce {

// The private memory a work-group of a CPU device may use in all (its work-items' private
// states live on one worker thread's stack there): a quarter of a default 8 MiB thread stack.
constexpr std::uint64_t kCpuPrivateBytesPerGroup = 2ull << 20;

// Throws InvalidArgument when `kernel` cannot run work-groups of `work_group_size` on `device`:
// CL_KERNEL_WORK_GROUP_SIZE below it, CL_KERNEL_LOCAL_MEM_SIZE above the device's local memory,
// or on a CPU device CL_KERNEL_PRIVATE_MEM_SIZE x work_group_size above
// kCpuPrivateBytesPerGroup.
void check_kernel_resources(const cl::Kernel& kernel, const cl::Device& device, std::uint32_t work_group_size);

}  // namespace clreduce
