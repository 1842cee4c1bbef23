// Asynchronous results that may not fit their 64-bit integer type (LaunchPlan::result_status):
// the device checks the exact value, leaves a result that does not fit unwritten and sets bit
// 0 of the caller's status word (AsyncTarget::status), exactly where the synchronous call
// throws Overflow; a floating-point accumulator's integer value is checked, or under
// IntegerOverflow::wrap taken modulo 2^64 as the host takes it. The word is only ever set, so
// one word serves a chain of calls; a call that needs one and has none is refused, naming it.
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <vector>

#include "async_result_checks.hpp"
#include "test_ops_support.hpp"

namespace clreduce::test {
namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();

// One asynchronous call of Op over `values` against the synchronous one: the same value and a
// zero word, or (where the synchronous call overflows) the marker kept and the overflow bit.
template <Operation Op, class T>
void check_status(Reducer& r, const std::vector<T>& values, const LaunchParams& params) {
    using R = result_t<Op, T>;
    INFO(operation_name(Op) << " of " << values.size() << " " << type_name(element_traits<T>::type));
    const cl::Buffer buffer = device_copy(r, values);
    cl::Buffer out(r.context(), CL_MEM_READ_WRITE, 2 * sizeof(R));
    check(r.queue().enqueueFillBuffer(out, cl_uchar(kMarker), 0, 2 * sizeof(R)), "clEnqueueFillBuffer");
    const cl::Buffer status = status_word(r);
    CallInfo info;
    r.reduce_async<Op, T>(buffer, 0, values.size(), {out, 1, {}, AsyncEvent::returned, status}, params, &info).wait();
    CHECK(info.plan.result_status);
    std::optional<R> sync;
    try {
        sync = r.reduce<Op, T>(buffer, 0, values.size(), params);
    } catch (const Overflow&) {
    }
    unsigned char bits[2 * sizeof(R)];
    check(r.queue().enqueueReadBuffer(out, CL_TRUE, 0, sizeof bits, bits), "clEnqueueReadBuffer");
    for (std::size_t k = 0; k < sizeof(R); ++k) CHECK(bits[k] == kMarker);
    const std::uint32_t word = read_status(r, status);
    if (sync) {
        R async;
        std::memcpy(&async, bits + sizeof(R), sizeof(R));
        CHECK(word == 0);
        CHECK(async == *sync);
    } else {
        CHECK(word == kAsyncOverflow);
        for (std::size_t k = sizeof(R); k < sizeof bits; ++k) CHECK(bits[k] == kMarker);
    }
}

// Both one-launch finishes and a few shapes.
std::vector<LaunchParams> shapes() {
    std::vector<LaunchParams> out;
    for (const InterGroup finish : {InterGroup::last_group, InterGroup::second_pass})
        for (const std::uint32_t wg : {32u, 128u}) {
            LaunchParams p;
            p.inter_group = finish;
            p.work_group_size = wg;
            p.times = 4;
            out.push_back(p);
        }
    return out;
}

TEST_CASE("asynchronous checked sums set the status word exactly where the synchronous sum overflows",
          "[async][overflow]") {
    Reducer& r = reducer();
    const std::uint64_t seed = seed_for(64, 2026);
    INFO("data seed " << seed);
    std::mt19937_64 rng(seed);
    // Long ranges whose sums lie just inside or just outside int64: values of about max / n.
    std::vector<std::int64_t> inside(100003), outside(100003);
    for (std::size_t k = 0; k < inside.size(); ++k) {
        inside[k] = static_cast<std::int64_t>(rng() % (2 * (kMax / 100003 - 2)));  // mean below max / n
        outside[k] = kMax / 100003 + static_cast<std::int64_t>(rng() % 1000) + 1;
    }
    const std::vector<std::vector<std::int64_t>> int64_cases = {{kMax, 3, -4}, {kMax, 1}, {kMin, -1}, {kMin, kMax},
                                                                {kMin, 5, -5}, inside,    outside};
    for (const LaunchParams& p : shapes()) {
        for (const auto& values : int64_cases) check_status<Operation::sum, std::int64_t>(r, values, p);
        const std::uint64_t umax = std::numeric_limits<std::uint64_t>::max();
        for (const std::vector<std::uint64_t>& values :
             {std::vector<std::uint64_t>{umax, 0}, {umax, 1}, {umax / 2, umax / 2, 1}, {umax / 2, umax / 2, 2}})
            check_status<Operation::sum, std::uint64_t>(r, values, p);
        // Squares of 64-bit integers in 192 bits, against uint64.
        for (const std::vector<std::int64_t>& values :
             {std::vector<std::int64_t>{3037000499, -3037000499},
              {std::int64_t(1) << 32},
              {-1, kMin},
              {kMin, kMin, kMin, kMin}})  // 2^128: only the third limb is not 0
            check_status<Operation::sum_of_squares, std::int64_t>(r, values, p);
    }
}

TEST_CASE("asynchronous results of a floating-point accumulator over integers are checked or wrapped",
          "[async][overflow]") {
    Reducer& r = reducer();
    if (!r.device_info().has_fp64) {
        skip_case("the device has no cl_khr_fp64");
        return;
    }
    for (LaunchParams p : shapes()) {
        p.accumulator = ElementType::float64;
        check_status<Operation::sum, std::int32_t>(r, {7, -9, 100000}, p);
        check_status<Operation::product, std::int32_t>(r, {65536, 65536, 65536}, p);          // 2^48
        check_status<Operation::product, std::int32_t>(r, {65536, 65536, 65536, 65536}, p);   // 2^64
        check_status<Operation::product, std::int32_t>(r, {-65536, 65536, 65536, 32768}, p);  // -2^63
        check_status<Operation::sum, std::int64_t>(r, {kMax, kMax}, p);
        // Under wrap a finite sum is its value modulo 2^64; a product stays checked.
        p.overflow = IntegerOverflow::wrap;
        check_status<Operation::sum, std::int64_t>(r, {kMax, kMax, kMax}, p);
        check_status<Operation::sum, std::int64_t>(r, {kMin, kMin, kMin}, p);
        check_status<Operation::product, std::int32_t>(r, {65536, 65536, 65536, 65536}, p);
    }
}

TEST_CASE("asynchronous segmented checked sums leave the segments that do not fit unwritten", "[async][overflow]") {
    Reducer& r = reducer();
    const std::vector<std::int64_t> values{kMax, 1, 5, 6, kMin, -1, kMin, kMax, 2, 3, kMax, kMax, 0, 1};
    const cl::Buffer buffer = device_copy(r, values);
    const std::vector<std::uint64_t> offsets{0, 2, 4, 6, 8, 10, 12, 14};
    const std::vector<bool> fits{false, true, false, true, true, false, true};
    const std::vector<std::int64_t> sums{0, 11, 0, -1, 5, 0, 1};
    LaunchParams item, groups;
    item.segment_team = 1;
    groups.work_group_size = 64;
    groups.segment_team = 64;
    groups.groups_per_segment = 3;
    for (const LaunchParams& p : {item, groups, LaunchParams{}}) {
        INFO("groups_per_segment " << p.groups_per_segment.value_or(0));
        cl::Buffer out(r.context(), CL_MEM_READ_WRITE, 8 * sizeof(std::int64_t));
        check(r.queue().enqueueFillBuffer(out, cl_uchar(kMarker), 0, 8 * sizeof(std::int64_t)), "clEnqueueFillBuffer");
        const cl::Buffer status = status_word(r);
        r.sum_async<std::int64_t>(buffer, 0, Segments::offsets(offsets), {out, 1, {}, AsyncEvent::returned, status}, p)
            .wait();
        CHECK_THROWS_AS(r.sum<std::int64_t>(buffer, 0, Segments::offsets(offsets), p), Overflow);
        std::vector<std::int64_t> got(8);
        check(r.queue().enqueueReadBuffer(out, CL_TRUE, 0, 8 * sizeof(std::int64_t), got.data()),
              "clEnqueueReadBuffer");
        std::int64_t marker;
        std::memset(&marker, kMarker, sizeof marker);
        CHECK(got[0] == marker);
        for (std::size_t s = 0; s < fits.size(); ++s) {
            INFO("segment " << s);
            CHECK(got[1 + s] == (fits[s] ? sums[s] : marker));
        }
        CHECK(read_status(r, status) == kAsyncOverflow);
    }
}

TEST_CASE("one status word serves a chain of asynchronous calls, and a call that needs one names it",
          "[async][overflow]") {
    Reducer& r = reducer();
    const std::vector<std::int64_t> over{kMax, 1}, fine{kMax, -1};
    const cl::Buffer over_buffer = device_copy(r, over), fine_buffer = device_copy(r, fine);
    cl::Buffer out(r.context(), CL_MEM_READ_WRITE, 2 * sizeof(std::int64_t));
    const cl::Buffer status = status_word(r);
    r.sum_async<std::int64_t>(over_buffer, 0, 2, {out, 0, {}, AsyncEvent::none, status});
    r.sum_async<std::int64_t>(fine_buffer, 0, 2, {out, 1, {}, AsyncEvent::returned, status}).wait();
    std::int64_t got[2];
    check(r.queue().enqueueReadBuffer(out, CL_TRUE, 0, sizeof got, got), "clEnqueueReadBuffer");
    CHECK(got[1] == kMax - 1);
    CHECK(read_status(r, status) == kAsyncOverflow);  // the first call's overflow is kept

    CHECK(r.plan(ElementType::int64, Operation::sum, 2, {}, CallForm::async).result_status);
    LaunchParams wrap;
    wrap.overflow = IntegerOverflow::wrap;
    CHECK_FALSE(r.plan(ElementType::int64, Operation::sum, 2, wrap, CallForm::async).result_status);
    CHECK_FALSE(r.plan(ElementType::int32, Operation::sum, 2, {}, CallForm::async).result_status);
    CHECK_FALSE(r.plan(ElementType::int64, Operation::sum, 2).result_status);  // the host checks a synchronous one
    CHECK_THROWS_WITH(r.sum_async<std::int64_t>(fine_buffer, 0, 2, {out}),
                      Catch::Matchers::Contains("AsyncTarget::status") &&
                          Catch::Matchers::Contains("IntegerOverflow::wrap"));
    const cl::Buffer small(r.context(), CL_MEM_READ_WRITE, 2);
    CHECK_THROWS_AS(r.sum_async<std::int64_t>(fine_buffer, 0, 2, {out, 0, {}, AsyncEvent::returned, small}),
                    InvalidArgument);
    r.sum_async<std::int64_t>(fine_buffer, 0, 2, {out}, wrap).wait();  // wrap needs no word
}

// docs/usage.md's example: two sums, one word.
TEST_CASE("the status word example of the usage guide", "[async][overflow]") {
    Reducer& r = reducer();
    const cl::Buffer a = device_copy(r, std::vector<std::int64_t>{kMax, 5, 0});
    const cl::Buffer b = device_copy(r, std::vector<std::int64_t>{1, 2, 3});
    const std::uint64_t n = 3;
    cl::Buffer results(r.context(), CL_MEM_READ_WRITE, 2 * sizeof(std::int64_t));
    cl_uint zero = 0;
    cl::Buffer status(r.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, &zero);
    r.sum_async<std::int64_t>(a, 0, n, {results, 0, {}, clreduce::AsyncEvent::none, status});
    r.sum_async<std::int64_t>(b, 0, n, {results, 1, {}, clreduce::AsyncEvent::none, status});
    cl_uint word = 0;  // read after both: bit 0 set if either sum did not fit int64
    r.queue().enqueueReadBuffer(status, CL_TRUE, 0, sizeof word, &word);
    CHECK(word == kAsyncOverflow);
    std::int64_t second = 0;
    check(r.queue().enqueueReadBuffer(results, CL_TRUE, sizeof second, sizeof second, &second), "clEnqueueReadBuffer");
    CHECK(second == 6);
}

}  // namespace
}  // namespace clreduce::test
