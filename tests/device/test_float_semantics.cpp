// NaN and infinity semantics of every floating-point operation, in every float mode, against
// the references (tests/support/op_reference.hpp) with clreduce's stated rules:
//   sum, mean, sum_of_squares, norm_l1, norm_l2, product: IEEE (any NaN gives NaN; +inf with
//     -inf gives NaN in sum and mean; an infinity gives that infinity)
//   min, max, minmax, argmin, argmax, argminmax, norm_inf: NaN is ignored (like fmin/fmax);
//     all-NaN input gives NaN, and index 0 for argmin/argmax/argminmax
//   count_nonzero: NaN is nonzero
#include <catch2/catch.hpp>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <random>

#include "float_ops.hpp"
#include "reference/adversarial_data.hpp"
#include "reference/op_reference.hpp"
#include "test_support.hpp"

namespace ct = clreduce::testing;
using namespace clreduce;

namespace {

// Benign values in [-1, 1), or with magnitudes in [0.5, 2) for product, whose partial
// products then stay far from underflow in any order.
template <class T>
std::vector<T> values(std::uint64_t n, std::uint64_t seed, bool for_product) {
    std::vector<T> out(n);
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> dist(for_product ? 0.5 : -1.0, for_product ? 2.0 : 1.0);
    for (auto& v : out) v = static_cast<T>((for_product && (rng() & 1) ? -1 : 1) * dist(rng));
    return out;
}

bool same_value(double got, double want) { return (std::isnan(got) && std::isnan(want)) || got == want; }

template <class T>
void check_extrema(const Reducer& r, const std::vector<T>& data) {
    const std::uint64_t n = data.size();
    const auto mn = ct::reference_min(data.data(), n, ct::NanRule::ignore);
    const auto mx = ct::reference_max(data.data(), n, ct::NanRule::ignore);
    CHECK(same_value(r.min<T>(data.data(), n), mn.value));
    CHECK(same_value(r.max<T>(data.data(), n), mx.value));
    const auto both = r.minmax<T>(data.data(), n);
    CHECK(same_value(both.min, mn.value));
    CHECK(same_value(both.max, mx.value));
    const auto amin = r.argmin<T>(data.data(), n);
    const auto amax = r.argmax<T>(data.data(), n);
    CHECK(same_value(amin.value, mn.value));
    CHECK(amin.index == mn.index);
    CHECK(same_value(amax.value, mx.value));
    CHECK(amax.index == mx.index);
    const auto fused = r.argminmax<T>(data.data(), n);
    CHECK(same_value(fused.min.value, mn.value));
    CHECK(fused.min.index == mn.index);
    CHECK(same_value(fused.max.value, mx.value));
    CHECK(fused.max.index == mx.index);
    CHECK(r.count_nonzero<T>(data.data(), n) == ct::reference_count_nonzero(data.data(), n));
    // NaN ignored; all-NaN input gives NaN, as max does.
    CHECK(same_value(r.norm_inf<T>(data.data(), n), ct::float_norm_inf(data.data(), n, ct::NanRule::ignore)));
}

template <class T>
void check_specials() {
    const Reducer& r = test::reducer();
    if (std::is_same_v<T, double> && !r.device_info().has_fp64) {
        const std::vector<double> one{1.0};
        CHECK_THROWS_AS(r.sum(one), Unsupported);
        return;
    }
    for (std::uint64_t n : {std::uint64_t(2), std::uint64_t(1000), std::uint64_t(65537)}) {
        for (const auto special : ct::all_specials()) {
            for (bool for_product : {false, true}) {
                auto data = values<T>(n, test::seed_for(n, static_cast<int>(special), for_product), for_product);
                const auto where = ct::insert_special(data, special, test::seed_for(n, 77, static_cast<int>(special)));
                INFO(sizeof(T) * 8 << "-bit float, n = " << n << ", " << ct::special_name(special) << " at "
                                   << where.front() << (for_product ? ", product data" : ""));
                if (for_product) {
                    const auto ref = ct::reference_product(data.data(), n, std::ldexp(1.0L, -53));
                    const double got = r.product<T>(data.data(), n);
                    CHECK(ref.mismatch(got) == "");
                    continue;
                }
                check_extrema(r, data);
                for (const FloatMode mode : test::float_modes()) {
                    LaunchParams p;
                    p.float_mode = mode;
                    for (const Operation op : test::additive_operations()) {
                        INFO(operation_name(op) << ", " << to_string(mode));
                        double got;
                        try {
                            got = test::run_additive(r, op, data.data(), n, p);
                        } catch (const Unsupported& e) {
                            // Only the modes a device cannot host may be refused, and clearly.
                            CHECK((mode == FloatMode::atomic || mode == FloatMode::correctly_rounded));
                            continue;
                        }
                        const auto ref = test::additive_reference(op, data.data(), n, 0.0L, ct::Summation::plain);
                        // Non-finite results must match exactly: NaN, or the same infinity.
                        REQUIRE(!std::isfinite(static_cast<double>(ref.value)));
                        CHECK(same_value(got, static_cast<double>(ref.value)));
                    }
                }
            }
        }
    }
}

}  // namespace

