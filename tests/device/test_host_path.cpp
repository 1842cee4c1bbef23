// The host path (exec/host_reduction.hpp): host data reduced by the host's threads must give
// the bits the device gives for the same plan: float sums and norms over launch shapes in
// which every two levels of times, work-group size, stride, vector width and level 3 meet, at
// odd sizes with tails, misaligned starts, and data whose sum depends on the order of its
// additions; every operation of every type against the device (ties, -0.0, NaN, the type's
// extremes). plan() says where a call runs, and only the plans the host reproduces run there.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "partial_outcome.hpp"
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
    CHECK(same_bits(r.norm_l2(host.data() + shift, n, on_host(shape)), r.norm_l2<T>(buffer, shift, n, shape)));
    CHECK(same_bits(r.norm_l1(host.data() + shift, n, on_host(shape)), r.norm_l1<T>(buffer, shift, n, shape)));
}

// The host path's statistics against the device's, every field's bits, as check_same_bits
// (the last-group finish: the only one a moments state has with one launch).
// (The default plan's work-items may be too short for the host: then both calls run on the
// device, and only the bits are compared.)
template <class T>
void check_statistics_bits(Reducer& r, const std::vector<T>& data, LaunchParams shape, std::uint64_t shift,
                           bool default_plan = false) {
    shape.inter_group = InterGroup::last_group;
    const std::uint64_t n = data.size();
    std::vector<T> host(shift + n);
    std::copy(data.begin(), data.end(), host.begin() + shift);
    const cl::Buffer buffer(r.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, host.size() * sizeof(T), host.data());
    const LaunchPlan plan =
        r.plan(element_traits<T>::type, Operation::statistics, n, on_host(shape), CallForm::host_data);
    INFO("statistics, n " << n << " offset " << shift << " plan " << plan.describe());
    if (!default_plan) REQUIRE(plan.on_host);
    CallInfo info;
    const Statistics<T> h = r.statistics(host.data() + shift, n, on_host(shape), &info);
    CHECK(info.kernel_events.empty() == plan.on_host);
    const Statistics<T> d = r.statistics<T>(buffer, shift, n, shape);
    CHECK(h.count == d.count);
    CHECK(same_bits(h.min, d.min));
    CHECK(same_bits(h.max, d.max));
    CHECK(same_bits(h.sum, d.sum));
    CHECK(same_bits(h.mean, d.mean));
    CHECK(same_bits(h.variance, d.variance));
}

// Launch shapes of the host path's statistics (work-items of at least 16 elements): both
// strides, vector widths 1 to 16, times below and above 8 steps' multiples, one group to many,
// work-groups narrower and wider than the eight work-items the host combines at once, and
// than the sixteen it combines side by side.
struct StatisticsShape {
    std::uint32_t vec, wg;
    Stride stride;
    std::uint32_t times;
};
constexpr StatisticsShape kStatisticsShapes[] = {{16, 4, Stride::local, 16},  {4, 64, Stride::global, 67},
                                                 {1, 1, Stride::global, 300}, {8, 16, Stride::local, 37},
                                                 {4, 256, Stride::global, 4}, {2, 32, Stride::local, 9},
                                                 {1, 16, Stride::local, 20},  {16, 32, Stride::global, 2}};

// A shape row's LaunchParams (its vector width, work-group size, stride and times).
template <class Row>
LaunchParams params_of(const Row& row) {
    LaunchParams shape;
    shape.vector_width = row.vec;
    shape.work_group_size = row.wg;
    shape.stride = row.stride;
    shape.times = row.times;
    return shape;
}

