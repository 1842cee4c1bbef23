// Time to first result, cold and warm: fresh child processes (this program again) each make a
// Reducer and compute one sum. Cold: an empty cache folder; warm: the same folder again, so
// the programs come from clreduce's binary cache instead of the compiler.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <regex>

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <clreduce/clreduce.hpp>

#include "commands/commands.hpp"
#include "measure/timing.hpp"
#include "reference/child_process.hpp"
#include "reference/expected_sum.hpp"
#include "reference/random_values.hpp"
#include "reference/with_element_type.hpp"

namespace clreduce::perf {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

std::int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
}

cl::Device device_of(const std::string& spec) { return spec.empty() ? default_device() : select_device(spec); }

// The child: one reducer, one sum, checked; prints when the result was there on the
// system-wide monotonic clock, which the parent shares.
template <class T>
int child(const FirstResultOptions& o) {
    const auto data = testing::random_values<T>(o.n, o.seed);
    const auto expected = testing::Expected<T>::compute(data.data(), o.n);
    const std::int64_t construct = now_ns();
    Reducer reducer(device_of(o.device));
    const auto sum = reducer.sum(data);
    const std::int64_t result = now_ns();
    const std::string wrong = expected.mismatch(sum, reducer.plan(element_traits<T>::type, o.n).accumulator);
    const bool correct = wrong.empty();
    if (!correct) std::cerr << "first-result: wrong sum: " << wrong << "\n";
    const Counters c = reducer.counters();
    std::cout << "first-result-child: result_at_ns " << result << " reducer_ns " << (result - construct) << " built "
              << c.programs_built << " loaded " << c.programs_loaded << " correct " << correct << std::endl;
    return correct ? 0 : 1;
}

struct Sample {
    double start_ms = 0;    // process start to first result
    double reducer_ms = 0;  // Reducer construction to first result
    std::uint64_t built = 0, loaded = 0;
    bool correct = false;
};

Sample run_one(const FirstResultOptions& o, const fs::path& cache, const fs::path& driver_cache) {
    std::vector<std::pair<std::string, std::optional<std::string>>> env{{"CLREDUCE_CACHE_DIR", cache.string()},
                                                                        {"CLREDUCE_BUILD_LOG", std::nullopt}};
    if (!driver_cache.empty()) {
        fs::create_directories(driver_cache);
        env.push_back({"POCL_CACHE_DIR", driver_cache.string()});
        env.push_back({"CUDA_CACHE_PATH", driver_cache.string()});
    }
    std::vector<std::string> args{"first-result", "--child",           "-t",     std::string(type_name(o.type)),
                                  "-n",           std::to_string(o.n), "--seed", std::to_string(o.seed)};
    if (!o.device.empty()) args.insert(args.end(), {"-d", o.device});
    const std::int64_t start = now_ns();
    const auto result = testing::run_self(args, env);
    std::smatch m;
    static const std::regex line(
        "first-result-child: result_at_ns (\\d+) reducer_ns (\\d+) built (\\d+) loaded (\\d+) correct (\\d)");
    if (!std::regex_search(result.output, m, line))
        throw Error("first-result: the child process failed (exit " + std::to_string(result.exit_code) + "):\n" +
                    result.output);
    Sample s;
    s.start_ms = double(std::stoll(m[1]) - start) / 1e6;
    s.reducer_ms = double(std::stoll(m[2])) / 1e6;
    s.built = std::stoull(m[3]);
    s.loaded = std::stoull(m[4]);
    s.correct = m[5] == "1" && result.exit_code == 0;
    return s;
}

}  // namespace

