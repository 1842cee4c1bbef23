// clreduce-exact-lanes: which level 1 path of the correctly rounded sum is faster on a device.
// Times, in interleaved rounds on one buffer, the deterministic sum, the correctly rounded sum
// with the level 1 path the device takes by default (device/vendor.hpp's exact_lane_passes)
// and with each path forced (force_exact_lane_passes, the tests' switch): tested, untested
// first and anchored (float data: the anchored pass; double data: the group's range check
// before the two untested TwoSums). Device-time medians; each correctly rounded result is
// checked bit for bit against the exact sum (--cr-times, --cr-vec: also with `times`, the vector
// width or both forced). The
// experiment behind exact_lane_passes, kept apart from clreduce-perf's commands.
#include <cmath>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>
#include <clreduce/clreduce.hpp>

#include "kernels/kernel_spec.hpp"
#include "measure/timing.hpp"
#include "reference/adversarial_data.hpp"
#include "reference/exact_float_sum.hpp"

namespace clreduce::perf {
namespace {

struct Options {
    std::string device;
    std::vector<std::string> types{"float32", "float64"};
    std::vector<std::uint64_t> sizes{std::uint64_t(1) << 24, std::uint64_t(1) << 28};
    std::vector<std::string> datasets{"benign", "cancellation", "wide_range"};
    int repeats = 9;
    std::uint64_t seed = 20261121;
    std::vector<std::uint32_t> cr_times;  // more correctly rounded variants, `times` forced
    std::vector<std::uint32_t> cr_vec;    // and the vector width forced (each with each `times`)
};

struct Variant {
    std::string name;
    FloatMode mode;
    std::optional<ExactLanePasses> forced;  // std::nullopt: the device's own
    std::optional<std::uint32_t> times;     // std::nullopt: the planner's
    std::optional<std::uint32_t> vec;       // std::nullopt: the planner's
};

// The exact sum, in slices on the host's cores (ExactSum's merge is exact).
template <class T>
double exact_sum(const std::vector<T>& data) {
    const unsigned slices = std::max(1u, std::thread::hardware_concurrency());
    std::vector<testing::ExactSum> parts(slices);
    std::vector<std::thread> threads;
    const std::uint64_t n = data.size();
    for (unsigned s = 0; s < slices; ++s)
        threads.emplace_back([&, s] {
            for (std::uint64_t i = n * s / slices; i < n * (s + 1) / slices; ++i) parts[s].add(data[i]);
        });
    for (auto& t : threads) t.join();
    for (unsigned s = 1; s < slices; ++s) parts[0].add(parts[s]);
    return parts[0].to_double();
}

std::string plan_text(const LaunchPlan& p) {
    std::ostringstream s;
    s << "times=" << p.times << " vec=" << p.vector_width << " wg=" << p.work_group_size << " groups=" << p.groups;
    return s.str();
}

// One data set: returns false when a correctly rounded result is not the exact sum rounded.
template <class T>
bool run_set(Reducer& reducer, const Options& o, std::uint64_t n, testing::Dataset d) {
    std::vector<Variant> variants{{"deterministic", FloatMode::deterministic, std::nullopt, std::nullopt, std::nullopt},
                                  {"correctly_rounded", FloatMode::correctly_rounded, std::nullopt, std::nullopt,
                                   std::nullopt}};
    for (ExactLanePasses forced :
         {ExactLanePasses::tested, ExactLanePasses::untested_first, ExactLanePasses::anchored}) {
        variants.push_back({std::string("correctly_rounded ") + to_string(forced), FloatMode::correctly_rounded, forced,
                            std::nullopt, std::nullopt});
    }
    std::vector<std::optional<std::uint32_t>> times_forced(o.cr_times.begin(), o.cr_times.end());
    std::vector<std::optional<std::uint32_t>> vec_forced(o.cr_vec.begin(), o.cr_vec.end());
    if (!vec_forced.empty()) times_forced.insert(times_forced.begin(), std::nullopt);
    if (!times_forced.empty()) vec_forced.insert(vec_forced.begin(), std::nullopt);
    for (const auto& t : times_forced)
        for (const auto& w : vec_forced)
            if (t || w)
                variants.push_back({"correctly_rounded" + (t ? " times=" + std::to_string(*t) : std::string()) +
                                        (w ? " vec=" + std::to_string(*w) : std::string()),
                                    FloatMode::correctly_rounded, std::nullopt, t, w});
    double exact = 0;
    cl::Buffer buffer(reducer.context(), CL_MEM_READ_ONLY, n * sizeof(T));
    {
        const auto data = testing::make_dataset<T>(d, n, o.seed);
        exact = exact_sum(data);
        check(reducer.queue().enqueueWriteBuffer(buffer, CL_TRUE, 0, n * sizeof(T), data.data()),
              "clEnqueueWriteBuffer");
    }
    std::vector<std::vector<double>> times(variants.size());
    std::vector<std::string> plans(variants.size());
    bool all_exact = true;
    for (int round = -1; round < o.repeats; ++round) {  // round -1: build and check
        for (std::size_t v = 0; v < variants.size(); ++v) {
            force_exact_lane_passes(variants[v].forced);
            LaunchParams params;
            params.float_mode = variants[v].mode;
            params.times = variants[v].times;
            params.vector_width = variants[v].vec;
            CallInfo info;
            const double got = reducer.sum<T>(buffer, 0, n, params, &info);
            if (round >= 0) {
                times[v].push_back(device_microseconds(info.kernel_events));
                continue;
            }
            plans[v] = plan_text(reducer.plan(element_traits<T>::type, Operation::sum, n, params));
            if (variants[v].mode == FloatMode::correctly_rounded && std::memcmp(&got, &exact, sizeof got) != 0) {
                std::cout << "  WRONG: " << variants[v].name << " gave " << got << ", exact sum rounded " << exact
                          << "\n";
                all_exact = false;
            }
        }
    }
    force_exact_lane_passes(std::nullopt);
    const double deterministic = median(times[0]);
    for (std::size_t v = 0; v < variants.size(); ++v) {
        const double us = median(times[v]);
        std::cout << std::left << std::setw(8) << type_name(element_traits<T>::type) << std::setw(16)
                  << testing::dataset_name(d) << "n=2^" << std::setw(3) << int(std::log2(double(n))) << std::setw(34)
                  << variants[v].name << std::right << std::fixed << std::setprecision(1) << std::setw(10) << us
                  << " us  x" << std::setprecision(2) << us / deterministic << "   " << plans[v] << "\n";
    }
    return all_exact;
}

int run(const Options& o) {
    Reducer reducer = profiling_reducer(o.device);
    std::cout << "device " << reducer.device_info().name << "; device-time medians of " << o.repeats
              << " interleaved rounds, seed " << o.seed << "\n";
    bool all_exact = true;
    for (const std::string& type : o.types)
        for (std::uint64_t n : o.sizes)
            for (const std::string& name : o.datasets) {
                const testing::Dataset d = testing::parse_dataset(name);
                all_exact &= type == "float32" ? run_set<float>(reducer, o, n, d) : run_set<double>(reducer, o, n, d);
            }
    std::cout << (all_exact ? "every correctly rounded result exact\n" : "SOME RESULTS WRONG\n");
    return all_exact ? 0 : 1;
}

}  // namespace
}  // namespace clreduce::perf

