// transform_reduce with a combine of the user's own (CombineExpression): the built-in combines
// written as expressions give the built-ins' results (integers bit for bit; floats bit for bit
// against the built-in run in the same launch shape and level 3, since the order is the same),
// a logsumexp combine within its bound, the refusals (not commutative, two values, an atomic
// finish, a float mode), edge sizes and offsets, segments, and the program cache's keys. The
// expression language's side: tests/unit/test_combine_expression.cpp.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "test_ops_support.hpp"

namespace clreduce::test {
namespace {

const CombineExpression kSum{"a + b", "0"};
const CombineExpression kProduct{"a * b", "1"};
const CombineExpression kMinLong{"min(a, b)", "9223372036854775807"};
const CombineExpression kMaxLong{"max(a, b)", "-9223372036854775808"};
// fmin/fmax ignore NaN as the built-ins do; no literal is NaN or an infinity, so the identities
// are the largest finite doubles (the same results wherever an element is a number below them).
const CombineExpression kMinDouble{"fmin(a, b)", "0x1.fffffffffffffp1023"};
const CombineExpression kMaxDouble{"fmax(a, b)", "-0x1.fffffffffffffp1023"};

// A launch shape of several small groups (a second pass or a last group to finish), and the
// user combine's plan for `n` with `level3`, as explicit parameters for both calls compared.
LaunchParams shape(const Reducer& r, ElementType type, std::uint64_t n, InterGroup level3) {
    LaunchParams p;
    p.work_group_size = 16;
    p.times = 2;
    p.vector_width = 2;
    p.inter_group = level3;
    return launch_shape(r.plan_transform(type, kSum, n, p));
}

std::vector<InterGroup> user_level3(const DeviceInfo& device) {
    std::vector<InterGroup> out{InterGroup::second_pass};
    if (has_last_group_finish(device)) out.push_back(InterGroup::last_group);
    return out;
}

}  // namespace

TEST_CASE("integer combines written as expressions give the built-ins' results bit for bit", "[combine]") {
    print_seed();
    Reducer& r = reducer();
    const std::uint64_t wg = 16;
    for (const std::uint64_t n : {std::uint64_t(1), wg - 1, wg, wg + 1, std::uint64_t(1000), std::uint64_t(30011)}) {
        const std::uint64_t offset = n % 3;
        const auto values = op_values<std::int32_t>(n + offset, seed_for(591, n));
        const cl::Buffer buffer = device_copy(r, values);
        for (const InterGroup level3 : user_level3(r.device_info())) {
            const LaunchParams p = shape(r, ElementType::int32, n, level3);
            INFO("n " << n << ", offset " << offset << ", " << to_string(level3));
            const auto user = [&](const char* map, const CombineExpression& c) {
                return r.transform_reduce<std::int32_t>(buffer, offset, n, map, c, p);
            };
            const auto built_in = [&](const char* map, Combine c) {
                return r.transform_reduce<std::int32_t>(buffer, offset, n, map, c, p);
            };
            CHECK(user("x", kSum) == built_in("x", Combine::sum));
            CHECK(user("x * 3 - 1", kMinLong) == built_in("x * 3 - 1", Combine::min));
            CHECK(user("x * 3 - 1", kMaxLong) == built_in("x * 3 - 1", Combine::max));
            // Factors -2, -1 and 1: the product wraps modulo 2^64 in either, in any order.
            const char* factors = "x % 5 == 0 ? -2 : (x & 1 ? -1 : 1)";
            CHECK(user(factors, kProduct) == built_in(factors, Combine::product));
            // The host-data form runs on the device too, with the same plan.
            CHECK(r.transform_reduce(values.data() + offset, n, "x", kSum, p) == built_in("x", Combine::sum));
        }
    }
    // Bitwise combines have no built-in transform: against the host.
    const auto values = op_values<std::int32_t>(5000, seed_for(592));
    std::int64_t ored = 0, xored = 0;
    for (std::int32_t v : values) {
        ored |= v;
        xored ^= v;
    }
    CHECK(r.transform_reduce(values, "x", CombineExpression{"a | b", "0"}) == ored);
    CHECK(r.transform_reduce(values, "x", CombineExpression{"b ^ a", "0"}) == xored);
}

TEST_CASE("float combines written as expressions give the built-ins' bits in the same shape", "[combine]") {
    print_seed();
    Reducer& r = reducer();
    const std::uint64_t wg = 16;
    for (const std::uint64_t n : {std::uint64_t(1), wg - 1, wg, wg + 1, std::uint64_t(20011)}) {
        const std::uint64_t offset = n % 2;
        const auto values = wide_values<float>(n + offset, seed_for(593, n), 20);
        const cl::Buffer buffer = device_copy(r, values);
        for (const InterGroup level3 : user_level3(r.device_info())) {
            // The same launch shape and level 3 for both, in FloatMode::deterministic: the same
            // order of the same roundings.
            const LaunchParams p = shape(r, ElementType::float32, n, level3);
            INFO("n " << n << ", offset " << offset << ", " << to_string(level3));
            const auto user = [&](const char* map, const CombineExpression& c) {
                return r.transform_reduce<float>(buffer, offset, n, map, c, p);
            };
            const auto built_in = [&](const char* map, Combine c) {
                return r.transform_reduce<float>(buffer, offset, n, map, c, p);
            };
            const bool fp64 = r.device_info().has_fp64;
            const CombineExpression lowest = fp64 ? kMinDouble : CombineExpression{"fmin(a, b)", "0x1.fffffep127"};
            const CombineExpression highest = fp64 ? kMaxDouble : CombineExpression{"fmax(a, b)", "-0x1.fffffep127"};
            CHECK(same_bits(user("x", kSum), built_in("x", Combine::sum)));
            CHECK(same_bits(user("x * x", kSum), built_in("x * x", Combine::sum)));
            CHECK(same_bits(user("1 + x / 1048576", kProduct), built_in("1 + x / 1048576", Combine::product)));
            CHECK(same_bits(user("x", lowest), built_in("x", Combine::min)));
            CHECK(same_bits(user("x", highest), built_in("x", Combine::max)));
        }
    }
}

TEST_CASE("a logsumexp combine works within its bound and its integer form is refused", "[combine]") {
    print_seed();
    Reducer& r = reducer();
    if (!r.device_info().has_fp64) {
        skip_case("logsumexp in double needs cl_khr_fp64");
        return;
    }
    for (const std::uint64_t n : {std::uint64_t(1), std::uint64_t(17), std::uint64_t(4099)}) {
        const auto values = op_values<float>(n, seed_for(594, n));
        long double top = -1e300L, sum = 0;
        for (float v : values) top = std::max<long double>(top, v / 100.0L);
        for (float v : values) sum += std::exp(v / 100.0L - top);
        const long double expected = top + std::log(sum);
        const CombineExpression logsumexp{"max(a, b) + log(1 + exp(-fabs(a - b)))", "-0x1.fffffffffffffp1023"};
        const double got = r.transform_reduce(values, "x / 100", logsumexp);
        // Each combine rounds a few times about its result: n combines, 8 roundings each.
        INFO("n " << n << ": got " << got << ", expected " << double(expected));
        CHECK(std::fabs(got - double(expected)) <= double(n) * 8 * 0x1p-53 * (std::fabs(double(expected)) + 1));
    }
    // Empty: the identity.
    CHECK(r.transform_reduce(std::vector<float>{}, "x", kMaxDouble) == -std::numeric_limits<double>::max());
    // In integers: exp of integers is refused on the host, at its column.
    const std::vector<std::int32_t> ints{1, 2, 3};
    try {
        r.transform_reduce(ints, "x", CombineExpression{"max(a,b) + log(1 + exp(-abs(a-b)))", "0"});
        FAIL("exp of long accepted");
    } catch (const InvalidArgument& e) {
        CHECK_THAT(e.what(), Catch::Contains("function 'exp' at column 20 takes floating-point arguments"));
    }
    // abs takes integers in OpenCL C: for double values the compiler refuses it (fabs is the
    // floating one), as it does in a map expression.
    CHECK_THROWS_AS(r.transform_reduce(std::vector<float>{1.0f, 2.0f}, "x",
                                       CombineExpression{"max(a,b) + log(1 + exp(-abs(a-b)))", "0"}),
                    BuildError);
}

TEST_CASE("combines that are not one commutative value, and atomic finishes, are refused", "[combine]") {
    Reducer& r = reducer();
    const std::vector<std::int32_t> v(100, 2);
    // Associative but not commutative: the first operand.
    CHECK_THROWS_WITH(r.transform_reduce(v, "x", CombineExpression{"a", "0"}),
                      Catch::Contains("not symmetric in a and b"));
    CHECK_THROWS_WITH(r.transform_reduce(v, "x", CombineExpression{"a - b", "0"}),
                      Catch::Contains("with a and b swapped it reads (b - a)"));
    // A maximum with its count: two values.
    CHECK_THROWS_WITH(r.transform_reduce(v, "x", CombineExpression{"max(a, b), a + b", "0"}),
                      Catch::Contains("unexpected ',' at column 10: a combine's state is one value"));
    CHECK_THROWS_WITH(r.transform_reduce(v, "x", CombineExpression{"a + c", "0"}),
                      Catch::Contains("unknown identifier 'c' at column 5"));
    CHECK_THROWS_WITH(r.transform_reduce(v, "x", CombineExpression{"x + b", "0"}),
                      Catch::Contains("unknown identifier 'x' at column 1: x is the element"));
    CHECK_THROWS_WITH(r.transform_reduce(v, "x", CombineExpression{"", "0"}), Catch::Contains("empty"));
    CHECK_THROWS_WITH(r.transform_reduce(v, "x", CombineExpression{"a + b", "0.5"}),
                      Catch::Contains("'0.5' at column 1 is a floating-point literal, and the accumulation type is "
                                      "long"));
    // The identity is checked in the accumulation type LaunchParams::accumulator names.
    LaunchParams int32_acc;
    int32_acc.accumulator = ElementType::int32;
    CHECK_THROWS_WITH(r.transform_reduce(v, "x", CombineExpression{"a + b", "4294967296"}, int32_acc),
                      Catch::Contains("outside int's range"));
    CHECK(r.transform_reduce(v, "x", CombineExpression{"a + b", "0"}, int32_acc) == 200);
    // Level 3: never atomic; asked for, InvalidArgument.
    for (InterGroup atomic : {InterGroup::atomic, InterGroup::exact_atomic}) {
        LaunchParams p;
        p.inter_group = atomic;
        CHECK_THROWS_AS(r.transform_reduce(v, "x", kSum, p), InvalidArgument);
        CHECK_THROWS_WITH(r.plan_transform(ElementType::int32, kSum, 100, p),
                          Catch::Contains("finishes with InterGroup::last_group or second_pass"));
    }
    for (const std::uint64_t n : {std::uint64_t(1) << 10, std::uint64_t(1) << 24}) {
        const LaunchPlan plan = r.plan_transform(ElementType::int32, kSum, n);
        CHECK(plan.user_combine);
        CHECK(plan.inter_group != InterGroup::atomic);
        CHECK(plan.inter_group != InterGroup::exact_atomic);
    }
    LaunchParams compensated;
    compensated.float_mode = FloatMode::compensated;
    CHECK_THROWS_AS(r.transform_reduce(std::vector<float>(4, 1.0f), "x", kSum, compensated), InvalidArgument);
}

TEST_CASE("user combines per segment and empty ranges give the identity", "[combine]") {
    print_seed();
    Reducer& r = reducer();
    const std::uint64_t segments = 37, length = 301;
    const auto values = op_values<std::int32_t>(segments * length + 5, seed_for(595));
    const cl::Buffer buffer = device_copy(r, values);
    for (const std::uint32_t groups : {1u, 4u}) {
        LaunchParams p;
        p.groups_per_segment = groups;
        if (groups > 1) p.segment_team = p.work_group_size = 16;
        INFO("groups per segment " << groups);
        const auto user =
            r.transform_reduce<std::int32_t>(buffer, 5, Segments::batch(segments, length), "x", kMaxLong, p);
        const auto built_in = r.reduce<Operation::max, std::int32_t>(buffer, 5, Segments::batch(segments, length), p);
        REQUIRE(user.size() == built_in.size());
        for (std::size_t s = 0; s < user.size(); ++s) CHECK(user[s] == built_in[s]);
    }
    // Empty: the identity, in the result type.
    CHECK(r.transform_reduce<std::int32_t>(buffer, 0, 0, "x", kMinLong) == std::numeric_limits<std::int64_t>::max());
    CHECK(r.transform_reduce(std::vector<std::uint8_t>{}, "x", CombineExpression{"a * b", "7"}) == 7);
    const auto empty = r.transform_reduce<std::int32_t>(buffer, 0, Segments::offsets({0, 0, 3}), "x",
                                                        CombineExpression{"a + b", "-5"});
    REQUIRE(empty.size() == 2);
    CHECK(empty[0] == -5);
    CHECK(empty[1] == -5 + values[0] + values[1] + values[2]);
}

TEST_CASE("user combines are cached by their text and identity", "[combine][reuse]") {
    Reducer r(default_device());
    const std::vector<std::int32_t> v{5, -3, 9, 1};
    CHECK(r.transform_reduce(v, "x", CombineExpression{"a + b", "0"}) == 12);
    const Counters warm = r.counters();
    CHECK(r.transform_reduce(v, "x", CombineExpression{"a+b", "0"}) == 12);  // the same tree
    CHECK(r.counters().programs_built + r.counters().programs_loaded == warm.programs_built + warm.programs_loaded);
    // Another combine or identity is another program, never the cached one's result.
    CHECK(r.transform_reduce(v, "x", CombineExpression{"max(a, b)", "-100"}) == 9);
    CHECK(r.transform_reduce(v, "x", CombineExpression{"max(a, b)", "100"}) == 100);
    CHECK(r.transform_reduce(v, "x", CombineExpression{"a * b", "1"}) == -135);
    // The map and the combine both divide long values: their guard helper is defined once.
    CHECK(r.transform_reduce(v, "x / (x - 4)", CombineExpression{"a + b + (a + b) / (a * b + 7) * 0", "0"}) == 6);
}

}  // namespace clreduce::test
