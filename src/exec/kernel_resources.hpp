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
// CL_KERNEL_LOCAL_MEM_SIZE above the device's local memory, and on a CPU device
// CL_KERNEL_WORK_GROUP_SIZE below it or CL_KERNEL_PRIVATE_MEM_SIZE x work_group_size above
// kCpuPrivateBytesPerGroup. GPUs are not held to CL_KERNEL_WORK_GROUP_SIZE: NVIDIA's driver
// (580.159.04) reports 256 for reduction kernels it launches and runs correctly at 512
// and 1024, the tuned shapes of large sums; a shape a GPU really cannot run fails at the
// enqueue with the driver's error (OpenCLError naming CL_INVALID_WORK_GROUP_SIZE or
// CL_OUT_OF_RESOURCES and the call), never a crash.
void check_kernel_resources(const cl::Kernel& kernel, const cl::Device& device, std::uint32_t work_group_size);

}  // namespace clreduce
