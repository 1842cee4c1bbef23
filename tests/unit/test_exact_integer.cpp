// The host side of exact integer results (src/ops/exact_integer.cpp): limbs to a value, the
// range checks, and the correctly rounded double, quotient and square root, each checked
// against the big-integer reference's rounding intervals (reference/exact_integer_reference).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "ops/exact_integer.hpp"
#include "ops/integer_range.hpp"
#include "reference/exact_integer_reference.hpp"
#include "test_support.hpp"

using clreduce::ExactInteger;
using clreduce::testing::BigInteger;
using clreduce::testing::Natural;

namespace {

// The reference's value of `limbs` two's-complement limbs.
BigInteger reference_of(const std::uint64_t* limbs, int count) {
    BigInteger v;
    const bool negative = (limbs[count - 1] >> 63) != 0;
    std::uint64_t m[3] = {};
    std::memcpy(m, limbs, 8 * count);
    if (negative) {  // two's complement within the limbs
        unsigned carry = 1;
        for (int k = 0; k < count; ++k) {
            m[k] = ~m[k] + carry;
            carry = carry && m[k] == 0;
        }
    }
    for (int k = count - 1; k >= 0; --k) {
        v.magnitude = clreduce::testing::shifted_left(v.magnitude, 64) + Natural::of(m[k]);
    }
    v.negative = negative && !v.magnitude.is_zero();
    return v;
}

}  // namespace

TEST_CASE("exact integers: known values, ranges and roundings", "[unit][exact-integer]") {
    const std::int64_t max64 = std::numeric_limits<std::int64_t>::max();
    const std::int64_t min64 = std::numeric_limits<std::int64_t>::min();
    // INT64_MAX + INT64_MAX as a 128-bit state: 2^64 - 2.
    const std::uint64_t two_max[2] = {std::uint64_t(max64) * 2, 0};
    const ExactInteger a = ExactInteger::from_limbs(reinterpret_cast<const unsigned char*>(two_max), 2);
    CHECK_FALSE(a.to_int64());
    CHECK(a.to_uint64() == std::uint64_t(max64) * 2);
    CHECK(a.rounded() == 18446744073709551616.0);  // 2^64 - 2 rounds to 2^64
    CHECK(a.rounded_quotient(2) == 9223372036854775808.0);
    CHECK(a.describe() == "18446744073709551614");
    // INT64_MIN + INT64_MIN = -2^64: no integer result, the mean is exact.
    const std::uint64_t two_min[2] = {0, ~std::uint64_t(0)};
    const ExactInteger b = ExactInteger::from_limbs(reinterpret_cast<const unsigned char*>(two_min), 2);
    CHECK(b.negative());
    CHECK_FALSE(b.to_int64());
    CHECK_FALSE(b.to_uint64());
    CHECK(b.rounded_quotient(2) == double(min64));
    CHECK(ExactInteger::from_signed(min64).to_int64() == min64);
    CHECK(ExactInteger::from_signed(-1).rounded() == -1.0);
    CHECK_FALSE(ExactInteger::from_signed(-1).to_uint64());
    // 5 * (2^31)^2 = 5 * 2^62: its root is sqrt(5) * 2^31.
    const std::uint64_t five[2] = {std::uint64_t(1) << 62, 1};
    const ExactInteger c = ExactInteger::from_limbs(reinterpret_cast<const unsigned char*>(five), 2);
    CHECK(c.rounded_sqrt() == std::sqrt(5.0) * 2147483648.0);
    CHECK(ExactInteger::from_unsigned(49).rounded_sqrt() == 7.0);
    CHECK(ExactInteger::from_unsigned(0).rounded_quotient(3) == 0.0);
    CHECK(ExactInteger::from_unsigned(1).rounded_quotient(3) == 1.0 / 3.0);
    CHECK(ExactInteger::from_signed(-2).rounded_quotient(3) == -2.0 / 3.0);
}

TEST_CASE("exact integers round like the reference's intervals, for random values of 1 to 3 limbs",
          "[unit][exact-integer]") {
    const std::uint64_t seed = clreduce::test::seed_for(0xe1, 3);
    INFO("seed " << seed);
    std::mt19937_64 rng(seed);
    for (int i = 0; i < 3000; ++i) {
        const int limbs = 1 + i % 3;
        std::uint64_t bits[3] = {rng(), rng(), rng()};
        // Short values too: shift some limbs down to a few bits.
        for (int k = 0; k < limbs; ++k)
            if (rng() % 3 == 0) bits[k] >>= rng() % 64;
        const ExactInteger v = ExactInteger::from_limbs(reinterpret_cast<const unsigned char*>(bits), limbs);
        const BigInteger ref = reference_of(bits, limbs);
        INFO("limbs " << limbs << " value " << ref.decimal());
        CHECK(v.negative() == ref.negative);
        CHECK(v.to_int64() == ref.to_int64());
        CHECK(v.to_uint64() == ref.to_uint64());
        CHECK(clreduce::testing::is_correctly_rounded(v.rounded(), ref));
        const std::uint64_t count = i % 2 ? rng() : 1 + rng() % 1000;
        INFO("count " << count);
        CHECK(clreduce::testing::is_correctly_rounded(v.rounded_quotient(count), ref, count));
        if (!ref.negative) CHECK(clreduce::testing::is_correctly_rounded_sqrt(v.rounded_sqrt(), ref));
    }
}

