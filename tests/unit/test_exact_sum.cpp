// The exact fixed-point sum every float result is measured against: known cases, IEEE
// rounding checked against the hardware's own correctly rounded operations, permutations.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "reference/exact_float_sum.hpp"
#include "test_support.hpp"

using clreduce::testing::ExactSum;

namespace {

ExactSum of(std::initializer_list<double> values) {
    ExactSum s;
    for (double v : values) s.add(v);
    return s;
}

using clreduce::test::same_bits;

// A double with a random sign, significand and exponent in [lo, hi] (subnormals included
// when lo < -1022).
double random_double(std::mt19937_64& rng, int lo, int hi) {
    std::uniform_int_distribution<int> e(lo, hi);
    std::uniform_real_distribution<double> m(1, 2);
    return (rng() & 1 ? -1 : 1) * std::ldexp(m(rng), e(rng));
}

}  // namespace

TEST_CASE("exact sum: known cases", "[references][exact-sum]") {
    const double tiny = std::ldexp(1.0, -1074);
    CHECK(of({1e308, 1e308, -1e308}).to_double() == 1e308);
    CHECK(of({tiny, tiny, tiny}).to_double() == 3 * tiny);
    CHECK(of({tiny, -tiny}).is_zero());
    CHECK(of({1.0, std::ldexp(1.0, -53)}).to_double() == 1.0);  // a tie: to even
    CHECK(of({1.0, std::ldexp(1.0, -53), std::ldexp(1.0, -53)}).to_double() == 1.0 + std::ldexp(1.0, -52));
    CHECK(of({1.0, std::ldexp(1.0, -53), std::ldexp(1.0, -80)}).to_double() == 1.0 + std::ldexp(1.0, -52));
    CHECK(of({1.0 + std::ldexp(1.0, -52), std::ldexp(1.0, -53)}).to_double() == 1.0 + std::ldexp(1.0, -51));
    CHECK(of({-1.0, -std::ldexp(1.0, -53), -std::ldexp(1.0, -53)}).to_double() == -1.0 - std::ldexp(1.0, -52));
    CHECK(of({1e100, 1.0, -1e100}).to_double() == 1.0);
    CHECK(of({DBL_MAX, -DBL_MAX, DBL_MIN}).to_double() == DBL_MIN);
    // The largest finite double is odd, so half an ulp above it rounds (to even) to infinity.
    CHECK(of({DBL_MAX, std::ldexp(1.0, 969)}).to_double() == DBL_MAX);
    CHECK(of({DBL_MAX, std::ldexp(1.0, 970)}).to_double() == HUGE_VAL);
    CHECK(of({-DBL_MAX, -DBL_MAX}).to_double() == -HUGE_VAL);
    CHECK(of({DBL_MAX, DBL_MAX, -DBL_MAX}).to_double() == DBL_MAX);
    // Signed zeros as IEEE addition gives them.
    CHECK(std::signbit(of({-0.0, -0.0}).to_double()));
    CHECK_FALSE(std::signbit(of({-0.0, 0.0}).to_double()));
    CHECK_FALSE(std::signbit(of({1.5, -1.5}).to_double()));
    CHECK_FALSE(std::signbit(ExactSum{}.to_double()));
}

TEST_CASE("exact sum: NaN and infinities follow IEEE", "[references][exact-sum]") {
    const double inf = HUGE_VAL, nan = std::numeric_limits<double>::quiet_NaN();
    CHECK(std::isnan(of({1.0, nan, 2.0}).to_double()));
    CHECK(std::isnan(of({inf, -inf}).to_double()));
    CHECK(std::isnan(of({inf, nan}).to_double()));
    CHECK(of({inf, 1.0, DBL_MAX}).to_double() == inf);
    CHECK(of({-inf, 1.0}).to_double() == -inf);
    CHECK(std::isinf(of({-inf}).to_float()));
    CHECK(of({inf}).is_infinite());
    CHECK(of({nan}).is_nan());
    CHECK_FALSE(of({nan}).is_finite());
    CHECK(of({nan}) == of({inf, -inf}));
    CHECK(of({inf, 5.0}) == of({inf}));
    CHECK(of({inf}) != of({-inf}));
}

