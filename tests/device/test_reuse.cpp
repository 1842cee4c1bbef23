// Reuse and threads. A repeated call builds no program, creates no kernel and allocates no
// buffer; one reducer serves several host threads at once. And these hot-path and
// thread-safety guarantees hold for every operation: one slot switches between operations
// correctly, threads share a reducer.
#include <atomic>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "reference/child_process.hpp"
#include "reference/random_values.hpp"
#include "reference/sum_reference.hpp"
#include "test_ops_support.hpp"
#include "test_support.hpp"

using namespace clreduce;

namespace {
bool same(const Counters& a, const Counters& b) {
    return a.programs_built == b.programs_built && a.programs_loaded == b.programs_loaded &&
           a.kernels_created == b.kernels_created && a.buffers_allocated == b.buffers_allocated;
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

// Every operation: the same guarantees ("built" here counts programs built, not loaded).
namespace clreduce::test {
namespace {

bool same_work(const Counters& a, const Counters& b) {
    return a.programs_built == b.programs_built && a.kernels_created == b.kernels_created &&
           a.buffers_allocated == b.buffers_allocated;
}

// Every operation once, results folded into a vector of doubles.
std::vector<double> every_operation(const Reducer& r, const cl::Buffer& buffer, std::uint64_t n) {
    const auto mm = r.minmax<std::int32_t>(buffer, 0, n);
    const auto amin = r.argmin<std::int32_t>(buffer, 0, n), amax = r.argmax<std::int32_t>(buffer, 0, n);
    return {double(r.sum<std::int32_t>(buffer, 0, n)),
            double(r.product<std::int32_t>(buffer, 0, 50)),
            double(r.min<std::int32_t>(buffer, 0, n)),
            double(r.max<std::int32_t>(buffer, 0, n)),
            double(mm.min),
            double(mm.max),
            double(amin.index),
            double(amax.index),
            double(r.count_nonzero<std::int32_t>(buffer, 0, n)),
            r.mean<std::int32_t>(buffer, 0, n),
            double(r.sum_of_squares<std::int32_t>(buffer, 0, n)),
            r.norm_l1<std::int32_t>(buffer, 0, n),
            r.norm_l2<std::int32_t>(buffer, 0, n),
            r.norm_inf<std::int32_t>(buffer, 0, n),
            double(r.transform_reduce<std::int32_t>(buffer, 0, n, "x & 7", Combine::sum))};
}

}  // namespace

TEST_CASE("every operation: a repeated call builds, creates and allocates nothing", "[ops][reuse]") {
    Reducer r(default_device());
    const std::uint64_t n = 200003;
    const auto values = op_values<std::int32_t>(n, seed_for(41));
    const cl::Buffer buffer = device_copy(r, values);
    const auto first = every_operation(r, buffer, n);
    const Counters warm = r.counters();
    for (int k = 0; k < 3; ++k) CHECK(every_operation(r, buffer, n) == first);
    CHECK(same_work(r.counters(), warm));
    // The results are right, not just repeatable.
    CHECK(first[0] == double(testing::wrapped_sum<std::int64_t>(values.data(), n)));
    CHECK(first[2] == double(testing::reference_min(values.data(), n).value));
    CHECK(first[6] == double(testing::reference_min(values.data(), n).index));
    CHECK(first[8] == double(testing::reference_count_nonzero(values.data(), n)));
}

TEST_CASE("every operation from several host threads at once", "[ops][threads]") {
    Reducer& r = reducer();
    const std::uint64_t n = 100001;
    const auto values = op_values<std::int32_t>(n, seed_for(42));
    const cl::Buffer buffer = device_copy(r, values);
    const auto expected = every_operation(r, buffer, n);
    std::atomic<int> wrong{0}, errors{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&] {
            try {
                for (int i = 0; i < 5; ++i)
                    if (every_operation(r, buffer, n) != expected) ++wrong;
            } catch (const std::exception&) {
                ++errors;
            }
        });
    }
    for (auto& th : threads) th.join();
    CHECK(wrong == 0);
    CHECK(errors == 0);
}

TEST_CASE("every operation refuses bad buffers and ranges clearly", "[ops][errors]") {
    Reducer& r = reducer();
    const std::vector<std::int16_t> host(100, 1);
    const cl::Buffer buffer = device_copy(r, host);
    CHECK_THROWS_WITH(r.min<std::int16_t>(cl::Buffer(), 0, 10), Catch::Contains("null"));
    CHECK_THROWS_WITH(r.argmax<std::int16_t>(buffer, 90, 11), Catch::Contains("past the end"));
    CHECK_THROWS_AS(r.norm_l2<std::int16_t>(buffer, 101, 0), InvalidArgument);
    CHECK_THROWS_AS(r.count_nonzero<std::int16_t>(nullptr, 5), InvalidArgument);
    CHECK_THROWS_AS(r.mean(std::vector<float>{}), InvalidArgument);
    CHECK_THROWS_AS(r.minmax(std::vector<float>{}), InvalidArgument);
    CHECK(r.product(std::vector<float>{}) == 1.0);
    CHECK(r.norm_l2(std::vector<float>{}) == 0.0);
    cl::Context other(default_device());
    cl::Buffer foreign(other, CL_MEM_READ_WRITE, 64);
    CHECK_THROWS_WITH(r.max<std::int16_t>(foreign, 0, 4), Catch::Contains("another OpenCL context"));
}

}  // namespace clreduce::test
