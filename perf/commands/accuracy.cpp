// `clreduce-perf accuracy`: the relative error of every floating-point sum mode against the
// exact sum (reference/exact_float_sum), on data sets built to be hard to sum, beside
// cv::sum on a cv::Mat and on a cv::UMat, with the median time of each so the cost of
// determinism, compensation and correct rounding is stated: each mode's device time over the
// deterministic sum's and over a read-only kernel's on the same buffer.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>

#include <clreduce/clreduce.hpp>
#include <nlohmann/json.hpp>

#include "commands/commands.hpp"
#include "measure/embedded_perf_kernels.hpp"
#include "measure/read_only_kernel.hpp"
#include "measure/timing.hpp"
#include "reference/adversarial_data.hpp"
#include "reference/exact_float_sum.hpp"
#include "reference/op_reference.hpp"
#include "reference/opencv_reference.hpp"
#include "report/accuracy_plot.hpp"

namespace clreduce::perf {
namespace {

std::string scientific(double v, int digits = 2) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    std::ostringstream s;
    s << std::scientific << std::setprecision(digits) << v;
    return s.str();
}

std::string fixed(double v, int digits = 1) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(digits) << v;
    return s.str();
}

// One line of the report: a clreduce mode or an OpenCV call on one data set.
struct Row {
    std::string method;       // "clreduce deterministic", "cv::sum Mat", ...
    std::string accumulator;  // "float64", ...; OpenCV: its device
    std::optional<double> result;
    double relative_error = 0;
    bool correctly_rounded = false;    // result == the exact sum rounded to double
    bool repeatable = true;            // every timed run gave the same bits
    std::optional<bool> within_bound;  // clreduce only: the mode's stated error bound holds
    double kernel_us = 0, call_us = 0;
    std::string note;  // why there is no result
};

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

template <class T>
std::vector<Row> measure(const AccuracyOptions& o, Reducer& reducer, const cl::Buffer& buffer,
                         const std::vector<T>& data, const testing::ExactSum& exact, const testing::ExactSum& abs_sum) {
    const DeviceInfo& device = reducer.device_info();
    const double rounded = exact.to_double();
    std::vector<Row> rows;
    std::vector<std::optional<ElementType>> accumulators{std::nullopt};
    if (std::is_same_v<T, float> && device.has_fp64) accumulators.push_back(ElementType::float32);
    for (const auto& accumulator : accumulators) {
        for (FloatMode mode :
             {FloatMode::deterministic, FloatMode::atomic, FloatMode::compensated, FloatMode::correctly_rounded}) {
            if (accumulator && mode == FloatMode::correctly_rounded) continue;  // has its own accumulator
            LaunchParams params;
            params.float_mode = mode;
            params.accumulator = accumulator;
            Row row;
            row.method = "clreduce " + std::string(to_string(mode));
            try {
                const LaunchPlan plan = reducer.plan(element_traits<T>::type, Operation::sum, data.size(), params);
                row.accumulator = type_name(plan.accumulator);
                std::vector<double> kernel_us, call_us;
                for (int run = 0; run <= o.repeats; ++run) {
                    CallInfo info;
                    const auto start = std::chrono::steady_clock::now();
                    const double got = reducer.sum<T>(buffer, 0, data.size(), params, &info);
                    const auto stop = std::chrono::steady_clock::now();
                    if (row.result && !same_bits(*row.result, got)) row.repeatable = false;
                    row.result = got;
                    if (run == 0) continue;  // warm-up: program build
                    kernel_us.push_back(device_microseconds(info.kernel_events));
                    call_us.push_back(std::chrono::duration<double, std::micro>(stop - start).count());
                }
                row.kernel_us = median(kernel_us);
                row.call_us = median(call_us);
                const auto summation = mode == FloatMode::correctly_rounded ? testing::Summation::exact
                                       : mode == FloatMode::compensated     ? testing::Summation::compensated
                                                                            : testing::Summation::plain;
                row.within_bound = testing::sum_approx(exact, abs_sum, data.size(),
                                                       testing::unit_roundoff(plan.accumulator), summation)
                                       .accepts(*row.result);
            } catch (const Error& e) {
                row.result.reset();
                row.note = e.what();
            }
            rows.push_back(row);
        }
    }
    if (!o.skip_opencv) {
        for (bool umat : {false, true}) {
            const auto cv = testing::cv_sum_timed(data.data(), data.size(), umat, o.repeats);
            Row row;
            row.method = umat ? "cv::sum UMat" : "cv::sum Mat";
            row.accumulator = cv.device;
            row.result = cv.value;
            row.call_us = cv.median_seconds * 1e6;
            row.note = cv.why_not;
            rows.push_back(row);
        }
    }
    for (Row& row : rows) {
        if (!row.result) continue;
        row.relative_error = testing::relative_error(*row.result, exact);
        row.correctly_rounded = same_bits(*row.result, rounded);
    }
    return rows;
}

