#include "cub_sum.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include <cuda_runtime.h>
#include <cub/device/device_reduce.cuh>

#include "cuda_support.hpp"

namespace clreduce::perf::cub_sum {
using cuda::check;
using cuda::median;

std::string device_name() { return cuda::device_name(); }

template <class T, class S>
Timing measure(const T* host, std::uint64_t n, int repeats) {
    T* in = nullptr;
    S* out = nullptr;
    void* temp = nullptr;
    std::size_t temp_bytes = 0;
    const auto items = static_cast<std::int64_t>(n);
    check(cudaMalloc(&in, std::max<std::uint64_t>(1, n) * sizeof(T)), "cudaMalloc");
    check(cudaMalloc(&out, sizeof(S)), "cudaMalloc");
    check(cudaMemcpy(in, host, n * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");
    check(cub::DeviceReduce::Sum(nullptr, temp_bytes, in, out, items), "cub::DeviceReduce::Sum");
    check(cudaMalloc(&temp, std::max<std::size_t>(1, temp_bytes)), "cudaMalloc");
    std::vector<double> wall, device;
    S result{};
    std::vector<long double> values;
    // The wall-time loop: the call as a user makes it, Sum and the copy of its result, nothing else.
    for (int run = 0; run <= repeats; ++run) {
        const auto t0 = std::chrono::steady_clock::now();
        check(cub::DeviceReduce::Sum(temp, temp_bytes, in, out, items), "cub::DeviceReduce::Sum");
        check(cudaMemcpy(&result, out, sizeof(S), cudaMemcpyDeviceToHost), "cudaMemcpy");
        const auto t1 = std::chrono::steady_clock::now();
        values.push_back(static_cast<long double>(result));
        if (run > 0) wall.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());  // run 0: warm-up
    }
    // The device-time loop, apart: cudaEvents around Sum.
    cudaEvent_t start, stop;
    check(cudaEventCreate(&start), "cudaEventCreate");
    check(cudaEventCreate(&stop), "cudaEventCreate");
    for (int run = 0; run <= repeats; ++run) {
        check(cudaEventRecord(start), "cudaEventRecord");
        check(cub::DeviceReduce::Sum(temp, temp_bytes, in, out, items), "cub::DeviceReduce::Sum");
        check(cudaEventRecord(stop), "cudaEventRecord");
        check(cudaMemcpy(&result, out, sizeof(S), cudaMemcpyDeviceToHost), "cudaMemcpy");
        values.push_back(static_cast<long double>(result));
        float ms = 0;
        check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
        if (run > 0) device.push_back(ms * 1000.0);
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaFree(temp);
    cudaFree(out);
    cudaFree(in);
    return {median(wall), median(device), std::move(values)};
}

template Timing measure<std::int8_t, std::int64_t>(const std::int8_t*, std::uint64_t, int);
template Timing measure<std::uint8_t, std::uint64_t>(const std::uint8_t*, std::uint64_t, int);
template Timing measure<std::int16_t, std::int64_t>(const std::int16_t*, std::uint64_t, int);
template Timing measure<std::uint16_t, std::uint64_t>(const std::uint16_t*, std::uint64_t, int);
template Timing measure<std::int32_t, std::int64_t>(const std::int32_t*, std::uint64_t, int);
template Timing measure<std::uint32_t, std::uint64_t>(const std::uint32_t*, std::uint64_t, int);
template Timing measure<std::int64_t, std::int64_t>(const std::int64_t*, std::uint64_t, int);
template Timing measure<std::uint64_t, std::uint64_t>(const std::uint64_t*, std::uint64_t, int);
template Timing measure<float, double>(const float*, std::uint64_t, int);
template Timing measure<double, double>(const double*, std::uint64_t, int);

}  // namespace clreduce::perf::cub_sum
