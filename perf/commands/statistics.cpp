// clreduce-perf statistics: Reducer::statistics (count, extremes, sum, mean and variance of one
// pass) against what a user would otherwise call: clreduce's sum, sum_of_squares and minmax
// (three passes), and OpenCV's cv::meanStdDev then cv::minMaxLoc on a cv::Mat and on a cv::UMat
// bound to the same device; beside the read-only kernel over the same bytes. Device times are
// medians of profiled calls, wall times medians of synchronous calls on a queue without
// profiling; every result is checked against the long double two-pass reference and its bound.
#include <chrono>
#include <cmath>
#include <fstream>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <clreduce/clreduce.hpp>

#include "commands/commands.hpp"
#include "competitors/opencv_reduce.hpp"
#include "measure/embedded_perf_kernels.hpp"
#include "measure/read_only_kernel.hpp"
#include "measure/timing.hpp"
#include "reference/random_values.hpp"
#include "reference/statistics_reference.hpp"
#include "reference/with_element_type.hpp"

namespace clreduce::perf {
namespace {

struct Row {
    std::uint64_t n = 0;
    double read_only_us = 0;
    double fused_us = 0, fused_wall_us = 0;        // statistics
    double separate_us = 0, separate_wall_us = 0;  // sum + sum_of_squares + minmax
    OpenCVReduceTiming opencv;                     // sums: mean, stddev, min, max
    bool correct = false;
    double opencv_variance_error = 0;  // relative, of the UMat's (else the Mat's) stddev^2
    std::string plan;
};

// Median device and wall time of `call(reducer, info)` on each reducer, after one warm-up.
template <class Call>
std::pair<double, double> time_call(const TimingReducers& reducers, int repeats, Call call) {
    std::vector<double> device, wall;
    for (int run = 0; run <= repeats; ++run) {
        CallInfo info;
        call(reducers.profiling, &info);
        if (run > 0) device.push_back(device_microseconds(info.kernel_events));
    }
    for (int run = 0; run <= repeats; ++run) {
        const auto start = std::chrono::steady_clock::now();
        call(reducers.plain, nullptr);
        if (run > 0)
            wall.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
    }
    return {median(device), median(wall)};
}

template <class T>
Row measure(std::uint64_t n, const StatisticsOptions& o, const TimingReducers& reducers, ReadOnlyKernel& read_only) {
    const std::vector<T> data = testing::random_values<T>(n, o.seed);
    Row row;
    row.n = n;
    const Reducer& r = reducers.profiling;
    cl::Buffer values(r.context(), CL_MEM_READ_ONLY, n * sizeof(T));
    check(r.queue().enqueueWriteBuffer(values, CL_TRUE, 0, n * sizeof(T), data.data()), "clEnqueueWriteBuffer");
    row.read_only_us = median(read_only.time(r.queue(), values, n * sizeof(T), o.repeats));
    Statistics<T> got;
    std::tie(row.fused_us, row.fused_wall_us) = time_call(reducers, o.repeats, [&](const Reducer& x, CallInfo* info) {
        got = x.statistics<T>(values, 0, n, {}, info);
        if (info != nullptr) row.plan = info->plan.describe();
    });
    std::tie(row.separate_us, row.separate_wall_us) = time_call(reducers, o.repeats,
                                                                [&](const Reducer& x, CallInfo* info) {
        CallInfo a, b, c;
        x.sum<T>(values, 0, n, {}, info ? &a : nullptr);
        x.sum_of_squares<T>(values, 0, n, {}, info ? &b : nullptr);
        x.minmax<T>(values, 0, n, {}, info ? &c : nullptr);
        if (info != nullptr)
            for (const CallInfo* i : {&a, &b, &c})
                info->kernel_events.insert(info->kernel_events.end(), i->kernel_events.begin(), i->kernel_events.end());
    });
    const long double u = testing::unit_roundoff(ElementType::float64);
    const testing::StatisticsReference ref = testing::reference_statistics(data.data(), n, u);
    row.correct = got.count == n && static_cast<long double>(got.min) == ref.min &&
                  static_cast<long double>(got.max) == ref.max && ref.mean.accepts(got.mean) &&
                  ref.variance.accepts(got.variance);
    row.opencv = time_opencv_statistics(reducers.plain, data.data(), element_traits<T>::type, n, o.repeats);
    const OpenCVReduceRun& cv = row.opencv.umat.wall_us > 0 ? row.opencv.umat : row.opencv.mat;
    if (cv.sums.size() == 4)
        row.opencv_variance_error =
            double(std::fabs(cv.sums[1] * cv.sums[1] - ref.variance.value) / std::max(ref.variance.value, 1e-300L));
    return row;
}

}  // namespace

int run_statistics(const StatisticsOptions& o) {
    TimingReducers reducers = timing_reducers(o.device);
    const DeviceInfo& device = reducers.profiling.device_info();
    const cl::Device cl_device = reducers.profiling.queue().getInfo<CL_QUEUE_DEVICE>();
    ReadOnlyKernel read_only(build_perf_program(reducers.profiling.context(), cl_device, "read_only.cl"), device);
    std::vector<Row> rows;
    for (const std::uint64_t n : o.sizes) {
        if (n * type_size(o.type) > device.max_alloc_size) {
            std::cerr << "  n " << n << " left out: larger than the device's largest buffer\n";
            continue;
        }
        std::cerr << "  n " << n << "\n";
        rows.push_back(testing::with_element_type(o.type, [&](auto tag) -> Row {
            using T = decltype(tag);
            if constexpr (std::is_same_v<T, std::int32_t> || std::is_same_v<T, float> || std::is_same_v<T, double>)
                return measure<T>(n, o, reducers, read_only);
            else
                throw InvalidArgument("statistics times int32, float32 or float64 data");
        }));
    }
    fmt::print("clreduce-perf statistics: {} data ({}), device '{}', medians of {}\n", type_name(o.type),
               testing::random_values_description(o.type), device.name, o.repeats);
    fmt::print("{:>10} {:>10} {:>10} {:>6} {:>11} {:>7} | {:>10} {:>11} {:>12} {:>11} {:>8} {:>7}\n", "n", "read-only",
               "fused", "/r-o", "3 passes", "3p/fus", "fused wall", "3 p. wall", "cv UMat wall", "cv Mat wall",
               "cv var", "right");
    bool correct = true;
    for (const Row& row : rows) {
        correct = correct && row.correct;
        const auto cv = [](const OpenCVReduceRun& run) {
            return run.wall_us > 0 ? fmt::format("{:.1f}us", run.wall_us) : std::string("-");
        };
        fmt::print(
            "{:>10} {:>8.1f}us {:>8.1f}us {:>6.2f} {:>9.1f}us {:>7.2f} | {:>8.1f}us {:>9.1f}us {:>12} {:>11} "
            "{:>8.1e} {:>7}\n",
            row.n, row.read_only_us, row.fused_us, row.read_only_us / row.fused_us, row.separate_us,
            row.separate_us / row.fused_us, row.fused_wall_us, row.separate_wall_us, cv(row.opencv.umat),
            cv(row.opencv.mat), row.opencv_variance_error, row.correct ? "yes" : "NO");
        fmt::print("    plan: {}\n", row.plan);
    }
    if (!rows.empty()) fmt::print("    OpenCV: {}; {}\n", rows.front().opencv.umat.note, rows.front().opencv.mat.note);
    fmt::print(
        "fused: statistics (count, min, max, sum, mean, variance; device time); /r-o: the read-only kernel's time "
        "over it; 3 passes: sum + sum_of_squares + minmax; cv: cv::meanStdDev + cv::minMaxLoc; cv var: relative "
        "error of OpenCV's variance; right: clreduce's statistics within their bounds\n");
    if (!o.json.empty()) {
        nlohmann::json doc = {{"device", device.name},
                              {"type", type_name(o.type)},
                              {"repeats", o.repeats},
                              {"seed", o.seed},
                              {"rows", nlohmann::json::array()}};
        for (const Row& row : rows)
            doc["rows"].push_back({{"n", row.n},
                                   {"read_only_us", row.read_only_us},
                                   {"fused_us", row.fused_us},
                                   {"fused_wall_us", row.fused_wall_us},
                                   {"separate_us", row.separate_us},
                                   {"separate_wall_us", row.separate_wall_us},
                                   {"opencv_umat_wall_us", row.opencv.umat.wall_us},
                                   {"opencv_mat_wall_us", row.opencv.mat.wall_us},
                                   {"opencv_umat", row.opencv.umat.note},
                                   {"opencv_mat", row.opencv.mat.note},
                                   {"opencv_variance_error", row.opencv_variance_error},
                                   {"correct", row.correct},
                                   {"plan", row.plan}});
        std::ofstream(o.json) << doc.dump(2) << "\n";
    }
    return correct ? 0 : 1;
}

}  // namespace clreduce::perf
