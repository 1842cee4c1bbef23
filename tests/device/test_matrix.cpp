// The operation x element type matrix, as pairwise covering arrays
// (tests/support/covering_array.hpp) rather than full products. Sums: every element type, with
// launch shapes covering every pair of stride, times, work-group size, vector width and level-3
// strategy, each shape over edge sizes and offsets (aligned and not) so that every pair of shape,
// size and offset meets; against exact references and cv::sum. Then every operation x element
// type x launch shape, each pair met, every size and offset for each, against the exact CPU
// references and OpenCV.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "covering_array.hpp"
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

const Stride kStrides[] = {Stride::global, Stride::local};
const std::uint32_t kTimes[] = {1, 4, 64};
const std::uint32_t kGroups[] = {1, 64, 256};
const std::uint32_t kVectors[] = {0, 1, 2, 8, 16};  // 0: the default

// Launch shapes covering every pair of stride, times, work-group size, vector width and level-3
// strategy: each distinct shape is a kernel build.
std::vector<LaunchParams> sum_shapes(const std::vector<InterGroup>& strategies, std::uint64_t seed) {
    const std::vector<std::size_t> levels{std::size(kStrides), std::size(kTimes), std::size(kGroups),
                                          std::size(kVectors), strategies.size()};
    std::vector<LaunchParams> out;
    for (const auto& row : test::pairwise_rows(levels, seed)) {
        LaunchParams p;
        p.stride = kStrides[row[0]];
        p.times = kTimes[row[1]];
        p.work_group_size = kGroups[row[2]];
        if (kVectors[row[3]] != 0) p.vector_width = kVectors[row[3]];
        p.inter_group = strategies[row[4]];
        out.push_back(p);
    }
    return out;
}

}  // namespace

namespace {

// Sums of T under launch shapes covering every pair of their factors: each pair of (shape, size,
// offset) in some call, or under `full`, every shape with every size and offset.
template <class T>
void sum_sweep(bool full) {
    Reducer& r = test::reducer();
    const std::uint64_t seed = test::seed_for(sizeof(T), std::is_signed_v<T>, std::is_integral_v<T>);
    const std::uint64_t cover_seed = test::seed_for(seed, 1);
    INFO("data seed " << seed << ", covering array seed " << cover_seed << " (run seed " << test::seed() << ")");
    const auto all = testing::random_values<T>(1000003 + kMaxOffset, seed);
    const cl::Buffer buffer = test::device_copy(r, all);
    const ElementType accumulator = accumulator_for(element_traits<T>::type, r.device_info());
    const std::vector<LaunchParams> shapes = sum_shapes(test::strategies<T>(r.device_info()), cover_seed);
    const std::vector<std::size_t> levels{shapes.size(), std::size(kSizes), std::size(kOffsets)};
    const auto rows = full ? test::all_rows(levels) : test::pairwise_rows(levels, test::seed_for(cover_seed, 2));
    for (const auto& row : rows) {
        const std::uint64_t n = kSizes[row[1]], offset = kOffsets[row[2]];
        const auto expected = testing::Expected<T>::compute(all.data() + offset, n);
        CallInfo info;
        const auto got = r.sum<T>(buffer, offset, n, shapes[row[0]], &info);
        INFO("n " << n << ", offset " << offset << ", " << info.plan.describe());
        CHECK(expected.mismatch(got, accumulator) == "");
    }
    CHECK(test::missing_pair(levels, rows).empty());
}

}  // namespace

TEMPLATE_TEST_CASE("sum is exact over sizes, offsets and launch shapes", "[sum][matrix]", std::int32_t, std::uint32_t,
                   std::int64_t, std::uint64_t, float, double) {
    sum_sweep<TestType>(false);
}

