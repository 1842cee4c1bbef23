#pragma once
// cub::DeviceReduce::Sum of host data copied to the first CUDA device, timed.
#include <cstdint>
#include <string>
#include <vector>

namespace clreduce::perf::cub_sum {

// Two loops of one warm-up and `repeats` timed calls each: the wall-time loop times the call
// alone (Sum + copy of the result), the device-time loop records cudaEvents around Sum.
struct Timing {
    double wall_us = 0;               // median synchronous call: Sum + copy of the result to the host
    double device_us = 0;             // median time between cudaEvents around Sum
    std::vector<long double> values;  // every call's result, both loops, warm-ups included
};

// S: the output (and so accumulator) type, as clreduce returns it: int64/uint64/double
// (int8 to int32 data sum into int64 or uint64).
template <class T, class S>
Timing measure(const T* host, std::uint64_t n, int repeats);

std::string device_name();  // throws std::runtime_error when there is no CUDA device

}  // namespace clreduce::perf::cub_sum
