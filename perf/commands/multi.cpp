// clreduce-perf multi: one device against all of a MultiReducer's, on the same data, for data
// resident on the devices (one device: the whole in its buffer; all: each device's piece of
// the split, from a copy of the whole on every device) and for host data (the pointer form;
// for all devices both as MultiReducer splits it by default, small data on one device, and
// always split). int32, float32 and correctly rounded float32 sums; each result checked
// against the exact (integers) or long double (floats) sum, and the correctly rounded sums of
// one device and of all compared bit for bit. Medians of wall times of synchronous calls. For
// resident data also the slowest piece alone on its device: the call on all devices cannot beat
// it, and the difference is the fan-out's cost.
#include <algorithm>
#include <chrono>
#include <iostream>
#include <optional>
#include <tuple>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <clreduce/clreduce.hpp>

#include "commands/commands.hpp"
#include "measure/result_check.hpp"
#include "measure/timing.hpp"
#include "reference/random_values.hpp"
#include "report/output_files.hpp"

namespace clreduce::perf {
namespace {

struct MultiRow {
    std::string type;  // int32, float32, float32-cr
    std::string data;  // resident, host
    std::uint64_t n = 0;
    double one_us = 0;
    double all_us = 0;
    std::optional<double> all_split_us;  // host data, split at every size
    // Resident data: the slowest device's piece alone, on that device's Reducer; all_us less this
    // is what running the pieces together costs (the fan-out).
    std::optional<double> piece_us;
    bool correct = true;
    std::string problem;
};

template <class F>
std::pair<double, long double> median_call(int repeats, F call) {
    std::vector<double> wall;
    long double value = 0;
    for (int run = 0; run <= repeats; ++run) {
        const auto start = std::chrono::steady_clock::now();
        value = static_cast<long double>(call());
        if (run > 0)
            wall.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
    }
    return {median(wall), value};
}

// The reference of data[0, n) as compare's check takes it (measure/result_check.hpp).
template <class T>
Reference reference_of(const T* data, std::uint64_t n) {
    Reference ref;
    ref.n = n;
    ref.integral = std::is_integral_v<T>;
    if constexpr (std::is_integral_v<T>)
        ref.exact = static_cast<long double>(testing::exact_sum(data, n));
    else
        ref.floats = testing::float_reference(data, n);
    return ref;
}

// compare's check on one value; the row keeps the first problem.
void check_value(const Reference& ref, long double value, ElementType accumulator, MultiRow& row, const char* who) {
    Measurement m;
    m.values = {value};
    m.accumulator = accumulator;
    CompareRow checked;
    check_result(ref, m, checked);
    if (checked.verdict != Verdict::correct && row.correct) {
        row.correct = false;
        row.problem = std::string(who) + ": " + checked.problem;
    }
}

// The sums of one element type, each under its label's parameters (float32 and float32-cr share
// the data, its copies on the devices and the references).
using Variants = std::vector<std::pair<std::string, LaunchParams>>;

// One size of one variant: resident data and host data, one device against all.
template <class T>
void measure_size(const MultiOptions& o, MultiReducer& multi, const std::vector<T>& host,
                  const std::vector<cl::Buffer>& copies, const Reference& ref, std::uint64_t n,
                  const std::string& label, const LaunchParams& params, std::vector<MultiRow>& rows) {
    const Reducer& one = multi.reducer(0);
    const ElementType accumulator = one.plan(element_traits<T>::type, n, params).accumulator;
    const bool exact = params.float_mode == FloatMode::correctly_rounded;
    for (const bool resident : {true, false}) {
        if (resident ? !o.resident : !o.host) continue;
        MultiRow row;
        row.type = label;
        row.data = resident ? "resident" : "host";
        row.n = n;
        long double one_value = 0, all_value = 0;
        if (resident) {
            const auto cuts = multi.split(n);
            std::vector<MultiReducer::Piece> pieces;
            for (std::size_t d = 0; d < multi.size(); ++d)
                pieces.push_back({d, copies[d], cuts[d], cuts[d + 1] - cuts[d]});
            std::tie(row.one_us, one_value) =
                median_call(o.repeats, [&] { return one.sum<T>(copies[0], 0, n, params); });
            std::tie(row.all_us, all_value) = median_call(o.repeats, [&] { return multi.sum<T>(pieces, params); });
            double slowest = 0;
            for (const MultiReducer::Piece& piece : pieces) {
                const Reducer& alone = multi.reducer(piece.device);
                slowest = std::max(slowest, median_call(o.repeats, [&] {
                                                return alone.sum<T>(piece.buffer, piece.offset, piece.count, params);
                                            }).first);
            }
            row.piece_us = slowest;
        } else {
            std::tie(row.one_us, one_value) =
                median_call(o.repeats, [&] { return one.sum<T>(host.data(), n, params); });
            multi.set_single_device_below(MultiReducer::kSingleDeviceBelow);
            std::tie(row.all_us, all_value) = median_call(o.repeats, [&] {
                return multi.partial<T>(Operation::sum, host.data(), n, params).template sum<T>();
            });
            multi.set_single_device_below(0);
            long double split_value = 0;
            double split_us = 0;
            std::tie(split_us, split_value) = median_call(o.repeats, [&] {
                return multi.partial<T>(Operation::sum, host.data(), n, params).template sum<T>();
            });
            row.all_split_us = split_us;
            check_value(ref, split_value, accumulator, row, "all devices, split");
            if (exact && split_value != one_value) {
                row.correct = false;
                row.problem = "correctly rounded sums differ: one device / all devices split";
            }
        }
        check_value(ref, one_value, accumulator, row, "one device");
        check_value(ref, all_value, accumulator, row, "all devices");
        if (exact && all_value != one_value && row.correct) {
            row.correct = false;
            row.problem = "correctly rounded sums differ between one device and all";
        }
        std::cerr << fmt::format("  {:<10} {:<8} n = {:>10}: one {:.1f} us, all {:.1f} us{}{}{}\n", label, row.data, n,
                                 row.one_us, row.all_us,
                                 row.piece_us ? fmt::format(", slowest piece alone {:.1f} us", *row.piece_us) : "",
                                 row.all_split_us ? fmt::format(", all split {:.1f} us", *row.all_split_us) : "",
                                 row.correct ? "" : "  WRONG: " + row.problem);
        rows.push_back(row);
    }
}

// Every size of every variant of one element type on one data set.
template <class T>
void measure_type(const MultiOptions& o, MultiReducer& multi, const Variants& variants, std::vector<MultiRow>& rows) {
    if (variants.empty()) return;
    const std::uint64_t largest = o.sizes.back();
    std::cerr << fmt::format("clreduce-perf multi: {} data of {} elements\n", type_name(element_traits<T>::type),
                             largest);
    const std::vector<T> host = testing::random_values<T>(largest, o.seed);
    // The whole on every device: device 0's copy for the one-device call, each device's piece of
    // its own copy for the call on all.
    std::vector<cl::Buffer> copies;
    if (o.resident)
        for (std::size_t d = 0; d < multi.size(); ++d) {
            const Reducer& r = multi.reducer(d);
            cl_int err = CL_SUCCESS;
            copies.emplace_back(r.context(), CL_MEM_READ_ONLY, largest * sizeof(T), nullptr, &err);
            check(err, "clCreateBuffer");
            check(r.queue().enqueueWriteBuffer(copies.back(), CL_TRUE, 0, largest * sizeof(T), host.data()),
                  "clEnqueueWriteBuffer");
        }
    for (std::uint64_t n : o.sizes) {
        const Reference ref = reference_of(host.data(), n);
        for (const auto& [label, params] : variants) measure_size(o, multi, host, copies, ref, n, label, params, rows);
    }
}

}  // namespace

int run_multi(const MultiOptions& options) {
    MultiOptions o = options;
    std::sort(o.sizes.begin(), o.sizes.end());
    if (o.sizes.empty()) throw InvalidArgument("multi: no sizes");
    MultiReducer multi = o.devices.empty() ? MultiReducer() : MultiReducer(o.devices);
    fmt::print("clreduce-perf multi: {} devices, median of {} calls after a warm-up, seed {}\n", multi.size(),
               o.repeats, o.seed);
    for (std::size_t d = 0; d < multi.size(); ++d) {
        const DeviceInfo& info = multi.reducer(d).device_info();
        fmt::print("  device {}: {} / {} (driver {})\n", d, info.platform_name, info.name, info.driver_version);
    }
    fmt::print(
        "one = device 0's Reducer; all = the MultiReducer over every device (host data: small data on one "
        "device below {} bytes); all split = host data split at every size\n",
        MultiReducer::kSingleDeviceBelow);
    Variants ints, floats;
    for (const std::string& type : o.types) {
        LaunchParams params;
        if (type == "int32") {
            ints.emplace_back(type, params);
        } else if (type == "float32" || type == "float32-cr") {
            if (type == "float32-cr") params.float_mode = FloatMode::correctly_rounded;
            floats.emplace_back(type, params);
        } else {
            throw InvalidArgument("multi: unknown type '" + type + "' (int32, float32 or float32-cr)");
        }
    }
    std::vector<MultiRow> rows;
    measure_type<std::int32_t>(o, multi, ints, rows);
    measure_type<float>(o, multi, floats, rows);
    fmt::print("\n{:<11}{:<9}{:>11}{:>12}{:>12}{:>9}{:>10}{:>10}{:>14}{:>9}  {}\n", "type", "data", "n", "one_us",
               "all_us", "x", "piece_us", "fan_us", "all_split_us", "x split", "check");
    bool all_correct = true;
    nlohmann::json json_rows = nlohmann::json::array();
    for (const MultiRow& r : rows) {
        all_correct = all_correct && r.correct;
        fmt::print("{:<11}{:<9}{:>11}{:>12.1f}{:>12.1f}{:>9.3f}{:>10}{:>10}{:>14}{:>9}  {}\n", r.type, r.data,
                   size_label(r.n), r.one_us, r.all_us, r.one_us / r.all_us,
                   r.piece_us ? fmt::format("{:.1f}", *r.piece_us) : "-",
                   r.piece_us ? fmt::format("{:.1f}", r.all_us - *r.piece_us) : "-",
                   r.all_split_us ? fmt::format("{:.1f}", *r.all_split_us) : "-",
                   r.all_split_us ? fmt::format("{:.3f}", r.one_us / *r.all_split_us) : "-",
                   r.correct ? "correct" : "WRONG: " + r.problem);
        nlohmann::json j = {{"type", r.type},      {"data", r.data},     {"n", r.n},
                            {"one_us", r.one_us},  {"all_us", r.all_us}, {"speedup", r.one_us / r.all_us},
                            {"correct", r.correct}};
        if (r.piece_us) {
            j["piece_us"] = *r.piece_us;
            j["fan_out_us"] = r.all_us - *r.piece_us;
        }
        if (r.all_split_us) {
            j["all_split_us"] = *r.all_split_us;
            j["speedup_split"] = r.one_us / *r.all_split_us;
        }
        if (!r.problem.empty()) j["problem"] = r.problem;
        json_rows.push_back(j);
    }
    fmt::print("\n{}\n", all_correct ? "all results correct" : "SOME RESULTS WERE WRONG");
    if (!o.json.empty()) {
        nlohmann::json devices = nlohmann::json::array();
        for (std::size_t d = 0; d < multi.size(); ++d) devices.push_back(device_json(multi.reducer(d).device_info()));
        const nlohmann::json doc = {{"command", "multi"},
                                    {"devices", devices},
                                    {"repeats", o.repeats},
                                    {"seed", o.seed},
                                    {"single_device_below", MultiReducer::kSingleDeviceBelow},
                                    {"rows", json_rows},
                                    {"correct", all_correct}};
        open_output(o.json) << doc.dump(2) << "\n";
    }
    return all_correct ? 0 : 1;
}

}  // namespace clreduce::perf
