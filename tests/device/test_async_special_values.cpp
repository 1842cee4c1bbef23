// Asynchronous results (Reducer::reduce_async) of special values, against the synchronous
// call bit for bit (check_async, async_result_checks.hpp): NaN data, and 64-bit integers whose
// means and norms need every bit of their exact states. Tagged [async] too, so that the
// sanitizer runs take them (the per-type cases of test_async_every_operation.cpp are too slow
// there).
#include <limits>
#include <random>
#include <vector>

#include "async_result_checks.hpp"
#include "test_ops_support.hpp"

namespace clreduce::test {
namespace {

// NaN-only and mixed data: the quiet NaN the host gives for min, max, minmax, argmin, argmax,
// argminmax and norm_inf, and the NaN sums of statistics.
TEST_CASE("asynchronous results of NaN data are the synchronous bits", "[async][async-every]") {
    Reducer& r = reducer();
    std::vector<float> nan_only(300, std::numeric_limits<float>::quiet_NaN());
    nan_only[7] = -std::numeric_limits<float>::quiet_NaN();
    std::vector<float> mixed(300, 2.5f);
    mixed[11] = std::numeric_limits<float>::quiet_NaN();
    for (const auto* values : {&nan_only, &mixed}) {
        const cl::Buffer buffer = device_copy(r, *values);
        LaunchParams params;
        params.work_group_size = 64;
#define CLREDUCE_CHECK_ASYNC(T_, NAME, R_) check_async<Operation::NAME, T_>(r, buffer, 0, values->size(), params);
        CLREDUCE_OPERATIONS(CLREDUCE_CHECK_ASYNC, float)
#undef CLREDUCE_CHECK_ASYNC
    }
}

// The device rounds exact integers past 2^53 itself: means of int64 data whose 128-bit sums
// need every bit, and norms of their 192-bit sums of squares, at sizes whose quotients are
// not exact.
TEST_CASE("asynchronous means and norms of huge integers round as the host does", "[async][async-every]") {
    Reducer& r = reducer();
    const std::uint64_t seed = seed_for(64, 59);
    INFO("data seed " << seed);
    std::mt19937_64 rng(seed);
    std::vector<std::int64_t> values(5000);
    for (auto& v : values) v = static_cast<std::int64_t>(rng() | (std::uint64_t(1) << 62)) >> (rng() % 3);
    const cl::Buffer buffer = device_copy(r, values);
    for (const std::uint64_t n : {1ull, 3ull, 7ull, 999ull, 4999ull}) {
        check_async<Operation::mean, std::int64_t>(r, buffer, 1, n, LaunchParams{});
        check_async<Operation::norm_l1, std::int64_t>(r, buffer, 1, n, LaunchParams{});
        check_async<Operation::norm_l2, std::int64_t>(r, buffer, 1, n, LaunchParams{});
    }
}

}  // namespace
}  // namespace clreduce::test
