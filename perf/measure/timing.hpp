#pragma once
// Timing helpers shared by the perf commands.
#include <algorithm>
#include <vector>

#include <string>

#include <clreduce/opencl.hpp>
#include <clreduce/reducer.hpp>

namespace clreduce::perf {

inline double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

// Sum of the kernels' execution times (profiling events), in microseconds.
double device_microseconds(const std::vector<cl::Event>& events);

// A reducer on the device `spec` names (empty: default_device()) with its own context and a
// profiling queue, so that CallInfo's kernel events carry device times.
Reducer profiling_reducer(const std::string& spec);

// Two reducers on one context and device: `plain` on a queue without profiling, for the wall
// time of a call as a user makes it (a profiling queue and an event per kernel add several µs
// per call), and `profiling` for the device time of the kernels. Both read the same tuning
// database at construction, so they plan alike.
struct TimingReducers {
    Reducer plain;
    Reducer profiling;
};
TimingReducers timing_reducers(const std::string& spec);

}  // namespace clreduce::perf
