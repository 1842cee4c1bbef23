// clreduce-floor's run: the raw OpenCL rows, the read bandwidth and the read's wait against the
// kernel's length, then clreduce's own calls (each way of reading on NVIDIA), as a table and
// optionally JSON.
#include "experiments/floor.hpp"

#include <algorithm>
#include <cstdlib>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <clreduce/clreduce.hpp>

#include "experiments/clreduce_calls.hpp"
#include "experiments/floor_rows.hpp"
#include "experiments/opencl_probe.hpp"
#include "report/output_files.hpp"

namespace clreduce::perf::experiments {

int run_floor(const FloorOptions& options) {
    const cl::Device device = options.device.empty() ? default_device() : select_device(options.device);
    const DeviceInfo info = DeviceInfo::query(device);
    std::cout << "device: " << info.platform_name << " / " << info.name << ", driver " << info.driver_version << "\n"
              << "medians of " << options.repeats << " calls after 10 warm-up calls, wall clock unless marked\n\n";
    std::vector<FloorRow> rows;
    {
        Probe probe(device);
        rows = probe.rows(options.repeats);
        std::uint64_t bytes = options.read_bytes;
        bytes = std::min<std::uint64_t>(bytes, info.max_alloc_size);
        bytes = std::min<std::uint64_t>(bytes, info.global_mem_size / 2);
        bytes -= bytes % 16;
        double gbps = 0;
        if (bytes >= 16) rows.push_back(probe.read_bandwidth(bytes, std::max(5, options.repeats / 20), &gbps));
        for (double target_us : {8.0, 10.0, 14.0})
            for (FloorRow& row : probe.wait_rows(options.repeats, target_us)) rows.push_back(std::move(row));
    }
    // clreduce's sync call as it delivers results by default, then (on NVIDIA, where the ways
    // differ) each other way (ResultDelivery and the experimental polled ones), and the default again: the first rows
    // of a run can be slower (the GPU's clocks after the bandwidth and wait rows).
    struct ReadWay {
        const char* suffix;
        const char* delivery;  // measure/delivery.hpp
    };
    std::vector<ReadWay> ways{{"", "automatic"}};
    if (info.is_nvidia)
        ways.insert(ways.end(), {{", polled, paced", "polled_paced"},
                                 {", polled, unpaced", "polled"},
                                 {", blocking, paced", "paced"},
                                 {", blocking, unpaced", "blocking"},
                                 {", default again", "automatic"}});
    for (const ReadWay& way : ways) {
        for (std::uint64_t n : options.sizes) {
            rows.push_back(clreduce_call<std::int32_t>(device, n, options.repeats, {},
                                                       fmt::format("clreduce sum int32, n = {}{}", n, way.suffix),
                                                       way.delivery));
            rows.push_back(clreduce_call<float>(device, n, options.repeats, {},
                                                fmt::format("clreduce sum float32, n = {}{}", n, way.suffix),
                                                way.delivery));
        }
    }
    for (std::uint64_t n : options.sizes) {
        for (bool event : {true, false}) {
            const char* how = event ? "" : ", no event";
            rows.push_back(clreduce_async_call<std::int32_t>(
                device, n, options.repeats, fmt::format("clreduce sum_async int32, n = {} (host{})", n, how), event));
            rows.push_back(
                clreduce_async_call<float>(device, n, options.repeats,
                                           fmt::format("clreduce sum_async float32, n = {} (host{})", n, how), event));
        }
    }
    std::cout << fmt::format("{:<58} {:>9} {:>9} {:>9}  {}\n", "what", "median", "p10", "p90", "note");
    for (const auto& r : rows)
        std::cout << fmt::format("{:<58} {:>9.1f} {:>9.1f} {:>9.1f}  {}\n", r.name, r.median_us, r.p10_us, r.p90_us,
                                 r.note);
    if (options.trace > 0)
        for (std::uint64_t n : options.sizes) trace_calls(device, n, options.trace);
    if (!options.json.empty()) {
        nlohmann::json j;
        j["device"] = device_json(info);
        j["repeats"] = options.repeats;
        for (const auto& r : rows)
            j["rows"].push_back({{"what", r.name},
                                 {"median_us", r.median_us},
                                 {"p10_us", r.p10_us},
                                 {"p90_us", r.p90_us},
                                 {"note", r.note}});
        open_output(options.json) << j.dump(2) << "\n";
    }
    return 0;
}

}  // namespace clreduce::perf::experiments