// check_statistics_bits for the default plan and each of kStatisticsShapes.
template <class T>
void check_statistics_shapes(Reducer& r, const std::vector<T>& data, std::uint64_t shift) {
    check_statistics_bits(r, data, {}, shift, true);
    for (const StatisticsShape& row : kStatisticsShapes) {
        const LaunchParams shape = params_of(row);
        INFO("vec " << row.vec << " wg " << row.wg << " stride " << to_string(row.stride) << " times " << row.times);
        check_statistics_bits(r, data, shape, shift);
    }
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
    {1, 1, Stride::global, 1, InterGroup::last_group},
    {1, 64, Stride::local, 5, InterGroup::exact_atomic},
    {4, 1, Stride::local, 5, InterGroup::last_group},
    {4, 64, Stride::global, 1, InterGroup::exact_atomic},
    {16, 1, Stride::global, 5, InterGroup::exact_atomic},
    {16, 64, Stride::local, 1, InterGroup::last_group},
    // times of 8 and more: the host's level 1 takes 8 steps at once, then 4 and 2, then the
    // rest one by one; and of 3: 2 steps at once from the first
    {4, 64, Stride::global, 19, InterGroup::last_group},
    {16, 4, Stride::local, 8, InterGroup::exact_atomic},
    {4, 32, Stride::local, 3, InterGroup::exact_atomic},
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
            LaunchParams shape = params_of(row);
            // The last group finishes only up to 1024 groups on the device; beyond, the exact atomic.
            const std::uint64_t groups =
                (n / row.vec + std::uint64_t(row.wg) * row.times - 1) / (std::uint64_t(row.wg) * row.times);
            shape.inter_group = groups > 1024 ? InterGroup::exact_atomic : row.level3;
            INFO("vec " << row.vec << " wg " << row.wg << " stride " << to_string(row.stride) << " times " << row.times
                        << " level3 " << to_string(*shape.inter_group));
            check_same_bits(r, data, shape, n % 7);
        }
        if constexpr (std::is_same_v<T, float>) check_statistics_shapes(r, data, n % 5);
    }
    // Infinities and NaN: IEEE addition's answer on both.
    std::vector<T> special = wide_values<T>(5000, seed_for(sizeof(T), 5000, 42), 60);
    special[17] = std::numeric_limits<T>::infinity();
    check_same_bits(r, special, {}, 1);
    special[4000] = -std::numeric_limits<T>::infinity();
    CHECK(std::isnan(r.sum(special.data(), special.size(), on_host({}))));
    CHECK(std::isnan(r.sum(special.data(), special.size(), on_device({}))));
    // The same through the exact finish over several parts (each part's flags reach the merge
    // of the parts' sums): an infinity late in the data, then a NaN before it.
    LaunchParams exact = params_of(kShapes[3]);
    exact.inter_group = InterGroup::exact_atomic;
    const std::uint64_t seed = seed_for(sizeof(T), 100003, 45);
    INFO("data seed " << seed);
    std::vector<T> late = wide_values<T>(100003, seed, 60);
    late[90001] = -std::numeric_limits<T>::infinity();
    check_same_bits(r, late, exact, 2);
    late[70001] = std::numeric_limits<T>::quiet_NaN();
    check_same_bits(r, late, exact, 2);
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
        if constexpr (std::is_same_v<T, std::int32_t>) {
            check_statistics_shapes(r, data, n % 3);
        }
    }
}

TEST_CASE("the host path gives the device's bits for every launch shape, size and offset", "[host-path]") {
    Reducer& r = reducer();
    check_float_type<float>(r);
    check_float_type<double>(r);
    check_integer_type<std::int8_t>(r);
    check_integer_type<std::uint16_t>(r);
    check_integer_type<std::int32_t>(r);
    check_integer_type<std::uint32_t>(r);
}

// Every operation's partial from host data on the host path against the same call on the
// device (host path off): what the host reproduces is the same bits, what it does not runs on
// the device (checked by plan()).
template <class T>
void check_every_operation(Reducer& r) {
    for (const std::uint64_t n : {std::uint64_t(1), std::uint64_t(4099), std::uint64_t(300007)}) {
        for (int variant = 0; variant < (std::is_floating_point_v<T> ? 5 : 3); ++variant) {
            const std::uint64_t seed = seed_for(sizeof(T), n, 4200 + variant);
            const std::vector<T> values = edge_values<T>(n, seed, variant);
            for (const Operation op : every_operation()) {
                INFO(type_name(element_traits<T>::type)
                     << " n " << n << " data seed " << seed << " variant " << variant << ", " << operation_name(op));
                CallInfo host, device;
                const std::string want =
                    outcome<T>([&] { return r.partial<T>(op, values.data(), n, on_device({}), &device); });
                const std::string got =
                    outcome<T>([&] { return r.partial<T>(op, values.data(), n, on_host({}), &host); });
                INFO("host plan " << host.plan.describe());
                CHECK(got == want);
                CHECK_FALSE(device.plan.on_host);
                if (host.plan.on_host) CHECK(host.kernel_events.empty());
            }
        }
    }
}

