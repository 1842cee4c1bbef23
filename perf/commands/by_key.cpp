// clreduce-perf by-key: reduce_by_key's int32 sums (into int64) over int32 keys in equal runs,
// against CUB's DeviceReduce::ReduceByKey and Thrust's reduce_by_key (clreduce-cub-by-key,
// beside clreduce-perf where CUDA was found, on the same data), beside the read-only kernel
// over the keys' and the values' bytes. Device times are medians of profiled calls (the sum of
// the call's kernels; the read of the groups' counts of runs between them is not in it), wall times of
// synchronous calls on a queue without profiling; every run's key and sum is checked exactly.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <clreduce/clreduce.hpp>

#include "commands/commands.hpp"
#include "measure/comparator_process.hpp"
#include "measure/embedded_perf_kernels.hpp"
#include "measure/read_only_kernel.hpp"
#include "measure/timing.hpp"
#include "reference/random_values.hpp"

namespace clreduce::perf {
namespace {

struct Row {
    std::uint64_t n = 0, runs = 0;
    double read_only_us = 0, device_us = 0, wall_us = 0;                           // clreduce
    double cub_us = 0, cub_wall_us = 0, thrust_wall_us = 0, cub_read_only_us = 0;  // 0: not run
    std::uint64_t wrong = 0, cub_wrong = 0;
    std::string plan;
    std::vector<double> kernel_us;  // each of the call's kernels, in launch order (medians)
};

nlohmann::json run_cub(const ByKeyOptions& o) {
    namespace fs = std::filesystem;
    const std::string exe = o.cub.empty() ? (fs::path(o.self).parent_path() / "clreduce-cub-by-key").string() : o.cub;
    if (!fs::exists(exe)) return {{"error", "clreduce-cub-by-key not found (" + exe + ")"}};
    std::string command = shell_quoted(exe) + " -r " + std::to_string(o.repeats) + " --seed " + std::to_string(o.seed);
    for (std::uint64_t n : o.sizes) command += " -n " + std::to_string(n);
    for (std::uint64_t runs : o.runs) command += " --runs " + std::to_string(runs);
    return run_comparator(command, "clreduce-cub-by-key");
}

// Run r's key is r and its sum the exact sum of its values.
std::uint64_t wrong_runs(const std::vector<std::int32_t>& values, std::uint64_t runs,
                         const KeyedResults<std::int32_t, std::int64_t>& got) {
    if (got.runs() != runs || got.results.size() != runs) return runs;
    const std::uint64_t length = values.size() / runs;
    std::uint64_t wrong = 0;
    for (std::uint64_t r = 0; r < runs; ++r) {
        std::int64_t exact = 0;
        for (std::uint64_t i = r * length; i < (r + 1) * length; ++i) exact += values[i];
        if (got.keys[r] != static_cast<std::int32_t>(r) || got.results[r] != exact) ++wrong;
    }
    return wrong;
}

// `values`: random_values(n, o.seed), drawn once per n.
Row measure(const std::vector<std::int32_t>& values, std::uint64_t runs, const ByKeyOptions& o,
            const TimingReducers& reducers, ReadOnlyKernel& read_only) {
    const std::uint64_t n = values.size();
    if (runs == 0 || n % runs != 0)
        throw InvalidArgument("by-key: " + std::to_string(runs) + " runs do not divide " + std::to_string(n) + " keys");
    Row row;
    row.n = n;
    row.runs = runs;
    std::vector<std::int32_t> keys(n);
    for (std::uint64_t i = 0; i < n; ++i) keys[i] = static_cast<std::int32_t>(i / (n / runs));
    const Reducer& r = reducers.profiling;
    const auto device_copy = [&](const std::vector<std::int32_t>& host) {
        cl::Buffer buffer(r.context(), CL_MEM_READ_ONLY, host.size() * sizeof(std::int32_t));
        check(r.queue().enqueueWriteBuffer(buffer, CL_TRUE, 0, host.size() * sizeof(std::int32_t), host.data()),
              "clEnqueueWriteBuffer");
        return buffer;
    };
    const cl::Buffer key_buffer = device_copy(keys), value_buffer = device_copy(values);
    const std::vector<double> keys_read = read_only.time(r.queue(), key_buffer, n * 4, o.repeats);
    const std::vector<double> values_read = read_only.time(r.queue(), value_buffer, n * 4, o.repeats);
    row.read_only_us = median(keys_read) + median(values_read);

    // The results go into one KeyedResults kept across calls.
    KeyedResults<std::int32_t, std::int64_t> got;
    LaunchParams params;
    params.by_key_one_launch_keys = o.one_launch_keys;
    params.by_key_marked = o.marked;
    std::vector<double> device, wall;
    std::vector<std::vector<double>> kernels;  // kernels[k]: kernel k's times
    for (int run = 0; run <= o.repeats; ++run) {
        CallInfo info;
        r.sum_by_key<std::int32_t, std::int32_t>(key_buffer, 0, value_buffer, 0, n, got, params, &info);
        row.plan = info.plan.describe();
        if (run == 0) continue;
        device.push_back(device_microseconds(info.kernel_events));
        kernels.resize(std::max(kernels.size(), info.kernel_events.size()));
        for (std::size_t k = 0; k < info.kernel_events.size(); ++k)
            kernels[k].push_back(device_microseconds({info.kernel_events[k]}));
    }
    row.device_us = median(device);
    for (const std::vector<double>& k : kernels) row.kernel_us.push_back(median(k));
    row.wrong = wrong_runs(values, runs, got);
    for (int run = 0; run <= o.repeats; ++run) {
        const auto start = std::chrono::steady_clock::now();
        reducers.plain.sum_by_key<std::int32_t, std::int32_t>(key_buffer, 0, value_buffer, 0, n, got, params);
        if (run > 0)
            wall.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
    }
    row.wall_us = median(wall);
    row.wrong += wrong_runs(values, runs, got);
    return row;
}

}  // namespace

int run_by_key(const ByKeyOptions& o) {
    TimingReducers reducers = timing_reducers(o.device);
    const DeviceInfo& device = reducers.profiling.device_info();
    const cl::Device cl_device = reducers.profiling.queue().getInfo<CL_QUEUE_DEVICE>();
    ReadOnlyKernel read_only(build_perf_program(reducers.profiling.context(), cl_device, "read_only.cl"), device);
    std::vector<Row> rows;
    for (std::uint64_t n : o.sizes) {
        const std::vector<std::int32_t> values = testing::random_values<std::int32_t>(n, o.seed);
        for (std::uint64_t runs : o.runs) {
            std::cerr << "  n " << n << ", " << runs << " runs\n";
            rows.push_back(measure(values, runs, o, reducers, read_only));
        }
    }
    const nlohmann::json cub = run_cub(o);
    if (cub.contains("results"))
        for (const auto& c : cub.at("results"))
            for (Row& row : rows)
                if (row.n == c.at("n").get<std::uint64_t>() && row.runs == c.at("runs").get<std::uint64_t>()) {
                    row.cub_us = c.at("device_us").get<double>();
                    row.cub_wall_us = c.at("wall_us").get<double>();
                    row.thrust_wall_us = c.at("thrust_wall_us").get<double>();
                    row.cub_read_only_us = c.at("read_only_us").get<double>();
                    row.cub_wrong = c.at("wrong").get<std::uint64_t>() + c.at("thrust_wrong").get<std::uint64_t>();
                }
    fmt::print("clreduce-perf by-key: int32 keys in equal runs, int32 values summed into int64, device '{}'; CUB: {}\n",
               device.name,
               cub.contains("error") ? cub.at("error").get<std::string>() : cub.value("device", std::string()));
    fmt::print("{:>10} {:>8} {:>11} {:>11} {:>6} {:>11} {:>11} {:>8} {:>11} {:>11} {:>6}\n", "n", "runs", "read-only",
               "clreduce", "/r-o", "cl wall", "CUB", "CUB/cl", "CUB wall", "Thrust", "wrong");
    bool correct = true;
    const auto us = [](double v) { return v > 0 ? fmt::format("{:.1f}us", v) : std::string("-"); };
    for (const Row& row : rows) {
        correct = correct && row.wrong == 0 && row.cub_wrong == 0;
        fmt::print("{:>10} {:>8} {:>11} {:>11} {:>6.2f} {:>11} {:>11} {:>8} {:>11} {:>11} {:>6}\n", row.n, row.runs,
                   us(row.read_only_us), us(row.device_us), row.read_only_us / row.device_us, us(row.wall_us),
                   us(row.cub_us), row.cub_us > 0 ? fmt::format("{:.2f}", row.cub_us / row.device_us) : "-",
                   us(row.cub_wall_us), us(row.thrust_wall_us), row.wrong + row.cub_wrong);
        fmt::print("    plan: {}\n    kernels (us, in launch order): {:.1f}\n", row.plan,
                   fmt::join(row.kernel_us, " + "));
    }
    fmt::print(
        "clreduce: device time (the call's kernels, medians); /r-o: the read-only kernel's time over keys and values "
        "over clreduce's; cl wall: the synchronous call; CUB: ReduceByKey's device time (CUB/cl > 1: clreduce "
        "faster); CUB wall: with the copy of its number of runs; Thrust: reduce_by_key's wall time; wrong: runs "
        "whose key or sum is not exact (clreduce + CUB + Thrust)\n");
    if (!o.json.empty()) {
        nlohmann::json doc = {{"device", device.name},
                              {"repeats", o.repeats},
                              {"seed", o.seed},
                              {"cub", cub},
                              {"rows", nlohmann::json::array()}};
        for (const Row& row : rows)
            doc["rows"].push_back({{"n", row.n},
                                   {"runs", row.runs},
                                   {"read_only_us", row.read_only_us},
                                   {"clreduce_us", row.device_us},
                                   {"clreduce_wall_us", row.wall_us},
                                   {"cub_us", row.cub_us},
                                   {"cub_wall_us", row.cub_wall_us},
                                   {"thrust_wall_us", row.thrust_wall_us},
                                   {"cub_read_only_us", row.cub_read_only_us},
                                   {"wrong", row.wrong},
                                   {"cub_wrong", row.cub_wrong},
                                   {"plan", row.plan},
                                   {"kernel_us", row.kernel_us}});
        std::ofstream(o.json) << doc.dump(2) << "\n";
    }
    return correct ? 0 : 1;
}

}  // namespace clreduce::perf
