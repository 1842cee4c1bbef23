#pragma once
// Setting a kernel's arguments and enqueueing it in a call's chain: what every launcher of the
// segmented and by-key paths does alike.
#include <cstdint>

#include <clreduce/error.hpp>
#include <clreduce/opencl.hpp>

#include "exec/chain.hpp"

namespace clreduce {

// Sets the kernel's arguments in order.
template <class... Args>
void set_args(cl::Kernel& kernel, const Args&... args) {
    cl_uint index = 0;
    ((check(kernel.setArg(index++, args), "clSetKernelArg")), ...);
}

// `groups` work-groups of `wg`, after the chain's previous command.
inline void enqueue_groups(cl::CommandQueue& queue, cl::Kernel& kernel, std::uint64_t groups, std::uint32_t wg,
                           Chain& chain) {
    check(queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(static_cast<size_t>(groups * wg)),
                                     cl::NDRange(wg), chain.wait(), chain.event()),
          "clEnqueueNDRangeKernel");
    chain.done(true);
}

inline std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return a / b + (a % b != 0 ? 1 : 0); }

}  // namespace clreduce
