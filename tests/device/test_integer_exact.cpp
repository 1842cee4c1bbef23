// Integer results are exact or refused (IntegerOverflow, docs/numerics.md): sums checked
// against their result type, means and norms correctly rounded from the exact value, for every
// integer type, additive operation, level 3 and entry form, against the big-integer reference.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "reference/exact_integer_reference.hpp"
#include "reference/random_values.hpp"
#include "test_support.hpp"

using namespace clreduce;
using testing::BigInteger;
using testing::Terms;

namespace {

// An integer result against the exact one: equal if it fits R, else Overflow.
template <class R, class F>
void check_integer(const BigInteger& exact, F call) {
    INFO("exact " << exact.decimal());
    std::optional<R> fits;
    if constexpr (std::is_signed_v<R>)
        fits = exact.to_int64();
    else
        fits = exact.to_uint64();
    if (fits) {
        CHECK(call() == *fits);
    } else {
        CHECK_THROWS_AS(call(), Overflow);
    }
}

// Values that overflow 64-bit sums: full-range random, or all near one end of the range.
template <class T>
std::vector<T> values(std::uint64_t n, std::uint64_t seed, int kind) {
    std::vector<T> v = testing::random_values<T>(n, seed, /*narrow=*/false);
    const T edge = kind == 1 ? std::numeric_limits<T>::max() : std::numeric_limits<T>::min();
    if (kind != 0)
        for (std::uint64_t i = 0; i < n; ++i)
            if (i % 7 != 3) v[i] = edge;
    return v;
}

}  // namespace

TEMPLATE_TEST_CASE("integer sums, means and norms are exact or refused, never wrapped", "[overflow][exact-integer]",
                   std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t, std::uint32_t, std::int64_t,
                   std::uint64_t) {
    using T = TestType;
    Reducer& r = test::reducer();
    for (std::uint64_t n : {1ull, 2ull, 5ull, 17ull, 1000ull, 65537ull}) {
        for (int kind : {0, 1, 2}) {
            const std::uint64_t seed = test::seed_for(sizeof(T), n, kind * 2 + std::is_signed_v<T>);
            INFO("n " << n << " kind " << kind << " data seed " << seed);
            const std::vector<T> data = values<T>(n, seed, kind);
            const BigInteger sum = testing::exact_integer_sum(data.data(), n, Terms::values);
            const BigInteger magnitudes = testing::exact_integer_sum(data.data(), n, Terms::magnitudes);
            const BigInteger squares = testing::exact_integer_sum(data.data(), n, Terms::squares);
            // The three entry forms: pointer, vector, buffer at an odd element offset.
            std::vector<T> padded(3, T(0));
            padded.insert(padded.end(), data.begin(), data.end());
            const cl::Buffer buffer = test::device_copy(r, padded);
            for (InterGroup level3 : test::strategies<T>(r.device_info())) {
                LaunchParams p;
                p.inter_group = level3;
                INFO("level 3 " << to_string(level3));
                check_integer<sum_type_t<T>>(sum, [&] { return r.sum(data.data(), n, p); });
                check_integer<sum_type_t<T>>(sum, [&] { return r.sum<T>(buffer, 3, n, p); });
                check_integer<transform_type_t<T>>(sum, [&] { return r.transform_reduce(data, "x", Combine::sum, p); });
                check_integer<std::uint64_t>(squares, [&] { return r.sum_of_squares(data, p); });
                CHECK(testing::is_correctly_rounded(r.mean(data, p), sum, n));
                CHECK(testing::is_correctly_rounded(r.mean<T>(buffer, 3, n, p), sum, n));
                CHECK(testing::is_correctly_rounded(r.norm_l1(data, p), magnitudes));
                CHECK(testing::is_correctly_rounded_sqrt(r.norm_l2(data, p), squares));
                CHECK(testing::is_correctly_rounded_sqrt(r.norm_l2<T>(buffer, 3, n, p), squares));
            }
        }
    }
}