TEMPLATE_TEST_CASE("the host path gives every operation the device's result", "[host-path]", std::int8_t, std::uint8_t,
                   std::int16_t, std::uint16_t, std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float,
                   double) {
    check_every_operation<TestType>(reducer());
}

// Float extremes on the host: NaN ignored, NaN only for data without a number, and a zero's
// sign from the data; where the data's extreme is a zero of both signs (fmin(+0, -0) is the
// device's choice) the call runs on the device.
template <class T>
void check_float_extremes(Reducer& r) {
    constexpr T nan = std::numeric_limits<T>::quiet_NaN(), inf = std::numeric_limits<T>::infinity();
    // (statistics in work-items of 256 elements, which the host runs)
    LaunchParams shape;
    shape.times = 64;
    shape.vector_width = 4;
    const auto params = [&](Operation op) { return op == Operation::statistics ? shape : LaunchParams{}; };
    const auto host = [&](const std::vector<T>& v, Operation op, CallInfo& info) {
        return outcome<T>([&] { return r.partial<T>(op, v.data(), v.size(), on_host(params(op)), &info); });
    };
    const auto device = [&](const std::vector<T>& v, Operation op) {
        return outcome<T>([&] { return r.partial<T>(op, v.data(), v.size(), on_device(params(op))); });
    };
    std::vector<T> mixed(70001, T(3));
    mixed[17] = nan;
    mixed[40000] = T(-0.0);
    mixed[50000] = T(0.0);  // min: a zero of both signs: the device
    std::vector<T> one_sign(70001, T(-0.0));
    one_sign[123] = nan;  // min and max: -0, on the host
    std::vector<T> infinities(1000, nan);
    infinities[999] = inf;  // min +inf, not NaN
    const std::vector<T> no_number(3000, nan);
    struct Case {
        const std::vector<T>& values;
        Operation op;
        bool on_host;
    };
    for (const Case c :
         {Case{mixed, Operation::min, false}, Case{mixed, Operation::minmax, false}, Case{mixed, Operation::max, true},
          Case{mixed, Operation::norm_inf, true}, Case{one_sign, Operation::min, true},
          Case{one_sign, Operation::max, true}, Case{one_sign, Operation::minmax, true},
          Case{infinities, Operation::min, true}, Case{infinities, Operation::norm_inf, true},
          // statistics: the extremes as min and max, and data without a number (which NaN) on the device
          Case{mixed, Operation::statistics, false}, Case{one_sign, Operation::statistics, true},
          Case{infinities, Operation::statistics, true}, Case{no_number, Operation::statistics, false}}) {
        INFO(type_name(element_traits<T>::type) << " " << operation_name(c.op) << " of " << c.values.size());
        CallInfo info;
        CHECK(host(c.values, c.op, info) == device(c.values, c.op));
        CHECK(info.plan.on_host == c.on_host);
        CHECK(info.kernel_events.empty() == c.on_host);
    }
    CHECK(std::signbit(r.min(one_sign.data(), one_sign.size(), on_host({}))));
    CHECK(r.min(infinities.data(), infinities.size(), on_host({})) == inf);
    // A sum of -0.0 alone: +0.0, the lanes starting at +0.0 (the host's first steps too), in a
    // plan whose level 3 keeps a zero's sign (the last group's; the exact finish's has none).
    const std::vector<T> negative_zeros(70000, T(-0.0));
    LaunchParams last_group;
    last_group.inter_group = InterGroup::last_group;
    last_group.times = 16;
    last_group.vector_width = 4;
    last_group.work_group_size = 64;
    CallInfo info;
    const auto h = outcome<T>([&] {
        return r.partial<T>(Operation::sum, negative_zeros.data(), negative_zeros.size(), on_host(last_group), &info);
    });
    CHECK(info.plan.on_host);
    CHECK(h == outcome<T>([&] {
              return r.partial<T>(Operation::sum, negative_zeros.data(), negative_zeros.size(), on_device(last_group));
          }));
    CHECK_FALSE(std::signbit(r.sum(negative_zeros.data(), negative_zeros.size(), on_host(last_group))));
}

