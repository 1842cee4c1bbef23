// Properties every result must have, whatever the reference: min <= every element <= max,
// argmin/argmax name the first element holding the extreme, counts add up, sums of split
// ranges and of permutations agree where the arithmetic is exact (integers, the correctly
// rounded mode), norms agree with each other.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "reference/op_reference.hpp"
#include "test_support.hpp"

using namespace clreduce;

namespace {

template <class T>
std::vector<T> random_data(std::size_t n, std::mt19937_64& rng) {
    std::vector<T> v(n);
    if constexpr (std::is_integral_v<T>) {
        // A narrow range makes ties (and zeros) common.
        std::uniform_int_distribution<int> d(-40, 40);
        for (auto& x : v) x = static_cast<T>(d(rng));
    } else {
        std::uniform_real_distribution<double> d(-100, 100);
        for (auto& x : v) x = static_cast<T>(rng() % 7 == 0 ? 0.0 : std::round(d(rng) * 4) / 4);  // ties too
    }
    return v;
}

template <class T>
void check_properties() {
    const Reducer& r = test::reducer();
    if (std::is_same_v<T, double> && !r.device_info().has_fp64) return;
    std::mt19937_64 rng(test::seed_for(700, sizeof(T), std::is_integral_v<T>));
    for (int round = 0; round < 6; ++round) {
        const std::size_t n = 1 + rng() % 70000;
        const auto data = random_data<T>(n, rng);
        INFO("n = " << n << ", round " << round);
        const T mn = r.min(data), mx = r.max(data);
        CHECK(std::all_of(data.begin(), data.end(), [&](T x) { return mn <= x && x <= mx; }));
        const auto amin = r.argmin(data), amax = r.argmax(data);
        REQUIRE(amin.index < n);
        REQUIRE(amax.index < n);
        CHECK(data[amin.index] == mn);
        CHECK(amin.value == mn);
        CHECK(std::find(data.begin(), data.end(), mn) - data.begin() == std::ptrdiff_t(amin.index));
        CHECK(data[amax.index] == mx);
        CHECK(std::find(data.begin(), data.end(), mx) - data.begin() == std::ptrdiff_t(amax.index));
        const auto both = r.minmax(data);
        CHECK(both.min == mn);
        CHECK(both.max == mx);
        const std::uint64_t zeros = std::count(data.begin(), data.end(), T(0));
        CHECK(r.count_nonzero(data) + zeros == n);
        CHECK(r.norm_inf(data) == std::max(std::fabs(double(mn)), std::fabs(double(mx))));
        // Sums that do not fit their result type throw (64-bit data); the real-valued mean and
        // norm never do, and say how large those sums were.
        const double l2 = r.norm_l2(data), mean = r.mean(data);
        try {
            const double squares = double(r.sum_of_squares(data));  // outside CHECK, which would catch
            CHECK(l2 * l2 == Approx(squares).epsilon(1e-12));
        } catch (const Overflow&) {
            CHECK(l2 * l2 >= 0x1p64 * (1 - 1e-12));
        }
        try {
            const double sum = double(r.sum(data));
            CHECK(mean * double(n) == Approx(sum).epsilon(1e-12).margin(1e-9));
        } catch (const Overflow&) {
            CHECK(std::fabs(mean * double(n)) >= 0x1p63 * (1 - 1e-12));
        }
        // Split ranges and permutations: exact for integers in every mode, and for floats in
        // the correctly rounded mode (whose sum of a split is checked through a permutation).
        const std::size_t k = rng() % (n + 1);
        auto shuffled = data;
        std::shuffle(shuffled.begin(), shuffled.end(), rng);
        if constexpr (std::is_integral_v<T>) {
            LaunchParams wrap;  // the splits' sums add modulo 2^64 like the whole's
            wrap.overflow = IntegerOverflow::wrap;
            CHECK(r.sum(data.data(), k, wrap) + r.sum(data.data() + k, n - k, wrap) == r.sum(data, wrap));
            CHECK(r.sum(shuffled, wrap) == r.sum(data, wrap));
        } else {
            LaunchParams cr;
            cr.float_mode = FloatMode::correctly_rounded;
            const double whole = r.sum(data, cr);
            CHECK(r.sum(shuffled, cr) == whole);
            LaunchParams small_groups = cr;
            small_groups.work_group_size = 16;
            small_groups.times = 2;
            CHECK(r.sum(shuffled, small_groups) == whole);
            // Deterministic mode: the same data and plan give the same bits.
            CHECK(r.sum(data) == r.sum(data));
        }
    }
}

}  // namespace

TEMPLATE_TEST_CASE("properties: extremes, first locations, counts, norms, splits and permutations", "[properties]",
                   std::int8_t, std::uint16_t, std::int32_t, std::uint64_t, float, double) {
    check_properties<TestType>();
}
