// The paper's experiment: fixed n, times = 1, 2, 4, ..., both strides; each point timed over
// repeated runs (device time from profiling events, and wall time of the synchronous call),
// each result checked against the exact CPU sum and cv::sum.
#include <algorithm>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>

#include <clreduce/clreduce.hpp>

#include "commands.hpp"
#include "reference.hpp"

namespace clreduce::perf {
namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

double kernel_microseconds(const CallInfo& info) {
    double total = 0;
    for (const cl::Event& e : info.kernel_events) {
        cl_ulong start = 0, end = 0;
        check(e.getProfilingInfo(CL_PROFILING_COMMAND_START, &start), "clGetEventProfilingInfo");
        check(e.getProfilingInfo(CL_PROFILING_COMMAND_END, &end), "clGetEventProfilingInfo");
        total += double(end - start) / 1000.0;
    }
    return total;
}

struct Point {
    Stride stride;
    std::uint32_t times;
    LaunchPlan plan;
    double kernel_us = 0;
    double call_us = 0;
    double gbps = 0;
    std::string problem;  // empty when every run was correct
};

template <class T>
int sweep(const SweepOptions& o, Reducer& reducer) {
    const DeviceInfo& d = reducer.device_info();
    const auto data = testing::random_values<T>(o.n, o.seed);
    const auto expected = testing::Expected<T>::compute(data.data(), o.n);
    const double bytes = double(o.n) * sizeof(T);

    std::cout << "clreduce-perf sweep: " << type_name(element_traits<T>::type) << ", n = " << o.n << " ("
              << std::fixed << std::setprecision(1) << bytes / (1 << 20) << " MiB), " << o.repeats
              << " timed runs per point after a warm-up, seed " << o.seed << "\n"
              << "device: " << d.platform_name << " / " << d.name << " (" << d.compute_units
              << " compute units, driver " << d.driver_version << ")\n";
    if constexpr (std::is_integral_v<T>)
        std::cout << "reference: exact CPU sum " << expected.exact;
    else
        std::cout << "reference: long double CPU sum " << std::setprecision(6) << double(expected.floats.sum);
    std::cout << ", cv::sum "
              << (expected.opencv.has_value ? std::to_string(expected.opencv.value)
                                            : std::string(testing::have_opencv() ? "has no such case" : "not built in"))
              << "\n\n";

    cl::Buffer buffer(reducer.context(), CL_MEM_READ_ONLY, std::max<std::size_t>(1, data.size()) * sizeof(T));
    if (o.n > 0) check(reducer.queue().enqueueWriteBuffer(buffer, CL_TRUE, 0, bytes, data.data()), "clEnqueueWriteBuffer");

    std::cout << std::left << std::setw(7) << "stride" << std::right << std::setw(6) << "times" << std::setw(10)
              << "groups" << std::setw(5) << "wg" << std::setw(5) << "vec" << std::setw(13) << "level3"
              << std::setw(13) << "kernel_us" << std::setw(12) << "call_us" << std::setw(10) << "GB/s"
              << std::setw(9) << "correct" << "\n";
    std::vector<Point> points;
    bool all_correct = true;
    for (Stride stride : {Stride::global, Stride::local}) {
        for (std::uint64_t times = o.min_times; times <= o.max_times; times *= 2) {
            LaunchParams params;
            params.times = static_cast<std::uint32_t>(times);
            params.stride = stride;
            if (o.work_group_size) params.work_group_size = o.work_group_size;
            if (o.vector_width) params.vector_width = o.vector_width;
            Point p{stride, params.times.value(), {}};
            try {
                p.plan = reducer.plan(element_traits<T>::type, o.n, params);
            } catch (const InvalidArgument& e) {
                std::cout << std::left << std::setw(7) << to_string(stride) << std::right << std::setw(6) << times
                          << "  skipped: " << e.what() << "\n";
                continue;
            }
            std::vector<double> kernel_us, call_us;
            for (int run = 0; run <= o.repeats; ++run) {
                CallInfo info;
                const auto start = std::chrono::steady_clock::now();
                const auto got = reducer.sum<T>(buffer, 0, o.n, params, &info);
                const auto stop = std::chrono::steady_clock::now();
                if (const auto why = expected.mismatch(got, p.plan.accumulator); !why.empty() && p.problem.empty())
                    p.problem = why;
                if (run == 0) continue;  // warm-up: program build, first-touch costs
                kernel_us.push_back(kernel_microseconds(info));
                call_us.push_back(std::chrono::duration<double, std::micro>(stop - start).count());
            }
            p.kernel_us = median(kernel_us);
            p.call_us = median(call_us);
            p.gbps = p.kernel_us > 0 ? bytes / (p.kernel_us * 1e3) : 0;
            all_correct = all_correct && p.problem.empty();
            std::cout << std::left << std::setw(7) << to_string(stride) << std::right << std::setw(6) << times
                      << std::setw(10) << p.plan.groups << std::setw(5) << p.plan.work_group_size << std::setw(5)
                      << p.plan.vector_width << std::setw(13) << to_string(p.plan.inter_group) << std::setw(13)
                      << std::setprecision(1) << p.kernel_us << std::setw(12) << p.call_us << std::setw(10)
                      << p.gbps << std::setw(9) << (p.problem.empty() ? "yes" : "NO") << "\n";
            if (!p.problem.empty()) std::cout << "        wrong result: " << p.problem << "\n";
            points.push_back(p);
        }
    }

    std::cout << "\ninflection point (fastest median kernel time per stride):\n";
    for (Stride stride : {Stride::global, Stride::local}) {
        const Point* best = nullptr;
        const Point* best_call = nullptr;
        for (const Point& p : points) {
            if (p.stride != stride) continue;
            if (!best || p.kernel_us < best->kernel_us) best = &p;
            if (!best_call || p.call_us < best_call->call_us) best_call = &p;
        }
        if (!best) continue;
        std::cout << "  " << std::left << std::setw(7) << to_string(stride) << std::right << "times = " << best->times
                  << "  (" << best->kernel_us << " us, " << best->gbps << " GB/s); fastest call: times = "
                  << best_call->times << " (" << best_call->call_us << " us)\n";
    }
    std::cout << (all_correct ? "all results correct\n" : "SOME RESULTS WERE WRONG\n");
    return all_correct ? 0 : 1;
}

}  // namespace

int run_sweep(const SweepOptions& o) {
    if (o.min_times > o.max_times) throw InvalidArgument("--min-times is larger than --max-times");
    const cl::Device device = o.device.empty() ? default_device() : select_device(o.device);
    cl_int err = CL_SUCCESS;
    cl::Context context(device, nullptr, nullptr, nullptr, &err);
    check(err, "clCreateContext");
    cl::CommandQueue queue(context, device, CL_QUEUE_PROFILING_ENABLE, &err);
    check(err, "clCreateCommandQueue");
    Reducer reducer(context, queue);
    return testing::with_element_type(o.type, [&](auto tag) { return sweep<decltype(tag)>(o, reducer); });
}

}  // namespace clreduce::perf
