// The one-launch deterministic finish (InterGroup::last_group) and the asynchronous calls
// (sum_async, min_async, max_async), against the exact references and the synchronous calls.
#include <cstring>
#include <vector>

#include <reference/sum_reference.hpp>

#include "test_ops_support.hpp"

namespace clreduce::test {
namespace {

using Catch::Matchers::Contains;

LaunchParams shape(InterGroup strategy, std::uint32_t wg = 16, std::uint32_t times = 2) {
    LaunchParams p;
    p.inter_group = strategy;
    p.work_group_size = wg;  // small groups: many partials for the last group to combine
    p.times = times;
    return p;
}

// Bytes [offset, offset + size) of `buffer`, read back.
std::vector<unsigned char> read_bytes(const Reducer& r, const cl::Buffer& buffer, std::size_t offset,
                                      std::size_t size) {
    std::vector<unsigned char> out(size);
    check(r.queue().enqueueReadBuffer(buffer, CL_TRUE, offset, size, out.data()), "clEnqueueReadBuffer");
    return out;
}

template <class V>
V read_value(const Reducer& r, const cl::Buffer& buffer, std::size_t offset) {
    V v;
    const auto bytes = read_bytes(r, buffer, offset, sizeof(V));
    std::memcpy(&v, bytes.data(), sizeof(V));
    return v;
}

// A result buffer full of a marker byte, so that a write outside the result shows.
cl::Buffer marked_buffer(const Reducer& r, std::size_t bytes) {
    cl::Buffer b(r.context(), CL_MEM_READ_WRITE, bytes);
    check(r.queue().enqueueFillBuffer(b, cl_uchar(0xAB), 0, bytes), "clEnqueueFillBuffer");
    return b;
}

template <class T>
void check_last_group_matches_second_pass() {
    using namespace clreduce::testing;
    Reducer& r = reducer();
    const std::uint64_t total = 200003;
    const std::uint64_t seed = seed_for(sizeof(T), 31);
    INFO("data seed " << seed);
    const auto values = op_values<T>(total, seed);
    const cl::Buffer buffer = device_copy(r, values);
    // Sizes that give 1, a few and many groups, alternating so the slot's buffers grow and
    // the done-counter must be back at 0 for every call.
    for (std::uint64_t n : {33ull, 4097ull, 200000ull, 1ull, 70001ull, 32ull}) {
        for (std::uint64_t offset : {0ull, 3ull}) {
            const T* data = values.data() + offset;
            for (std::uint32_t wg : {16u, 64u}) {
                INFO("n " << n << " offset " << offset << " wg " << wg);
                CallInfo info;
                const auto last = r.sum<T>(buffer, offset, n, shape(InterGroup::last_group, wg), &info);
                const auto second = r.sum<T>(buffer, offset, n, shape(InterGroup::second_pass, wg));
                CHECK(info.plan.inter_group == InterGroup::last_group);
                CHECK(info.kernel_events.size() == 1);  // one launch, whatever the groups
                CHECK(same_bits(last, second));
                if constexpr (std::is_floating_point_v<T>) {
                    check_approx(reference_sum(data, n, unit_roundoff(info.plan.accumulator)), last, "sum");
                } else {
                    CHECK(last == exact_sum(data, n));
                }
                // Every call after it: the same bits.
                for (int k = 0; k < 3; ++k)
                    CHECK(same_bits(r.sum<T>(buffer, offset, n, shape(InterGroup::last_group, wg)), last));
                // Operations without an atomic finish: arg and minmax states, compensated pairs.
                const auto arg = r.argmin<T>(buffer, offset, n, shape(InterGroup::last_group, wg));
                const auto ref = reference_min(data, n);
                CHECK(arg.value == ref.value);
                CHECK(arg.index == ref.index);
                const auto mm = r.minmax<T>(buffer, offset, n, shape(InterGroup::last_group, wg));
                CHECK(mm.min == ref.value);
                CHECK(mm.max == reference_max(data, n).value);
                if constexpr (std::is_floating_point_v<T>) {
                    LaunchParams comp = shape(InterGroup::last_group, wg);
                    comp.float_mode = FloatMode::compensated;
                    LaunchParams comp2 = comp;
                    comp2.inter_group = InterGroup::second_pass;
                    CHECK(same_bits(r.sum<T>(buffer, offset, n, comp), r.sum<T>(buffer, offset, n, comp2)));
                }
            }
        }
    }
}

TEMPLATE_TEST_CASE("the last-group finish combines in the second pass's order: same bits, one launch", "[last-group]",
                   float, double, std::int32_t, std::int8_t) {
    if (!has_last_group_finish(reducer().device_info())) {
        CHECK_THROWS_AS(reducer().sum(std::vector<TestType>(100000, TestType(1)), shape(InterGroup::last_group)),
                        Unsupported);
        return;
    }
    check_last_group_matches_second_pass<TestType>();
}

TEST_CASE("a repeated last-group call builds, creates and allocates nothing", "[last-group][reuse]") {
    Reducer& r = reducer();
    if (!has_last_group_finish(r.device_info())) return;  // the Unsupported case is checked above
    const auto values = op_values<float>(100003, seed_for(5, 5));
    const cl::Buffer buffer = device_copy(r, values);
    const auto first = r.sum<float>(buffer, 0, values.size(), shape(InterGroup::last_group));
    const Counters before = r.counters();
    for (int k = 0; k < 20; ++k)
        CHECK(same_bits(r.sum<float>(buffer, 0, values.size(), shape(InterGroup::last_group)), first));
    const Counters after = r.counters();
    CHECK(after.programs_built == before.programs_built);
    CHECK(after.kernels_created == before.kernels_created);
    CHECK(after.buffers_allocated == before.buffers_allocated);
}

template <class T>
void check_async_sum(const Reducer& r) {
    using namespace clreduce::testing;
    using R = sum_type_t<T>;
    const std::uint64_t total = 150001;
    const std::uint64_t seed = seed_for(sizeof(T), 77, std::is_floating_point_v<T>);
    INFO("data seed " << seed);
    const auto values = op_values<T>(total, seed);
    const cl::Buffer buffer = device_copy(r, values);
    struct Range {
        std::uint64_t offset, count;
    };
    const std::vector<Range> ranges = {{0, total}, {1, 31}, {3, 4097}, {0, 1}, {7, 100000}, {5, 0}, {2, 65537}};
    // One result per range at consecutive slots, all enqueued before anything is read.
    const std::size_t stride = sizeof(R);
    const cl::Buffer results = marked_buffer(r, (ranges.size() + 2) * stride);
    std::vector<cl::Event> events;
    for (std::size_t i = 0; i < ranges.size(); ++i)
        events.push_back(r.sum_async<T>(buffer, ranges[i].offset, ranges[i].count, {results, i + 1}));
    cl::Event::waitForEvents(events);
    for (const auto& e : events) CHECK(e.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>() == CL_COMPLETE);
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        const auto [offset, count] = ranges[i];
        INFO("offset " << offset << " count " << count);
        const R got = read_value<R>(r, results, (i + 1) * stride);
        if constexpr (std::is_floating_point_v<T>) {
            // Both deterministic, the same plan with the finish an asynchronous call takes:
            // the same bits.
            LaunchParams same;
            same.inter_group =
                has_last_group_finish(r.device_info()) ? InterGroup::last_group : InterGroup::second_pass;
            CallInfo info;
            const R sync = r.sum<T>(buffer, offset, count, same, &info);
            check_approx(reference_sum(values.data() + offset, count, unit_roundoff(info.plan.accumulator)), got,
                         "sum");
            CHECK(same_bits(got, sync));
        } else {
            CHECK(got == exact_sum(values.data() + offset, count));
        }
    }
    // Nothing written outside the results.
    for (std::size_t at : {std::size_t(0), (ranges.size() + 1) * stride})
        for (unsigned char b : read_bytes(r, results, at, stride)) CHECK(b == 0xAB);
}

TEST_CASE("asynchronous sums leave exact results in a device buffer", "[async]") {
    Reducer& r = reducer();
    check_async_sum<std::int32_t>(r);
    check_async_sum<std::uint32_t>(r);
    check_async_sum<std::int8_t>(r);
    check_async_sum<float>(r);
    check_async_sum<double>(r);
}

TEST_CASE("asynchronous sums on an out-of-order queue and after a caller's event", "[async]") {
    using namespace clreduce::testing;
    const cl::Device device = reducer().queue().getInfo<CL_QUEUE_DEVICE>();
    cl::Context context(device);
    cl_command_queue_properties props = 0;
    const auto supported = device.getInfo<CL_DEVICE_QUEUE_PROPERTIES>();
    if (supported & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) props |= CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
    cl::CommandQueue queue(context, device, props);
    Reducer r(context, queue);
    const std::uint64_t n = 80021;
    const auto values = op_values<std::int32_t>(n, seed_for(9, 9));
    cl::Buffer buffer(context, CL_MEM_READ_ONLY, n * sizeof(std::int32_t));
    cl::Event uploaded;
    check(queue.enqueueWriteBuffer(buffer, CL_FALSE, 0, n * sizeof(std::int32_t), values.data(), nullptr, &uploaded),
          "clEnqueueWriteBuffer");
    const cl::Buffer results = marked_buffer(r, 8 * 8);
    queue.finish();  // the marker fill
    std::vector<cl::Event> done;
    for (int k = 0; k < 8; ++k)
        done.push_back(
            r.sum_async<std::int32_t>(buffer, k, n - 2 * k, {results, static_cast<std::uint64_t>(k), {uploaded}}));
    cl::Event::waitForEvents(done);
    for (int k = 0; k < 8; ++k) {
        INFO("call " << k);
        CHECK(read_value<std::int64_t>(r, results, 8 * k) == exact_sum(values.data() + k, n - 2 * k));
    }
    // Synchronous calls through the same slots still see their own result words.
    CHECK(r.sum<std::int32_t>(buffer, 0, n) == exact_sum(values.data(), n));
}

TEST_CASE("asynchronous min and max, mixed with synchronous calls", "[async]") {
    using namespace clreduce::testing;
    Reducer& r = reducer();
    const std::uint64_t n = 50003;
    const auto ints = op_values<std::int16_t>(n, seed_for(16, 1));
    const auto floats = op_values<float>(n, seed_for(32, 1));
    const cl::Buffer a = device_copy(r, ints), b = device_copy(r, floats);
    const cl::Buffer results = marked_buffer(r, 64);
    const auto sync_before = r.sum<std::int16_t>(a, 0, n);
    r.min_async<std::int16_t>(a, 1, n - 1, {results, 1});  // element offsets: bytes 2, 4, 8, 12
    r.max_async<std::int16_t>(a, 0, n, {results, 2});
    r.min_async<float>(b, 0, n, {results, 2});
    r.max_async<float>(b, 5, n - 5, {results, 3});
    CHECK(r.sum<std::int16_t>(a, 0, n) == sync_before);
    CHECK(read_value<std::int16_t>(r, results, 2) == reference_min(ints.data() + 1, n - 1).value);
    CHECK(read_value<std::int16_t>(r, results, 4) == reference_max(ints.data(), n).value);
    CHECK(read_value<float>(r, results, 8) == reference_min(floats.data(), n).value);
    CHECK(read_value<float>(r, results, 12) == reference_max(floats.data() + 5, n - 5).value);
    CHECK(read_value<std::int16_t>(r, results, 0) == std::int16_t(0xABAB));
}

TEST_CASE("a repeated asynchronous call builds, creates and allocates nothing", "[async][reuse]") {
    Reducer& r = reducer();
    const auto values = op_values<std::int32_t>(1 << 16, seed_for(3, 3));
    const cl::Buffer buffer = device_copy(r, values);
    const cl::Buffer results = marked_buffer(r, 8);
    r.sum_async<std::int32_t>(buffer, 0, values.size(), {results}).wait();
    const Counters before = r.counters();
    for (int k = 0; k < 20; ++k) r.sum_async<std::int32_t>(buffer, 0, values.size(), {results});
    r.queue().finish();
    const Counters after = r.counters();
    CHECK(after.programs_built == before.programs_built);
    CHECK(after.kernels_created == before.kernels_created);
    CHECK(after.buffers_allocated == before.buffers_allocated);
    CHECK(read_value<std::int64_t>(r, results, 0) == testing::exact_sum(values.data(), values.size()));
}

TEST_CASE("an asynchronous call without an event, ordered by the in-order queue", "[async]") {
    Reducer& r = reducer();
    const auto values = op_values<float>(70001, seed_for(4, 4));
    const cl::Buffer buffer = device_copy(r, values);
    const cl::Buffer results = marked_buffer(r, 8 * 4);
    for (int k = 0; k < 4; ++k) {
        const cl::Event none = r.sum_async<float>(buffer, k, values.size() - k,
                                                  {results, static_cast<std::uint64_t>(k), {}, AsyncEvent::none});
        CHECK(none() == nullptr);
    }
    // The read is queued after the reductions: it sees their values without an event.
    for (int k = 0; k < 4; ++k) {
        INFO("call " << k);
        const double sync = r.sum<float>(buffer, k, values.size() - k);
        CHECK(same_bits(read_value<double>(r, results, 8 * k), sync));
    }
}

TEST_CASE("asynchronous calls refuse what they cannot do, clearly", "[async][errors]") {
    Reducer& r = reducer();
    const cl::Buffer buffer = device_copy(r, std::vector<float>(1000, 1.5f));
    const cl::Buffer results = marked_buffer(r, 16);
    // result_offset counts 8-byte results: the 16-byte buffer holds two.
    CHECK_THROWS_WITH(r.sum_async<float>(buffer, 0, 1000, {results, 2}), Contains("past the end of the result buffer"));
    CHECK_THROWS_WITH(r.sum_async<float>(buffer, 0, 1000, {results, ~std::uint64_t(0)}), Contains("holds 2 of them"));
    CHECK_THROWS_WITH(r.sum_async<float>(buffer, 0, 1001, {results}), Contains("past the end"));
    CHECK_THROWS_WITH(r.min_async<float>(buffer, 0, 0, {results}), Contains("empty range"));
    LaunchParams atomic;
    atomic.inter_group = InterGroup::atomic;
    CHECK_THROWS_AS(r.sum_async<float>(buffer, 0, 1000, {results}, atomic), Unsupported);
    LaunchParams exact;
    exact.float_mode = FloatMode::correctly_rounded;
    exact.inter_group = InterGroup::exact_atomic;  // (its numbers are added on the host)
    CHECK_THROWS_WITH(r.sum_async<float>(buffer, 0, 1000, {results}, exact), Contains("exact_atomic"));
    cl::Context other(r.queue().getInfo<CL_QUEUE_DEVICE>());
    cl::Buffer foreign(other, CL_MEM_READ_WRITE, 16);
    CHECK_THROWS_WITH(r.sum_async<float>(buffer, 0, 1000, {foreign}), Contains("another OpenCL context"));
    // FloatMode::atomic is run deterministically: the exact 1500 either way.
    LaunchParams fast;
    fast.float_mode = FloatMode::atomic;
    r.sum_async<float>(buffer, 0, 1000, {results, 1}, fast).wait();
    CHECK(read_value<double>(r, results, 8) == 1500.0);
}

}  // namespace
}  // namespace clreduce::test