template <class T>
void run_type(const AccuracyOptions& o, Reducer& reducer, ReadOnlyKernel& read_only, std::uint64_t n,
              nlohmann::json& report, bool& all_good) {
    const ElementType type = element_traits<T>::type;
    std::cout << "\n"
              << type_name(type) << ", n = " << n << " (" << fixed(double(n) * sizeof(T) / (1 << 20))
              << " MiB), median of " << o.repeats << " runs after a warm-up, seed " << o.seed << "\n";
    std::cout << std::left << std::setw(18) << "dataset" << std::setw(10) << "cond" << std::setw(31) << "method"
              << std::setw(12) << "accumulator" << std::right << std::setw(11) << "rel.error" << std::setw(8) << "exact"
              << std::setw(8) << "repeat" << std::setw(7) << "bound" << std::setw(12) << "kernel_us" << std::setw(12)
              << "call_us" << std::setw(8) << "x det" << std::setw(8) << "x read"
              << "\n";
    cl::Buffer buffer(reducer.context(), CL_MEM_READ_ONLY, std::max<std::uint64_t>(1, n) * sizeof(T));
    for (const auto d : o.datasets) {
        const auto data = testing::make_dataset<T>(d, n, o.seed);
        testing::ExactSum exact, abs_sum;
        for (T x : data) {
            exact.add(x);
            abs_sum.add(std::fabs(x));
        }
        const double cond =
            exact.is_zero() ? HUGE_VAL : double(abs_sum.to_long_double() / std::fabs(exact.to_long_double()));
        if (n > 0)
            check(reducer.queue().enqueueWriteBuffer(buffer, CL_TRUE, 0, n * sizeof(T), data.data()),
                  "clEnqueueWriteBuffer");
        const auto rows = measure(o, reducer, buffer, data, exact, abs_sum);
        // The bounds of a time: the deterministic sum (the default) and a kernel that only reads.
        const double read_us =
            n > 0 ? median(read_only.time(reducer.queue(), buffer, n * sizeof(T), std::max(3, o.repeats))) : 0;
        double deterministic_us = 0;
        for (const Row& row : rows)
            if (row.method == "clreduce deterministic" && deterministic_us == 0) deterministic_us = row.kernel_us;
        nlohmann::json set{{"type", type_name(type)},
                           {"n", n},
                           {"dataset", testing::dataset_name(d)},
                           {"description", testing::dataset_description(d)},
                           {"seed", o.seed},
                           {"exact_sum", exact.to_double()},
                           {"condition_number", cond},
                           {"results", nlohmann::json::array()}};
        bool first = true;
        for (const Row& row : rows) {
            std::cout << std::left << std::setw(18) << (first ? std::string(testing::dataset_name(d)) : "")
                      << std::setw(10) << (first ? scientific(cond, 1) : "") << std::setw(31) << row.method
                      << std::setw(12) << row.accumulator.substr(0, 11) << std::right;
            first = false;
            nlohmann::json j{{"method", row.method}, {"accumulator", row.accumulator}};
            if (!row.result) {
                std::cout << "  n/a: " << row.note << "\n";
                j["error"] = row.note;
            } else {
                // Only the atomic mode may change its last bits from run to run.
                const bool must_repeat = row.method != "clreduce atomic" && row.method.rfind("clreduce", 0) == 0;
                if (row.within_bound == false || (must_repeat && !row.repeatable)) all_good = false;
                std::cout << std::setw(11) << scientific(row.relative_error) << std::setw(8)
                          << (row.correctly_rounded ? "yes" : "no") << std::setw(8) << (row.repeatable ? "yes" : "no")
                          << std::setw(7)
                          << (!row.within_bound   ? "-"
                              : *row.within_bound ? "ok"
                                                  : "NO")
                          << std::setw(12) << (row.kernel_us > 0 ? fixed(row.kernel_us) : "-") << std::setw(12)
                          << fixed(row.call_us) << std::setw(8)
                          << (row.kernel_us > 0 && deterministic_us > 0 ? fixed(row.kernel_us / deterministic_us, 2)
                                                                        : "-")
                          << std::setw(8)
                          << (row.kernel_us > 0 && read_us > 0 ? fixed(row.kernel_us / read_us, 2) : "-") << "\n";
                j["result"] = *row.result;
                j["relative_error"] = row.relative_error;
                j["correctly_rounded"] = row.correctly_rounded;
                j["repeatable"] = row.repeatable;
                if (row.within_bound) j["within_stated_bound"] = *row.within_bound;
                j["median_kernel_us"] = row.kernel_us;
                j["median_call_us"] = row.call_us;
                if (row.kernel_us > 0 && deterministic_us > 0)
                    j["time_over_deterministic"] = row.kernel_us / deterministic_us;
                if (row.kernel_us > 0 && read_us > 0) j["time_over_read_only"] = row.kernel_us / read_us;
            }
            set["results"].push_back(j);
        }
        std::cout << std::left << std::setw(18) << "" << std::setw(10) << "" << std::setw(31) << "read-only kernel"
                  << std::setw(12) << "" << std::right << std::setw(44) << fixed(read_us) << "\n";
        set["read_only_kernel_us"] = read_us;
        report["datasets"].push_back(set);
    }
}

}  // namespace

