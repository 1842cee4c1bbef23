#pragma once
// clreduce's own calls in clreduce-floor, beside the raw OpenCL rows: each on a new reducer
// over seeded integers 0..999, every result checked against the exact sum.
#include <cstdint>
#include <string>

#include <clreduce/launch_params.hpp>
#include <clreduce/opencl.hpp>

#include "experiments/floor_rows.hpp"

namespace clreduce::perf::experiments {

// clreduce's synchronous sum of `n` random elements on a plain (non-profiling) queue, its result
// delivered as `delivery` names (measure/delivery.hpp); the note gives the plan and how the next 100 calls were paced.
// T: std::int32_t or float.
template <class T>
FloorRow clreduce_call(const cl::Device& device, std::uint64_t n, int repeats, LaunchParams params, std::string label,
                       const std::string& delivery = "automatic");

// clreduce's asynchronous sum: the host cost of each call in a chain of calls that nothing
// waits for between them (the result of call k goes to slot k of a device buffer), checked
// against the exact sum at the end. T: std::int32_t or float.
template <class T>
FloorRow clreduce_async_call(const cl::Device& device, std::uint64_t n, int repeats, std::string label,
                             bool make_event);

// `calls` int32 sums of `n` in one new reducer, one line each on stdout: the call's time and
// how long its read waited (paced reads), so that the learning can be seen call by call.
void trace_calls(const cl::Device& device, std::uint64_t n, int calls);

}  // namespace clreduce::perf::experiments
