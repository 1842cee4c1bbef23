#include "measure/read_only_kernel.hpp"

#include <algorithm>

#include <fmt/format.h>

#include <clreduce/error.hpp>

#include "measure/timing.hpp"

namespace clreduce::perf {

ReadOnlyKernel::ReadOnlyKernel(const cl::Program& program, const DeviceInfo& info)
    : groups_(info.compute_units * 16ull), work_group_(std::min<std::size_t>(256, info.max_work_group_size)) {
    cl_int err = CL_SUCCESS;
    kernel_ = cl::Kernel(program, "floor_read", &err);
    check(err, "clCreateKernel");
    sink_ = cl::Buffer(program.getInfo<CL_PROGRAM_CONTEXT>(), CL_MEM_WRITE_ONLY, 4, nullptr, &err);
    check(err, "clCreateBuffer");
}

std::vector<double> ReadOnlyKernel::time(const cl::CommandQueue& queue, const cl::Buffer& in, std::uint64_t bytes,
                                         int repeats) {
    check(kernel_.setArg(0, in), "clSetKernelArg");
    check(kernel_.setArg(1, cl_ulong(bytes_read(bytes) / 16)), "clSetKernelArg");
    check(kernel_.setArg(2, sink_), "clSetKernelArg");
    check(kernel_.setArg(3, cl_uint(0x9e3779b9u)), "clSetKernelArg");  // the XOR it never writes unless it equals
    std::vector<double> us;
    for (int i = 0; i <= repeats; ++i) {
        cl::Event e;
        check(queue.enqueueNDRangeKernel(kernel_, cl::NullRange, cl::NDRange(groups_ * work_group_),
                                         cl::NDRange(work_group_), nullptr, &e),
              "clEnqueueNDRangeKernel");
        check(e.wait(), "clWaitForEvents");
        if (i > 0) us.push_back(device_microseconds({e}));  // the first pass is a warm-up
    }
    return us;
}

std::string ReadOnlyKernel::geometry() const {
    return fmt::format("{} groups of {}, 16-byte loads", groups_, work_group_);
}

}  // namespace clreduce::perf
