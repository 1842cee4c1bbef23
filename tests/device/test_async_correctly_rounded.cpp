// Asynchronous correctly rounded float sums (FloatMode::correctly_rounded): the device rounds
// the exact fixed-point state once (cl_kernels/ops/add_exact_round.cl), and the double it
// writes is the exact sum correctly rounded (the big-integer reference) and the synchronous
// call's bits, for float and double data that make every part of the rounding count: values
// that cancel far above the result, subnormal results, ties, the zero's sign, infinities and
// NaN, overflow past the largest double; both one-launch finishes and segments. The means and
// L1 norms in that mode divide or take that double as the host does.
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "async_result_checks.hpp"
#include "correctly_rounded_support.hpp"
#include "test_ops_support.hpp"

namespace clreduce::test {
namespace {

namespace cr = correctly_rounded;

LaunchParams rounded(InterGroup finish, std::uint32_t wg) {
    LaunchParams p;
    p.float_mode = FloatMode::correctly_rounded;
    p.inter_group = finish;
    p.work_group_size = wg;
    p.times = 4;
    return p;
}

// What an asynchronous call of Op writes at element 0 of a fresh buffer.
template <Operation Op, class T>
double async_value(Reducer& r, const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t n, const LaunchParams& p) {
    cl::Buffer out(r.context(), CL_MEM_READ_WRITE, sizeof(double));
    r.reduce_async<Op, T>(buffer, offset, n, {out}, p).wait();
    double v = 0;
    check(r.queue().enqueueReadBuffer(out, CL_TRUE, 0, sizeof v, &v), "clEnqueueReadBuffer");
    return v;
}

template <class T>
void check_rounded(Reducer& r, const std::vector<T>& values, const char* what) {
    INFO(what << ", " << values.size() << " " << type_name(element_traits<T>::type));
    const cl::Buffer buffer = device_copy(r, values);
    // (One work-group size a type: each finish, type and operation is a program of the long
    // fixed-point state, and the programs are what takes this test's time.)
    const std::uint32_t wg = std::is_same_v<T, float> ? 32 : 64;
    for (const InterGroup finish : {InterGroup::last_group, InterGroup::second_pass}) {
        const LaunchParams p = rounded(finish, wg);
        INFO(to_string(finish) << ", wg " << wg);
        for (const std::uint64_t from : {std::uint64_t(0), std::uint64_t(values.size() > 3 ? 3 : 0)}) {
            const std::uint64_t n = values.size() - from;
            const double expected = cr::exact(values, from);
            const double async = async_value<Operation::sum, T>(r, buffer, from, n, p);
            CHECK(same_bits(async, expected));
            CHECK(same_bits(async, r.sum<T>(buffer, from, n, p)));
            if (n == 0) continue;
            CHECK(same_bits(async_value<Operation::mean, T>(r, buffer, from, n, p),
                            r.reduce<Operation::mean, T>(buffer, from, n, p)));
            CHECK(same_bits(async_value<Operation::norm_l1, T>(r, buffer, from, n, p),
                            r.reduce<Operation::norm_l1, T>(buffer, from, n, p)));
        }
    }
}

template <class T>
void check_every_data_set(Reducer& r, std::uint64_t seed) {
    INFO("data seed " << seed);
    std::mt19937_64 rng(seed);
    constexpr bool is_double = std::is_same_v<T, double>;
    const int top = is_double ? 1000 : 120, bottom = is_double ? -1070 : -145;
    check_rounded(r, cr::spread<T>(-20, 20, 70001, rng), "spread exponents");
    check_rounded(r, cr::spread<T>(bottom, top, 3001, rng), "the whole exponent range");
    check_rounded(r, cr::hidden_small<T>(20000, rng, top - 40, top, bottom, bottom + 30), "small values under large");
    check_rounded(r, cr::cancelling_spikes<T>(9000, rng), "cancelling spikes");
    const T least = std::numeric_limits<T>::denorm_min(), big = std::numeric_limits<T>::max();
    const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
    check_rounded(r, std::vector<T>{least, least, -least}, "a subnormal result");
    check_rounded(r, std::vector<T>{T(1), std::ldexp(T(1), is_double ? -53 : -24)}, "a tie below 1, to even");
    check_rounded(r, std::vector<T>{T(1), std::ldexp(T(1), is_double ? -53 : -24), least}, "just past a tie");
    const T odd = T(1) + std::numeric_limits<T>::epsilon();  // ties up to even from an odd last bit
    check_rounded(r, std::vector<T>{odd, std::ldexp(T(1), is_double ? -53 : -24)}, "a tie above an odd value");
    check_rounded(r, std::vector<T>{T(-0.0), T(-0.0), T(-0.0), T(-0.0)}, "negative zeros");
    check_rounded(r, std::vector<T>{T(-0.0), T(0.0), T(-0.0), T(-0.0)}, "zeros of both signs");
    check_rounded(r, std::vector<T>{T(2), inf, T(3), T(1)}, "an infinity");
    check_rounded(r, std::vector<T>{T(2), -inf, inf, T(1)}, "infinities of both signs");
    check_rounded(r, std::vector<T>{T(2), nan, T(1), T(5)}, "a NaN");
    check_rounded(r, std::vector<T>{big, big, -big, big}, "past the largest value");
    check_rounded(r, std::vector<T>{}, "no element");
}

TEST_CASE("asynchronous correctly rounded sums are the exact sums rounded, as the synchronous call gives them",
          "[async][correctly-rounded]") {
    Reducer& r = reducer();
    if (!cr::offered(r)) {
        skip_case("correctly_rounded is not offered on this device");
        return;
    }
    check_every_data_set<float>(r, seed_for(32, 77));
    if (r.device_info().has_fp64) check_every_data_set<double>(r, seed_for(64, 77));
}

TEST_CASE("asynchronous correctly rounded segmented sums are the synchronous ones", "[async][correctly-rounded]") {
    Reducer& r = reducer();
    if (!cr::offered(r)) {
        skip_case("correctly_rounded is not offered on this device");
        return;
    }
    const std::uint64_t seed = seed_for(32, 78);
    INFO("data seed " << seed);
    std::mt19937_64 rng(seed);
    const std::vector<float> values = cr::hidden_small<float>(30000, rng, 100, 120, -140, -110);
    const cl::Buffer buffer = device_copy(r, values);
    const std::vector<std::uint64_t> offsets{0, 0, 1, 7, 5000, 5003, 29000, 30000};
    LaunchParams item = rounded(InterGroup::second_pass, 64), groups = item;
    item.inter_group.reset();
    groups.inter_group.reset();
    item.segment_team = 1;
    groups.segment_team = 64;
    groups.groups_per_segment = 3;
    for (const LaunchParams& p : {item, groups}) {
        INFO("groups_per_segment " << p.groups_per_segment.value_or(1));
        const Segments segments = Segments::offsets(offsets);
        cl::Buffer out(r.context(), CL_MEM_READ_WRITE, segments.count() * sizeof(double));
        r.sum_async<float>(buffer, 0, segments, {out}, p).wait();
        std::vector<double> got(segments.count());
        check(r.queue().enqueueReadBuffer(out, CL_TRUE, 0, got.size() * sizeof(double), got.data()),
              "clEnqueueReadBuffer");
        const std::vector<double> sync = r.sum<float>(buffer, 0, segments, p);
        for (std::size_t s = 0; s < got.size(); ++s) {
            INFO("segment " << s);
            const std::vector<float> part(values.begin() + offsets[s], values.begin() + offsets[s + 1]);
            CHECK(same_bits(got[s], cr::exact(part)));
            CHECK(same_bits(got[s], sync[s]));
        }
    }
}

}  // namespace
}  // namespace clreduce::test
