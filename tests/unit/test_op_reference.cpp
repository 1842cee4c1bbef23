// The CPU references, data generators and OpenCV wrappers that the operation tests rely
// on, checked on their own (no device involved).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "reference/adversarial_data.hpp"
#include "reference/op_reference.hpp"
#include "reference/opencv_reference.hpp"
#include "reference/opencv_sum.hpp"
#include "test_support.hpp"

namespace ct = clreduce::testing;

namespace {

struct TestHalf {
    std::uint16_t bits;
};

template <class T>
std::vector<T> random_ints(std::size_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<std::int64_t> wide(std::numeric_limits<std::int64_t>::min(),
                                                     std::numeric_limits<std::int64_t>::max());
    std::vector<T> out(n);
    for (auto& v : out) v = static_cast<T>(wide(rng));
    return out;
}

}  // namespace

TEST_CASE("half: every value converts and rounds back", "[references][half]") {
    for (std::uint32_t b = 0; b < 0x10000; ++b) {
        const float f = ct::half_to_float(static_cast<std::uint16_t>(b));
        if (std::isnan(f)) {
            REQUIRE(((b >> 10) & 0x1f) == 0x1f);
            REQUIRE(std::isnan(ct::half_to_float(ct::float_to_half(f))));
            continue;
        }
        REQUIRE(ct::float_to_half(f) == b);
    }
    CHECK(ct::half_to_float(0x3c00) == 1.0f);
    CHECK(ct::half_to_float(0x7bff) == 65504.0f);
    CHECK(ct::half_to_float(0x0001) == std::ldexp(1.0f, -24));
    CHECK(ct::float_to_half(65519.0f) == 0x7bff);
    CHECK(ct::float_to_half(65520.0f) == 0x7c00);                      // the tie past the largest half: to even, inf
    CHECK(ct::float_to_half(1.0f + std::ldexp(1.0f, -11)) == 0x3c00);  // tie to even
    CHECK(ct::float_to_half(1.0f + 3 * std::ldexp(1.0f, -11)) == 0x3c02);
    CHECK(ct::float_to_half(std::ldexp(1.0f, -25)) == 0x0000);  // tie to even zero
    CHECK(ct::float_to_half(std::ldexp(3.0f, -26)) == 0x0001);
    // Nearest: random floats in range round to the closer neighbour.
    std::mt19937_64 rng(clreduce::test::seed_for(910));
    std::uniform_real_distribution<float> dist(-70000.0f, 70000.0f);
    for (int i = 0; i < 10000; ++i) {
        const float f = dist(rng) * (i % 3 == 0 ? 1e-7f : 1.0f);
        const std::uint16_t h = ct::float_to_half(f);
        const float v = ct::half_to_float(h);
        if (std::isinf(v)) {
            REQUIRE(std::fabs(f) >= 65520.0f);
            continue;
        }
        const float up = ct::half_to_float(static_cast<std::uint16_t>(h + 1));
        const float down = (h & 0x7fff) ? ct::half_to_float(static_cast<std::uint16_t>(h - 1)) : -v;
        INFO("f = " << f << ", half " << v);
        REQUIRE(std::fabs(f - v) <= std::fabs(f - up));
        REQUIRE(std::fabs(f - v) <= std::fabs(f - down));
    }
}

TEMPLATE_TEST_CASE("integer references wrap modulo 2^64", "[references]", std::int8_t, std::uint8_t, std::int16_t,
                   std::uint16_t, std::int32_t, std::uint32_t, std::int64_t, std::uint64_t) {
    using T = TestType;
    using R = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;
    const auto data = random_ints<T>(5000, clreduce::test::seed_for(911, sizeof(T)));
    __int128 sum = 0, abs_sum = 0;
    unsigned __int128 squares = 0, product = 1;  // modulo 2^128: the sum of 5000 squares passes 2^127
    std::uint64_t nonzero = 0, norm_inf = 0;
    for (T x : data) {
        const __int128 v = x;
        sum += v;
        const auto u = static_cast<unsigned __int128>(v);  // squared modulo 2^128: uint64 squares pass 2^127
        squares += u * u;
        abs_sum += v < 0 ? -v : v;
        product *= static_cast<unsigned __int128>(v);
        nonzero += x != 0;
        norm_inf = std::max<std::uint64_t>(norm_inf, static_cast<std::uint64_t>(v < 0 ? -v : v));
    }
    CHECK(ct::wrapped_sum<R>(data.data(), data.size()) == static_cast<R>(sum));
    CHECK(ct::wrapped_sum_of_squares<R>(data.data(), data.size()) == static_cast<R>(squares));
    CHECK(ct::wrapped_norm_l1<std::uint64_t>(data.data(), data.size()) == static_cast<std::uint64_t>(abs_sum));
    CHECK(ct::wrapped_product<R>(data.data(), data.size()) == static_cast<R>(product));
    CHECK(ct::reference_count_nonzero(data.data(), data.size()) == nonzero);
    CHECK(ct::integer_norm_inf(data.data(), data.size()) == norm_inf);
    CHECK(ct::wrapped_product<R>(data.data(), 0) == 1);
    // Not wrapped: the exact sum, for the mean.
    const auto mean = ct::reference_mean(data.data(), data.size(), 0);
    CHECK(mean.value == Approx(static_cast<long double>(sum) / data.size()).epsilon(1e-15));
    // The 128-bit exact sum of squares, for norm_l2.
    const auto exact_squares = ct::exact_sum_of_squares(data.data(), data.size());
    long double wide = 0;  // positive terms: relative error below n 2^-64
    for (T x : data) wide += static_cast<long double>(ct::magnitude(x)) * ct::magnitude(x);
    CHECK(std::fabs(exact_squares.to_long_double() - wide) <= wide * data.size() * std::ldexp(1.0L, -63));
}