// Plans of fewer groups than the parts the host's threads would split the data into (PoCL's
// default plan has one group up to 2^16 elements): one thread runs each group, or, where the
// groups are fewer than the threads, the threads split each group's work-items; with a global
// or local stride, a scalar tail, a last group (or work-item) that reaches the data's end early,
// both level 3s, at a misaligned start; at least 64 KiB each, where two threads would get parts.
TEST_CASE("plans of fewer groups than the host has threads: the device's bits", "[host-path]") {
    struct FewGroups {
        Shape shape;
        std::uint64_t n;
    };
    const FewGroups rows[] = {
        {{4, 64, Stride::global, 64, InterGroup::last_group}, 65536 + 13},        // 5 groups
        {{1, 16, Stride::local, 4096, InterGroup::exact_atomic}, 100003},         // 2 groups
        {{16, 4, Stride::local, 1024, InterGroup::last_group}, 65536 + 53},       // 2 groups: 3 vectors, 5 scalars
        {{16, 4, Stride::local, 1024, InterGroup::exact_atomic}, 3 * 65536 - 7},  // 3 groups
        {{8, 32, Stride::global, 100, InterGroup::exact_atomic}, 131072 + 3},     // 6 groups
        {{2, 256, Stride::global, 128, InterGroup::last_group}, 65536},           // 1 group
        {{16, 4, Stride::local, 1024, InterGroup::exact_atomic}, 65536 - 5},      // 1 group: the last item short
        {{4, 64, Stride::local, 200, InterGroup::last_group}, 40000 + 3},         // 1 group
    };
    Reducer& r = reducer();
    for (const FewGroups& row : rows) {
        const Shape& s = row.shape;
        LaunchParams shape = params_of(s);
        shape.inter_group = s.level3;
        INFO("vec " << s.vec << " wg " << s.wg << " stride " << to_string(s.stride) << " times " << s.times
                    << " level3 " << to_string(s.level3));
        const std::uint64_t seed = seed_for(row.n, s.times, 44);
        INFO("data seed " << seed);
        check_same_bits(r, wide_values<float>(row.n, seed, 60), shape, 1);
        if (r.device_info().has_fp64) check_same_bits(r, wide_values<double>(row.n / 2, seed, 60), shape, 3);
    }
}

TEST_CASE("float extremes on the host: NaN, infinities and the zeros' signs as the device", "[host-path]") {
    check_float_extremes<float>(reducer());
    check_float_extremes<double>(reducer());
}

TEST_CASE("host data beyond the device's largest buffer: the host path, else the device in pieces",
          "[host-path][huge-host]") {
    Reducer& r = reducer();
    const std::uint64_t largest = r.device_info().max_alloc_size;
    if (largest > (std::uint64_t(4) << 30)) {
        WARN("the device's largest buffer is " << largest << " bytes: over 4 GiB of host memory not tried here");
        return;
    }
    // int64 sums kept on the device (an exact wide state, in pieces), argmax on the host.
    const std::uint64_t n = largest / sizeof(std::int64_t) + 5000;
    const std::uint64_t seed = seed_for(n, 77);
    INFO("n " << n << " seed " << seed);
    std::vector<std::int64_t> values(n);
    std::mt19937_64 rng(seed);
    for (auto& v : values) v = static_cast<std::int64_t>(rng() % 2000001) - 1000000;
    values[n - 3] = std::int64_t(1) << 50;  // the largest element lies in the last piece
    std::int64_t exact = 0;
    for (const std::int64_t v : values) exact += v;
    const LaunchParams device = on_device({});  // (int64 sums run on the host by default)
    REQUIRE_FALSE(r.plan(ElementType::int64, Operation::sum, n, device, CallForm::host_data).on_host);
    CHECK(r.sum(values.data(), n, device) == exact);
    CHECK(r.sum(values.data(), n) == exact);
    const Partial p = r.partial<std::int64_t>(Operation::sum, values.data(), n, device);
    CHECK(p.count() == n);
    CHECK(p.sum<std::int64_t>() == exact);
    const auto top = r.argmax(values.data(), n);
    CHECK(top.index == n - 3);
    CHECK(r.max(values.data(), n) == values[n - 3]);
}

