#pragma once
// cub::DeviceReduce::Sum of host data copied to the first CUDA device, timed.
#include <cstdint>
#include <string>

namespace clreduce::perf::cub_sum {

struct Timing {
    double wall_us = 0;    // median synchronous call: Sum + copy of the result to the host
    double device_us = 0;  // median time between cudaEvents around Sum
    long double value = 0;  // result of the last call
};

// S: the output (and so accumulator) type, as clreduce returns it: int64/uint64/double.
template <class T, class S>
Timing measure(const T* host, std::uint64_t n, int repeats);

std::string device_name();  // throws std::runtime_error when there is no CUDA device

}  // namespace clreduce::perf::cub_sum
