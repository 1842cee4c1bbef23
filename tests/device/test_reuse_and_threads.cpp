// A repeated call builds no program, creates no kernel and allocates no buffer; one reducer
// serves several host threads at once.
#include <atomic>
#include <iostream>
#include <string>
#include <vector>
#include <thread>

#include <catch2/catch.hpp>

#include "reference/child_process.hpp"
#include "reference/random_values.hpp"
#include "reference/sum_reference.hpp"
#include "test_support.hpp"

using namespace clreduce;

namespace {
bool same(const Counters& a, const Counters& b) {
    return a.programs_built == b.programs_built && a.programs_loaded == b.programs_loaded &&
           a.kernels_created == b.kernels_created &&
           a.buffers_allocated == b.buffers_allocated;
}
}  // namespace

TEST_CASE("a repeated call does no set-up work", "[reuse]") {
    const test::FreshCacheFolder cache;  // so that every program is compiled here, and counted
    Reducer r(default_device());
    CHECK(r.counters().programs_built == 0);
    const std::uint64_t seed = test::seed_for(21);
    INFO("data seed " << seed);
    const auto ints = testing::random_values<std::int32_t>(300001, seed);
    const auto floats = testing::random_values<float>(300001, seed + 1);
    const cl::Buffer int_buffer = test::device_copy(r, ints);
    const auto int_sum = testing::exact_sum(ints.data(), ints.size());

    LaunchParams atomic, two_pass;
    atomic.times = 4;
    two_pass.times = 4;
    two_pass.inter_group = InterGroup::second_pass;
    if (r.device_info().has_int64_atomics) atomic.inter_group = InterGroup::atomic;

    // Warm every path once: atomic, second pass, host upload.
    CHECK(r.sum<std::int32_t>(int_buffer, 0, ints.size(), atomic) == int_sum);
    CHECK(r.sum<std::int32_t>(int_buffer, 0, ints.size(), two_pass) == int_sum);
    const double float_sum = r.sum(floats);
    const Counters warm = r.counters();
    CHECK(warm.programs_built >= 3);
    CHECK(warm.programs_loaded == 0);
    CHECK(warm.kernels_created == warm.programs_built);

    for (int i = 0; i < 10; ++i) {
        CHECK(r.sum<std::int32_t>(int_buffer, 0, ints.size(), atomic) == int_sum);
        CHECK(r.sum<std::int32_t>(int_buffer, 0, ints.size(), two_pass) == int_sum);
        CHECK(r.sum(floats) == float_sum);  // same plan, same order: bit-identical
        CHECK(r.sum<std::int32_t>(int_buffer, 1, ints.size() - 1000, atomic) ==
              testing::exact_sum(ints.data() + 1, ints.size() - 1000));
    }
    CHECK(same(r.counters(), warm));

    // Switching between accumulator types on one slot keeps results right.
    for (int i = 0; i < 3; ++i) {
        CHECK(r.sum(floats) == float_sum);
        CHECK(r.sum<std::int32_t>(int_buffer, 0, ints.size(), atomic) == int_sum);
    }
}

TEST_CASE("one reducer, several host threads at once", "[threads]") {
    Reducer& r = test::reducer();
    const std::uint64_t seed = test::seed_for(22);
    INFO("data seed " << seed);
    const auto ints = testing::random_values<std::int32_t>(1 << 18, seed);
    const auto doubles = testing::random_values<double>(1 << 17, seed + 1);
    const cl::Buffer int_buffer = test::device_copy(r, ints);
    const auto double_ref = testing::float_reference(doubles.data(), doubles.size());
    const long double double_bound = double_ref.bound(doubles.size(), ElementType::float64);

    constexpr int kThreads = 6, kCalls = 40;
    std::atomic<int> wrong{0}, errors{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            try {
                for (int i = 0; i < kCalls; ++i) {
                    const std::uint64_t offset = (t * 131 + i * 17) % 1000;
                    const std::uint64_t n = ints.size() - offset - (i * 7919) % 5000;
                    LaunchParams params;
                    params.times = 1u << (i % 5);
                    params.stride = (i + t) % 2 ? Stride::local : Stride::global;
                    if (r.sum<std::int32_t>(int_buffer, offset, n, params) !=
                        testing::exact_sum(ints.data() + offset, n))
                        ++wrong;
                    if (std::fabs(static_cast<long double>(r.sum(doubles)) - double_ref.sum) > double_bound) ++wrong;
                }
            } catch (const std::exception& e) {
                ++errors;
            }
        });
    }
    for (auto& th : threads) th.join();
    CHECK(wrong == 0);
    CHECK(errors == 0);
}

// The first device query of a process, from several threads at once (the ICD loader's
// platform start-up is not thread-safe; the library serialises it). Needs fresh processes.
TEST_CASE("first-query child: threads list the devices at the same moment", "[.first-query-child]") {
    constexpr int kThreads = 4;
    std::atomic<int> waiting{kThreads};
    std::vector<std::size_t> found(kThreads, 0);
    std::vector<std::string> errors(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            waiting.fetch_sub(1);
            while (waiting.load() > 0) {
            }
            try {
                found[t] = all_devices().size();
                default_device();
            } catch (const std::exception& e) {
                errors[t] = e.what();
            }
        });
    }
    for (auto& thread : threads) thread.join();
    for (int t = 0; t < kThreads; ++t) {
        INFO("thread " << t << ": " << errors[t]);
        CHECK(errors[t].empty());
        CHECK(found[t] == found[0]);
    }
    CHECK(found[0] > 0);
    std::cout << "first-query-child: devices " << found[0] << "\n";
}

TEST_CASE("several threads may make the process's first device query at once", "[devices][threads]") {
    for (int run = 0; run < 5; ++run) {
        const auto child = testing::run_self({"[.first-query-child]"}, {});
        INFO("run " << run << " output:\n" << child.output);
        CHECK(child.exit_code == 0);
        CHECK(child.output.find("first-query-child: devices ") != std::string::npos);
    }
}
