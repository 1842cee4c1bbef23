// clreduce-cub-segmented: cub::DeviceSegmentedReduce::Sum over the shapes clreduce-perf segments
// times (reference/segment_shapes.hpp, the same data generator and seed), each result checked
// against the host's exact (integers) or long double (floats) sum of its segment. Prints JSON:
//   {"device", "type", "results": [{"shape", "segments", "elements", "device_us", "wrong", "max_error"}]}
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include <cuda_runtime.h>
#include <CLI/CLI.hpp>
#include <cub/device/device_segmented_reduce.cuh>
#include <nlohmann/json.hpp>

#include "cuda_support.hpp"
#include "reference/random_values.hpp"
#include "reference/segment_shapes.hpp"

namespace {

using clreduce::perf::cuda::check;
using clreduce::perf::cuda::median;

template <class T, class S>
nlohmann::json measure(const std::string& name, int repeats, std::uint64_t seed) {
    const auto shape = clreduce::testing::segment_shape(name, seed);
    const std::uint64_t n = shape.elements(), segments = shape.segments();
    const auto data = clreduce::testing::random_values<T>(n, seed);
    T* in = nullptr;
    S* out = nullptr;
    std::uint64_t* offsets = nullptr;
    void* temp = nullptr;
    std::size_t temp_bytes = 0;
    check(cudaMalloc(&in, std::max<std::uint64_t>(1, n) * sizeof(T)), "cudaMalloc");
    check(cudaMalloc(&out, std::max<std::uint64_t>(1, segments) * sizeof(S)), "cudaMalloc");
    check(cudaMalloc(&offsets, shape.offsets.size() * sizeof(std::uint64_t)), "cudaMalloc");
    check(cudaMemcpy(in, data.data(), n * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");
    check(cudaMemcpy(offsets, shape.offsets.data(), shape.offsets.size() * 8, cudaMemcpyHostToDevice), "cudaMemcpy");
    const auto items = static_cast<std::int64_t>(segments);
    check(cub::DeviceSegmentedReduce::Sum(nullptr, temp_bytes, in, out, items, offsets, offsets + 1),
          "cub::DeviceSegmentedReduce::Sum");
    check(cudaMalloc(&temp, std::max<std::size_t>(1, temp_bytes)), "cudaMalloc");
    cudaEvent_t start, stop;
    check(cudaEventCreate(&start), "cudaEventCreate");
    check(cudaEventCreate(&stop), "cudaEventCreate");
    std::vector<double> device;
    for (int run = 0; run <= repeats; ++run) {
        check(cudaEventRecord(start), "cudaEventRecord");
        check(cub::DeviceSegmentedReduce::Sum(temp, temp_bytes, in, out, items, offsets, offsets + 1),
              "cub::DeviceSegmentedReduce::Sum");
        check(cudaEventRecord(stop), "cudaEventRecord");
        check(cudaEventSynchronize(stop), "cudaEventSynchronize");
        float ms = 0;
        check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
        if (run > 0) device.push_back(ms * 1000.0);  // run 0: warm-up
    }
    std::vector<S> got(segments);
    check(cudaMemcpy(got.data(), out, segments * sizeof(S), cudaMemcpyDeviceToHost), "cudaMemcpy");
    std::uint64_t wrong = 0;
    double max_error = 0;
    for (std::uint64_t s = 0; s < segments; ++s) {
        long double exact = 0, magnitude = 0;
        for (std::uint64_t i = shape.offsets[s]; i < shape.offsets[s + 1]; ++i) {
            exact += static_cast<long double>(data[i]);
            magnitude += std::fabs(static_cast<long double>(data[i]));
        }
        if constexpr (std::is_integral_v<T>) {
            if (static_cast<long double>(got[s]) != exact) ++wrong;
        } else {
            const double error = double(std::fabs(static_cast<long double>(got[s]) - exact) / (magnitude + 1e-300L));
            max_error = std::max(max_error, error);
            if (error > 1e-6) ++wrong;
        }
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaFree(temp);
    cudaFree(offsets);
    cudaFree(out);
    cudaFree(in);
    return {{"shape", name},  {"segments", segments},  {"elements", n}, {"device_us", median(device)},
            {"wrong", wrong}, {"max_error", max_error}};
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"clreduce-cub-segmented: cub::DeviceSegmentedReduce::Sum timings as JSON"};
    std::string type = "int32";
    std::vector<std::string> shapes;
    int repeats = 15;
    std::uint64_t seed = 20261121;
    app.add_option("-t,--type", type, "int32 or float32")->capture_default_str();
    app.add_option("-s,--shape", shapes, "Segment shapes (reference/segment_shapes.hpp)")->required();
    app.add_option("-r,--repeats", repeats, "Timed calls after one warm-up")->capture_default_str();
    app.add_option("--seed", seed, "Seed of the data and the random shapes")->capture_default_str();
    CLI11_PARSE(app, argc, argv);
    try {
        nlohmann::json doc = {{"device", clreduce::perf::cuda::device_name()},
                              {"type", type},
                              {"results", nlohmann::json::array()}};
        for (const auto& shape : shapes) {
            if (type == "int32")
                doc["results"].push_back(measure<std::int32_t, std::int64_t>(shape, repeats, seed));
            else if (type == "float32")
                doc["results"].push_back(measure<float, double>(shape, repeats, seed));
            else
                throw std::runtime_error("clreduce-cub-segmented: type " + type + " (int32 or float32)");
        }
        std::cout << doc.dump(2) << "\n";
    } catch (const std::exception& e) {
        std::cerr << "clreduce-cub-segmented: " << e.what() << "\n";
        return 3;
    }
    return 0;
}
