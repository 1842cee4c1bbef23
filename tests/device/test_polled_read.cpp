// Polled reads (src/delivery/result_read.hpp): the result copied without blocking and the
// pinned words watched until the copy has overwritten their sentinels. An experiment
// (experimental::Delivery::polled, polled_paced; experimental.hpp), chosen here on the test
// device.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include <reference/sum_reference.hpp>

#include "delivery/result_read.hpp"  // src/
#include "test_ops_support.hpp"

namespace clreduce::test {
namespace {

template <class T>
void check_polled_operations(std::uint64_t type_index) {
    const auto polled = reducer_delivering(experimental::Delivery::polled);
    const Reducer& r = *polled;
    const std::uint64_t seed = seed_for(type_index, 71);
    INFO("data seed " << seed);
    const auto values = op_values<T>(70001 + 3, seed);
    const cl::Buffer buffer = device_copy(r, values);
    // 1- and 2-byte results (min/max of 8- and 16-bit types) are read blocking; the rest polled,
    // in 4- and 8-byte words, 1 to several words (argmin, minmax, the exact atomic finish's sets).
    for (std::uint64_t n : {1, 31, 32, 33, 4097, 70001})
        for (std::uint64_t offset : {0, 3}) check_operations<T>(r, buffer, values, offset, n, {}, "polled");
    if constexpr (std::is_floating_point_v<T>) {
        LaunchParams compensated;
        compensated.float_mode = FloatMode::compensated;
        check_operations<T>(r, buffer, values, 3, 70001, compensated, "polled, compensated");
    }
    // Repeated calls through the same slot: the same bits each time, no allocation.
    const auto first = r.sum<T>(buffer, 3, 70001);
    const Counters before = r.counters();
    for (int k = 0; k < 50; ++k) {
        CHECK(same_bits(r.sum<T>(buffer, 3, 70001), first));
        CHECK(r.max<T>(buffer, 0, 33) == testing::reference_max(values.data(), 33).value);
    }
    CHECK(r.counters().buffers_allocated == before.buffers_allocated);
}

TEMPLATE_TEST_CASE("polled reads give every operation's exact result", "[polling]", std::int8_t, std::int32_t,
                   std::uint64_t, float, double) {
    print_seed();
    if (std::is_same_v<TestType, double> && !reducer().device_info().has_fp64) return;
    check_polled_operations<TestType>(sizeof(TestType) + 8 * std::is_floating_point_v<TestType>);
}

// A result equal to its sentinel: the spin cannot see the copy land, gives up after the spin
// limit and waits for the copy in clFinish.
TEST_CASE("a polled read returns a result equal to its sentinel, after the spin limit", "[polling]") {
    const Reducer& r = reducer();
    cl::CommandQueue queue = r.queue();
    const std::uint64_t seed = seed_for(72);
    INFO("seed " << seed);
    std::mt19937_64 rng(seed);
    std::vector<std::uint64_t> words(4);
    for (auto& w : words) w = rng();
    const cl::Buffer buffer = device_copy(r, words);
    cl::Buffer host_buffer(r.context(), CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, 64);
    auto* pinned =
        static_cast<unsigned char*>(queue.enqueueMapBuffer(host_buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, 64));
    const auto limit = std::chrono::microseconds(300);
    const auto read = [&](std::size_t offset, std::size_t bytes, std::uint64_t sentinel) {
        std::memset(pinned, 0, 64);
        const auto t0 = Clock::now();
        polled_read(queue, buffer, offset, bytes, pinned, nullptr, sentinel, limit);
        return Clock::now() - t0;
    };
    // 8-byte lanes: the second word is the sentinel.
    const auto waited = read(8, 16, words[2]);
    CHECK(std::memcmp(pinned, &words[1], 16) == 0);
    CHECK(waited >= limit);
    // 4-byte lanes (12 bytes): the sentinel's low half is the second lane.
    std::uint32_t lanes[3];
    std::memcpy(lanes, &words[0], 12);
    read(0, 12, lanes[1] | (std::uint64_t{0xabcd} << 32));
    CHECK(std::memcmp(pinned, lanes, 12) == 0);
    // A sentinel nothing equals: no spin limit needed.
    read(0, 32, ~(words[0] | words[1] | words[2] | words[3]) | 1);
    CHECK(std::memcmp(pinned, words.data(), 32) == 0);
    CHECK_THROWS_AS(read(0, 6, 1), Error);
    queue.enqueueUnmapMemObject(host_buffer, pinned);
    queue.finish();
}

TEST_CASE("polled reads from several threads through one reducer", "[polling]") {
    const auto polled = reducer_delivering(experimental::Delivery::polled_paced);
    const Reducer& r = *polled;
    const std::uint64_t seed = seed_for(73);
    INFO("data seed " << seed);
    const auto ints = op_values<std::int32_t>(100003, seed);
    const auto floats = op_values<float>(100003, seed + 1);
    const cl::Buffer ibuf = device_copy(r, ints);
    const cl::Buffer fbuf = device_copy(r, floats);
    const auto float_sum = r.sum<float>(fbuf, 0, floats.size());
    std::atomic<int> wrong{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&, t] {
            for (int k = 0; k < 40; ++k) {
                const std::uint64_t n = 1 + (static_cast<std::uint64_t>(t) * 7919 + k * 104729) % ints.size();
                if (r.sum<std::int32_t>(ibuf, 0, n) != testing::exact_sum(ints.data(), n)) ++wrong;
                if (!same_bits(r.sum<float>(fbuf, 0, floats.size()), float_sum)) ++wrong;
            }
        });
    }
    for (auto& t : threads) t.join();
    CHECK(wrong == 0);
    check_approx(testing::reference_sum(floats.data(), floats.size(), testing::unit_roundoff(ElementType::float64)),
                 float_sum, "sum");
}

