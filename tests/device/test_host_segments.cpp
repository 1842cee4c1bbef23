// Host segments on the host path (api/segment_operations.cpp: batches, rows, host offsets and a
// matrix's columns): every operation of every type against the same segments of a buffer (the
// same results, or the same refusal), CallInfo saying where the host data ran, and a column's
// index past the host's first run of rows. The float sums' plan order over every mapping shape:
// test_host_plan_segments.cpp.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "test_ops_support.hpp"

namespace clreduce::test {
namespace {

// One operation of host segments against the same segments of a buffer holding the values:
// the same results (or the same refusal), and CallInfo says where the host data ran.
template <Operation Op, class T>
void check_host_segments(Reducer& r, const std::vector<T>& values, const cl::Buffer& buffer, const Segments& segments,
                         bool expect_on_host) {
    INFO(operation_name(Op));
    CallInfo host, device;
    std::string host_error, device_error;
    std::vector<result_t<Op, T>> got, want;
    try {
        got = r.reduce<Op, T>(values.data(), segments, {}, &host);
    } catch (const std::exception& e) {
        host_error = e.what();
    }
    try {
        want = r.reduce<Op, T>(buffer, 0, segments, {}, &device);
    } catch (const std::exception& e) {
        device_error = e.what();
    }
    CHECK(host_error == device_error);
    CHECK(host.plan.on_host == expect_on_host);
    REQUIRE(got.size() == want.size());
    for (std::size_t s = 0; s < got.size(); ++s) {
        INFO("segment " << s);
        if constexpr (std::is_same_v<result_t<Op, T>, ArgResult<T>>) {
            CHECK(same_bits(got[s].value, want[s].value));
            CHECK(got[s].index == want[s].index);
        } else if constexpr (std::is_same_v<result_t<Op, T>, ArgMinMax<T>>) {
            CHECK(same_bits(got[s].min.value, want[s].min.value));
            CHECK(got[s].min.index == want[s].min.index);
            CHECK(same_bits(got[s].max.value, want[s].max.value));
            CHECK(got[s].max.index == want[s].max.index);
        } else if constexpr (std::is_same_v<result_t<Op, T>, MinMax<T>>) {
            CHECK(same_bits(got[s].min, want[s].min));
            CHECK(same_bits(got[s].max, want[s].max));
        } else if constexpr (std::is_same_v<result_t<Op, T>, bool>) {  // (std::vector<bool> packs bits)
            CHECK(bool(got[s]) == bool(want[s]));
        } else {
            CHECK(same_bits(got[s], want[s]));
        }
    }
}

template <class T>
void check_host_segment_shapes(Reducer& r) {
    const std::uint64_t n = 60000;
    const std::uint64_t seed = seed_for(sizeof(T), n, 4343);
    INFO(type_name(element_traits<T>::type) << " data seed " << seed);
    const std::vector<T> values = edge_values<T>(n, seed, 1);
    const cl::Buffer buffer = device_copy(r, values);
    std::vector<std::uint64_t> offsets{0, 0, 1, 7, 7, 4000, 4001, 59000, 60000};  // empty ones among them
    const std::vector<Segments> shapes{
        Segments::batch(600, 100), Segments::rows(300, 150, 200 * sizeof(T)),    Segments::offsets(offsets),
        Segments::batch(3, 20000), Segments::columns(290, 150, 203 * sizeof(T)), Segments::columns(7000, 3)};
    for (std::size_t k = 0; k < shapes.size(); ++k) {
        INFO("shape " << k);
        const bool integer = std::is_integral_v<T>;
        // Float sums in the plan's order (host_plan_segments.hpp): on the host unless a listed
        // segment is past the plan's split (its rest in chunks, on the device): the 55,000
        // elements from offset 4001.
        const LaunchPlan float_plan = r.plan(element_traits<T>::type, Operation::sum, shapes[k]);
        const bool float_sums =
            !integer && (k != 2 || float_plan.segment_split == 0 || float_plan.segment_split >= 55000);
        check_host_segments<Operation::argmin, T>(r, values, buffer, shapes[k], true);
        check_host_segments<Operation::argmax, T>(r, values, buffer, shapes[k], true);
        check_host_segments<Operation::argminmax, T>(r, values, buffer, shapes[k], true);
        check_host_segments<Operation::count_nonzero, T>(r, values, buffer, shapes[k], true);
        check_host_segments<Operation::any, T>(r, values, buffer, shapes[k], true);
        check_host_segments<Operation::sum, T>(r, values, buffer, shapes[k], integer || float_sums);
        check_host_segments<Operation::min, T>(r, values, buffer, shapes[k], integer);
        check_host_segments<Operation::minmax, T>(r, values, buffer, shapes[k], integer);
        check_host_segments<Operation::norm_inf, T>(r, values, buffer, shapes[k], integer);
        check_host_segments<Operation::mean, T>(r, values, buffer, shapes[k], integer || float_sums);
        check_host_segments<Operation::norm_l2, T>(r, values, buffer, shapes[k],
                                                   (integer && sizeof(T) < 8) || float_sums);
        if constexpr (std::is_integral_v<T>) {
            check_host_segments<Operation::bit_xor, T>(r, values, buffer, shapes[k], true);
            check_host_segments<Operation::product, T>(r, values, buffer, shapes[k], true);
        }
    }
}

TEMPLATE_TEST_CASE("host segments (batches, rows, offsets, columns) on the host give the device's results",
                   "[host-path]", std::int8_t, std::uint16_t, std::int32_t, std::int64_t, float, double) {
    check_host_segment_shapes<TestType>(reducer());
}

TEST_CASE("host columns: an extreme in a later run of rows has its own row's index", "[host-path][columns]") {
    // The host reduces a column a few thousand rows at a time (host_order_free_columns.cpp): the
    // last row holds column c's largest value and the second-last its smallest.
    Reducer& r = reducer();
    const std::uint64_t rows = 9000, cols = 5;
    std::vector<std::int32_t> values(rows * cols);
    for (std::uint64_t i = 0; i < values.size(); ++i) values[i] = static_cast<std::int32_t>(i % 1000);
    for (std::uint64_t c = 0; c < cols; ++c) {
        values[(rows - 1) * cols + c] = 5000 + static_cast<std::int32_t>(c);
        values[(rows - 2) * cols + c] = -5000;
    }
    const Segments columns = Segments::columns(rows, cols);
    CallInfo info;
    const auto top = r.argmax<std::int32_t>(values.data(), columns, {}, &info);
    CHECK(info.plan.on_host);
    const auto bottom = r.argmin<std::int32_t>(values.data(), columns);
    const auto both = r.argminmax<std::int32_t>(values.data(), columns);
    const auto device = r.argminmax<std::int32_t>(device_copy(r, values), 0, columns);
    for (std::uint64_t c = 0; c < cols; ++c) {
        INFO("column " << c);
        CHECK(top[c].index == rows - 1);
        CHECK(top[c].value == 5000 + static_cast<std::int32_t>(c));
        CHECK(bottom[c].index == rows - 2);
        CHECK(both[c].min.index == rows - 2);
        CHECK(both[c].max.index == rows - 1);
        CHECK(device[c].min.index == rows - 2);
        CHECK(device[c].max.index == rows - 1);
    }
}

}  // namespace
}  // namespace clreduce::test