int main(int argc, char** argv) {
    CLI::App app{"clreduce-exact-lanes: the correctly rounded sum's level 1 paths against the deterministic sum"};
    clreduce::perf::Options o;
    app.add_option("-d,--device", o.device, "Device (default: $CLREDUCE_DEVICE, else first GPU)");
    app.add_option("-t,--type", o.types, "float32 and/or float64")
        ->capture_default_str()
        ->check(CLI::IsMember({"float32", "float64"}));
    app.add_option("-n,--n", o.sizes, "Elements per data set; repeat for several")->capture_default_str();
    app.add_option("--dataset", o.datasets, "Data sets (clreduce-perf accuracy's names)")->capture_default_str();
    app.add_option("-r,--repeats", o.repeats, "Timed rounds")->capture_default_str()->check(CLI::Range(1, 1000));
    app.add_option("--seed", o.seed, "Random seed of the data")->capture_default_str();
    app.add_option("--cr-times", o.cr_times, "Also time the correctly rounded sum with `times` forced; repeat")
        ->check(CLI::Range(1, 4096));
    app.add_option("--cr-vec", o.cr_vec,
                   "Also time the correctly rounded sum with the vector width forced (with each --cr-times "
                   "and the planner's); repeat")
        ->check(CLI::IsMember({1, 2, 4, 8, 16}));
    CLI11_PARSE(app, argc, argv);
    try {
        return clreduce::perf::run(o);
    } catch (const std::exception& e) {
        std::cerr << "clreduce-exact-lanes: " << e.what() << "\n";
        return 2;
    }
}