TEST_CASE("exact sum: to_float rounds once, to nearest even", "[references][exact-sum]") {
    // 1 + 2^-24 + 2^-54 rounds up to 1 + 2^-23 in float; rounding to double first would
    // give 1 + 2^-24, a tie that then goes (to even) to 1.
    CHECK(of({1.0, std::ldexp(1.0, -24), std::ldexp(1.0, -54)}).to_float() == 1.0f + std::ldexp(1.0f, -23));
    CHECK(of({1.0, std::ldexp(1.0, -24)}).to_float() == 1.0f);
    CHECK(of({double(FLT_MAX), std::ldexp(1.0, 102)}).to_float() == FLT_MAX);
    CHECK(of({double(FLT_MAX), std::ldexp(1.0, 103)}).to_float() == HUGE_VALF);
    CHECK(of({std::ldexp(1.0, -150)}).to_float() == 0.0f);                        // tie to even 0
    CHECK(of({3 * std::ldexp(1.0, -150)}).to_float() == std::ldexp(1.0f, -148));  // 1.5 units: to 2
    CHECK(of({std::ldexp(1.0, -150), std::ldexp(1.0, -200)}).to_float() == std::ldexp(1.0f, -149));
    CHECK(of({1e300, -1e300, 0.1}).to_float() == 0.1f);
}

TEST_CASE("exact sum: one or two terms round like the hardware", "[references][exact-sum]") {
    // IEEE addition and conversion are correctly rounded, so the exact sum of {a, b} must
    // round to a + b, and of {x} to float(x); TwoSum's error term is exact too.
    std::mt19937_64 rng(clreduce::test::seed_for(901));
    for (int i = 0; i < 20000; ++i) {
        // Double subnormals, float subnormals, ordinary numbers.
        const int lo = i % 4 == 0 ? -1074 : i % 4 == 1 ? -160 : -60;
        const int hi = i % 4 == 0 ? -1000 : i % 4 == 1 ? -120 : 60;
        const double a = random_double(rng, lo, hi), b = random_double(rng, lo, hi);
        const double s = a + b;
        INFO("a = " << a << ", b = " << b);
        REQUIRE(same_bits(of({a, b}).to_double(), s));
        const double bb = s - a, e = (a - (s - bb)) + (b - bb);
        REQUIRE(same_bits(of({a, b, -s}).to_double(), e + 0.0));
        const float fa = static_cast<float>(a), fb = static_cast<float>(b);
        REQUIRE(same_bits(of({a}).to_float(), fa));
        if (std::isfinite(fa + fb)) REQUIRE(same_bits(of({fa, fb}).to_float(), fa + fb));
        if (i % 4 == 0) continue;  // tiny products underflow: add_product refuses them
        ExactSum p;
        p.add_product(a, b);
        REQUIRE(same_bits(p.to_double(), a * b));
        p.add(-(a * b));
        REQUIRE(p.to_double() == std::fma(a, b, -(a * b)));
    }
}

TEST_CASE("exact sum: integers are exact, at every order", "[references][exact-sum]") {
    std::mt19937_64 rng(clreduce::test::seed_for(902));
    std::uniform_int_distribution<std::int64_t> dist(-(1ll << 40), 1ll << 40);
    std::vector<double> values(100000);
    std::int64_t exact = 0;
    for (auto& v : values) {
        const auto x = dist(rng);
        exact += x;
        v = static_cast<double>(x);
    }
    const ExactSum forward = clreduce::testing::exact_sum_of(values.data(), values.size());
    CHECK(forward.to_double() == static_cast<double>(exact));
    CHECK(forward.to_long_double() == static_cast<long double>(exact));
    std::shuffle(values.begin(), values.end(), rng);
    CHECK(clreduce::testing::exact_sum_of(values.data(), values.size()) == forward);

    ExactSum ints;
    ints.add_integer(std::numeric_limits<std::int64_t>::min());
    ints.add_unsigned(std::numeric_limits<std::uint64_t>::max());
    CHECK(ints.to_long_double() == std::ldexp(1.0L, 63) - 1);
    CHECK_THROWS_AS(ints.add_scaled(1, false, -1075), std::out_of_range);
    CHECK_THROWS_AS(ints.add_scaled(1, false, 975), std::out_of_range);
}

