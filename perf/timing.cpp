#include "timing.hpp"

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

}  // namespace clreduce::perf