TEST_CASE("plan() says which host-data calls run on the host", "[host-path][plan]") {
    Reducer& r = reducer();
    const auto where = [&](ElementType type, Operation op, std::uint64_t n, LaunchParams p = {},
                           CallForm form = CallForm::host_data) { return r.plan(type, op, n, p, form).on_host; };
    // Default: every size of the plans the host reproduces, on every device.
    CHECK(where(ElementType::float32, Operation::sum, 1000));
    CHECK(where(ElementType::int32, Operation::mean, 1000));
    CHECK(where(ElementType::float32, Operation::sum, std::uint64_t(1) << 30));
    CHECK(where(ElementType::float64, Operation::norm_l2, std::uint64_t(1) << 24));
    CHECK(where(ElementType::int16, Operation::argmax, std::uint64_t(1) << 24));
    CHECK(where(ElementType::float32, Operation::argminmax, 1000));
    CHECK(where(ElementType::uint32, Operation::bit_xor, 1000));
    CHECK(where(ElementType::float32, Operation::count_nonzero, 1000));
    // A limit: up to it on the host, beyond it on the device.
    LaunchParams limit;
    limit.host_path_bytes = 4000;
    CHECK(where(ElementType::float32, Operation::sum, 1000, limit));
    CHECK_FALSE(where(ElementType::float32, Operation::sum, 1001, limit));
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
    LaunchParams many_groups;  // a last-group finish over many groups
    many_groups.inter_group = InterGroup::last_group;
    many_groups.times = 1;
    many_groups.work_group_size = 1;
    many_groups.vector_width = 1;
    CHECK(where(ElementType::float32, Operation::sum, 100000, many_groups));
    CHECK(where(ElementType::int32, Operation::sum, 1000, second_pass));  // integers: any order
    CHECK(where(ElementType::float32, Operation::min, 1000));
    CHECK(where(ElementType::float64, Operation::norm_inf, 1000));
    CHECK_FALSE(where(ElementType::float32, Operation::product, 1000));
    // statistics: in the plan's order where work-items take 16 elements or more; the device
    // where the combines outweigh the reads, for exact 8/16-bit lanes, and for a second pass
    LaunchParams long_items;
    long_items.times = 4;
    long_items.vector_width = 4;
    CHECK(where(ElementType::float32, Operation::statistics, 1000, long_items));
    CHECK(where(ElementType::int32, Operation::statistics, 1000, long_items));
    CHECK_FALSE(where(ElementType::int16, Operation::statistics, 1000, long_items));
    LaunchParams short_items = long_items;
    short_items.times = 3;
    CHECK_FALSE(where(ElementType::float32, Operation::statistics, 1000, short_items));
    long_items.inter_group = InterGroup::second_pass;
    CHECK_FALSE(where(ElementType::float32, Operation::statistics, 1000, long_items));
    CHECK(where(ElementType::int64, Operation::sum, 1000));                   // exact in 128 bits
    CHECK(where(ElementType::int32, Operation::norm_l2, 1000));               // squares exact in 128 bits
    CHECK_FALSE(where(ElementType::int64, Operation::sum_of_squares, 1000));  // 192 bits: the device
    // The plan printed says so.
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
