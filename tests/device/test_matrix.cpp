// The operation x element type matrix. Sums: every element type x both strides x several
// times / work-group sizes / vector widths / level-3 strategies x edge sizes x offsets
// (aligned and not), against exact references and cv::sum. Then every operation x element
// type x launch shape x edge size x offset, against the exact CPU references and OpenCV.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "reference/expected_sum.hpp"
#include "reference/random_values.hpp"
#include "reference/sum_reference.hpp"
#include "test_ops_support.hpp"
#include "test_support.hpp"

using namespace clreduce;

namespace {

const std::uint64_t kSizes[] = {0, 1, 2, 31, 32, 33, 255, 256, 257, 4095, 65537, 1000003};
const std::uint64_t kOffsets[] = {0, 1, 3, 5, 8};  // 1, 3, 5 start off every vector boundary
constexpr std::uint64_t kMaxOffset = 8;

struct Shape {
    Stride stride;
    std::uint32_t times;
    std::uint32_t work_group_size;
    std::uint32_t vector_width;  // 0: default
};

std::vector<Shape> shapes() {
    std::vector<Shape> out;
    for (Stride stride : {Stride::global, Stride::local})
        for (std::uint32_t times : {1u, 4u, 64u})
            for (std::uint32_t wg : {1u, 64u, 256u}) out.push_back({stride, times, wg, 0});
    // Vector widths other than the default, scalar included.
    for (std::uint32_t vec : {1u, 2u, 16u}) out.push_back({Stride::global, 8, 32, vec});
    out.push_back({Stride::local, 2, 128, 8});
    return out;
}

}  // namespace

TEMPLATE_TEST_CASE("sum is exact over sizes, offsets and launch shapes", "[sum][matrix]", std::int32_t, std::uint32_t,
                   std::int64_t, std::uint64_t, float, double) {
    using T = TestType;
    Reducer& r = test::reducer();
    const std::uint64_t seed = test::seed_for(sizeof(T), std::is_signed_v<T>, std::is_integral_v<T>);
    INFO("data seed " << seed << " (run seed " << test::seed() << ")");
    const auto all = testing::random_values<T>(1000003 + kMaxOffset, seed);
    const cl::Buffer buffer = test::device_copy(r, all);
    const ElementType accumulator = accumulator_for(element_traits<T>::type, r.device_info());

    std::uint64_t checked = 0;
    for (std::uint64_t n : kSizes) {
        for (std::uint64_t offset : kOffsets) {
            const auto expected = testing::Expected<T>::compute(all.data() + offset, n);
            for (const Shape& shape : shapes()) {
                for (InterGroup strategy : test::strategies<T>(r.device_info())) {
                    LaunchParams params;
                    params.stride = shape.stride;
                    params.times = shape.times;
                    params.work_group_size = shape.work_group_size;
                    if (shape.vector_width) params.vector_width = shape.vector_width;
                    params.inter_group = strategy;
                    CallInfo info;
                    const auto got = r.sum<T>(buffer, offset, n, params, &info);
                    INFO("n " << n << ", offset " << offset << ", " << info.plan.describe());
                    CHECK(expected.mismatch(got, accumulator) == "");
                    ++checked;
                }
            }
        }
    }
    REQUIRE(checked ==
            std::size(kSizes) * std::size(kOffsets) * shapes().size() * test::strategies<T>(r.device_info()).size());
}

TEMPLATE_TEST_CASE("sum is exact above 2^24 elements with both strides", "[sum][large]", std::int32_t, std::uint32_t,
                   std::int64_t, std::uint64_t, float, double) {
    using T = TestType;
    Reducer& r = test::reducer();
    const std::uint64_t n = (1ull << 24) + 5;
    const std::uint64_t seed = test::seed_for(n, sizeof(T), std::is_integral_v<T>);
    INFO("data seed " << seed);
    const auto data = testing::random_values<T>(n + 3, seed);
    const cl::Buffer buffer = test::device_copy(r, data);
    const auto expected = testing::Expected<T>::compute(data.data() + 3, n);
    REQUIRE(expected.opencv.has_value == (!std::is_same_v<T, std::int64_t> && !std::is_same_v<T, std::uint64_t>));
    for (Stride stride : {Stride::global, Stride::local}) {
        LaunchParams params;
        params.stride = stride;
        CallInfo info;
        const auto got = r.sum<T>(buffer, 3, n, params, &info);
        INFO(info.plan.describe());
        CHECK(expected.mismatch(got, info.plan.accumulator) == "");
    }
}