TEST_CASE("an Overflow out of a floating-point accumulator names the operation and the element type",
          "[overflow][exact-integer][errors]") {
    Reducer& r = test::reducer();
    const std::vector<std::int64_t> v{std::int64_t(1) << 40, std::int64_t(1) << 40};  // product 2^80
    std::vector<ElementType> accumulators{ElementType::float32};
    if (r.device_info().has_fp64) accumulators.push_back(ElementType::float64);
    for (const ElementType accumulator : accumulators) {
        INFO("accumulator " << type_name(accumulator));
        LaunchParams p;
        p.accumulator = accumulator;
        const std::string named = "product of int64 data is 1.2089258196146292e+24";
        const std::string type = "result type int64";
        CHECK_THROWS_WITH(r.product(v, p), Catch::Contains(named) && Catch::Contains(type));
        CHECK_THROWS_WITH(r.transform_reduce(v, "x", Combine::product, p),
                          Catch::Contains(named) && Catch::Contains(type));
        // No modulo of a rounded product: the same refusal under IntegerOverflow::wrap, saying so.
        p.overflow = IntegerOverflow::wrap;
        CHECK_THROWS_WITH(r.product(v, p), Catch::Contains(named) && Catch::Contains("no modulo 2^64"));
        CHECK(r.product(std::vector<std::int64_t>{-3, 5}, p) == -15);
        // Sums name theirs already.
        p.overflow = IntegerOverflow::check;
        const std::vector<std::uint64_t> big{std::uint64_t(1) << 63, std::uint64_t(1) << 63};
        CHECK_THROWS_WITH(r.sum(big, p), Catch::Contains("sum of uint64 data is 1.8446744073709552e+19"));
    }
}

TEST_CASE("the reported wraps: 64-bit sums, float accumulators, means and norms", "[overflow][exact-integer]") {
    Reducer& r = test::reducer();
    constexpr std::int64_t max64 = std::numeric_limits<std::int64_t>::max();
    constexpr std::int64_t min64 = std::numeric_limits<std::int64_t>::min();
    constexpr std::uint64_t umax64 = std::numeric_limits<std::uint64_t>::max();
    const std::vector<std::int64_t> two_max{max64, max64};
    const std::vector<std::uint64_t> umax_ten{umax64, 10};
    LaunchParams wrap;
    wrap.overflow = IntegerOverflow::wrap;
    CHECK_THROWS_AS(r.sum(two_max), Overflow);
    CHECK_THROWS_WITH(r.sum(two_max), Catch::Contains("sum of int64 data is 18446744073709551614") &&
                                          Catch::Contains("IntegerOverflow::wrap"));
    CHECK(r.sum(two_max, wrap) == -2);  // modulo 2^64, as C++'s unsigned arithmetic
    CHECK_THROWS_AS(r.sum(umax_ten), Overflow);
    CHECK(r.sum(umax_ten, wrap) == 9);
    if (r.device_info().has_fp64) {
        LaunchParams as_double;
        as_double.accumulator = ElementType::float64;
        CHECK_THROWS_AS(r.sum(two_max, as_double), Overflow);  // 2^64 does not fit int64
        CHECK_THROWS_AS(r.sum(umax_ten, as_double), Overflow);
        as_double.overflow = IntegerOverflow::wrap;
        CHECK(r.sum(two_max, as_double) == 0);  // the double 2^64, modulo 2^64
        const std::vector<std::int64_t> small{5, -7};
        CHECK(r.sum(small, as_double) == -2);
    }
    // Means and norms are real numbers: the correctly rounded double of the exact value.
    CHECK(r.mean(two_max) == 9223372036854775807.0);
    CHECK(r.mean(two_max, wrap) == 9223372036854775807.0);
    const std::vector<std::int64_t> mins{min64, min64, 5};
    CHECK(r.norm_l1(mins) == 18446744073709551616.0);
    const std::vector<std::int32_t> int32_mins(5, std::numeric_limits<std::int32_t>::min());
    const double root5 = std::sqrt(5.0) * 2147483648.0;  // sqrt(5 * 2^62), correctly rounded by IEEE sqrt
    CHECK(r.norm_l2(int32_mins) == root5);
    CHECK(r.sum_of_squares(int32_mins.data(), 3) == 3 * (std::uint64_t(1) << 62));
    CHECK_THROWS_AS(r.sum_of_squares(int32_mins), Overflow);
    CHECK(r.sum_of_squares(int32_mins, wrap) == std::uint64_t(1) << 62);  // 5 * 2^62 modulo 2^64
    const std::vector<std::uint64_t> big{umax64, umax64, umax64};
    CallInfo info;
    CHECK(testing::is_correctly_rounded_sqrt(r.norm_l2(big, {}, &info),
                                             testing::exact_integer_sum(big.data(), 3, Terms::squares)));
    CHECK(info.plan.exact_integer_bits == 192);
    // One work-item adding, in order, squares whose middle limb reaches 2^64 - 1 just as the
    // low limb carries: the carry must ripple into the top limb.
    const std::uint64_t y = (std::uint64_t(1) << 32) - 1;
    const std::vector<std::uint64_t> ripple{umax64, std::uint64_t(1) << 32, y, y};
    LaunchParams one_item;
    one_item.work_group_size = 1;
    one_item.vector_width = 1;
    one_item.times = 4;
    const BigInteger ripple_squares = testing::exact_integer_sum(ripple.data(), ripple.size(), Terms::squares);
    CHECK(testing::is_correctly_rounded_sqrt(r.norm_l2(ripple, one_item, &info), ripple_squares));
    CHECK(info.plan.groups == 1);
}