TEST_CASE("min/max references: first occurrence, NaN rules", "[references]") {
    const std::vector<int> ints{5, 1, 7, 1, 7, 3};
    CHECK(ct::reference_min(ints.data(), ints.size()).index == 1);
    CHECK(ct::reference_max(ints.data(), ints.size()).index == 2);
    const auto mm = ct::reference_minmax(ints.data(), ints.size());
    CHECK(mm.min.value == 1);
    CHECK(mm.max.value == 7);
    CHECK_THROWS_AS(ct::reference_min(ints.data(), 0), std::invalid_argument);

    const double nan = std::numeric_limits<double>::quiet_NaN();
    const std::vector<double> d{nan, 2.0, -0.0, 0.0, nan, -3.0, -3.0};
    const auto ignore = ct::reference_min(d.data(), d.size(), ct::NanRule::ignore);
    CHECK(ignore.value == -3.0);
    CHECK(ignore.index == 5);
    const auto propagate = ct::reference_min(d.data(), d.size(), ct::NanRule::propagate);
    CHECK(std::isnan(propagate.value));
    CHECK(propagate.index == 0);
    CHECK(ct::reference_max(d.data(), d.size(), ct::NanRule::ignore).index == 1);
    const std::vector<double> zeros{0.0, -0.0, 1.0};
    CHECK(ct::reference_min(zeros.data(), zeros.size()).index == 0);  // -0 == +0: the first wins
    const std::vector<double> all_nan(4, nan);
    const auto none = ct::reference_max(all_nan.data(), all_nan.size(), ct::NanRule::ignore);
    CHECK(std::isnan(none.value));
    CHECK(none.index == 0);
    CHECK(std::isnan(ct::float_norm_inf(all_nan.data(), all_nan.size())));
    CHECK(ct::float_norm_inf(all_nan.data(), 0) == 0);
    CHECK(ct::float_norm_inf(d.data(), d.size()) == 3.0);
    CHECK(std::isnan(ct::float_norm_inf(d.data(), d.size(), ct::NanRule::propagate)));
    CHECK(ct::reference_count_nonzero(d.data(), d.size()) == 5);  // NaNs count, -0.0 does not

    const std::vector<TestHalf> halves{{0x3c00}, {0xbc00}, {0x4000}, {0xbc00}};  // 1, -1, 2, -1
    CHECK(ct::reference_min(halves.data(), halves.size()).index == 1);
    CHECK(ct::reference_max(halves.data(), halves.size()).value == 2.0f);
    CHECK(ct::reference_sum(halves.data(), halves.size(), std::ldexp(1.0L, -24)).value == 1.0L);
}

