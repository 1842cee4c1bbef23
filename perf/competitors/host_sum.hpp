#pragma once
// The plain host read a user would write instead of an OpenCL call: one pass over the host
// bytes, split evenly over `threads` OpenMP threads (schedule(static)), each adding into the
// sum's accumulator (int64 / uint64, double for floats) in SIMD lanes (`omp simd`: a float sum
// in any order). compare's `host read` competitor and host-idle time it.
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <thread>
#include <type_traits>

#include <clreduce/device_info.hpp>

namespace clreduce::perf {

template <class T>
using HostAccumulator = std::conditional_t<std::is_floating_point_v<T>, double,
                                           std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>>;

template <class T>
long double host_sum(const T* data, std::int64_t n, int threads) {
    HostAccumulator<T> acc = 0;
#pragma omp parallel for simd num_threads(threads) schedule(static) reduction(+ : acc)
    for (std::int64_t i = 0; i < n; ++i) acc += static_cast<HostAccumulator<T>>(data[i]);
    return static_cast<long double>(acc);
}

// The read's threads: a CPU device's compute units are the host's cores; a GPU's are not, so
// at most the host's.
inline int host_read_threads(const DeviceInfo& device) {
    return static_cast<int>(
        std::clamp<std::uint32_t>(device.compute_units, 1, std::max(1u, std::thread::hardware_concurrency())));
}

}  // namespace clreduce::perf
