// clreduce-perf pipeline: a pipeline of `calls` small reductions of float32 data (each over its
// own range of one buffer), made two ways on the same reducer with the same parameters (the
// asynchronous plan's level 3): synchronous calls, each of which waits for its result on the
// host, against asynchronous ones (Reducer::reduce_async) whose results stay on the device in
// one buffer, read once at the end. Wall time per pipeline, median
// of `repeats` after a warm-up; the two ways' results are checked to be the same bits. Two more
// rows: the correctly rounded sum (synchronous: its default exact atomic finish, rounded on the
// host; asynchronous: the fixed-point state rounded by the last kernel) and the int64 sum
// checked for overflow (asynchronous: checked on the device, a status word read at the end).
#include <chrono>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <clreduce/clreduce.hpp>

#include "commands/commands.hpp"
#include "measure/timing.hpp"
#include "reference/random_values.hpp"

namespace clreduce::perf {
namespace {

using Clock = std::chrono::steady_clock;

double elapsed_us(Clock::time_point start) {
    return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

// A result's fields as bits (the structures' padding is not part of them).
template <class V>
void append_bits(std::vector<std::uint64_t>& out, const V& v) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof v);
    out.push_back(bits);
}
template <class T>
void append_fields(std::vector<std::uint64_t>& out, const T& v) {
    if constexpr (std::is_arithmetic_v<T>) {
        append_bits(out, v);
    } else if constexpr (std::is_same_v<T, MinMax<float>>) {
        append_bits(out, v.min);
        append_bits(out, v.max);
    } else if constexpr (std::is_same_v<T, ArgResult<float>>) {
        append_bits(out, v.value);
        out.push_back(v.index);
    } else if constexpr (std::is_same_v<T, ArgMinMax<float>>) {
        append_fields(out, v.min);
        append_fields(out, v.max);
    } else {
        static_assert(std::is_same_v<T, Statistics<float>>, "a result type without its fields here");
        out.push_back(v.count);
        for (const double d : {double(v.min), double(v.max), v.sum, v.mean, v.variance}) append_bits(out, d);
    }
}

struct Row {
    std::string op;
    double sync_us = 0, async_us = 0;
    bool same = false;
};

// `what`: the row's name; `params`: both ways' parameters. Without `same_plan` the synchronous
// calls take their own default level 3 (the correctly rounded sum's exact atomic finish), with
// it the asynchronous plan's. An asynchronous result that may not fit its type sets a status
// word, read with the results (and required to stay 0).
template <Operation Op, class T>
Row measure(const Reducer& r, const cl::Buffer& data, const PipelineOptions& o, const std::string& what,
            LaunchParams params, bool same_plan = true) {
    using R = result_t<Op, T>;
    Row row;
    row.op = what;
    cl::Buffer results(r.context(), CL_MEM_READ_WRITE, o.calls * sizeof(R));
    cl_uint status_word = 0;
    cl::Buffer status(r.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof status_word, &status_word);
    std::vector<R> sync(o.calls), async(o.calls);
    std::vector<double> sync_us, async_us;
    // Both ways in the asynchronous call's plan (its level 3 is final on the device; a
    // synchronous float sum's default rounds on the host, with other last bits).
    const LaunchParams async_params = params;
    if (same_plan) params.inter_group = r.plan(element_traits<T>::type, Op, o.n, params, CallForm::async).inter_group;
    for (int run = 0; run <= o.repeats; ++run) {
        auto start = Clock::now();
        for (std::uint64_t k = 0; k < o.calls; ++k) sync[k] = r.reduce<Op, T>(data, k * o.n, o.n, params);
        if (run > 0) sync_us.push_back(elapsed_us(start));
        start = Clock::now();
        for (std::uint64_t k = 0; k < o.calls; ++k)
            r.reduce_async<Op, T>(data, k * o.n, o.n, {results, k, {}, AsyncEvent::none, status}, async_params);
        check(r.queue().enqueueReadBuffer(results, CL_FALSE, 0, o.calls * sizeof(R), async.data()),
              "clEnqueueReadBuffer");
        check(r.queue().enqueueReadBuffer(status, CL_TRUE, 0, sizeof status_word, &status_word), "clEnqueueReadBuffer");
        if (run > 0) async_us.push_back(elapsed_us(start));
    }
    row.sync_us = median(sync_us);
    row.async_us = median(async_us);
    std::vector<std::uint64_t> a, b;
    for (std::uint64_t k = 0; k < o.calls; ++k) {
        append_fields(a, sync[k]);
        append_fields(b, async[k]);
    }
    row.same = a == b && status_word == 0;
    return row;
}

}  // namespace

