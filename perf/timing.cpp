#include "timing.hpp"

#include <clreduce/device_selection.hpp>
#include <clreduce/error.hpp>

namespace clreduce::perf {

double device_microseconds(const std::vector<cl::Event>& events) {
    double total = 0;
    for (const cl::Event& e : events) {
        cl_ulong start = 0, end = 0;
        check(e.getProfilingInfo(CL_PROFILING_COMMAND_START, &start), "clGetEventProfilingInfo");
        check(e.getProfilingInfo(CL_PROFILING_COMMAND_END, &end), "clGetEventProfilingInfo");
        total += double(end - start) / 1000.0;
    }
    return total;
}

Reducer profiling_reducer(const std::string& spec) {
    const cl::Device device = spec.empty() ? default_device() : select_device(spec);
    cl_int err = CL_SUCCESS;
    cl::Context context(device, nullptr, nullptr, nullptr, &err);
    check(err, "clCreateContext");
    cl::CommandQueue queue(context, device, CL_QUEUE_PROFILING_ENABLE, &err);
    check(err, "clCreateCommandQueue");
    return Reducer(context, queue);
}

}  // namespace clreduce::perf