TEMPLATE_TEST_CASE("integer sums under IntegerOverflow::wrap wrap modulo 2^64 like the CPU reference",
                   "[sum][overflow]", std::int32_t, std::uint32_t, std::int64_t, std::uint64_t) {
    using T = TestType;
    Reducer& r = test::reducer();
    const std::uint64_t seed = test::seed_for(sizeof(T), 77, std::is_signed_v<T>);
    INFO("data seed " << seed);
    // Full-range values: 64-bit sums overflow and wrap; 32-bit ones stay exact in 64 bits.
    const auto data = testing::random_values<T>(100003, seed, /*narrow=*/false);
    const auto expected = testing::Expected<T>::compute(data.data(), data.size());
    const cl::Buffer buffer = test::device_copy(r, data);
    for (InterGroup strategy : test::strategies<T>(r.device_info())) {
        LaunchParams params;
        params.inter_group = strategy;
        params.overflow = IntegerOverflow::wrap;
        CHECK(r.sum<T>(buffer, 0, data.size(), params) == expected.exact);
    }
    if constexpr (sizeof(T) == 8) {
        const std::vector<T> edge{std::numeric_limits<T>::max(), T(1), std::numeric_limits<T>::max(), T(5)};
        const auto wrapped = testing::exact_sum(edge.data(), edge.size());
        LaunchParams wrap;
        wrap.overflow = IntegerOverflow::wrap;
        CHECK(r.sum(edge, wrap) == wrapped);
        CHECK_THROWS_AS(r.sum(edge), Overflow);
        CHECK(static_cast<std::uint64_t>(wrapped) == 2 * static_cast<std::uint64_t>(std::numeric_limits<T>::max()) + 6);
    }
}

TEST_CASE("float is accumulated in double where the device has fp64", "[sum][float]") {
    Reducer& r = test::reducer();
    if (!r.device_info().has_fp64) {
        CHECK(accumulator_for(ElementType::float32, r.device_info()) == ElementType::float32);
        return;
    }
    // 2^24 + 1000 ones: a float accumulator stops at 2^24; double holds it exactly.
    std::vector<float> data(1000, 1.0f);
    data.insert(data.begin() + 500, 16777216.0f);
    for (Stride stride : {Stride::global, Stride::local}) {
        LaunchParams params;
        params.stride = stride;
        params.times = 2;
        params.work_group_size = 16;
        CHECK(r.sum(data, params) == 16778216.0);
    }
}

TEST_CASE("NaN and infinity propagate through float and double sums", "[sum][float]") {
    Reducer& r = test::reducer();
    std::vector<float> data(5000, 0.5f);
    data[4321] = std::numeric_limits<float>::quiet_NaN();
    CHECK(std::isnan(r.sum(data)));
    data[4321] = std::numeric_limits<float>::infinity();
    CHECK(r.sum(data) == std::numeric_limits<double>::infinity());
    std::vector<double> doubles(3001, 1.0);
    doubles[0] = -std::numeric_limits<double>::infinity();
    CHECK(r.sum(doubles) == -std::numeric_limits<double>::infinity());
    doubles[3000] = std::numeric_limits<double>::infinity();
    CHECK(std::isnan(r.sum(doubles)));
    doubles.assign(3001, std::numeric_limits<double>::max());
    CHECK(r.sum(doubles) == std::numeric_limits<double>::infinity());
}

