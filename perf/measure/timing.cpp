#include "measure/timing.hpp"

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

namespace {

cl::Device device_of(const std::string& spec) { return spec.empty() ? default_device() : select_device(spec); }

cl::Context context_of(const cl::Device& device) {
    cl_int err = CL_SUCCESS;
    cl::Context context(device, nullptr, nullptr, nullptr, &err);
    check(err, "clCreateContext");
    return context;
}

Reducer reducer_on(const cl::Context& context, const cl::Device& device, cl_command_queue_properties properties) {
    cl_int err = CL_SUCCESS;
    cl::CommandQueue queue(context, device, properties, &err);
    check(err, "clCreateCommandQueue");
    return Reducer(context, queue);
}

}  // namespace

Reducer profiling_reducer(const std::string& spec) {
    const cl::Device device = device_of(spec);
    return reducer_on(context_of(device), device, CL_QUEUE_PROFILING_ENABLE);
}

TimingReducers timing_reducers(const std::string& spec) {
    const cl::Device device = device_of(spec);
    const cl::Context context = context_of(device);
    return {reducer_on(context, device, 0), reducer_on(context, device, CL_QUEUE_PROFILING_ENABLE)};
}

}  // namespace clreduce::perf
