// The hot-path and thread-safety guarantees hold for every operation: a repeated call does no
// set-up work, one slot switches between operations correctly, threads share a reducer.
#include <atomic>
#include <thread>
#include <vector>

#include "test_ops_support.hpp"

namespace clreduce::test {
namespace {

bool same(const Counters& a, const Counters& b) {
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
    CHECK(same(r.counters(), warm));
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
