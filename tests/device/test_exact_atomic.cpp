// The exact atomic finish (InterGroup::exact_atomic): floating-point group results added
// exactly into a fixed-point number with 64-bit integer atomics, rounded once on the host.
#include <cfloat>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include <reference/sum_reference.hpp>

#include "kernels/kernel_spec.hpp"  // src/
#include "ops/exact_state.hpp"      // src/
#include "plan/planner.hpp"         // src/
#include "test_ops_support.hpp"

namespace clreduce::test {
namespace {

using Catch::Matchers::Contains;

bool has_exact_atomic(const Reducer& r) { return r.device_info().has_int64_atomics; }

// Small groups with local stride and one element per load: group g adds elements
// [g * wg * times, (g + 1) * wg * times), so a test can place values in chosen groups.
LaunchParams exact_shape(std::uint32_t wg = 32, std::uint32_t times = 2) {
    LaunchParams p;
    p.inter_group = InterGroup::exact_atomic;
    p.work_group_size = wg;
    p.times = times;
    p.stride = Stride::local;
    p.vector_width = 1;
    return p;
}

// Integer-valued floats of mixed magnitudes (k * 2^e, |k| < 2^20, 0 <= e < 20): every
// group's sum is exact in a double, so the finish, which rounds once, must give the
// correctly rounded sum, bit for bit.
template <class T>
std::vector<T> exact_partial_values(std::uint64_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<T> out(n);
    for (auto& v : out) {
        const auto k = static_cast<std::int64_t>(rng() % (1u << 21)) - (1 << 20);
        v = static_cast<T>(std::ldexp(static_cast<double>(k), static_cast<int>(rng() % 20)));
    }
    return out;
}

template <class T>
void check_exact_atomic_sums() {
    using namespace clreduce::testing;
    Reducer& r = reducer();
    const std::uint64_t total = 300007;
    const std::uint64_t seed = seed_for(sizeof(T), 43);
    INFO("data seed " << seed);
    const auto values = op_values<T>(total, seed);
    const auto integral = exact_partial_values<T>(total, seed + 1);
    const cl::Buffer buffer = device_copy(r, values);
    const cl::Buffer integral_buffer = device_copy(r, integral);
    LaunchParams rounded;
    rounded.float_mode = FloatMode::correctly_rounded;
    for (std::uint64_t n : {2ull, 31ull, 33ull, 257ull, 4097ull, 70001ull, 300000ull}) {
        for (std::uint64_t offset : {0ull, 1ull, 7ull}) {
            // Two default-width shapes, and one element per work-item in groups of 32, which
            // gives 9,375 groups at the largest n: the groups spread over 4 copies of the number.
            for (int s = 0; s < 3; ++s) {
                LaunchParams p = exact_shape(s == 1 ? 256 : 32, s == 2 ? 1 : 2);
                p.stride = Stride::global;
                if (s < 2) p.vector_width.reset();
                INFO("n " << n << " offset " << offset << " shape " << s);
                CallInfo info;
                const auto got = r.sum<T>(buffer, offset, n, p, &info);
                INFO(info.plan.describe());
                CHECK(info.kernel_events.size() == 1);
                if (s == 2 && n == 300000) CHECK(info.plan.groups > 2 * 4096);
                if (info.plan.groups > 1) CHECK(info.plan.inter_group == InterGroup::exact_atomic);
                check_approx(reference_sum(values.data() + offset, n, unit_roundoff(info.plan.accumulator)), got,
                             "sum");
                for (int k = 0; k < 3; ++k) CHECK(same_bits(r.sum<T>(buffer, offset, n, p), got));
                // Exact group sums: the correctly rounded total, whatever the order of arrival.
                const auto exact = r.sum<T>(integral_buffer, offset, n, p);
                if (info.plan.accumulator == ElementType::float64)
                    CHECK(same_bits(exact, r.sum<T>(integral_buffer, offset, n, rounded)));
                // The other additive operations take the same finish.
                check_approx(reference_mean(values.data() + offset, n, unit_roundoff(info.plan.accumulator)),
                             r.mean<T>(buffer, offset, n, p), "mean");
                check_approx(reference_sum_of_squares(values.data() + offset, n, unit_roundoff(info.plan.accumulator)),
                             r.sum_of_squares<T>(buffer, offset, n, p), "sum_of_squares");
            }
        }
    }
}

TEST_CASE("the exact atomic finish: correctly rounded group sums, the same bits every call", "[exact-atomic]") {
    Reducer& r = reducer();
    if (!has_exact_atomic(r)) {
        CHECK_THROWS_WITH(r.sum(std::vector<float>(100000, 1.0f), exact_shape()),
                          Contains("cl_khr_int64_base_atomics"));
        return;
    }
    check_exact_atomic_sums<float>();
    if (r.device_info().has_fp64) check_exact_atomic_sums<double>();
}

TEST_CASE("the exact atomic finish does not lose what a rounding combine loses", "[exact-atomic]") {
    Reducer& r = reducer();
    if (!has_exact_atomic(r)) return;  // the Unsupported case is checked above
    // Four groups of 64 elements: 2^80 in group 0, -2^80 in group 1, 1 in group 2. The
    // exact sum is 1; any order that adds 1 to +-2^80 before they cancel gives 0.
    const std::uint64_t per_group = 64;
    std::vector<float> data(4 * per_group, 0.0f);
    data[0] = std::ldexp(1.0f, 80);
    data[per_group + 5] = -std::ldexp(1.0f, 80);
    data[2 * per_group + 9] = 1.0f;
    CallInfo info;
    CHECK(r.sum(data, exact_shape(32, 2), &info) == 1.0);
    CHECK(info.plan.groups == 4);
    // The same with the values moved between groups.
    std::swap(data[0], data[2 * per_group + 9]);
    CHECK(r.sum(data, exact_shape(32, 2)) == 1.0);
}

TEST_CASE("the exact atomic finish keeps IEEE's zeros, infinities and NaN", "[exact-atomic]") {
    Reducer& r = reducer();
    if (!has_exact_atomic(r)) return;
    const LaunchParams p = exact_shape(32, 1);  // a group per 32 elements
    // Sums start from +0, so zeros of either sign, and values that cancel, give +0 as with
    // every other finish.
    std::vector<float> zeros(1000, -0.0f);
    CHECK_FALSE(std::signbit(r.sum(zeros, p)));
    CHECK(r.sum(zeros, p) == 0.0);
    zeros[3] = 2.5f;
    zeros[900] = -2.5f;
    CHECK_FALSE(std::signbit(r.sum(zeros, p)));
    CHECK(r.sum(zeros, p) == 0.0);

    std::vector<float> inf(1000, 1.0f);
    inf[10] = INFINITY;
    CHECK(r.sum(inf, p) == HUGE_VAL);
    inf[990] = -INFINITY;
    CHECK(std::isnan(r.sum(inf, p)));
    inf[990] = 1.0f;
    inf[500] = NAN;
    CHECK(std::isnan(r.sum(inf, p)));
    if (!r.device_info().has_fp64) return;
    // Group sums beyond the largest double: +-inf, as IEEE addition overflows.
    std::vector<double> big(1000, DBL_MAX);
    CHECK(r.sum(big, p) == HUGE_VAL);
    for (auto& x : big) x = -x;
    CHECK(r.sum(big, p) == -HUGE_VAL);
    // Finite group sums whose exact total is beyond the largest double: +inf.
    std::vector<double> two(64, 0.0);
    two[0] = DBL_MAX;
    two[40] = DBL_MAX;
    CHECK(r.sum(two, p) == HUGE_VAL);
    // And whose exact total is back in range: no overflow on the way.
    two[63] = -DBL_MAX;
    CHECK(r.sum(two, p) == DBL_MAX);
}

TEST_CASE("exact atomic calls mixed with other finishes on one reducer, and repeated", "[exact-atomic][reuse]") {
    using namespace clreduce::testing;
    Reducer& r = reducer();
    if (!has_exact_atomic(r)) return;
    const auto floats = op_values<float>(100003, seed_for(4, 44));
    const auto ints = op_values<std::int32_t>(100003, seed_for(4, 45));
    const cl::Buffer fbuf = device_copy(r, floats);
    const cl::Buffer ibuf = device_copy(r, ints);
    const auto exact = r.sum<float>(fbuf, 0, floats.size(), exact_shape());
    const LaunchParams last = [&] {
        LaunchParams p = exact_shape();
        p.inter_group = has_last_group_finish(r.device_info()) ? InterGroup::last_group : InterGroup::second_pass;
        return p;
    }();
    const auto tree = r.sum<float>(fbuf, 0, floats.size(), last);
    // The result words change meaning between calls (states, fixed-point numbers, partials).
    for (int k = 0; k < 4; ++k) {
        CHECK(same_bits(r.sum<float>(fbuf, 0, floats.size(), exact_shape()), exact));
        CHECK(same_bits(r.sum<float>(fbuf, 0, floats.size(), last), tree));
        CHECK(r.sum<std::int32_t>(ibuf, 0, ints.size()) == exact_sum(ints.data(), ints.size()));
        CHECK(same_bits(r.sum<float>(fbuf, 0, floats.size(), exact_shape()), exact));
        // One group: a plain store between exact calls.
        check_approx(reference_sum(floats.data(), 17, unit_roundoff(ElementType::float64)),
                     r.sum<float>(fbuf, 0, 17, exact_shape()), "sum");
    }
    const Counters before = r.counters();
    for (int k = 0; k < 20; ++k) CHECK(same_bits(r.sum<float>(fbuf, 0, floats.size(), exact_shape()), exact));
    const Counters after = r.counters();
    CHECK(after.programs_built == before.programs_built);
    CHECK(after.kernels_created == before.kernels_created);
    CHECK(after.buffers_allocated == before.buffers_allocated);
}

TEST_CASE("the exact atomic finish is refused where it cannot run, clearly", "[exact-atomic][errors]") {
    Reducer& r = reducer();
    const std::vector<float> data(10000, 0.5f);
    LaunchParams p = exact_shape();
    p.float_mode = FloatMode::compensated;
    CHECK_THROWS_WITH(r.sum(data, p), Contains("InterGroup::exact_atomic") && Contains("FloatMode::deterministic"));
    const std::vector<std::int32_t> ints(10000, 3);
    CHECK_THROWS_WITH(r.sum(ints, exact_shape()), Contains("integer accumulators finish with InterGroup::atomic"));
    CHECK_THROWS_WITH(r.max(data, exact_shape()), Contains("plain floating-point sums"));
    cl::Buffer in(r.context(), CL_MEM_READ_ONLY, data.size() * sizeof(float));
    cl::Buffer out(r.context(), CL_MEM_READ_WRITE, 8);
    CHECK_THROWS_WITH(r.sum_async<float>(in, 0, data.size(), {out}, exact_shape()), Contains("not exact_atomic"));
    DeviceInfo no64 = fake_gpu();
    no64.has_int64_atomics = false;
    CHECK_THROWS_WITH(make_plan(ElementType::float32, 1 << 20, no64, exact_shape()),
                      Contains("cl_khr_int64_base_atomics") && Contains("InterGroup::second_pass"));
}

TEST_CASE("the exact atomic finish spreads many groups over copies of its number", "[exact-atomic]") {
    CHECK(exact_copies_for(1) == 1);
    CHECK(exact_copies_for(4096) == 1);
    CHECK(exact_copies_for(4097) == 2);
    CHECK(exact_copies_for(9375) == 4);
    CHECK(exact_copies_for(131072) == 32);
    CHECK(exact_copies_for(std::uint64_t(1) << 31) == 32);
    // The correctly rounded sum's groups add more words each: a copy per 32 groups.
    CHECK(exact_copies_for(32, KernelOp::add_exact) == 1);
    CHECK(exact_copies_for(33, KernelOp::add_exact) == 2);
    CHECK(exact_copies_for(1024, KernelOp::add_exact) == 32);
    // The host adds the copies' limbs and ors their flags before the one rounding.
    for (ElementType acc : {ElementType::float32, ElementType::float64}) {
        const std::size_t words = exact_state_size(acc) / 8;
        std::vector<std::int64_t> copies(3 * words, 0);
        const int lowest = acc == ElementType::float32 ? -149 : -1074;
        // 3 * 2^-lowest... units: 1.5 = 3 * 2^-1 is 3 * 2^(-1 - lowest) units, at limb (-1 - lowest) / 32.
        const int bit = -1 - lowest;
        copies[0 * words + bit / 32] = std::int64_t(1) << (bit % 32);     // 0.5
        copies[1 * words + bit / 32] = std::int64_t(2) << (bit % 32);     // 1.0
        copies[2 * words + bit / 32] = -(std::int64_t(4) << (bit % 32));  // -2.0
        const auto* bytes = reinterpret_cast<const unsigned char*>(copies.data());
        CHECK(round_exact_states(bytes, 3, acc) == -0.5);
        CHECK(round_exact_states(bytes, 1, acc) == 0.5);
        copies[2 * words + words - 1] = 2;  // +inf flag in one copy
        CHECK(round_exact_states(bytes, 3, acc) == HUGE_VAL);
    }
}

}  // namespace
}  // namespace clreduce::test