TEST_CASE("exact sum: permutations of wide-ranging data give the same bits", "[references][exact-sum]") {
    std::mt19937_64 rng(clreduce::test::seed_for(903));
    std::vector<double> values;
    for (int i = 0; i < 3000; ++i) values.push_back(random_double(rng, -1074, 1000));
    for (int i = 0; i < 1000; ++i) values.push_back(-values[i]);  // some exact cancellation
    const ExactSum reference = clreduce::testing::exact_sum_of(values.data(), values.size());
    for (int round = 0; round < 5; ++round) {
        std::shuffle(values.begin(), values.end(), rng);
        const ExactSum s = clreduce::testing::exact_sum_of(values.data(), values.size());
        REQUIRE(s == reference);
        REQUIRE(same_bits(s.to_double(), reference.to_double()));
    }
    // Adding partial sums equals adding the elements.
    ExactSum left = clreduce::testing::exact_sum_of(values.data(), 1234);
    left.add(clreduce::testing::exact_sum_of(values.data() + 1234, values.size() - 1234));
    CHECK(left == reference);
    // Cancellation of everything leaves exactly zero.
    ExactSum zero = reference;
    zero.negate();
    zero.add(reference);
    CHECK(zero.is_zero());
    CHECK(zero.to_double() == 0.0);
}

TEST_CASE("exact sum: benign data agrees with a long double sum", "[references][exact-sum]") {
    std::mt19937_64 rng(clreduce::test::seed_for(904));
    std::uniform_real_distribution<double> dist(-1, 1);
    std::vector<double> values(200000);
    long double ld = 0, abs_sum = 0;
    for (auto& v : values) {
        v = dist(rng);
        ld += v;
        abs_sum += std::fabs(v);
    }
    const ExactSum s = clreduce::testing::exact_sum_of(values.data(), values.size());
    const long double bound = values.size() * std::ldexp(1.0L, -64) * abs_sum;
    CHECK(std::fabs(s.to_long_double() - ld) <= bound);
    CHECK(std::fabs(static_cast<long double>(s.to_double()) - ld) <= bound + std::ldexp(std::fabs(ld), -53));
    CHECK(std::fabs(s.to_long_double() - static_cast<long double>(s.to_double())) <=
          std::ldexp(std::fabs(s.to_long_double()), -53));
}

TEST_CASE("exact sum: relative and absolute error", "[references][exact-sum]") {
    using clreduce::testing::absolute_error;
    using clreduce::testing::relative_error;
    const ExactSum one_plus = of({1.0, std::ldexp(1.0, -60)});
    CHECK(absolute_error(1.0, one_plus) == std::ldexp(1.0, -60));
    CHECK(relative_error(1.0, one_plus) == Approx(std::ldexp(1.0, -60)).epsilon(1e-12));
    CHECK(relative_error(1.0, of({1.0})) == 0);
    CHECK(relative_error(1.0, ExactSum{}) == HUGE_VAL);
    CHECK(relative_error(0.0, ExactSum{}) == 0);
    CHECK(relative_error(std::nan(""), of({std::nan("")})) == 0);
    CHECK(relative_error(HUGE_VAL, of({HUGE_VAL})) == 0);
    CHECK(relative_error(1.0, of({HUGE_VAL})) == HUGE_VAL);
    CHECK(relative_error(std::nan(""), of({1.0})) == HUGE_VAL);
    CHECK(relative_error(3.0, of({2.0})) == 0.5);
}