TEST_CASE("polled reads on an out-of-order queue wait for the call's own launches", "[polling]") {
    using namespace clreduce::testing;
    const cl::Device device = reducer().queue().getInfo<CL_QUEUE_DEVICE>();
    cl::Context context(device);
    cl_command_queue_properties props = 0;
    if (device.getInfo<CL_DEVICE_QUEUE_PROPERTIES>() & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
        props |= CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
    cl::CommandQueue queue(context, device, props);
    Reducer r(context, queue);
    experimental::set_result_delivery(r, experimental::Delivery::polled);
    const std::uint64_t seed = seed_for(74);
    INFO("data seed " << seed);
    const auto values = op_values<std::int32_t>(90001, seed);
    cl::Buffer buffer(context, CL_MEM_READ_ONLY, values.size() * sizeof(std::int32_t));
    check(queue.enqueueWriteBuffer(buffer, CL_TRUE, 0, values.size() * sizeof(std::int32_t), values.data()),
          "clEnqueueWriteBuffer");
    LaunchParams two_launches;
    two_launches.inter_group = InterGroup::second_pass;
    two_launches.times = 2;
    for (int k = 0; k < 20; ++k) {
        const std::uint64_t offset = static_cast<std::uint64_t>(k) * 13;
        const std::uint64_t n = values.size() - 2 * offset;
        CHECK(r.sum<std::int32_t>(buffer, offset, n) == exact_sum(values.data() + offset, n));
        CHECK(r.sum<std::int32_t>(buffer, offset, n, two_launches) == exact_sum(values.data() + offset, n));
        CHECK(r.min<std::int32_t>(buffer, offset, n) == reference_min(values.data() + offset, n).value);
    }
}

TEST_CASE("an experimental delivery stands in for the ResultDelivery until the next one is set", "[polling]") {
    Reducer r(reducer().queue().getInfo<CL_QUEUE_DEVICE>());
    CHECK(!experimental::result_delivery(r));
    r.set_result_delivery(ResultDelivery::paced);
    experimental::set_result_delivery(r, experimental::Delivery::polled_paced);
    CHECK(experimental::result_delivery(r) == experimental::Delivery::polled_paced);
    CHECK(r.result_delivery() == ResultDelivery::paced);  // kept for when the experiment ends
    const std::vector<std::int32_t> values{4, -9, 30};
    CHECK(r.sum(values) == 25);
    r.set_result_delivery(ResultDelivery::blocking);
    CHECK(!experimental::result_delivery(r));
    CHECK(r.result_delivery() == ResultDelivery::blocking);
    for (experimental::Delivery d : {experimental::Delivery::polled, experimental::Delivery::polled_paced})
        CHECK(experimental::parse_delivery(experimental::to_string(d)) == d);
    CHECK_THROWS_WITH(experimental::parse_delivery("paced"), Catch::Contains("expected polled or polled_paced"));
    CHECK_THROWS_WITH(parse_result_delivery("polled"), Catch::Contains("expected automatic, blocking or paced"));
}

}  // namespace
}  // namespace clreduce::test
