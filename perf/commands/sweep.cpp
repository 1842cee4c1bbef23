// The paper's experiment: for each n, times = 1, 2, 4, ..., both strides; each point timed over
// repeated runs (device time from profiling events, and wall time of the synchronous call),
// each result checked against the exact CPU sum and cv::sum.
#include <chrono>
#include <iomanip>
#include <iostream>
#include <sstream>

#include <clreduce/clreduce.hpp>

#include "commands/commands.hpp"
#include "measure/timing.hpp"
#include "reference/expected_sum.hpp"
#include "reference/opencv_sum.hpp"
#include "reference/random_values.hpp"
#include "reference/with_element_type.hpp"
#include "report/sweep_result.hpp"

namespace clreduce::perf {
namespace {

template <class T>
void sweep_one_size(const SweepOptions& o, std::uint64_t n, Reducer& reducer, SweepResult& result) {
    const auto data = testing::random_values<T>(n, o.seed);
    const auto expected = testing::Expected<T>::compute(data.data(), n);
    const double bytes = double(n) * sizeof(T);
    std::ostringstream reference;
    if constexpr (std::is_integral_v<T>)
        reference << "exact CPU sum " << expected.exact;
    else
        reference << "long double CPU sum " << std::setprecision(17) << double(expected.floats.sum);
    reference << ", cv::sum "
              << (expected.opencv.has_value
                      ? std::to_string(expected.opencv.value)
                      : std::string(testing::have_opencv() ? "has no such case" : "not built in"));
    result.references.push_back(reference.str());
    cl::Buffer buffer(reducer.context(), CL_MEM_READ_ONLY, std::max<std::size_t>(1, data.size()) * sizeof(T));
    if (n > 0)
        check(reducer.queue().enqueueWriteBuffer(buffer, CL_TRUE, 0, bytes, data.data()), "clEnqueueWriteBuffer");

    for (Stride stride : {Stride::global, Stride::local}) {
        for (std::uint64_t times = o.min_times; times <= o.max_times; times *= 2) {
            LaunchParams params;
            params.times = static_cast<std::uint32_t>(times);
            params.stride = stride;
            if (o.work_group_size) params.work_group_size = o.work_group_size;
            if (o.vector_width) params.vector_width = o.vector_width;
            if (!o.float_mode.empty()) params.float_mode = parse_float_mode(o.float_mode);
            SweepPoint p;
            p.n = n;
            p.stride = stride;
            p.times = params.times.value();
            try {
                p.plan = reducer.plan(element_traits<T>::type, n, params);
            } catch (const InvalidArgument& e) {
                p.skipped = e.what();
                result.points.push_back(p);
                continue;
            }
            std::vector<double> kernel_us, call_us;
            for (int run = 0; run <= o.repeats; ++run) {
                CallInfo info;
                const auto start = std::chrono::steady_clock::now();
                const auto got = reducer.sum<T>(buffer, 0, n, params, &info);
                const auto stop = std::chrono::steady_clock::now();
                if (const auto why = expected.mismatch(got, p.plan.accumulator); !why.empty() && p.problem.empty())
                    p.problem = why;
                if (run == 0) continue;  // warm-up: program build, first-touch costs
                kernel_us.push_back(device_microseconds(info.kernel_events));
                call_us.push_back(std::chrono::duration<double, std::micro>(stop - start).count());
            }
            p.kernel_us = median(kernel_us);
            p.call_us = median(call_us);
            p.gbps = p.kernel_us > 0 ? bytes / (p.kernel_us * 1e3) : 0;
            result.points.push_back(p);
        }
    }
}

}  // namespace

int run_sweep(const SweepOptions& o) {
    if (o.min_times > o.max_times) throw InvalidArgument("--min-times is larger than --max-times");
    if (o.sizes.empty()) throw InvalidArgument("no n given");
    if (!o.float_mode.empty()) {
        parse_float_mode(o.float_mode);  // names the mode it does not know
        if (!is_floating(o.type))
            throw InvalidArgument("--float-mode is for float types; -t is " + std::string(type_name(o.type)));
    }
    Reducer reducer = profiling_reducer(o.device);

    SweepResult result;
    result.device = reducer.device_info();
    result.type = o.type;
    result.repeats = o.repeats;
    result.seed = o.seed;
    result.data = testing::random_values_description(o.type);
    if (!o.float_mode.empty()) result.data += ", float mode " + o.float_mode;
    result.sizes = o.sizes;
    for (std::uint64_t n : o.sizes)
        testing::with_element_type(o.type, [&](auto tag) { sweep_one_size<decltype(tag)>(o, n, reducer, result); });

    print_sweep_table(result, std::cout);
    if (!o.out.csv.empty()) write_sweep_csv(result, o.out.csv);
    if (!o.out.json.empty()) write_sweep_json(result, o.out.json);
    if (!o.out.svg.empty()) write_sweep_svg(result, o.plot_y == "time" ? PlotY::time : PlotY::gbps, o.out.svg);
    return result.all_correct() ? 0 : 1;
}

}  // namespace clreduce::perf
