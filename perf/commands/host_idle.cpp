// Host-path calls after idle gaps: what a user calling now and then pays, where compare times
// calls in a loop. For each n and gap, R calls of clreduce's pointer form (the host path where
// the plan runs there) each after sleeping that gap, against the same for the host's OpenMP read
// (host_sum.hpp); medians and 90th percentiles. Then the other side: a user's own OpenMP loop
// right after a host-path call against the loop alone, to show whether the pool's threads, still
// looking for work (CLREDUCE_HOST_SPIN_US), hold the user's threads up.
#include <algorithm>
#include <chrono>
#include <thread>

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <clreduce/clreduce.hpp>

#include "commands/commands.hpp"
#include "competitors/host_sum.hpp"
#include "measure/timing.hpp"
#include "reference/expected_sum.hpp"
#include "reference/random_values.hpp"
#include "reference/with_element_type.hpp"
#include "report/output_files.hpp"

// The pool's threads and spin, as the library reports them (src/exec/host_pool.hpp).
#include "exec/host_pool.hpp"

namespace clreduce::perf {
namespace {

using Clock = std::chrono::steady_clock;

struct Times {
    double median = 0, p90 = 0;
};

// `call` timed `repeats` times, each after `gap` of sleep (none for 0) and then `before`
// (untimed), after one untimed call.
template <class F, class B>
Times timed_after(std::chrono::microseconds gap, int repeats, F&& call, B&& before) {
    call();
    std::vector<double> us;
    for (int k = 0; k < repeats; ++k) {
        if (gap.count() > 0) std::this_thread::sleep_for(gap);
        before();
        const auto start = Clock::now();
        call();
        us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
    }
    std::sort(us.begin(), us.end());
    return {median(us), us[std::min(us.size() - 1, us.size() * 9 / 10)]};
}
template <class F>
Times timed_after(std::chrono::microseconds gap, int repeats, F&& call) {
    return timed_after(gap, repeats, call, [] {});
}

template <class T>
int run_typed(const Reducer& r, const HostIdleOptions& o) {
    const int threads = host_read_threads(r.device_info());
    bool all_correct = true;
    volatile long double sink = 0;  // keeps every timed call's result alive
    fmt::print("{:>6} {:>8} {:>22} {:>20} {:>12}  {}\n", "n", "idle_us", "clreduce-host us (p90)", "host read us (p90)",
               "read / host", "plan");
    for (const std::uint64_t n : o.sizes) {
        const std::vector<T> data = testing::random_values<T>(n, o.seed);
        const auto expected = testing::Expected<T>::compute(data.data(), n);
        const LaunchPlan plan = r.plan(element_traits<T>::type, Operation::sum, n, LaunchParams{}, CallForm::host_data);
        const std::string wrong = expected.mismatch(r.sum(data.data(), n), plan.accumulator);
        if (!wrong.empty()) {
            all_correct = false;
            fmt::print("{:>6} wrong sum: {}\n", size_label(n), wrong);
            continue;
        }
        const auto count = static_cast<std::int64_t>(n);
        for (const std::uint64_t gap_us : o.idle_us) {
            const std::chrono::microseconds gap(gap_us);
            const Times ours = timed_after(gap, o.repeats, [&] { sink = sink + r.sum(data.data(), n); });
            const Times read =
                timed_after(gap, o.repeats, [&] { sink = sink + host_sum(data.data(), count, threads); });
            fmt::print("{:>6} {:>8} {:>14.1f} ({:>5.1f}) {:>12.1f} ({:>5.1f}) {:>12.2f}  {}\n", size_label(n), gap_us,
                       ours.median, ours.p90, read.median, read.p90, read.median / ours.median,
                       plan.on_host ? "on_host" : "on the device");
        }
    }
    // A user's OpenMP loop over the largest size, alone and right after a host-path call on the
    // smallest (the pool's threads then still look for work): back to back, and after 20 ms idle,
    // when OpenMP's threads have slept and wake for the loop (where a core held by a spinning
    // thread of the pool can keep one of them waiting).
    const std::uint64_t big = *std::max_element(o.sizes.begin(), o.sizes.end());
    const std::uint64_t small = *std::min_element(o.sizes.begin(), o.sizes.end());
    const std::vector<T> data = testing::random_values<T>(big, o.seed);
    const auto loop = [&] { sink = sink + host_sum(data.data(), static_cast<std::int64_t>(big), threads); };
    const auto call = [&] { sink = sink + r.sum(data.data(), small); };
    const auto back_to_back = std::chrono::microseconds(0);
    const auto slept = std::chrono::milliseconds(20);
    const int slept_repeats = std::min(o.repeats, 101);  // 20 ms each
    const Times alone = timed_after(back_to_back, o.repeats, loop);
    const Times after = timed_after(back_to_back, o.repeats, loop, call);
    const Times alone_slept = timed_after(slept, slept_repeats, loop);
    const Times after_slept = timed_after(slept, slept_repeats, loop, call);
    fmt::print(
        "\na user's OpenMP loop over {} elements ({} threads): alone {:.1f} us (p90 {:.1f}); right after a "
        "host-path call over {}: {:.1f} us (p90 {:.1f})\n",
        size_label(big), threads, alone.median, alone.p90, size_label(small), after.median, after.p90);
    fmt::print(
        "the same after 20 ms idle (OpenMP's threads asleep): alone {:.1f} us (p90 {:.1f}); right after a "
        "host-path call: {:.1f} us (p90 {:.1f})\n",
        alone_slept.median, alone_slept.p90, after_slept.median, after_slept.p90);
    if (!all_correct) fmt::print("SOME RESULTS WERE WRONG\n");
    return all_correct ? 0 : 1;
}

}  // namespace

CLI::App* add_host_idle_command(CLI::App& app, HostIdleOptions& o) {
    auto* cmd = app.add_subcommand("host-idle",
                                   "Time host-path calls each after an idle gap against the host's OpenMP read, and "
                                   "a user's OpenMP loop right after a host-path call");
    cmd->add_option("-d,--device", o.device, "Device spec (default: $CLREDUCE_DEVICE, else first GPU)");
    cmd->add_option("-t,--type", o.type_name, "Element type (not float16: no host arithmetic for it)")
        ->capture_default_str();
    cmd->add_option("-n,--n", o.sizes, "Number of elements; repeat for several (default: 2^16, 2^18, 2^20)")
        ->check(CLI::Range(1ull, 1ull << 32));
    cmd->add_option("--idle-us", o.idle_us, "Idle gaps before each timed call, microseconds (default: 0 50 300 3000)")
        ->check(CLI::Range(0ull, 10000000ull));
    cmd->add_option("-r,--repeats", o.repeats, "Timed calls per point (after one untimed call)")
        ->capture_default_str()
        ->check(CLI::Range(1, 100000));
    cmd->add_option("--seed", o.seed, "Random seed of the data")->capture_default_str();
    return cmd;
}

int run_host_idle(HostIdleOptions o) {
    const ElementType type = parse_type(o.type_name);  // (with_element_type refuses half: no host arithmetic)
    if (o.sizes.empty()) o.sizes = {1ull << 16, 1ull << 18, 1ull << 20};
    if (o.idle_us.empty()) o.idle_us = {0, 50, 300, 3000};
    const Reducer r = o.device.empty() ? Reducer() : Reducer(o.device);
    const DeviceInfo& d = r.device_info();
    fmt::print(
        "clreduce-perf host-idle: {}, the pointer form from host memory, medians (90th percentiles) of {} "
        "calls, each after an idle gap\n",
        type_name(type), o.repeats);
    fmt::print("device: {} / {} (driver {})\n", d.platform_name, d.name, d.driver_version);
    fmt::print(
        "host pool: {} threads, looking for work {} us before they sleep (CLREDUCE_HOST_SPIN_US); host read: "
        "{} OpenMP threads\n\n",
        host_pool_threads(), host_pool_spin().count(), host_read_threads(d));
    return testing::with_element_type(type, [&](auto zero) { return run_typed<decltype(zero)>(r, o); });
}

}  // namespace clreduce::perf
