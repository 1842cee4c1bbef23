// Every operation's asynchronous form (Reducer::reduce_async): the result the device finishes
// (cl_kernels/result.cl) is the synchronous call's, bit for bit, field by field, for every
// operation and element type, at edge sizes and offsets, with both one-launch finishes; the
// bytes around it in the caller's buffer stay as they were. The forms the device cannot finish
// are refused with the reason; a checked integer result that does not fit its type sets the
// caller's status word (AsyncTarget::status) where the synchronous call throws Overflow, and
// is not written. The per-type cases carry
// [async-every] alone: their hundreds of programs are too slow under the sanitizers
// (scripts/sanitize.sh runs [async]); the NaN and huge-integer cases carry [async] too.
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <vector>

#include "async_result_checks.hpp"
#include "test_ops_support.hpp"

namespace clreduce::test {
namespace {

template <class R>
R read_result(const Reducer& r, const cl::Buffer& buffer, std::uint64_t at, std::vector<unsigned char>& around) {
    around.resize(3 * sizeof(R));
    check(r.queue().enqueueReadBuffer(buffer, CL_TRUE, 0, around.size(), around.data()), "clEnqueueReadBuffer");
    R value;
    std::memcpy(static_cast<void*>(&value), around.data() + at * sizeof(R), sizeof(R));
    return value;
}

// One operation over one range with `params`: synchronous and asynchronous results compared.
// Where the synchronous call throws Overflow, the asynchronous one sets the status word's bit
// and leaves the result unwritten; elsewhere its word stays 0.
template <Operation Op, class T>
void check_async(Reducer& r, const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t n, LaunchParams params) {
    using R = result_t<Op, T>;
    INFO(operation_name(Op) << " of " << type_name(element_traits<T>::type) << ", n " << n << ", offset " << offset);
    cl::Buffer out(r.context(), CL_MEM_READ_WRITE, 3 * sizeof(R));
    check(r.queue().enqueueFillBuffer(out, cl_uchar(kMarker), 0, 3 * sizeof(R)), "clEnqueueFillBuffer");
    const cl::Buffer status = status_word(r);
    const AsyncTarget target{out, 1, {}, AsyncEvent::returned, status};
    cl::Event done;
    try {
        done = r.reduce_async<Op, T>(buffer, offset, n, target, params);
    } catch (const InvalidArgument&) {  // undefined for no element: so is the synchronous call
        CHECK(n == 0);
        CHECK_THROWS_AS((r.reduce<Op, T>(buffer, offset, n, params)), InvalidArgument);
        return;
    } catch (const Unsupported&) {  // the operation does not take T: neither form does
        CHECK_THROWS_AS((r.reduce<Op, T>(buffer, offset, n, params)), Unsupported);
        return;
    }
    std::optional<R> sync;
    try {
        sync = r.reduce<Op, T>(buffer, offset, n, params);
    } catch (const Overflow&) {
    }
    done.wait();
    std::vector<unsigned char> around;
    const R async = read_result<R>(r, out, 1, around);
    const std::uint32_t word = read_status(r, status);
    if (sync) {
        CHECK(word == 0);
        CHECK(same_result(*sync, async));
    } else {
        CHECK(word == kAsyncOverflow);
        for (std::size_t k = sizeof(R); k < 2 * sizeof(R); ++k) CHECK(around[k] == kMarker);
    }
    for (std::size_t k = 0; k < sizeof(R); ++k) {
        CHECK(around[k] == kMarker);
        CHECK(around[2 * sizeof(R) + k] == kMarker);
    }
}

template <class T>
void check_every_operation() {
    Reducer& r = reducer();
    const std::uint64_t total = 70000;
    const std::uint64_t seed = seed_for(sizeof(T), 59, std::is_signed_v<T>);
    INFO("data seed " << seed);
    const auto values = async_values<T>(total, seed);
    const cl::Buffer buffer = device_copy(r, values);
    // (The second pass for two types: each finish and type is a program per operation, and
    // the programs are what takes this test's time.)
    const bool both = std::is_same_v<T, float> || std::is_same_v<T, std::int32_t>;
    for (const InterGroup finish : {InterGroup::last_group, InterGroup::second_pass}) {
        if (finish == InterGroup::second_pass && !both) continue;
        LaunchParams params;
        params.inter_group = finish;
        params.work_group_size = 64;
        params.times = 4;
        for (const std::uint64_t n : {0ull, 1ull, 257ull, 69997ull}) {
            const std::uint64_t offset = n == 69997 ? 3 : 0;
#define CLREDUCE_CHECK_ASYNC(T_, NAME, R_) check_async<Operation::NAME, T_>(r, buffer, offset, n, params);
            CLREDUCE_OPERATIONS(CLREDUCE_CHECK_ASYNC, T)
#undef CLREDUCE_CHECK_ASYNC
        }
    }
}

TEST_CASE("every operation asynchronously gives the synchronous bits for int8", "[async-every]") {
    check_every_operation<std::int8_t>();
}
TEST_CASE("every operation asynchronously gives the synchronous bits for uint16 and int32", "[async-every]") {
    check_every_operation<std::uint16_t>();
    check_every_operation<std::int32_t>();
}
TEST_CASE("every operation asynchronously gives the synchronous bits for int64 and uint64", "[async-every]") {
    check_every_operation<std::int64_t>();
    check_every_operation<std::uint64_t>();
}
TEST_CASE("every operation asynchronously gives the synchronous bits for float and double", "[async-every]") {
    check_every_operation<float>();
    check_every_operation<double>();
}

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