TEMPLATE_TEST_CASE("sum is exact over every size and offset under each launch shape", "[sum][matrix][.long]",
                   std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float, double) {
    sum_sweep<TestType>(true);
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

// Every operation over the element types: a covering array of element type x operation x
// launch shape (each row a kernel build), each row over every size and offset.
namespace clreduce::test {
namespace {

// Launch shapes: the default, local stride with a small group, scalar loads with a second pass,
// and a deep in-thread loop.
std::vector<std::pair<std::string, LaunchParams>> op_shapes() {
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
    return {{"default", LaunchParams{}}, {"local", local}, {"scalar", scalar}, {"deep", deep}};
}

// The element types of the test case below, in its order.
using MatrixTypes = std::tuple<std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t, std::uint32_t,
                               std::int64_t, std::uint64_t, float, double>;
constexpr std::size_t kMatrixTypes = std::tuple_size_v<MatrixTypes>;

// The rows of the element type x operation x launch shape array; the same for every type's case
// (the run's seed), each case taking its own type's rows.
const CoveringRows& op_rows() {
    static const CoveringRows rows =
        pairwise_rows({kMatrixTypes, checked_operations().size(), op_shapes().size()}, seed_for(0x0b5));
    return rows;
}

// Every operation of T under its rows of the array, or under `full` under every launch shape.
template <class T>
void run_matrix(std::size_t type_index, bool full) {
    Reducer& r = reducer();
    INFO("covering array seed " << seed_for(0x0b5) << " (run seed " << seed() << ")");
    // Edge sizes, and sizes past one work-group's share; offsets that misalign vector loads.
    const std::vector<std::uint64_t> sizes{0, 1, 31, 32, 33, 255, 257, 4097, 70001};
    const std::vector<std::uint64_t> offsets{0, 1, 3};
    const std::uint64_t largest = 70001 + 3;
    const auto values = op_values<T>(largest, seed_for(type_index, 1));
    const auto factors = product_values<T>(largest, seed_for(type_index, 2));
    const cl::Buffer buffer = device_copy(r, values);
    const cl::Buffer factor_buffer = device_copy(r, factors);
    const auto shapes = op_shapes();
    std::size_t rows = 0;
    const CoveringRows all = all_rows({kMatrixTypes, checked_operations().size(), shapes.size()});
    for (const auto& row : full ? all : op_rows()) {
        if (row[0] != type_index) continue;
        ++rows;
        const Operation op = checked_operations()[row[1]];
        const auto& [name, params] = shapes[row[2]];
        const bool product = op == Operation::product;
        for (std::uint64_t n : sizes)
            for (std::uint64_t offset : offsets)
                // A product of 70,001 factors: only 2,000 of them (floats stay in range).
                check_operation<T>(r, product ? factor_buffer : buffer, product ? factors : values, offset,
                                   product ? std::min<std::uint64_t>(n, 2000) : n, params, op, name);
    }
    CHECK(rows >= checked_operations().size());  // every operation meets every type
}

}  // namespace

TEST_CASE("the element type x operation x launch shape rows cover every pair", "[ops][matrix]") {
    CHECK(missing_pair({kMatrixTypes, checked_operations().size(), op_shapes().size()}, op_rows()).empty());
}

TEMPLATE_TEST_CASE("every operation matches the exact reference and OpenCV", "[ops][matrix]", std::int8_t, std::uint8_t,
                   std::int16_t, std::uint16_t, std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float,
                   double) {
    print_seed();
    if (std::is_same_v<TestType, double> && !reducer().device_info().has_fp64) {
        CHECK_THROWS_AS(reducer().min(std::vector<double>(4, 1.0)), Unsupported);
        return;
    }
    run_matrix<TestType>(index_in<TestType, MatrixTypes>(), false);
}

TEMPLATE_TEST_CASE("every operation matches the exact reference and OpenCV under every launch shape",
                   "[ops][matrix][.long]", std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t,
                   std::uint32_t, std::int64_t, std::uint64_t, float, double) {
    if (std::is_same_v<TestType, double> && !reducer().device_info().has_fp64) return;
    run_matrix<TestType>(index_in<TestType, MatrixTypes>(), true);
}

}  // namespace clreduce::test