TEST_CASE("a named integer accumulator is widened where the sum could overflow it", "[overflow][exact-integer]") {
    Reducer& r = test::reducer();
    LaunchParams narrow;
    narrow.accumulator = ElementType::int32;
    // 65535 values of 32767 fit an int32 sum; 65536 might not: the plan goes to 128 bits.
    std::vector<std::int16_t> data(70000, 32767);
    CallInfo info;
    CHECK(r.sum(data.data(), 65535, narrow, &info) == 65535ll * 32767);
    CHECK(info.plan.exact_integer_bits == 0);
    CHECK(info.plan.accumulator == ElementType::int32);
    CHECK(r.sum(data, narrow, &info) == 70000ll * 32767);
    CHECK(info.plan.exact_integer_bits == 128);
    CHECK(info.plan.accumulator == ElementType::int64);
    CHECK(r.plan(ElementType::int16, Operation::sum, 70000, narrow).exact_integer_bits == 128);
    narrow.overflow = IntegerOverflow::wrap;
    CHECK(r.sum(data, narrow, &info) == static_cast<std::int32_t>(static_cast<std::uint32_t>(70000u * 32767u)));
    CHECK(info.plan.exact_integer_bits == 0);
    // An accumulator that cannot hold the values at all.
    LaunchParams unsigned_for_signed;
    unsigned_for_signed.accumulator = ElementType::uint64;
    CHECK_THROWS_AS(r.sum(data, unsigned_for_signed), InvalidArgument);
    CHECK_THROWS_AS(r.mean(data, unsigned_for_signed), InvalidArgument);
    unsigned_for_signed.overflow = IntegerOverflow::wrap;
    CHECK(r.sum(data, unsigned_for_signed) == 70000ull * 32767);
}

// (With a status word they are checked on the device: test_async_status.cpp.)
TEST_CASE("asynchronous 64-bit sums need a status word or IntegerOverflow::wrap", "[overflow][exact-integer][async]") {
    Reducer& r = test::reducer();
    const std::vector<std::int64_t> data{std::numeric_limits<std::int64_t>::max(), 3, -4};
    const cl::Buffer buffer = test::device_copy(r, data);
    cl::Buffer result(r.context(), CL_MEM_READ_WRITE, 8);
    CHECK_THROWS_AS(r.sum_async<std::int64_t>(buffer, 0, data.size(), {result}), InvalidArgument);
    LaunchParams wrap;
    wrap.overflow = IntegerOverflow::wrap;
    r.sum_async<std::int64_t>(buffer, 0, data.size(), {result}, wrap).wait();
    std::int64_t got = 0;
    const_cast<cl::CommandQueue&>(r.queue()).enqueueReadBuffer(result, CL_TRUE, 0, 8, &got);
    CHECK(got == std::numeric_limits<std::int64_t>::max() - 1);
    // 32-bit data cannot overflow there: no rule needed.
    const std::vector<std::int32_t> small{1, -2, 3};
    const cl::Buffer small_buffer = test::device_copy(r, small);
    r.sum_async<std::int32_t>(small_buffer, 0, small.size(), {result}).wait();
    const_cast<cl::CommandQueue&>(r.queue()).enqueueReadBuffer(result, CL_TRUE, 0, 8, &got);
    CHECK(got == 2);
}