CLI::App* add_pipeline_command(CLI::App& app, PipelineOptions& o) {
    auto* cmd = app.add_subcommand("pipeline",
                                   "Time a pipeline of small reductions: synchronous calls against asynchronous ones "
                                   "whose results stay on the device (one read at the end)");
    cmd->add_option("-d,--device", o.device, "Device spec (default: $CLREDUCE_DEVICE, else first GPU)");
    cmd->add_option("-n,--n", o.n, "float32 elements per reduction")
        ->capture_default_str()
        ->check(CLI::Range(1ull, 1ull << 30));
    cmd->add_option("-k,--calls", o.calls, "Reductions per pipeline")
        ->capture_default_str()
        ->check(CLI::Range(1, 100000));
    cmd->add_option("-r,--repeats", o.repeats, "Timed pipelines (after one warm-up)")
        ->capture_default_str()
        ->check(CLI::Range(1, 1000));
    cmd->add_option("--seed", o.seed, "Random seed of the data")->capture_default_str();
    return cmd;
}

int run_pipeline(const PipelineOptions& o) {
    const TimingReducers reducers = timing_reducers(o.device);
    const Reducer& r = reducers.plain;
    const DeviceInfo& d = r.device_info();
    const std::vector<float> host = testing::random_values<float>(o.n * o.calls, o.seed);
    cl::Buffer data(r.context(), CL_MEM_READ_ONLY, host.size() * sizeof(float));
    check(r.queue().enqueueWriteBuffer(data, CL_TRUE, 0, host.size() * sizeof(float), host.data()),
          "clEnqueueWriteBuffer");
    std::cout << "clreduce-perf pipeline: " << o.calls << " reductions of " << o.n
              << " float32 elements each, wall time per pipeline, median of " << o.repeats << "\n"
              << "device: " << d.platform_name << " / " << d.name << " (driver " << d.driver_version << ")\n\n";
    // The same values as int64 for the checked integer sums.
    const std::vector<std::int64_t> host64(host.begin(), host.end());
    cl::Buffer data64(r.context(), CL_MEM_READ_ONLY, host64.size() * sizeof(std::int64_t));
    check(r.queue().enqueueWriteBuffer(data64, CL_TRUE, 0, host64.size() * sizeof(std::int64_t), host64.data()),
          "clEnqueueWriteBuffer");
    LaunchParams rounded;
    rounded.float_mode = FloatMode::correctly_rounded;
    std::vector<Row> rows;
    rows.push_back(measure<Operation::sum, float>(r, data, o, "sum", {}));
    rows.push_back(measure<Operation::mean, float>(r, data, o, "mean", {}));
    rows.push_back(measure<Operation::argmax, float>(r, data, o, "argmax", {}));
    rows.push_back(measure<Operation::norm_l2, float>(r, data, o, "norm_l2", {}));
    rows.push_back(measure<Operation::minmax, float>(r, data, o, "minmax", {}));
    rows.push_back(measure<Operation::statistics, float>(r, data, o, "statistics", {}));
    rows.push_back(measure<Operation::sum, float>(r, data, o, "sum rounded", rounded, false));
    rows.push_back(measure<Operation::sum, std::int64_t>(r, data64, o, "sum int64", {}));
    std::cout << fmt::format("{:<14}{:>14}{:>14}{:>12}{:>14}{:>8}\n", "operation", "sync us", "async us", "sync/async",
                             "async us/call", "same");
    bool all_same = true;
    for (const Row& row : rows) {
        std::cout << fmt::format("{:<14}{:>14.1f}{:>14.1f}{:>12.2f}{:>14.2f}{:>8}\n", row.op, row.sync_us, row.async_us,
                                 row.sync_us / row.async_us, row.async_us / double(o.calls), row.same ? "yes" : "NO");
        all_same = all_same && row.same;
    }
    if (!all_same) std::cout << "\nWRONG: an asynchronous result differs from the synchronous one\n";
    return all_same ? 0 : 1;
}

}  // namespace clreduce::perf
