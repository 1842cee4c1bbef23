// Float modes, accumulator choice and the small element types' edges: against the exact
// references, with bad choices refused clearly.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include <reference/adversarial_data.hpp>

#include "device/vendor.hpp"  // src/: which level 3 a device prefers
#include "test_ops_support.hpp"

namespace clreduce::test {
namespace {

LaunchParams mode(FloatMode m) {
    LaunchParams p;
    p.float_mode = m;
    p.work_group_size = 16;  // many groups: the level-3 strategy matters
    p.times = 2;
    return p;
}

template <class T>
void check_modes() {
    using namespace clreduce::testing;
    Reducer& r = reducer();
    const std::uint64_t n = 50001;
    const auto values = op_values<T>(n, seed_for(sizeof(T), 7));
    const cl::Buffer buffer = device_copy(r, values);
    const ExactSum exact = exact_sum_of(values.data(), n);
    for (FloatMode m : {FloatMode::deterministic, FloatMode::atomic, FloatMode::compensated}) {
        for (bool narrow : {false, true}) {
            LaunchParams p = mode(m);
            if (narrow) p.accumulator = ElementType::float32;  // the 32-bit CAS and compensation
            INFO(to_string(m) << (narrow ? " float32 accumulator" : ""));
            CallInfo info;
            const double first = r.sum<T>(buffer, 0, n, p, &info);
            const long double u = unit_roundoff(info.plan.accumulator);
            const Summation s = m == FloatMode::compensated ? Summation::compensated : Summation::plain;
            check_approx(reference_sum(values.data(), n, u, s), first, "sum");
            CHECK(info.plan.float_mode == m);
            CHECK(info.plan.groups > 1);
            const InterGroup fixed_order =
                has_last_group_finish(r.device_info()) ? InterGroup::last_group : InterGroup::second_pass;
            // The deterministic sums finish exactly with 64-bit atomics, but on devices that
            // prefer the last group (CPU devices, device/vendor.hpp).
            const bool exact_finish = m == FloatMode::deterministic && r.device_info().has_int64_atomics &&
                                      !prefers_last_group_finish(r.device_info());
            const InterGroup expected = m == FloatMode::atomic ? InterGroup::atomic
                                        : exact_finish         ? InterGroup::exact_atomic
                                                               : fixed_order;
            CHECK(info.plan.inter_group == expected);
            if (m != FloatMode::atomic) {
                // Deterministic modes: bit-identical, call after call.
                for (int k = 0; k < 3; ++k) {
                    const double again = r.sum<T>(buffer, 0, n, p);
                    CHECK(std::memcmp(&again, &first, sizeof first) == 0);
                }
            }
            if (m == FloatMode::compensated && !narrow) {
                // Compensation in a double accumulator: within a few units of the exact sum.
                CHECK(relative_error(first, exact) <=
                      4 * std::ldexp(1.0, -53) * (1 + condition_number(values.data(), n)));
            }
            // The other additive operations take the mode too.
            check_approx(reference_mean(values.data(), n, u, s), r.mean<T>(buffer, 0, n, p), "mean");
            check_approx(reference_norm_l1(values.data(), n, u), r.norm_l1<T>(buffer, 0, n, p), "norm_l1");
            check_approx(reference_sum_of_squares(values.data(), n, u), r.sum_of_squares<T>(buffer, 0, n, p),
                         "sum_of_squares");
        }
    }
    // Compensation rescues what a float32 accumulator loses: 2^25 + many ones.
    std::vector<T> ones(20000, T(1));
    ones[0] = T(33554432);  // 2^25: a float32 running sum no longer grows by 1
    LaunchParams plain = mode(FloatMode::deterministic), compensated = mode(FloatMode::compensated);
    plain.accumulator = compensated.accumulator = ElementType::float32;
    plain.times = compensated.times = 1024;
    plain.work_group_size = compensated.work_group_size = 1;
    CHECK(r.sum(ones, compensated) == 33554432.0 + 19999.0);
    CHECK(r.sum(ones, plain) != 33554432.0 + 19999.0);
}

}  // namespace

TEMPLATE_TEST_CASE("float modes: deterministic, atomic and compensated sums within their bounds", "[ops][modes]", float,
                   double) {
    print_seed();
    if (std::is_same_v<TestType, double> && !reducer().device_info().has_fp64) return;
    check_modes<TestType>();
}

TEST_CASE(
    "float modes: correctly rounded is offered for sums (device/test_accuracy.cpp); modes leave integers untouched",
    "[ops][modes][errors]") {
    Reducer& r = reducer();
    LaunchParams cr;
    cr.float_mode = FloatMode::correctly_rounded;
    CHECK(r.sum(std::vector<float>(10, 0.1f), cr) == 10 * double(0.1f));
    CHECK_THROWS_AS(r.sum_of_squares(std::vector<float>(10, 1.0f), cr), Unsupported);
    // Integer sums are exact whatever the mode.
    std::vector<std::int32_t> v(1000, 7);
    for (FloatMode m :
         {FloatMode::deterministic, FloatMode::atomic, FloatMode::compensated, FloatMode::correctly_rounded}) {
        LaunchParams p;
        p.float_mode = m;
        CHECK(r.sum(v, p) == 7000);
    }
    CHECK(parse_float_mode("compensated") == FloatMode::compensated);
    CHECK_THROWS_AS(parse_float_mode("kahan"), InvalidArgument);
}

TEST_CASE("accumulator choice: narrower integers wrap when asked, floats round, bad choices are refused",
          "[ops][accumulator]") {
    Reducer& r = reducer();
    // int32 elements summed in an int32 accumulator under IntegerOverflow::wrap wrap modulo 2^32.
    std::vector<std::int32_t> big(3000, 2000000000);
    big[5] = -7;
    LaunchParams narrow;
    narrow.accumulator = ElementType::int32;
    narrow.overflow = IntegerOverflow::wrap;
    CallInfo info;
    const std::int64_t wrapped = r.sum(big, narrow, &info);
    CHECK(info.plan.accumulator == ElementType::int32);
    const auto exact = testing::wrapped_sum<std::int64_t>(big.data(), big.size());
    CHECK(wrapped == static_cast<std::int32_t>(static_cast<std::uint32_t>(exact)));
    CHECK(r.sum(big) == exact);
    narrow.accumulator = ElementType::uint32;
    CHECK(r.sum(big, narrow) == static_cast<std::uint32_t>(exact));
    // int8 into float64: exact for these sizes.
    const auto bytes = op_values<std::int8_t>(10001, seed_for(99));
    LaunchParams as_double;
    as_double.accumulator = ElementType::float64;
    if (r.device_info().has_fp64)
        CHECK(r.sum(bytes, as_double) == testing::wrapped_sum<std::int64_t>(bytes.data(), bytes.size()));
    // uint8 products wrap modulo 2^32 in a uint32 accumulator.
    std::vector<std::uint8_t> factors(40, 3);
    LaunchParams u32;
    u32.accumulator = ElementType::uint32;
    std::uint32_t p = 1;
    for (auto f : factors) p *= f;
    CHECK(r.product(factors, u32) == p);
    // Extremum operations compare in the element type whatever is asked.
    CHECK(r.min(bytes, as_double) == *std::min_element(bytes.begin(), bytes.end()));
    CHECK(r.plan(ElementType::int8, Operation::max, 100, as_double).accumulator == ElementType::int8);

    LaunchParams bad;
    bad.accumulator = ElementType::int8;
    CHECK_THROWS_AS(r.sum(big, bad), InvalidArgument);
    bad.accumulator = ElementType::float16;
    CHECK_THROWS_AS(r.sum(big, bad), InvalidArgument);
    bad.accumulator = ElementType::float32;
    CHECK_THROWS_WITH(r.count_nonzero(big, bad), Catch::Contains("integer accumulator"));
}

TEST_CASE("small integer types: extremes, wrap-around-free sums and exact products", "[ops][types]") {
    Reducer& r = reducer();
    // Every int8 value many times: the sum widens into int64, min/max find the extremes.
    std::vector<std::int8_t> all;
    for (int k = 0; k < 300; ++k)
        for (int v = -128; v <= 127; ++v) all.push_back(static_cast<std::int8_t>(v));
    CHECK(r.sum(all) == -128 * 300);
    CHECK(r.min(all) == -128);
    CHECK(r.max(all) == 127);
    CHECK(r.argmin(all).index == 0);
    CHECK(r.argmax(all).index == 255);
    CHECK(r.norm_inf(all) == 128.0);
    CHECK(r.norm_l1(all) == 300.0 * (128 * 129 / 2 + 127 * 128 / 2));
    std::vector<std::uint16_t> wide(100000, 65535);
    CHECK(r.sum(wide) == 100000ull * 65535ull);
    CHECK(r.sum_of_squares(wide) == 100000ull * 65535ull * 65535ull);
    CHECK(r.count_nonzero(wide) == 100000);
    // int64 extremes: |INT64_MIN| = 2^63 in the unsigned accumulators of the norms.
    std::vector<std::int64_t> extremes{5, std::numeric_limits<std::int64_t>::min(), 7,
                                       std::numeric_limits<std::int64_t>::max()};
    CHECK(r.norm_inf(extremes) == std::ldexp(1.0, 63));
    CHECK(r.argmin(extremes).index == 1);
    CHECK(r.argmax(extremes).index == 3);
    CHECK(r.sum(extremes) == 11);  // wraps through INT64_MIN + INT64_MAX = -1
}

TEST_CASE("half: host conversions are exact round trips, devices without cl_khr_fp16 refuse clearly",
          "[ops][types][half]") {
    // Every half converts to float and back unchanged (NaNs stay NaN), as refs' reference does.
    for (std::uint32_t bits = 0; bits < 65536; ++bits) {
        const half h = half::from_bits(static_cast<std::uint16_t>(bits));
        const float f = static_cast<float>(h);
        REQUIRE((std::isnan(f) ? std::isnan(testing::half_to_float(h.bits)) : f == testing::half_to_float(h.bits)));
        if (!std::isnan(f)) REQUIRE(half(f).bits == bits);
    }
    // Float to half rounds to nearest even, as the reference does.
    std::mt19937 rng(static_cast<std::uint32_t>(seed()));
    for (int k = 0; k < 200000; ++k) {
        std::uint32_t u = rng();
        float f;
        std::memcpy(&f, &u, sizeof f);
        if (std::isnan(f)) continue;
        REQUIRE(half(f).bits == testing::float_to_half(f));
    }

    Reducer& r = reducer();
    std::vector<half> data(100, half(1.5f));
    if (!r.device_info().has_fp16) {
        CHECK_THROWS_WITH(r.sum(data), Catch::Contains("cl_khr_fp16"));
        CHECK_THROWS_AS(r.min(data), Unsupported);
        CHECK_THROWS_AS(r.argmax(data), Unsupported);
        CHECK_THROWS_AS(r.transform_reduce(data, "x * x", Combine::sum), Unsupported);
        CHECK_THROWS_AS(r.plan(ElementType::float16, 100), Unsupported);
    } else {
        CHECK(r.sum(data) == 150.0);
        CHECK(static_cast<float>(r.max(data)) == 1.5f);
        CHECK(r.argmin(data).index == 0);
        CHECK(r.count_nonzero(data) == 100);
    }
}

}  // namespace clreduce::test