CLI::App* add_first_result_command(CLI::App& app, FirstResultOptions& o) {
    auto* cmd = app.add_subcommand("first-result",
                                   "Time from process start to the first sum's result, with an empty (cold) and a "
                                   "filled (warm) program cache, in fresh processes");
    cmd->add_option("-d,--device", o.device, "Device spec (default: $CLREDUCE_DEVICE, else first GPU)");
    cmd->add_option("-t,--type", o.type_name, "Element type")->capture_default_str();
    cmd->add_option("-n,--n", o.n, "Number of elements")->capture_default_str();
    cmd->add_option("-r,--repeats", o.repeats, "Cold/warm pairs")->capture_default_str()->check(CLI::Range(1, 1000));
    cmd->add_option("--seed", o.seed, "Random seed of the data")->capture_default_str();
    cmd->add_flag("--keep-driver-cache", o.keep_driver_cache,
                  "Let the driver's own kernel cache (PoCL's, NVIDIA's) work too; by default each process gets "
                  "an empty one, so warm measures clreduce's cache alone");
    cmd->add_flag("--child", o.child, "Internal: be the measured process")->group("");
    return cmd;
}

int run_first_result(FirstResultOptions o) {
    o.type = parse_type(o.type_name);
    if (o.child) {
        return testing::with_element_type(o.type, [&](auto zero) { return child<decltype(zero)>(o); });
    }
    const DeviceInfo d = DeviceInfo::query(device_of(o.device));
    std::cout << "clreduce-perf first-result: " << type_name(o.type) << ", n = " << o.n << ", " << o.repeats
              << " cold/warm pairs of fresh processes\n"
              << "device: " << d.platform_name << " / " << d.name << " (driver " << d.driver_version << ")\n"
              << "driver kernel cache: "
              << (o.keep_driver_cache ? "the driver's own, as usual"
                                      : "empty for every process (POCL_CACHE_DIR, CUDA_CACHE_PATH)")
              << "\n\n";
    const fs::path root = fs::temp_directory_path() / ("clreduce-first-result-" + std::to_string(::getpid()));
    fs::remove_all(root);
    std::cout << std::left << std::setw(5) << "run" << std::setw(6) << "cache" << std::right << std::setw(17)
              << "start_to_result" << std::setw(19) << "reducer_to_result" << std::setw(7) << "built" << std::setw(8)
              << "loaded" << std::setw(9) << "correct"
              << "\n";
    std::vector<double> cold_start, cold_reducer, warm_start, warm_reducer;
    bool all_correct = true;
    std::cout << std::fixed << std::setprecision(1);
    for (int i = 0; i < o.repeats; ++i) {
        const fs::path cache = root / ("cache-" + std::to_string(i));
        for (const char* kind : {"cold", "warm"}) {
            const fs::path driver =
                o.keep_driver_cache ? fs::path() : root / ("driver-" + std::to_string(i) + "-" + kind);
            const Sample s = run_one(o, cache, driver);
            all_correct = all_correct && s.correct;
            (kind[0] == 'c' ? cold_start : warm_start).push_back(s.start_ms);
            (kind[0] == 'c' ? cold_reducer : warm_reducer).push_back(s.reducer_ms);
            std::cout << std::left << std::setw(5) << i + 1 << std::setw(6) << kind << std::right << std::setw(14)
                      << s.start_ms << " ms" << std::setw(16) << s.reducer_ms << " ms" << std::setw(7) << s.built
                      << std::setw(8) << s.loaded << std::setw(9) << (s.correct ? "yes" : "NO") << "\n";
        }
    }
    std::error_code ignored;
    fs::remove_all(root, ignored);
    const double cs = median(cold_start), cr = median(cold_reducer), ws = median(warm_start), wr = median(warm_reducer);
    std::cout << "\nmedian cold: " << cs << " ms start to result, " << cr << " ms reducer to result\n"
              << "median warm: " << ws << " ms start to result, " << wr << " ms reducer to result\n"
              << std::setprecision(2) << "cold / warm: " << cs / ws << "x start to result, " << cr / wr
              << "x reducer to result\n";
    if (!all_correct) std::cout << "SOME RESULTS WERE WRONG\n";
    return all_correct ? 0 : 1;
}

}  // namespace clreduce::perf
