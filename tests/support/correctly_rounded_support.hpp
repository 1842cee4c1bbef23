#pragma once
// What the correctly rounded sum's device tests share (test_correctly_rounded.cpp and
// test_correctly_rounded_bins.cpp): the routes and level 1 paths a device offers, a scope that
// forces one path, and the data sets that make the exact sum's parts spill.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <clreduce/clreduce.hpp>

#include "kernels/kernel_spec.hpp"  // src/
#include "reference/exact_float_sum.hpp"

namespace clreduce::test::correctly_rounded {

namespace ct = clreduce::testing;

// The routes a correctly rounded sum can take on this device: the expansion path where it is
// offered, and the fixed-point states of the second pass and (NVIDIA, CPU devices) the
// last-group finish.
inline std::vector<std::optional<InterGroup>> routes(const Reducer& r) {
    std::vector<std::optional<InterGroup>> out;
    for (InterGroup g : {InterGroup::exact_atomic, InterGroup::second_pass, InterGroup::last_group}) {
        LaunchParams p;
        p.float_mode = FloatMode::correctly_rounded;
        p.inter_group = g;
        try {
            r.plan(ElementType::float32, Operation::sum, 100000, p);
            out.push_back(g);
        } catch (const Unsupported&) {
        }
    }
    return out;
}

// The expansion route's level 1 paths to check on this device (exact_lane_passes): its own
// choice per type and, forced, the tested lanes and the anchored pass (where a float converts
// to a double with its subnormals; the untested passes are a CPU device's own choice).
inline std::vector<std::optional<ExactLanePasses>> level1_paths(const Reducer& r) {
    std::vector<std::optional<ExactLanePasses>> out{std::nullopt, ExactLanePasses::tested};
    if (r.device_info().has_float_denormals) out.push_back(ExactLanePasses::anchored);
    return out;
}

// Puts every plan of a scope on one level 1 path (std::nullopt: the device's own).
struct Level1Path {
    explicit Level1Path(std::optional<ExactLanePasses> passes) { force_exact_lane_passes(passes); }
    ~Level1Path() { force_exact_lane_passes(std::nullopt); }
    Level1Path(const Level1Path&) = delete;
    Level1Path& operator=(const Level1Path&) = delete;
};

inline std::string level1_name(std::optional<ExactLanePasses> passes) {
    return passes ? std::string("level 1 ") + to_string(*passes) + ", forced" : "level 1 as the device chooses";
}

inline std::string route_name(const std::optional<InterGroup>& g) { return g ? std::string(to_string(*g)) : "default"; }

inline bool offered(const Reducer& r) {
    try {
        LaunchParams p;
        p.float_mode = FloatMode::correctly_rounded;
        r.sum(std::vector<float>{1.0f}, p);
        return true;
    } catch (const Unsupported& e) {
        WARN("correctly_rounded is not offered on this device: " << e.what());
        return false;
    }
}

// Random signs, significands in [1, 2), exponents uniform in [lo, hi].
template <class T>
std::vector<T> spread(int lo, int hi, std::size_t n, std::mt19937_64& rng) {
    std::uniform_int_distribution<int> e(lo, hi);
    std::uniform_real_distribution<double> m(1, 2);
    std::vector<T> v(n);
    for (auto& x : v) x = static_cast<T>((rng() & 1 ? -1 : 1) * std::ldexp(m(rng), e(rng)));
    return v;
}

// Large values that cancel exactly (each with its negative, shuffled) among small ones whose
// exact sum is the result: a lane's terms then span far more than two doubles' 106 bits, and
// a small part lost anywhere changes the rounded result.
// Exponents of the large values in [large_lo, large_hi], of the small ones in [small_lo, small_hi].
template <class T>
std::vector<T> hidden_small(std::size_t n, std::mt19937_64& rng, int large_lo, int large_hi, int small_lo,
                            int small_hi) {
    const std::vector<T> large = spread<T>(large_lo, large_hi, n / 3, rng);
    std::vector<T> v = spread<T>(small_lo, small_hi, n - 2 * large.size(), rng);
    for (T x : large) {
        v.push_back(x);
        v.push_back(-x);
    }
    std::shuffle(v.begin(), v.end(), rng);
    return v;
}

// Random signs and significands, exponents rising linearly from lo to hi along the range.
template <class T>
std::vector<T> rising(std::size_t n, int lo, int hi, std::mt19937_64& rng) {
    std::uniform_real_distribution<double> m(1, 2);
    std::vector<T> v(n);
    for (std::size_t i = 0; i < n; ++i)
        v[i] = static_cast<T>((rng() & 1 ? -1 : 1) * std::ldexp(m(rng), lo + int((hi - lo) * double(i) / n)));
    return v;
}

template <class T>
std::vector<T> cancelling_spikes(std::size_t n, std::mt19937_64& rng) {
    std::vector<T> v = spread<T>(0, 0, n, rng);
    v[n / 2 + 3] = T(0x1p100);
    v[n / 4] = T(-0x1p100);  // cancels it: the small values' sum is the result
    return v;
}

// Values in [1, 2) with a block in the middle of the range, inside the work-items' vectors and
// away from their first and last, from which the GPU passes take the group's range (random
// significands and signs):
//  - above: values near 2^18, above the anchored passes' room;
//  - below: the [1, 2) values cancel in pairs (x at i, -x at n - 1 - i) and the block holds
//    values near 2^-85 that cancel in pairs, below the lanes' window, and values near 2^-105,
//    whose sum is the result: a lane that adds the 2^-85 values inexactly gets it wrong.
template <class T>
std::vector<T> inside_outliers(std::size_t n, bool above, std::mt19937_64& rng) {
    std::vector<T> v = spread<T>(0, 0, n, rng);
    const std::size_t k_max = 300, block = 3 * k_max, begin = n / 2 - block / 2;
    const std::vector<T> large = spread<T>(18, 18, block, rng), small = spread<T>(-85, -85, k_max, rng),
                         least = spread<T>(-105, -105, k_max, rng);
    if (above) {
        for (std::size_t i = 0; i < block; ++i) v[begin + i] = large[i];
        return v;
    }
    for (std::size_t i = 0; i < begin; ++i) v[n - 1 - i] = -v[i];
    for (std::size_t k = 0; k < k_max; ++k) {
        v[begin + 3 * k] = small[k];
        v[begin + 3 * k + 1] = least[k];
        v[begin + 3 * k + 2] = -small[k];
    }
    for (std::size_t i = begin + block; i < n - begin; ++i) v[i] = 0;
    return v;
}

template <class T>
double exact(const std::vector<T>& v, std::size_t from = 0) {
    return ct::exact_sum_of(v.data() + from, v.size() - from).to_double();
}

}  // namespace clreduce::test::correctly_rounded
