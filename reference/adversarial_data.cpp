#include "reference/adversarial_data.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>

#include "reference/exact_float_sum.hpp"

namespace clreduce::testing {
namespace {

constexpr std::array<std::pair<Dataset, std::string_view>, 8> kNames{{
    {Dataset::benign, "benign"},
    {Dataset::ones, "ones"},
    {Dataset::small_integers, "small_integers"},
    {Dataset::mixed_magnitudes, "mixed_magnitudes"},
    {Dataset::cancellation, "cancellation"},
    {Dataset::ill_conditioned, "ill_conditioned"},
    {Dataset::wide_range, "wide_range"},
    {Dataset::full_range, "full_range"},
}};

template <class T>
void fill_cancellation(std::vector<T>& out, std::mt19937_64& rng) {
    std::uniform_real_distribution<double> exponent(0, 8), unit(0, 1);
    std::bernoulli_distribution negative(0.5);
    const std::uint64_t n = out.size();
    std::uint64_t smalls = n / 16;
    if ((n - smalls) % 2) ++smalls;  // an even count is left for the pairs
    std::uint64_t i = 0;
    for (; i < smalls; ++i) out[i] = static_cast<T>(unit(rng));
    for (; i + 1 < n; i += 2) {
        const T x = static_cast<T>((negative(rng) ? -1 : 1) * std::pow(10.0, exponent(rng)));
        out[i] = x;
        out[i + 1] = -x;
    }
    std::shuffle(out.begin(), out.end(), rng);
}

// After Ogita, Rump & Oishi, "Accurate sum and dot product" (2005), GenDot: the first half
// spans exponents 0..b at random, the second half brings the running sum down step by step
// (exponents falling linearly from b to 0), so the final sum is about 1 while the terms are
// up to 2^b. A long double running sum is precise enough to steer by.
template <class T>
void fill_ill_conditioned(std::vector<T>& out, std::mt19937_64& rng) {
    const int b = 40;
    std::uniform_real_distribution<double> mantissa(1, 2);
    std::uniform_int_distribution<int> exponent(0, b);
    std::bernoulli_distribution negative(0.5);
    const std::uint64_t n = out.size(), half = n / 2;
    long double running = 0;
    for (std::uint64_t i = 0; i < half; ++i) {
        const int e = i == 0 ? b : i == 1 ? 0 : exponent(rng);
        out[i] = static_cast<T>((negative(rng) ? -1 : 1) * std::ldexp(mantissa(rng), e));
        running += out[i];
    }
    for (std::uint64_t i = half; i < n; ++i) {
        const std::uint64_t steps = n - half - 1;
        const int e = steps == 0 ? 0 : static_cast<int>(std::lround(b - double(b) * double(i - half) / double(steps)));
        const long double target = (negative(rng) ? -1 : 1) * std::ldexp(mantissa(rng), e);
        out[i] = static_cast<T>(target - running);
        running += out[i];
    }
    std::shuffle(out.begin(), out.end(), rng);
}

}  // namespace

std::string_view dataset_name(Dataset d) {
    for (const auto& [value, name] : kNames)
        if (value == d) return name;
    return "?";
}

std::string_view dataset_description(Dataset d) {
    switch (d) {
        case Dataset::benign: return "uniform in [-1, 1)";
        case Dataset::ones: return "all 1.0 (a float running sum sticks at 2^24)";
        case Dataset::small_integers: return "uniform integers 0..15";
        case Dataset::mixed_magnitudes: return "positive, 10^U(-8, 8)";
        case Dataset::cancellation: return "pairs x, -x (|x| up to 1e8) plus 1/16 in [0, 1), shuffled";
        case Dataset::ill_conditioned: return "GenSum-style, terms up to 2^40, sum about 1 (cond > 1e10)";
        case Dataset::wide_range: return "random signs, exponents over 300 binades (float32: 200)";
        case Dataset::full_range: return "random signs, exponents over the whole range, subnormals included";
    }
    return "?";
}

Dataset parse_dataset(std::string_view name) {
    for (const auto& [value, spelling] : kNames)
        if (spelling == name) return value;
    throw std::invalid_argument("unknown data set '" + std::string(name) + "'");
}

std::vector<Dataset> all_datasets() {
    std::vector<Dataset> out;
    for (const auto& entry : kNames) out.push_back(entry.first);
    return out;
}

template <class T>
std::vector<T> make_dataset(Dataset d, std::uint64_t n, std::uint64_t seed) {
    static_assert(std::is_floating_point_v<T>);
    std::mt19937_64 rng(seed ^ (static_cast<std::uint64_t>(d) << 56));
    std::vector<T> out(n);
    switch (d) {
        case Dataset::benign: {
            std::uniform_real_distribution<double> dist(-1, 1);
            for (auto& v : out) v = static_cast<T>(dist(rng));
            break;
        }
        case Dataset::ones: std::fill(out.begin(), out.end(), T(1)); break;
        case Dataset::small_integers: {
            std::uniform_int_distribution<int> dist(0, 15);
            for (auto& v : out) v = static_cast<T>(dist(rng));
            break;
        }
        case Dataset::mixed_magnitudes: {
            std::uniform_real_distribution<double> exponent(-8, 8);
            for (auto& v : out) v = static_cast<T>(std::pow(10.0, exponent(rng)));
            break;
        }
        case Dataset::cancellation: fill_cancellation(out, rng); break;
        case Dataset::ill_conditioned: fill_ill_conditioned(out, rng); break;
        case Dataset::wide_range:
        case Dataset::full_range: {
            // Exponent ranges whose sums of up to 2^40 terms stay finite.
            const bool f = std::is_same_v<T, float>;
            const int lo = d == Dataset::wide_range ? (f ? -100 : -150) : (f ? -149 : -1074);
            const int hi = d == Dataset::wide_range ? (f ? 99 : 149) : (f ? 86 : 982);
            std::uniform_int_distribution<int> exponent(lo, hi);
            std::uniform_real_distribution<double> mantissa(1, 2);
            for (auto& v : out) v = static_cast<T>((rng() & 1 ? -1 : 1) * std::ldexp(mantissa(rng), exponent(rng)));
            break;
        }
    }
    return out;
}

template <class T>
double condition_number(const T* data, std::uint64_t n) {
    ExactSum sum, abs_sum;
    for (std::uint64_t i = 0; i < n; ++i) {
        sum.add(data[i]);
        abs_sum.add(std::fabs(data[i]));
    }
    if (sum.is_zero()) return abs_sum.is_zero() ? 1.0 : HUGE_VAL;
    return static_cast<double>(abs_sum.to_long_double() / std::fabs(sum.to_long_double()));
}

std::string_view special_name(Special s) {
    switch (s) {
        case Special::nan: return "nan";
        case Special::pos_inf: return "+inf";
        case Special::neg_inf: return "-inf";
        case Special::both_inf: return "+inf,-inf";
        case Special::all_nan: return "all-nan";
    }
    return "?";
}

std::vector<Special> all_specials() {
    return {Special::nan, Special::pos_inf, Special::neg_inf, Special::both_inf, Special::all_nan};
}

template <class T>
std::vector<std::uint64_t> insert_special(std::vector<T>& data, Special s, std::uint64_t seed) {
    const std::uint64_t n = data.size();
    if (n == 0) return {};
    const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<std::uint64_t> position(0, n - 1);
    switch (s) {
        case Special::nan: {
            const auto i = position(rng);
            data[i] = nan;
            return {i};
        }
        case Special::pos_inf:
        case Special::neg_inf: {
            const auto i = position(rng);
            data[i] = s == Special::pos_inf ? inf : -inf;
            return {i};
        }
        case Special::both_inf: {
            if (n < 2) throw std::invalid_argument("insert_special: +inf and -inf need two elements");
            const auto i = position(rng);
            auto j = position(rng);
            while (j == i) j = position(rng);
            data[i] = inf;
            data[j] = -inf;
            return {std::min(i, j), std::max(i, j)};
        }
        case Special::all_nan: {
            std::fill(data.begin(), data.end(), nan);
            std::vector<std::uint64_t> all(n);
            for (std::uint64_t i = 0; i < n; ++i) all[i] = i;
            return all;
        }
    }
    return {};
}

template std::vector<float> make_dataset(Dataset, std::uint64_t, std::uint64_t);
template std::vector<double> make_dataset(Dataset, std::uint64_t, std::uint64_t);
template double condition_number(const float*, std::uint64_t);
template double condition_number(const double*, std::uint64_t);
template std::vector<std::uint64_t> insert_special(std::vector<float>&, Special, std::uint64_t);
template std::vector<std::uint64_t> insert_special(std::vector<double>&, Special, std::uint64_t);

}  // namespace clreduce::testing