TEST_CASE("the reference's rounding check refuses the neighbours of the right double", "[unit][exact-integer]") {
    // The check itself must be able to fail: the doubles next to a correct result fail it.
    const BigInteger seven{false, Natural::of(7)};
    CHECK(clreduce::testing::is_correctly_rounded(7.0 / 3.0, seven, 3));
    CHECK_FALSE(clreduce::testing::is_correctly_rounded(std::nextafter(7.0 / 3.0, 0.0), seven, 3));
    CHECK_FALSE(clreduce::testing::is_correctly_rounded(std::nextafter(7.0 / 3.0, 9.0), seven, 3));
    CHECK(clreduce::testing::is_correctly_rounded_sqrt(std::sqrt(7.0), seven));
    CHECK_FALSE(clreduce::testing::is_correctly_rounded_sqrt(std::nextafter(std::sqrt(7.0), 9.0), seven));
    CHECK_FALSE(clreduce::testing::is_correctly_rounded_sqrt(std::nextafter(std::sqrt(7.0), 0.0), seven));
    // A tie goes to even: 2^53 + 1 rounds to 2^53, 2^53 + 3 to 2^53 + 4.
    const BigInteger tie{false, Natural::of((unsigned __int128)(1) << 53) + Natural::of(1)};
    CHECK(clreduce::testing::is_correctly_rounded(9007199254740992.0, tie));
    CHECK_FALSE(clreduce::testing::is_correctly_rounded(9007199254740994.0, tie));
}

TEST_CASE("the planner keeps integer sums exact where the accumulator could overflow", "[unit][exact-integer]") {
    using namespace clreduce;
    const auto plan = [](Operation op, ElementMap map, ElementType element, std::uint64_t n,
                         IntegerOverflow rule = IntegerOverflow::check) {
        return plan_integer_state(op, map, element,
                                  op == Operation::sum && map == ElementMap::identity && is_signed(element)
                                      ? ElementType::int64
                                      : ElementType::uint64,
                                  n, rule, false);
    };
    // int32 sums fit int64 below 2^32 elements (|x| <= 2^31); int64 sums never do; squares of
    // 64-bit data need 192 bits.
    CHECK(plan(Operation::sum, ElementMap::identity, ElementType::int32, (std::uint64_t(1) << 32) - 1).exact_bits == 0);
    CHECK(plan(Operation::sum, ElementMap::identity, ElementType::int32, std::uint64_t(1) << 32).exact_bits == 128);
    CHECK(plan(Operation::sum, ElementMap::identity, ElementType::int64, 2).exact_bits == 128);
    CHECK(plan(Operation::sum, ElementMap::identity, ElementType::int64, 2, IntegerOverflow::wrap).exact_bits == 0);
    CHECK(plan(Operation::mean, ElementMap::identity, ElementType::int64, 2, IntegerOverflow::wrap).exact_bits == 128);
    CHECK(plan(Operation::sum_of_squares, ElementMap::square, ElementType::int32, 3).exact_bits == 0);  // 3 * 2^62
    CHECK(plan(Operation::sum_of_squares, ElementMap::square, ElementType::int32, 4).exact_bits == 128);
    CHECK(plan(Operation::norm_l2, ElementMap::square, ElementType::uint64, 1).exact_bits == 192);
    CHECK(plan(Operation::count_nonzero, ElementMap::nonzero, ElementType::int64, ~std::uint64_t(0)).exact_bits == 0);
    // A named accumulator that cannot hold the terms: refused unless the caller asks for wrapping.
    CHECK_THROWS_AS(plan_integer_state(Operation::sum, ElementMap::identity, ElementType::int8, ElementType::uint32, 9,
                                       IntegerOverflow::check, true),
                    InvalidArgument);
    CHECK(plan_integer_state(Operation::sum, ElementMap::identity, ElementType::int8, ElementType::uint32, 9,
                             IntegerOverflow::wrap, true)
              .accumulator == ElementType::uint32);
    CHECK_THROWS_AS(plan_integer_state(Operation::mean, ElementMap::identity, ElementType::uint32, ElementType::int32,
                                       9, IntegerOverflow::wrap, true),
                    InvalidArgument);
}