// Hidden ([.]): needs about 8.6 GB of device memory, so CI's PoCL does not run it;
// scripts/gpu-run.sh runs it on the GPU with `clreduce-tests "[huge]"`.
TEST_CASE("more than 2^31 elements and offsets beyond 4 GiB", "[.][huge]") {
    using T = std::int32_t;
    Reducer& r = test::reducer();
    const std::uint64_t n = (1ull << 31) + (1ull << 20) + 17;
    REQUIRE(n * sizeof(T) <= r.device_info().max_alloc_size);
    const std::uint64_t seed = test::seed_for(n);
    INFO("data seed " << seed);
    const auto data = testing::random_values<T>(n, seed);
    const cl::Buffer buffer = test::device_copy(r, data);
    struct Range {
        std::uint64_t offset, count;
    };
    for (const Range range : {Range{0, n}, Range{(1ull << 30) + 3, (1ull << 20) + 5}, Range{n - 1000, 1000}}) {
        const auto expected = testing::exact_sum(data.data() + range.offset, range.count);
        for (Stride stride : {Stride::global, Stride::local}) {
            for (InterGroup strategy : test::strategies<T>(r.device_info())) {
                LaunchParams params;
                params.stride = stride;
                params.inter_group = strategy;
                INFO("offset " << range.offset << ", count " << range.count << ", "
                               << r.plan(ElementType::int32, range.count, params).describe());
                CHECK(r.sum<T>(buffer, range.offset, range.count, params) == expected);
            }
        }
    }
}

// Every operation over the element types: each case takes one launch shape in turn.
namespace clreduce::test {
namespace {

// Launch shapes beside the default: local stride with a small group, scalar loads with a
// second pass, and a deep in-thread loop; each case takes one of them in turn so that the
// matrix stays a few hundred kernel builds.
std::vector<LaunchParams> op_shapes() {
    LaunchParams local;
    local.stride = Stride::local;
    local.work_group_size = 16;
    local.times = 2;
    LaunchParams scalar;
    scalar.vector_width = 1;
    scalar.inter_group = InterGroup::second_pass;
    scalar.times = 4;
    LaunchParams deep;
    deep.times = 64;
    deep.work_group_size = 32;
    return {local, scalar, deep};
}

std::string shape_name(std::size_t k) { return k == 0 ? "local" : k == 1 ? "scalar" : "deep"; }

template <class T>
void run_matrix(std::uint64_t type_index) {
    Reducer& r = reducer();
    // Edge sizes, and sizes past one work-group's share; offsets that misalign vector loads.
    const std::vector<std::uint64_t> sizes{0, 1, 31, 32, 33, 255, 257, 4097, 70001};
    const std::vector<std::uint64_t> offsets{0, 3};
    const std::uint64_t largest = 70001 + 3;
    const auto values = op_values<T>(largest, seed_for(type_index, 1));
    const auto factors = product_values<T>(largest, seed_for(type_index, 2));
    const cl::Buffer buffer = device_copy(r, values);
    const cl::Buffer factor_buffer = device_copy(r, factors);
    const std::size_t turn = type_index;
    for (std::uint64_t n : sizes) {
        for (std::uint64_t offset : offsets) {
            if (n > 4097 && offset != 3) continue;
            check_operations<T>(r, buffer, values, offset, n, {}, "default");
            check_product<T>(r, factor_buffer, factors, offset, std::min<std::uint64_t>(n, 2000), {}, "default");
        }
    }
    // One other launch shape per type, in turn (the ten types cover each), on a multi-group
    // size with a misaligned start: every kernel build costs about a third of a second on PoCL.
    const auto other = op_shapes();
    const std::size_t k = turn % other.size();
    check_operations<T>(r, buffer, values, 1, 4097, other[k], shape_name(k));
    check_product<T>(r, factor_buffer, factors, 1, 1500, other[k], shape_name(k));
}

}  // namespace

TEMPLATE_TEST_CASE("every operation matches the exact reference and OpenCV", "[ops][matrix]", std::int8_t, std::uint8_t,
                   std::int16_t, std::uint16_t, std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float,
                   double) {
    print_seed();
    if (std::is_same_v<TestType, double> && !reducer().device_info().has_fp64) {
        CHECK_THROWS_AS(reducer().min(std::vector<double>(4, 1.0)), Unsupported);
        return;
    }
    run_matrix<TestType>(sizeof(TestType) * 2 + std::is_signed_v<TestType> + 16 * std::is_floating_point_v<TestType>);
}

}  // namespace clreduce::test
