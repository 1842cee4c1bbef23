// Half-precision elements (clreduce::half, cl_khr_fp16) on a device that has them: every checked
// operation under launch shapes, float modes, sizes and offsets against the exact CPU
// references; every operation in every form of docs/usage.md's "Operations and forms" table
// against the range form and the references; transform_reduce; the bit operations refused.
// On a device without cl_khr_fp16 each case is skipped (test::skip_case: CTest reports it as
// not run), and test_float_semantics.cpp and test_ops_modes.cpp check the refusal there.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <clreduce/multi_reducer.hpp>

#include "covering_array.hpp"
#include "test_ops_support.hpp"
#include "test_support.hpp"

namespace clreduce::test {
namespace {

half to_half(float x) { return half::from_bits(testing::float_to_half(x)); }

// Seeded halves in [-1000, 1000) (rounded to half), about 1 in 8 zero.
std::vector<half> half_values(std::uint64_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<float> value(-1000.0f, 1000.0f);
    std::vector<half> out(n);
    for (auto& v : out) v = rng() % 8 == 0 ? half(0.0f) : to_half(value(rng));
    return out;
}

// Seeded factors in [0.5, 2) whose products stay in range.
std::vector<half> half_factors(std::uint64_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<float> value(0.5f, 2.0f);
    std::vector<half> out(n);
    for (auto& v : out) v = to_half(value(rng));
    return out;
}

// Launch shapes and float modes: the default, local stride in small groups, scalar loads with a
// second pass, a deep in-thread loop, and each float mode and level 3 the device has.
std::vector<std::pair<std::string, LaunchParams>> half_shapes(const DeviceInfo& device) {
    std::vector<std::pair<std::string, LaunchParams>> out{{"default", LaunchParams{}}};
    LaunchParams local;
    local.stride = Stride::local;
    local.work_group_size = 16;
    local.times = 2;
    out.push_back({"local", local});
    LaunchParams scalar;
    scalar.vector_width = 1;
    scalar.inter_group = InterGroup::second_pass;
    scalar.times = 4;
    out.push_back({"scalar", scalar});
    LaunchParams wide;
    wide.vector_width = 16;
    wide.times = 64;
    wide.work_group_size = 32;
    out.push_back({"vec16 deep", wide});
    for (const InterGroup l3 : strategies<float>(device)) {
        LaunchParams p;
        p.inter_group = l3;
        out.push_back({"l3=" + std::string(to_string(l3)), p});
    }
    for (const FloatMode mode : {FloatMode::compensated, FloatMode::correctly_rounded}) {
        LaunchParams p;
        p.float_mode = mode;
        out.push_back({"mode=" + std::string(to_string(mode)), p});
    }
    return out;
}

}  // namespace

TEST_CASE("half: every operation matches the exact references under launch shapes and float modes", "[half]") {
    Reducer& r = reducer();
    if (!r.device_info().has_fp16) return skip_case("no cl_khr_fp16 on device '" + r.device_info().name + "'");
    const std::vector<std::uint64_t> sizes{0, 1, 31, 33, 257, 4097, 70001};
    const std::vector<std::uint64_t> offsets{0, 1, 3};
    const std::uint64_t largest = 70001 + 3;
    const auto values = half_values(largest, seed_for(0x4a1f, 1));
    const auto factors = half_factors(largest, seed_for(0x4a1f, 2));
    const cl::Buffer buffer = device_copy(r, values);
    const cl::Buffer factor_buffer = device_copy(r, factors);
    const auto shapes = half_shapes(r.device_info());
    // Operation x shape pairwise, each row over every size and offset.
    const std::vector<std::size_t> levels{checked_operations().size(), shapes.size()};
    const CoveringRows rows = pairwise_rows(levels, seed_for(0x4a1f, 3));
    INFO("data seed " << seed_for(0x4a1f, 1) << " (run seed " << seed() << ")");
    for (const auto& row : rows) {
        const Operation op = checked_operations()[row[0]];
        const auto& [name, params] = shapes[row[1]];
        const bool product = op == Operation::product;
        // A float mode an operation does not take (correctly_rounded: sum, mean, norm_l1) is a
        // documented refusal ([error-table]); the pair is met, with nothing to compare.
        try {
            (void)r.plan(ElementType::float16, op, 1000, params);
        } catch (const Unsupported& e) {
            INFO(operation_name(op) << " " << name << ": " << e.what());
            visit_operation(op, [&](auto constant) {
                constexpr Operation Op = decltype(constant)::value;
                CHECK_THROWS_AS((r.reduce<Op, half>(buffer, 0, 1000, params)), Unsupported);
            });
            continue;
        }
        for (std::uint64_t n : sizes)
            for (std::uint64_t offset : offsets)
                check_operation<half>(r, product ? factor_buffer : buffer, product ? factors : values, offset,
                                      product ? std::min<std::uint64_t>(n, 2000) : n, params, op, name);
    }
    CHECK(missing_pair(levels, rows).empty());
}

TEST_CASE("half: transform_reduce, all and any against the references, bit operations refused", "[half]") {
    Reducer& r = reducer();
    if (!r.device_info().has_fp16) return skip_case("no cl_khr_fp16 on device '" + r.device_info().name + "'");
    auto values = half_values(5003, seed_for(0x4a1f, 4));
    const std::uint64_t n = values.size();
    // x * x summed: the sum of squares; max(x, 0) summed: the positive part; min and max of -x.
    double squares = 0, positive = 0;
    float lowest_negated = INFINITY, highest_negated = -INFINITY;
    for (const half h : values) {
        const double x = static_cast<float>(h);
        squares += x * x;
        positive += x > 0 ? x : 0;
        lowest_negated = std::fmin(lowest_negated, -static_cast<float>(h));
        highest_negated = std::fmax(highest_negated, -static_cast<float>(h));
    }
    // The references in double, sequentially: the device's sums in double agree to far below 2^-20.
    const cl::Buffer buffer = device_copy(r, values);
    const double u = std::ldexp(1.0, -20);
    CHECK(r.transform_reduce(values, "x * x", Combine::sum) == Approx(squares).epsilon(u));
    CHECK(r.transform_reduce<half>(buffer, 0, n, "x * x", Combine::sum) == Approx(squares).epsilon(u));
    CHECK(r.transform_reduce(values, "max(x, 0)", Combine::sum) == Approx(positive).epsilon(u));
    CHECK(static_cast<float>(r.transform_reduce(values, "-x", Combine::min)) == lowest_negated);
    CHECK(static_cast<float>(r.transform_reduce(values, "-x", Combine::max)) == highest_negated);

    CHECK(r.any(values));
    CHECK(!r.all(values));  // about 1 in 8 is zero
    std::vector<half> nonzero(100, half(-0.5f));
    nonzero[7] = half::from_bits(0x7e00);  // NaN counts as nonzero
    CHECK(r.all(nonzero));
    std::vector<half> zeros(100, half::from_bits(0x8000));  // -0.0 does not
    CHECK(!r.any(zeros));

    // Asynchronous minima and maxima through a second pass, whose kernel reads float states and
    // writes the half result.
    const cl::Buffer result(r.context(), CL_MEM_READ_WRITE, 64);
    LaunchParams second;
    second.inter_group = InterGroup::second_pass;
    second.work_group_size = 16;
    for (const bool is_min : {true, false}) {
        if (is_min)
            r.min_async<half>(buffer, 0, n, {result}, second).wait();
        else
            r.max_async<half>(buffer, 0, n, {result}, second).wait();
        half got;
        check(r.queue().enqueueReadBuffer(result, CL_TRUE, 0, sizeof got, &got), "clEnqueueReadBuffer");
        CHECK(static_cast<float>(got) == (is_min ? -highest_negated : -lowest_negated));
    }

    CHECK_THROWS_AS(r.bit_and(values), Error);
    CHECK_THROWS_AS(r.bit_or<half>(buffer, 0, n), Error);
    CHECK_THROWS_AS(r.bit_xor(values), Error);
}

namespace {

template <class R>
void check_same_value(const R& got, const R& want) {
    if constexpr (std::is_same_v<R, MinMax<half>>) {
        CHECK(same_bits(got.min, want.min));
        CHECK(same_bits(got.max, want.max));
    } else if constexpr (std::is_same_v<R, ArgResult<half>>) {
        CHECK(same_bits(got.value, want.value));
        CHECK(got.index == want.index);
    } else if constexpr (std::is_same_v<R, ArgMinMax<half>>) {
        check_same_value(got.min, want.min);
        check_same_value(got.max, want.max);
    } else if constexpr (std::is_same_v<R, Statistics<half>>) {
        CHECK(got.count == want.count);
        CHECK(same_bits(got.min, want.min));
        CHECK(same_bits(got.max, want.max));
        CHECK(got.sum == want.sum);
        CHECK(got.mean == Approx(want.mean).epsilon(1e-12));
        CHECK(got.variance == Approx(want.variance).epsilon(1e-9));
    } else if constexpr (std::is_same_v<R, half>) {
        CHECK(same_bits(got, want));
    } else if constexpr (std::is_floating_point_v<R>) {
        CHECK(got == Approx(want).epsilon(1e-12));  // the same sums; a root or a division apart
    } else {
        CHECK(got == want);
    }
}

}  // namespace

TEST_CASE("half: every operation in every form of the forms table gives the range form's value", "[half][forms]") {
    Reducer& r = reducer();
    if (!r.device_info().has_fp16) return skip_case("no cl_khr_fp16 on device '" + r.device_info().name + "'");
    static MultiReducer multi;
    // Multiples of 1/4 up to 16 in magnitude: every sum and sum of squares of them is exact in
    // any order, so each form gives the range form's value, whatever its order of additions.
    std::mt19937_64 rng(seed_for(0x4a1f, 5));
    std::vector<half> host(3001);
    for (auto& v : host) v = to_half(static_cast<float>(static_cast<int>(rng() % 129) - 64) / 4.0f);
    host[100] = host[2000] = to_half(-16.0f);  // ties of the extremes: the lowest index wins
    host[200] = to_half(16.25f);
    const std::vector<half> factors = half_factors(40, seed_for(0x4a1f, 6));
    const cl::Buffer buffer = device_copy(r, host);
    const cl::Buffer factor_buffer = device_copy(r, factors);
    const cl::Buffer result(r.context(), CL_MEM_READ_WRITE, 64);
    INFO("data seed " << seed_for(0x4a1f, 5) << " (run seed " << seed() << ")");

    // The range form against the exact references.
    for (const Operation op : checked_operations()) {
        const bool product = op == Operation::product;
        check_operation<half>(r, product ? factor_buffer : buffer, product ? factors : host, 0,
                              product ? factors.size() : host.size(), LaunchParams{}, op, "forms data");
    }

    const std::vector<std::string> forms{"range",  "host data", "image",   "segments",    "host segments",
                                         "by key", "async",     "Partial", "MultiReducer"};
    const std::vector<std::int32_t> one_key(std::max(host.size(), factors.size()), 7);  // one run
    const cl::Buffer key_buffer = device_copy(r, one_key);
    for (int k = 0; k < operation_count; ++k) {
        const Operation op = static_cast<Operation>(k);
        INFO("operation " << operation_name(op));
        visit_operation(op, [&](auto constant) {
            constexpr Operation Op = decltype(constant)::value;
            using T = half;
            const bool product = Op == Operation::product;
            const std::vector<half>& data = product ? factors : host;
            const cl::Buffer& in = product ? factor_buffer : buffer;
            const std::uint64_t n = data.size();
            const Image one_row{1, n, 1, 0, 0};
            const Segments one = Segments::batch(1, n);
            if constexpr (Op == Operation::bit_and || Op == Operation::bit_or || Op == Operation::bit_xor) {
                CHECK_THROWS_AS((r.reduce<Op, T>(in, 0, n)), Error);  // integer elements only
                CHECK_THROWS_AS(r.reduce<Op>(data), Error);
                return;
            } else {
                const auto want = r.reduce<Op, T>(in, 0, n);
                for (const std::string& form : forms) {
                    INFO("form " << form);
                    if (form == "range") {
                        check_same_value(r.reduce<Op, T>(in, 0, n), want);
                    } else if (form == "host data") {
                        check_same_value(r.reduce<Op>(data), want);
                    } else if (form == "image") {
                        check_same_value(r.reduce<Op, T>(in, one_row)[0], want);
                    } else if (form == "segments") {
                        check_same_value(static_cast<result_t<Op, T>>(r.reduce<Op, T>(in, 0, one)[0]), want);
                    } else if (form == "host segments") {
                        check_same_value(static_cast<result_t<Op, T>>(r.reduce<Op>(data.data(), one)[0]), want);
                    } else if (form == "by key") {
                        const auto got = r.reduce_by_key<Op, T, std::int32_t>(key_buffer, 0, in, 0, n);
                        REQUIRE(got.keys == std::vector<std::int32_t>{7});
                        check_same_value(static_cast<result_t<Op, T>>(got.results[0]), want);
                        const std::vector<std::int32_t> keys(one_key.begin(), one_key.begin() + n);
                        const auto from_host = r.reduce_by_key<Op>(keys, data);
                        check_same_value(static_cast<result_t<Op, T>>(from_host.results[0]), want);
                    } else if (form == "Partial") {
                        check_same_value(r.partial<T>(op, in, 0, n).template value<Op, T>(), want);
                    } else if (form == "MultiReducer") {
                        check_same_value(multi.reduce<Op>(data), want);
                    } else if (form == "async") {
                        if constexpr (Op == Operation::sum || Op == Operation::min || Op == Operation::max) {
                            if constexpr (Op == Operation::sum) r.sum_async<T>(in, 0, n, {result}).wait();
                            if constexpr (Op == Operation::min) r.min_async<T>(in, 0, n, {result}).wait();
                            if constexpr (Op == Operation::max) r.max_async<T>(in, 0, n, {result}).wait();
                            result_t<Op, T> got{};
                            check(r.queue().enqueueReadBuffer(result, CL_TRUE, 0, sizeof got, &got),
                                  "clEnqueueReadBuffer");
                            check_same_value(got, want);
                        }
                    }
                }
            }
        });
    }
}

}  // namespace clreduce::test
