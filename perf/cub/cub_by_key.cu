// clreduce-cub-by-key: cub::DeviceReduce::ReduceByKey and thrust::reduce_by_key over the data
// clreduce-perf by-key reduces (int32 keys in `runs` equal runs, key r for run r; int32 values
// from reference/random_values with the same seed, summed into int64), and a kernel that only
// reads the same bytes. Each run's sum is checked against the host's exact sum, and each run's
// key against r. Prints JSON:
//   {"device", "results": [{"n", "runs", "device_us", "wall_us", "thrust_wall_us", "read_only_us",
//                           "wrong", "thrust_wrong"}]}
// device_us: cudaEvents around ReduceByKey; wall_us: ReduceByKey and the copy of its number of
// runs, as a caller who sizes the results needs it; thrust_wall_us: thrust::reduce_by_key (it
// returns the runs' end, so it waits for the device); read_only_us: the read-only kernel over
// keys and values (16 blocks of 256 threads a multiprocessor).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include <cuda_runtime.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/reduce.h>
#include <CLI/CLI.hpp>
#include <cub/device/device_reduce.cuh>
#include <nlohmann/json.hpp>

#include "cuda_support.hpp"
#include "reference/random_values.hpp"

namespace {

using clreduce::perf::cuda::check;
using clreduce::perf::cuda::median;

// int32 values read as int64, so that the sums cannot wrap.
struct Widen {
    __host__ __device__ std::int64_t operator()(std::int32_t x) const { return x; }
};
struct Add {
    __host__ __device__ std::int64_t operator()(std::int64_t a, std::int64_t b) const { return a + b; }
};

// Reads keys and values once, 16 bytes a load (grid-stride), and writes only when the XOR of
// everything read equals `never`, which it does not: the loads stay, and nothing else moves.
__global__ void read_only(const uint4* keys, const uint4* values, std::uint64_t vectors, unsigned* sink,
                          unsigned never) {
    uint4 acc = make_uint4(0, 0, 0, 0);
    const std::uint64_t step = std::uint64_t(gridDim.x) * blockDim.x;
    for (std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < vectors; i += step) {
        const uint4 k = keys[i], v = values[i];
        acc.x ^= k.x ^ v.x;
        acc.y ^= k.y ^ v.y;
        acc.z ^= k.z ^ v.z;
        acc.w ^= k.w ^ v.w;
    }
    const unsigned folded = acc.x ^ acc.y ^ acc.z ^ acc.w;
    if (folded == never) sink[0] = folded;
}

// Run r's key is r and its sum the exact sum of its values.
std::uint64_t wrong_runs(const std::vector<std::int32_t>& values, std::uint64_t runs, std::uint64_t num_runs,
                         const std::vector<std::int32_t>& keys, const std::vector<std::int64_t>& sums) {
    if (num_runs != runs) return runs;
    const std::uint64_t length = values.size() / runs;
    std::uint64_t wrong = 0;
    for (std::uint64_t r = 0; r < runs; ++r) {
        std::int64_t exact = 0;
        for (std::uint64_t i = r * length; i < (r + 1) * length; ++i) exact += values[i];
        if (keys[r] != static_cast<std::int32_t>(r) || sums[r] != exact) ++wrong;
    }
    return wrong;
}

// `values`: random_values(n, seed), drawn once per n.
nlohmann::json measure(const std::vector<std::int32_t>& values, std::uint64_t runs, int repeats, int sms) {
    const std::uint64_t n = values.size();
    if (runs == 0 || n % runs != 0 || n % 4 != 0 || runs > (1ull << 31) || n >= (1ull << 31))
        throw std::runtime_error("n must be below 2^31 and a multiple of 4 and of the runs (" + std::to_string(n) +
                                 ", " + std::to_string(runs) + ")");
    std::vector<std::int32_t> keys(n);
    for (std::uint64_t i = 0; i < n; ++i) keys[i] = static_cast<std::int32_t>(i / (n / runs));
    std::int32_t *d_keys = nullptr, *d_values = nullptr, *d_unique = nullptr;
    std::int64_t* d_sums = nullptr;
    int* d_num_runs = nullptr;
    unsigned* d_sink = nullptr;
    void* temp = nullptr;
    std::size_t temp_bytes = 0;
    check(cudaMalloc(&d_keys, n * sizeof(std::int32_t)), "cudaMalloc");
    check(cudaMalloc(&d_values, n * sizeof(std::int32_t)), "cudaMalloc");
    check(cudaMalloc(&d_unique, runs * sizeof(std::int32_t)), "cudaMalloc");
    check(cudaMalloc(&d_sums, runs * sizeof(std::int64_t)), "cudaMalloc");
    check(cudaMalloc(&d_num_runs, sizeof(int)), "cudaMalloc");
    check(cudaMalloc(&d_sink, sizeof(unsigned)), "cudaMalloc");
    check(cudaMemcpy(d_keys, keys.data(), n * sizeof(std::int32_t), cudaMemcpyHostToDevice), "cudaMemcpy");
    check(cudaMemcpy(d_values, values.data(), n * sizeof(std::int32_t), cudaMemcpyHostToDevice), "cudaMemcpy");
    const auto wide = thrust::make_transform_iterator(d_values, Widen{});
    // A 32-bit count (n < 2^31, checked above): CUB's faster path, as its own benchmarks call it.
    const auto items = static_cast<int>(n);
    const auto reduce_by_key = [&](void* storage) {
        check(cub::DeviceReduce::ReduceByKey(storage, temp_bytes, d_keys, d_unique, wide, d_sums, d_num_runs, Add{},
                                             items),
              "cub::DeviceReduce::ReduceByKey");
    };
    reduce_by_key(nullptr);
    check(cudaMalloc(&temp, std::max<std::size_t>(1, temp_bytes)), "cudaMalloc");

    cudaEvent_t start, stop;
    check(cudaEventCreate(&start), "cudaEventCreate");
    check(cudaEventCreate(&stop), "cudaEventCreate");
    const auto event_us = [&] {
        float ms = 0;
        check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
        return ms * 1000.0;
    };
    std::vector<double> device, wall, thrust_wall, read;
    int num_runs = 0;
    for (int run = 0; run <= repeats; ++run) {  // run 0: warm-up
        check(cudaEventRecord(start), "cudaEventRecord");
        reduce_by_key(temp);
        check(cudaEventRecord(stop), "cudaEventRecord");
        check(cudaEventSynchronize(stop), "cudaEventSynchronize");
        if (run > 0) device.push_back(event_us());
    }
    for (int run = 0; run <= repeats; ++run) {
        const auto t0 = std::chrono::steady_clock::now();
        reduce_by_key(temp);
        check(cudaMemcpy(&num_runs, d_num_runs, sizeof num_runs, cudaMemcpyDeviceToHost), "cudaMemcpy");
        const auto t1 = std::chrono::steady_clock::now();
        if (run > 0) wall.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    }
    std::vector<std::int32_t> unique(runs);
    std::vector<std::int64_t> sums(runs);
    check(cudaMemcpy(unique.data(), d_unique, runs * sizeof(std::int32_t), cudaMemcpyDeviceToHost), "cudaMemcpy");
    check(cudaMemcpy(sums.data(), d_sums, runs * sizeof(std::int64_t), cudaMemcpyDeviceToHost), "cudaMemcpy");
    const std::uint64_t wrong = wrong_runs(values, runs, static_cast<std::uint64_t>(num_runs), unique, sums);

    check(cudaMemset(d_sums, 0, runs * sizeof(std::int64_t)), "cudaMemset");
    std::uint64_t thrust_runs = 0;
    for (int run = 0; run <= repeats; ++run) {
        const auto t0 = std::chrono::steady_clock::now();
        const auto ends = thrust::reduce_by_key(thrust::device, d_keys, d_keys + n, wide, d_unique, d_sums);
        const auto t1 = std::chrono::steady_clock::now();
        thrust_runs = static_cast<std::uint64_t>(ends.first - d_unique);
        if (run > 0) thrust_wall.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    }
    check(cudaMemcpy(unique.data(), d_unique, runs * sizeof(std::int32_t), cudaMemcpyDeviceToHost), "cudaMemcpy");
    check(cudaMemcpy(sums.data(), d_sums, runs * sizeof(std::int64_t), cudaMemcpyDeviceToHost), "cudaMemcpy");
    const std::uint64_t thrust_wrong = wrong_runs(values, runs, thrust_runs, unique, sums);

    const std::uint64_t vectors = n * sizeof(std::int32_t) / 16;
    for (int run = 0; run <= repeats; ++run) {
        check(cudaEventRecord(start), "cudaEventRecord");
        read_only<<<sms * 16, 256>>>(reinterpret_cast<const uint4*>(d_keys), reinterpret_cast<const uint4*>(d_values),
                                     vectors, d_sink, 0x9e3779b9u);
        check(cudaGetLastError(), "read_only");
        check(cudaEventRecord(stop), "cudaEventRecord");
        check(cudaEventSynchronize(stop), "cudaEventSynchronize");
        if (run > 0) read.push_back(event_us());
    }

    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    for (void* p : {temp, static_cast<void*>(d_sink), static_cast<void*>(d_num_runs), static_cast<void*>(d_sums),
                    static_cast<void*>(d_unique), static_cast<void*>(d_values), static_cast<void*>(d_keys)})
        cudaFree(p);
    return {{"n", n},
            {"runs", runs},
            {"device_us", median(device)},
            {"wall_us", median(wall)},
            {"thrust_wall_us", median(thrust_wall)},
            {"read_only_us", median(read)},
            {"wrong", wrong},
            {"thrust_wrong", thrust_wrong}};
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"clreduce-cub-by-key: cub::DeviceReduce::ReduceByKey and thrust::reduce_by_key timings as JSON"};
    std::vector<std::uint64_t> sizes, run_counts;
    int repeats = 15;
    std::uint64_t seed = 20261121;
    app.add_option("-n,--n", sizes, "Keys (and values); repeat for several")->required();
    app.add_option("--runs", run_counts, "Runs of equal keys (dividing n); repeat for several")->required();
    app.add_option("-r,--repeats", repeats, "Timed calls after one warm-up")->capture_default_str();
    app.add_option("--seed", seed, "Seed of the values (reference/random_values)")->capture_default_str();
    CLI11_PARSE(app, argc, argv);
    try {
        nlohmann::json doc = {{"device", clreduce::perf::cuda::device_name()}, {"results", nlohmann::json::array()}};
        cudaDeviceProp prop{};
        check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
        for (std::uint64_t n : sizes) {
            const std::vector<std::int32_t> values = clreduce::testing::random_values<std::int32_t>(n, seed);
            for (std::uint64_t runs : run_counts) {
                std::cerr << "  n " << n << ", " << runs << " runs\n";
                doc["results"].push_back(measure(values, runs, repeats, prop.multiProcessorCount));
            }
        }
        std::cout << doc.dump(2) << "\n";
    } catch (const std::exception& e) {
        std::cerr << "clreduce-cub-by-key: " << e.what() << "\n";
        return 3;
    }
    return 0;
}