TEST_CASE("float tolerances accept a real float accumulation and reject a wrong one", "[references]") {
    std::mt19937_64 rng(clreduce::test::seed_for(912));
    for (const auto d : ct::all_datasets()) {
        const auto data = ct::make_dataset<float>(d, 100003, rng());
        const long double u = std::ldexp(1.0L, -24);
        float naive = 0, naive_l1 = 0, naive_sq = 0;
        for (float x : data) {
            naive += x;
            naive_l1 += std::fabs(x);
            naive_sq += x * x;
        }
        INFO(ct::dataset_name(d));
        const auto sum = ct::reference_sum(data.data(), data.size(), u);
        CHECK(sum.accepts(naive));
        CHECK_FALSE(sum.accepts(sum.value + 2 * sum.tolerance + std::fabs(sum.value) * 1e-6L + 1e-30L));
        CHECK(ct::reference_norm_l1(data.data(), data.size(), u).accepts(naive_l1));
        // (Squares of the wide sets overflow a float by design: those sets are for sums.)
        if (d != ct::Dataset::wide_range && d != ct::Dataset::full_range) {
            CHECK(ct::reference_sum_of_squares(data.data(), data.size(), u).accepts(naive_sq));
            CHECK(ct::reference_norm_l2(data.data(), data.size(), u).accepts(std::sqrt(naive_sq)));
        }
        CHECK(ct::reference_mean(data.data(), data.size(), u).accepts(naive / data.size()));
        // The correctly rounded sum admits exactly one value.
        const auto exact = ct::reference_sum(data.data(), data.size(), u, ct::Summation::exact);
        const double rounded = ct::exact_sum_of(data.data(), data.size()).to_double();
        CHECK(exact.accepts(rounded));
        CHECK_FALSE(exact.accepts(std::nextafter(rounded, HUGE_VAL)));
    }
    const std::vector<double> p{1.5, -2.0, 3.25, 1e-3};
    const auto product = ct::reference_product(p.data(), p.size(), std::ldexp(1.0L, -53));
    CHECK(product.accepts(1.5 * -2.0 * 3.25 * 1e-3));
    const std::vector<double> big{1e200, 1e200};
    CHECK(ct::reference_product(big.data(), big.size(), std::ldexp(1.0L, -53)).accepts(HUGE_VAL));
    CHECK_FALSE(ct::reference_product(big.data(), big.size(), std::ldexp(1.0L, -53)).accepts(DBL_MAX));
    const std::vector<double> nan_data{1.0, std::nan("")};
    CHECK(ct::reference_sum(nan_data.data(), 2, 0).accepts(std::nan("")));
    CHECK_FALSE(ct::reference_sum(nan_data.data(), 2, 0).accepts(1.0));
    const std::vector<double> inf_data{1.0, HUGE_VAL};
    CHECK(ct::reference_sum(inf_data.data(), 2, 0).accepts(HUGE_VAL));
    CHECK_FALSE(ct::reference_sum(inf_data.data(), 2, 0).accepts(-HUGE_VAL));
}

TEST_CASE("adversarial data sets: seeded and as hard as stated", "[references][adversarial]") {
    const std::uint64_t seed = clreduce::test::seed_for(913);
    for (const auto d : ct::all_datasets()) {
        INFO(ct::dataset_name(d));
        CHECK(ct::parse_dataset(ct::dataset_name(d)) == d);
        const auto a = ct::make_dataset<double>(d, 50001, seed);
        CHECK(a == ct::make_dataset<double>(d, 50001, seed));
        CHECK(std::all_of(a.begin(), a.end(), [](double x) { return std::isfinite(x); }));
        const auto f = ct::make_dataset<float>(d, 50001, seed);
        const double cond_d = ct::condition_number(a.data(), a.size());
        const double cond_f = ct::condition_number(f.data(), f.size());
        if (d == ct::Dataset::ill_conditioned) {
            CHECK(cond_d >= 1e10);
            CHECK(cond_f >= 1e10);
        }
        if (d == ct::Dataset::cancellation) {
            CHECK(cond_d >= 1e6);
            CHECK(cond_f >= 1e6);
        }
        if (d == ct::Dataset::mixed_magnitudes || d == ct::Dataset::ones || d == ct::Dataset::small_integers)
            CHECK(cond_d == 1.0);
        if (d == ct::Dataset::wide_range || d == ct::Dataset::full_range) {
            // How many binades the exponents span, and that float32's full range reaches subnormals.
            auto span = [](const auto& v) {
                int lo = std::numeric_limits<int>::max(), hi = std::numeric_limits<int>::min();
                for (const auto x : v) {
                    lo = std::min(lo, std::ilogb(x));
                    hi = std::max(hi, std::ilogb(x));
                }
                return hi - lo;
            };
            const bool wide = d == ct::Dataset::wide_range;
            CHECK(span(a) >= (wide ? 290 : 2000));
            CHECK(span(f) >= (wide ? 190 : 230));
            if (!wide)
                CHECK(std::any_of(f.begin(), f.end(), [](float x) { return std::fpclassify(x) == FP_SUBNORMAL; }));
        }
    }
    CHECK_THROWS_AS(ct::parse_dataset("nope"), std::invalid_argument);
    // The float32 failure the issue names: a float running sum of ones sticks at 2^24.
    const auto ones = ct::make_dataset<float>(ct::Dataset::ones, (1u << 24) + 8, seed);
    float running = 0;
    for (float x : ones) running += x;
    CHECK(running == 16777216.0f);
    CHECK(ct::exact_sum_of(ones.data(), ones.size()).to_double() == 16777224.0);
}