TEST_CASE("float semantics: NaN and infinities, float32", "[float-semantics]") { check_specials<float>(); }
TEST_CASE("float semantics: NaN and infinities, float64", "[float-semantics]") { check_specials<double>(); }

TEST_CASE("float semantics: half follows the same rules, or is refused without cl_khr_fp16", "[float-semantics]") {
    const Reducer& r = test::reducer();
    std::vector<half> data(100);
    for (std::size_t i = 0; i < data.size(); ++i)
        data[i] = half::from_bits(ct::float_to_half(static_cast<float>(i % 7) - 3.0f));
    data[17] = half::from_bits(0x7e00);  // NaN
    if (!r.device_info().has_fp16) {
        CHECK_THROWS_AS(r.sum(data), Unsupported);
        CHECK_THROWS_AS(r.min(data), Unsupported);
        return;
    }
    CHECK(std::isnan(r.sum(data)));
    CHECK(static_cast<float>(r.min(data)) == -3.0f);
    CHECK(r.argmax(data).index == 6);
    CHECK(r.count_nonzero(data) == ct::reference_count_nonzero(data.data(), data.size()));
    data[17] = half::from_bits(0x7c00);  // +inf
    CHECK(r.sum(data) == HUGE_VAL);
    CHECK(r.argmax(data).index == 17);
}

TEST_CASE("float semantics: overflow, signed zeros, extremes", "[float-semantics]") {
    const Reducer& r = test::reducer();
    if (!r.device_info().has_fp64) return;
    // The exact sum of these is DBL_MAX: the correctly rounded mode must say so; the others
    // may overflow in a partial sum (+inf) or land within their bound.
    std::vector<double> big{DBL_MAX, DBL_MAX, -DBL_MAX, 1.0};
    for (const FloatMode mode : test::float_modes()) {
        LaunchParams p;
        p.float_mode = mode;
        INFO(to_string(mode));
        double got;
        try {
            got = r.sum(big, p);
        } catch (const Unsupported&) {
            CHECK((mode == FloatMode::atomic || mode == FloatMode::correctly_rounded));
            continue;
        }
        const auto ref = ct::reference_sum(big.data(), big.size(), std::ldexp(1.0L, -53), test::summation_of(mode));
        CHECK(ref.mismatch(got) == "");
        if (mode == FloatMode::correctly_rounded) CHECK(got == DBL_MAX);
    }
    // Float data never overflows its double accumulator.
    std::vector<float> floats(1000, FLT_MAX);
    CHECK(r.sum(floats) == 1000.0 * double(FLT_MAX));
    // Zeros of both signs are zeros: their sum is 0, the first of them is the argmin.
    std::vector<double> zeros{0.5, -0.0, 0.0, -0.0, 0.25};
    CHECK(r.sum(zeros) == 0.75);
    CHECK(r.argmin(zeros).index == 1);
    CHECK(r.argmin(zeros).value == 0.0);
    CHECK(r.count_nonzero(zeros) == 2);
    // Infinities are ordinary extremes.
    std::vector<double> inf_data{1.0, -HUGE_VAL, 3.0, HUGE_VAL, -HUGE_VAL};
    CHECK(r.argmin(inf_data).index == 1);
    CHECK(r.argmax(inf_data).index == 3);
    CHECK(r.norm_inf(inf_data) == HUGE_VAL);
    CHECK(std::isnan(r.sum(inf_data)));
    CHECK(r.norm_l1(inf_data) == HUGE_VAL);
    CHECK(r.sum_of_squares(inf_data) == HUGE_VAL);
}
