// The ways a user hands data to sum: host ranges, their own context and queue, sub-buffers,
// out-of-order queues.
#include <array>

#include <catch2/catch.hpp>

#include "reference/random_values.hpp"
#include "reference/sum_reference.hpp"
#include "test_support.hpp"

using namespace clreduce;

TEST_CASE("host ranges: pointer + count, std::vector, std::array", "[sum][host]") {
    Reducer& r = test::reducer();
    const std::uint64_t seed = test::seed_for(11);
    INFO("data seed " << seed);
    const auto ints = testing::random_values<std::int32_t>(70001, seed);
    const auto expected = testing::exact_sum(ints.data(), ints.size());
    CHECK(r.sum(ints) == expected);
    CHECK(r.sum(ints.data(), ints.size()) == expected);
    CHECK(r.sum(ints.data() + 7, 1000) == testing::exact_sum(ints.data() + 7, 1000));
    CHECK(r.sum(ints.data(), 0) == 0);
    const std::array<std::uint64_t, 5> small{1, 2, 3, 4, 0xffffffffffffull};
    CHECK(r.sum(small) == 10 + 0xffffffffffffull);
    const std::vector<double> empty;
    CHECK(r.sum(empty) == 0.0);

    const auto floats = testing::random_values<float>(12345, seed + 1);
    const auto reference = testing::float_reference(floats.data(), floats.size());
    const double got = r.sum(floats);
    CHECK(std::fabs(got - static_cast<double>(reference.sum)) <=
          reference.bound(floats.size(), accumulator_for(ElementType::float32, r.device_info())));
}

TEST_CASE("a reducer on the caller's own context and queue uses that queue", "[sum][context]") {
    const cl::Device device = default_device();
    cl::Context context(device);
    cl::CommandQueue queue(context, device);
    Reducer r(context, queue);
    CHECK(r.queue()() == queue());
    CHECK(r.context()() == context());

    const std::uint64_t seed = test::seed_for(12);
    INFO("data seed " << seed);
    const auto data = testing::random_values<std::uint32_t>(4097, seed);
    const cl::Buffer buffer = test::device_copy(r, data);
    CHECK(r.sum<std::uint32_t>(buffer, 0, data.size()) == testing::exact_sum(data.data(), data.size()));
}

TEST_CASE("an out-of-order queue gets its commands ordered by events", "[sum][context]") {
    const cl::Device device = default_device();
    cl_command_queue_properties supported = 0;
    check(device.getInfo(CL_DEVICE_QUEUE_PROPERTIES, &supported), "clGetDeviceInfo");
    if (!(supported & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) {
        WARN("device has no out-of-order queues: nothing to test here");
        CHECK_FALSE(supported & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
        return;
    }
    cl::Context context(device);
    cl::CommandQueue queue(context, device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    Reducer r(context, queue);
    const std::uint64_t seed = test::seed_for(13);
    INFO("data seed " << seed);
    const auto data = testing::random_values<std::int64_t>(300007, seed);
    const auto expected = testing::exact_sum(data.data(), data.size());
    for (InterGroup strategy : test::strategies<std::int64_t>(r.device_info())) {
        LaunchParams params;
        params.inter_group = strategy;
        params.times = 2;
        for (int i = 0; i < 5; ++i) CHECK(r.sum(data, params) == expected);
    }
}

TEST_CASE("sub-buffers and offsets address the same elements", "[sum][offset]") {
    Reducer& r = test::reducer();
    const std::uint64_t seed = test::seed_for(14);
    INFO("data seed " << seed);
    const auto data = testing::random_values<float>(1 << 16, seed);
    cl::Buffer buffer = test::device_copy(r, data);
    cl_uint align_bits = 0;
    check(clGetDeviceInfo(r.queue().getInfo<CL_QUEUE_DEVICE>()(), CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits,
                          &align_bits, nullptr),
          "clGetDeviceInfo");
    const std::size_t origin_elements = (align_bits / 8) / sizeof(float);
    cl_buffer_region region{origin_elements * sizeof(float), 1000 * sizeof(float)};
    cl_int err = CL_SUCCESS;
    cl::Buffer sub = buffer.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    REQUIRE(err == CL_SUCCESS);
    LaunchParams params;
    params.times = 4;
    CHECK(r.sum<float>(sub, 3, 997, params) == r.sum<float>(buffer, origin_elements + 3, 997, params));
    CHECK_THROWS_AS(r.sum<float>(sub, 3, 998), InvalidArgument);
}