TEST_CASE("special-value variants", "[references][adversarial]") {
    for (const auto s : ct::all_specials()) {
        std::vector<double> data(100, 1.0);
        const auto where = ct::insert_special(data, s, clreduce::test::seed_for(914));
        INFO(ct::special_name(s));
        REQUIRE(!where.empty());
        const auto sum = ct::exact_sum_of(data.data(), data.size()).to_double();
        if (s == ct::Special::pos_inf)
            CHECK(sum == HUGE_VAL);
        else if (s == ct::Special::neg_inf)
            CHECK(sum == -HUGE_VAL);
        else
            CHECK(std::isnan(sum));
    }
    std::vector<float> one(1, 1.0f);
    CHECK_THROWS_AS(ct::insert_special(one, ct::Special::both_inf, 1), std::invalid_argument);
}

TEST_CASE("OpenCV wrappers: channels, pitch, first locations", "[references][opencv]") {
    REQUIRE(ct::have_opencv());
    // A 3-channel uint8 image, 5 x 7, rows 32 bytes apart (21 used).
    const std::uint64_t rows = 5, cols = 7, step = 32;
    std::vector<std::uint8_t> image(rows * step, 0xee);  // padding that must not be read
    std::mt19937_64 rng(clreduce::test::seed_for(915));
    for (std::uint64_t r = 0; r < rows; ++r)
        for (std::uint64_t i = 0; i < cols * 3; ++i) image[r * step + i] = static_cast<std::uint8_t>(rng() % 200);
    const ct::ImageShape shape{rows, cols, 3, step};
    const auto sums = ct::cv_sum(image.data(), shape);
    const auto means = ct::cv_mean(image.data(), shape);
    REQUIRE(sums);
    REQUIRE(means);
    for (int c = 0; c < 3; ++c) {
        const auto channel = ct::extract_channel(image.data(), rows, cols, 3, step, c);
        const auto exact = ct::wrapped_sum<std::uint64_t>(channel.data(), channel.size());
        CHECK((*sums)[c] == static_cast<double>(exact));
        CHECK((*means)[c] == Approx(static_cast<double>(exact) / (rows * cols)));
    }
    CHECK((*sums)[3] == 0);
    std::uint64_t norm_inf = 0;
    for (int c = 0; c < 3; ++c) {
        const auto channel = ct::extract_channel(image.data(), rows, cols, 3, step, c);
        norm_inf = std::max(norm_inf, ct::integer_norm_inf(channel.data(), channel.size()));
    }
    CHECK(ct::cv_norm(image.data(), shape, ct::CvNorm::inf) == static_cast<double>(norm_inf));

    // minMaxLoc on a pitched single-channel float image: the first minimum in row-major order.
    std::vector<float> f(4 * 16, 9.0f);  // 4 rows, 10 columns, 16 floats per row
    const ct::ImageShape fshape{4, 10, 1, 16 * sizeof(float)};
    f[1 * 16 + 3] = -2.0f;
    f[2 * 16 + 1] = -2.0f;
    f[0 * 16 + 12] = -50.0f;  // in the padding: not part of the image
    f[3 * 16 + 9] = 11.0f;
    const auto mm = ct::cv_min_max_loc(f.data(), fshape);
    REQUIRE(mm);
    CHECK(mm->min == -2.0);
    CHECK(mm->min_index == 1 * 10 + 3);
    CHECK(mm->max == 11.0);
    CHECK(mm->max_index == 3 * 10 + 9);
    const auto plain = ct::extract_channel(f.data(), 4, 10, 1, 16 * sizeof(float), 0);
    CHECK(ct::reference_min(plain.data(), plain.size()).index == mm->min_index);
    CHECK(ct::cv_count_nonzero(f.data(), fshape) == ct::reference_count_nonzero(plain.data(), plain.size()));
    CHECK(*ct::cv_norm(f.data(), fshape, ct::CvNorm::l1) ==
          Approx(static_cast<double>(ct::reference_norm_l1(plain.data(), plain.size(), 0).value)));
    CHECK(*ct::cv_norm(f.data(), fshape, ct::CvNorm::l2) ==
          Approx(static_cast<double>(ct::reference_norm_l2(plain.data(), plain.size(), 0).value)));

    // Types OpenCV has no Mat for are not comparable.
    const std::vector<std::uint32_t> u32(10, 1);
    const std::vector<std::int64_t> i64(10, 1);
    CHECK_FALSE(ct::cv_sum(u32.data(), ct::row_of(10)));
    CHECK_FALSE(ct::cv_sum(i64.data(), ct::row_of(10)));
    CHECK_FALSE(ct::cv_sum_timed(u32.data(), 10, false, 1).value);
    const std::vector<std::int16_t> i16{-5, 3, -5, 9};
    CHECK(ct::cv_sum(i16.data(), ct::row_of(4)).value()[0] == 2.0);
    CHECK(ct::cv_min_max_loc(i16.data(), ct::row_of(4))->min_index == 0);
    const auto timed = ct::cv_sum_timed(i16.data(), 4, false, 3);
    CHECK(timed.value == 2.0);
    CHECK(timed.device == "CPU");
}
