// The host path of CPU devices (exec/host_reduction.hpp): small host data reduced on the
// calling thread must give the bits the device gives for the same plan, over launch shapes in
// which every two levels of times, work-group size, stride, vector width and level 3 meet, at
// odd sizes with tails, misaligned starts, and data whose sum depends on the order of its
// additions; integers exactly. plan() says where a call runs, and only the plans the host
// reproduces run there.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "test_ops_support.hpp"

namespace clreduce::test {
namespace {

LaunchParams on_host(LaunchParams p) {
    p.host_path_bytes = std::numeric_limits<std::uint64_t>::max();
    return p;
}
LaunchParams on_device(LaunchParams p) {
    p.host_path_bytes = 0;
    return p;
}

// The host path's sum and mean against the device's: the same data at element offset `shift`
// of a host array (misaligned for shift % vector width != 0) and of a buffer.
template <class T>
void check_same_bits(Reducer& r, const std::vector<T>& data, const LaunchParams& shape, std::uint64_t shift) {
    const std::uint64_t n = data.size();
    std::vector<T> host(shift + n);
    std::copy(data.begin(), data.end(), host.begin() + shift);
    const cl::Buffer buffer(r.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, host.size() * sizeof(T), host.data());
    const LaunchPlan plan = r.plan(element_traits<T>::type, Operation::sum, n, on_host(shape), CallForm::host_data);
    INFO("n " << n << " offset " << shift << " plan " << plan.describe());
    REQUIRE(plan.on_host);
    CallInfo info;
    const double host_sum = r.sum(host.data() + shift, n, on_host(shape), &info);
    CHECK(info.plan.on_host);
    CHECK(info.kernel_events.empty());
    CHECK(same_bits(host_sum, r.sum<T>(buffer, shift, n, shape)));
    CHECK(same_bits(host_sum, r.sum(host.data() + shift, n, on_device(shape))));
    CHECK(same_bits(r.mean(host.data() + shift, n, on_host(shape)), r.mean<T>(buffer, shift, n, shape)));
}

// Launch shapes in which every two levels of vector width (1, 4, 16), work-group size (1, 64),
// stride, times (1, 5) and the two level 3s the host reproduces meet: a pairwise covering array
// of six rows, each run at every size (a full product would build 48 programs per operation).
struct Shape {
    std::uint32_t vec, wg;
    Stride stride;
    std::uint32_t times;
    InterGroup level3;
};
constexpr Shape kShapes[] = {
    {1, 1, Stride::global, 1, InterGroup::last_group},    {1, 64, Stride::local, 5, InterGroup::exact_atomic},
    {4, 1, Stride::local, 5, InterGroup::last_group},     {4, 64, Stride::global, 1, InterGroup::exact_atomic},
    {16, 1, Stride::global, 5, InterGroup::exact_atomic}, {16, 64, Stride::local, 1, InterGroup::last_group},
};

template <class T>
void check_float_type(Reducer& r) {
    if (std::is_same_v<T, double> && !r.device_info().has_fp64) {
        WARN("no cl_khr_fp64 on this device: double not checked");
        return;
    }
    const std::vector<std::uint64_t> sizes = {1, 2, 15, 16, 17, 63, 64, 65, 1000, 4095, 4097, 65536, 65537, 100003};
    for (std::uint64_t n : sizes) {
        const std::uint64_t seed = seed_for(sizeof(T), n, 41);
        INFO("data seed " << seed);
        const std::vector<T> data = wide_values<T>(n, seed, 60);
        check_same_bits(r, data, {}, 0);
        check_same_bits(r, data, {}, 3);
        for (const Shape& row : kShapes) {
            LaunchParams shape;
            shape.vector_width = row.vec;
            shape.work_group_size = row.wg;
            shape.stride = row.stride;
            shape.times = row.times;
            // The last group finishes only up to 1024 groups; beyond, the exact atomic.
            const std::uint64_t groups =
                (n / row.vec + std::uint64_t(row.wg) * row.times - 1) / (std::uint64_t(row.wg) * row.times);
            shape.inter_group = groups > 1024 ? InterGroup::exact_atomic : row.level3;
            INFO("vec " << row.vec << " wg " << row.wg << " stride " << to_string(row.stride) << " times " << row.times
                        << " level3 " << to_string(*shape.inter_group));
            check_same_bits(r, data, shape, n % 7);
        }
    }
    // Infinities and NaN: IEEE addition's answer on both.
    std::vector<T> special = wide_values<T>(5000, seed_for(sizeof(T), 5000, 42), 60);
    special[17] = std::numeric_limits<T>::infinity();
    check_same_bits(r, special, {}, 1);
    special[4000] = -std::numeric_limits<T>::infinity();
    CHECK(std::isnan(r.sum(special.data(), special.size(), on_host({}))));
    CHECK(std::isnan(r.sum(special.data(), special.size(), on_device({}))));
}

template <class T>
void check_integer_type(Reducer& r) {
    std::mt19937_64 rng(seed_for(sizeof(T), 43));
    for (std::uint64_t n : {1ull, 31ull, 4097ull, 100003ull}) {
        std::vector<T> data(n);
        for (auto& x : data) x = static_cast<T>(rng());
        long double exact = 0;
        for (T x : data) exact += x;
        const auto host_sum = r.sum(data.data(), n, on_host({}));
        CHECK(static_cast<long double>(host_sum) == exact);
        CHECK(host_sum == r.sum(data.data(), n, on_device({})));
        CHECK(r.plan(element_traits<T>::type, Operation::sum, n, on_host({}), CallForm::host_data).on_host);
    }
}

TEST_CASE("the host path gives the device's bits for every launch shape, size and offset", "[host-path]") {
    Reducer& r = reducer();
    if (!(r.device_info().type & CL_DEVICE_TYPE_CPU)) {
        // On a GPU the host path is off whatever LaunchParams say: nothing to compare.
        CHECK_FALSE(r.plan(ElementType::float32, Operation::sum, 1000, on_host({}), CallForm::host_data).on_host);
        WARN("not a CPU device: the host path is not used here, its bits are compared on CPU devices");
        return;
    }
    check_float_type<float>(r);
    check_float_type<double>(r);
    check_integer_type<std::int8_t>(r);
    check_integer_type<std::uint16_t>(r);
    check_integer_type<std::int32_t>(r);
    check_integer_type<std::uint32_t>(r);
}

TEST_CASE("plan() says which host-data calls run on the host", "[host-path][plan]") {
    Reducer& r = reducer();
    const bool cpu = (r.device_info().type & CL_DEVICE_TYPE_CPU) != 0;
    const auto where = [&](ElementType type, Operation op, std::uint64_t n, LaunchParams p = {},
                           CallForm form = CallForm::host_data) { return r.plan(type, op, n, p, form).on_host; };
    // Default: below the device's crossover on CPU devices only.
    CHECK(where(ElementType::float32, Operation::sum, 1000) == cpu);
    CHECK(where(ElementType::int32, Operation::mean, 1000) == cpu);
    CHECK_FALSE(where(ElementType::float32, Operation::sum, std::uint64_t(1) << 24));
    // Buffers and the other call forms never.
    CHECK_FALSE(where(ElementType::float32, Operation::sum, 1000, {}, CallForm::sync));
    CHECK_FALSE(where(ElementType::float32, Operation::sum, 1000, {}, CallForm::async));
    // Turned off, and plans the host does not reproduce.
    CHECK_FALSE(where(ElementType::float32, Operation::sum, 1000, on_device({})));
    LaunchParams compensated;
    compensated.float_mode = FloatMode::compensated;
    CHECK_FALSE(where(ElementType::float32, Operation::sum, 1000, compensated));
    LaunchParams narrow;
    narrow.accumulator = ElementType::int32;
    narrow.overflow = IntegerOverflow::wrap;
    CHECK_FALSE(where(ElementType::int16, Operation::sum, 1000, narrow));
    LaunchParams second_pass;
    second_pass.inter_group = InterGroup::second_pass;
    CHECK_FALSE(where(ElementType::float32, Operation::sum, 1000, second_pass));
    LaunchParams many_groups;  // a last-group finish over more groups than the host keeps
    many_groups.inter_group = InterGroup::last_group;
    many_groups.times = 1;
    many_groups.work_group_size = 1;
    many_groups.vector_width = 1;
    CHECK_FALSE(where(ElementType::float32, Operation::sum, 1025, many_groups));
    CHECK(where(ElementType::float32, Operation::sum, 1024, many_groups) == cpu);
    CHECK(where(ElementType::int32, Operation::sum, 1000, second_pass) == cpu);  // integers: any order
    CHECK_FALSE(where(ElementType::float32, Operation::min, 1000));
    CHECK_FALSE(where(ElementType::float32, Operation::norm_l2, 1000));
    CHECK_FALSE(where(ElementType::int64, Operation::sum, 1000));
    // The plan printed says so.
    if (cpu)
        CHECK(r.plan(ElementType::float32, Operation::sum, 1000, {}, CallForm::host_data).describe().find("on_host") !=
              std::string::npos);
    // A host-data call outside the host path launches its kernels.
    CallInfo info;
    const std::vector<float> data(5000, 0.5f);
    CHECK(r.sum(data.data(), data.size(), on_device({}), &info) == 2500.0);
    CHECK_FALSE(info.plan.on_host);
    CHECK_FALSE(info.kernel_events.empty());
}

}  // namespace
}  // namespace clreduce::test
