// Every operation x element type x launch shape x edge size x offset, against the exact CPU
// references and OpenCV.
#include <string>
#include <vector>

#include "test_ops_support.hpp"

namespace clreduce::test {
namespace {

// Launch shapes beside the default: local stride with a small group, scalar loads with a
// second pass, and a deep in-thread loop; each case takes one of them in turn so that the
// matrix stays a few hundred kernel builds.
std::vector<LaunchParams> shapes() {
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
    const auto other = shapes();
    const std::size_t k = turn % other.size();
    check_operations<T>(r, buffer, values, 1, 4097, other[k], shape_name(k));
    check_product<T>(r, factor_buffer, factors, 1, 1500, other[k], shape_name(k));
}

}  // namespace

TEMPLATE_TEST_CASE("every operation matches the exact reference and OpenCV", "[ops][matrix]", std::int8_t,
                   std::uint8_t, std::int16_t, std::uint16_t, std::int32_t, std::uint32_t, std::int64_t,
                   std::uint64_t, float, double) {
    print_seed();
    if (std::is_same_v<TestType, double> && !reducer().device_info().has_fp64) {
        CHECK_THROWS_AS(reducer().min(std::vector<double>(4, 1.0)), Unsupported);
        return;
    }
    run_matrix<TestType>(sizeof(TestType) * 2 + std::is_signed_v<TestType> + 16 * std::is_floating_point_v<TestType>);
}

}  // namespace clreduce::test