int run_accuracy(const AccuracyOptions& o) {
    Reducer reducer = profiling_reducer(o.device);
    const DeviceInfo& d = reducer.device_info();
    // 2^28 elements on a GPU; a CPU device gets 2^22 to stay quick.
    const std::vector<std::uint64_t> sizes =
        !o.n.empty() ? o.n : std::vector<std::uint64_t>{d.is_gpu() ? (1ull << 28) : (1ull << 22)};
    std::cout << "clreduce-perf accuracy: relative error |result - exact| / |exact| against the exact sum\n"
              << "device: " << d.platform_name << " / " << d.name << " (driver " << d.driver_version << ")\n"
              << "exact: the correctly rounded result; repeat: every run gave the same bits; bound: within the\n"
                 "mode's stated error bound; call_us: wall time of a synchronous call; n/a: the mode is not offered;\n"
                 "x det, x read: kernel time over the deterministic sum's and over a read-only kernel's\n";
    nlohmann::json report{{"device", d.name},
                          {"platform", d.platform_name},
                          {"driver", d.driver_version},
                          {"repeats", o.repeats},
                          {"datasets", nlohmann::json::array()}};
    bool all_good = true;
    ReadOnlyKernel read_only(build_perf_program(reducer.context(), reducer.queue().getInfo<CL_QUEUE_DEVICE>(),
                                                "read_only.cl"),
                             d);
    for (const std::uint64_t n : sizes) {
        for (ElementType type : o.types) {
            if (type == ElementType::float32)
                run_type<float>(o, reducer, read_only, n, report, all_good);
            else if (type == ElementType::float64)
                run_type<double>(o, reducer, read_only, n, report, all_good);
            else
                throw InvalidArgument("accuracy: types are float32 and float64, not " + std::string(type_name(type)));
        }
    }
    if (!o.json.empty()) {
        std::ofstream out(o.json);
        out << report.dump(2) << "\n";
        if (!out) throw Error("cannot write " + o.json);
        std::cout << "\nwrote " << o.json << "\n";
    }
    if (!o.svg.empty()) {
        write_accuracy_svg(report, std::string(testing::dataset_name(o.datasets.front())), o.svg);
        std::cout << "wrote " << o.svg << "\n";
    }
    std::cout << (all_good ? "every clreduce result within its stated bound, repeatable where promised\n"
                           : "SOME CLREDUCE RESULTS BROKE THEIR STATED BOUND OR WERE NOT REPEATABLE\n");
    return all_good ? 0 : 1;
}

}  // namespace clreduce::perf
