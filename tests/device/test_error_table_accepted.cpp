// Beside the error table's refusals (test_error_table.cpp): what the table does not list as
// refused gives the default plan's values.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "test_ops_support.hpp"
#include "test_support.hpp"

namespace clreduce::test {
namespace {

// Next to the table's refusals, what it does not list as refused, with the values it gives:
// level 3 atomically for 32/64-bit integer min, max and bit operations (64-bit ones where the
// device has cl_khr_int64_extended_atomics) and integer norm_inf, the same values as the default
// plan's and the exact references', and 8/16-bit min, max and bit operations refused;
// asynchronous integer sums in FloatMode::correctly_rounded (exact anyway) written as the exact
// sum, single and segmented, and float ones refused an exact atomic finish.
template <class T>
void check_atomic_finishes(const Reducer& r) {
    const std::uint64_t seed = seed_for(sizeof(T), std::is_signed_v<T>, 77);
    INFO("data seed " << seed << ", type " << type_name(element_traits<T>::type));
    const std::vector<T> v = op_values<T>(30011, seed);
    LaunchParams atomic;
    atomic.inter_group = InterGroup::atomic;
    atomic.work_group_size = 16;  // many groups meet at the atomic
    atomic.times = 2;
    const bool offered = sizeof(T) == 4 || (sizeof(T) == 8 && r.device_info().has_int64_min_max_atomics);
    T lo = v[0], hi = v[0], all = v[0], any = v[0], odd = v[0];
    for (std::size_t k = 1; k < v.size(); ++k) {
        lo = std::min(lo, v[k]);
        hi = std::max(hi, v[k]);
        all = static_cast<T>(all & v[k]);
        any = static_cast<T>(any | v[k]);
        odd = static_cast<T>(odd ^ v[k]);
    }
    const auto expect = [&](Operation op, auto call, T want) {
        INFO(operation_name(op) << " with InterGroup::atomic");
        if (!offered) {
            CHECK_THROWS_AS(call(atomic, nullptr), Unsupported);
            return;
        }
        CallInfo info;
        CHECK(call(atomic, &info) == want);
        CHECK(info.plan.inter_group == InterGroup::atomic);
        CHECK(call(LaunchParams{}, nullptr) == want);
    };
    expect(
        Operation::min, [&](const LaunchParams& p, CallInfo* i) { return r.min(v, p, i); }, lo);
    expect(
        Operation::max, [&](const LaunchParams& p, CallInfo* i) { return r.max(v, p, i); }, hi);
    expect(
        Operation::bit_and, [&](const LaunchParams& p, CallInfo* i) { return r.bit_and(v, p, i); }, all);
    expect(
        Operation::bit_or, [&](const LaunchParams& p, CallInfo* i) { return r.bit_or(v, p, i); }, any);
    expect(
        Operation::bit_xor, [&](const LaunchParams& p, CallInfo* i) { return r.bit_xor(v, p, i); }, odd);
    // norm_inf of integers: a uint64 maximum, atomically where 64-bit max atomics exist.
    const double magnitude = std::max(std::fabs(static_cast<double>(lo)), std::fabs(static_cast<double>(hi)));
    if (r.device_info().has_int64_min_max_atomics) {
        CallInfo info;
        CHECK(r.norm_inf(v, atomic, &info) == magnitude);
        CHECK(info.plan.inter_group == InterGroup::atomic);
    }
}

TEST_CASE("what the error table does not refuse gives the values of the default plan", "[errors][error-table]") {
    const Reducer& r = reducer();
    check_atomic_finishes<std::int8_t>(r);
    check_atomic_finishes<std::uint16_t>(r);
    check_atomic_finishes<std::int32_t>(r);
    check_atomic_finishes<std::uint32_t>(r);
    check_atomic_finishes<std::int64_t>(r);
    check_atomic_finishes<std::uint64_t>(r);

    // Asynchronous sums in FloatMode::correctly_rounded: integers (exact anyway) take it.
    const std::uint64_t seed = seed_for(42, 78);
    INFO("data seed " << seed);
    const std::vector<std::int32_t> ints = op_values<std::int32_t>(30011, seed);
    std::int64_t exact = 0;
    for (const std::int32_t x : ints) exact += x;
    const cl::Buffer buffer = device_copy(r, ints);
    const cl::Buffer results(r.context(), CL_MEM_READ_WRITE, 4 * sizeof(std::int64_t));
    LaunchParams rounded;
    rounded.float_mode = FloatMode::correctly_rounded;
    CallInfo info;
    r.sum_async<std::int32_t>(buffer, 0, ints.size(), {results}, rounded, &info).wait();
    std::int64_t got[4] = {};
    check(r.queue().enqueueReadBuffer(results, CL_TRUE, 0, sizeof got, got), "clEnqueueReadBuffer");
    CHECK(got[0] == exact);
    CHECK(info.plan.float_mode == FloatMode::correctly_rounded);
    // Segmented, into the device buffer: three segments and their exact sums.
    const std::vector<std::uint64_t> offsets{0, 7, 20000, ints.size()};
    r.sum_async<std::int32_t>(buffer, 0, Segments::offsets(offsets), {results, 1}, rounded).wait();
    check(r.queue().enqueueReadBuffer(results, CL_TRUE, 0, sizeof got, got), "clEnqueueReadBuffer");
    for (std::size_t k = 0; k + 1 < offsets.size(); ++k) {
        std::int64_t segment = 0;
        for (std::uint64_t i = offsets[k]; i < offsets[k + 1]; ++i) segment += ints[i];
        CHECK(got[1 + k] == segment);
    }
    // Float data: rounded on the device (test_async_correctly_rounded.cpp); with an explicit
    // exact atomic finish, refused (the row's condition).
    const std::vector<float> floats(100, 0.5f);
    const cl::Buffer float_buffer = device_copy(r, floats);
    rounded.inter_group = InterGroup::exact_atomic;
    CHECK_THROWS_AS(r.sum_async<float>(float_buffer, 0, floats.size(), {results}, rounded), Unsupported);
}

}  // namespace
}  // namespace clreduce::test