namespace clreduce::test {
namespace {

// Level 1 of 8/16-bit sums adds in 32-bit lanes only where `times` values cannot overflow a
// lane: at the edge, the largest magnitudes, long runs in one work-item.
TEST_CASE("narrow integer sums stay exact at the 32-bit lanes' limits", "[overflow][lanes]") {
    Reducer& r = reducer();
    const auto run = [&](auto value, std::uint64_t n, std::uint32_t times, std::uint32_t vec) {
        using T = decltype(value);
        const std::vector<T> data(n, value);
        LaunchParams p;
        p.times = times;
        p.vector_width = vec;
        p.work_group_size = 1;
        INFO(r.plan(element_traits<T>::type, n, p).describe());
        CHECK(r.sum(data, p) == static_cast<sum_type_t<T>>(value) * static_cast<sum_type_t<T>>(n));
        p.inter_group = InterGroup::second_pass;
        CHECK(r.sum(data, p) == static_cast<sum_type_t<T>>(value) * static_cast<sum_type_t<T>>(n));
    };
    // One work-item: 65537 * -32768 is past INT_MIN, so these must not add in int lanes.
    run(std::int16_t(-32768), 65537, 65537, 1);
    run(std::uint16_t(65535), 65537, 65537, 1);
    // Just inside the limit (32767 * 65535 < 2^31) the lanes are used.
    run(std::int16_t(-32768), 32767 * 2, 32767, 2);
    run(std::uint16_t(65535), 32767, 32767, 1);
    // 8-bit data may use lanes at any times.
    run(std::int8_t(-128), (1u << 20) * 4, 1u << 20, 4);
    run(std::uint8_t(255), (1u << 20) * 4 + 3, 1u << 20, 4);
}

}  // namespace
}  // namespace clreduce::test
