#pragma once
// Timing helpers shared by the perf commands.
#include <algorithm>
#include <vector>

#include <clreduce/opencl.hpp>

namespace clreduce::perf {

inline double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

// Sum of the kernels' execution times (profiling events), in microseconds.
double device_microseconds(const std::vector<cl::Event>& events);

}  // namespace clreduce::perf
