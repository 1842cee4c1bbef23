#include "reference/random_values.hpp"

#include <cmath>
#include <limits>
#include <random>
#include <utility>

namespace clreduce::testing {

namespace {

// The bounds random_values draws integers from: |x| < 2^20 when narrow, clamped to T's range.
template <class T>
std::pair<T, T> integer_range(bool narrow) {
    using limits = std::numeric_limits<T>;
    if (!narrow) return {limits::min(), limits::max()};
    constexpr std::int64_t limit = (1 << 20) - 1;
    const T hi = std::uint64_t(limits::max()) > std::uint64_t(limit) ? T(limit) : limits::max();
    T lo = 0;
    if constexpr (std::is_signed_v<T>) lo = std::int64_t(limits::min()) < -limit ? T(-limit) : limits::min();
    return {lo, hi};
}

}  // namespace

template <class T>
std::vector<T> random_values(std::uint64_t n, std::uint64_t seed, bool narrow) {
    std::mt19937_64 rng(seed);
    std::vector<T> out(n);
    if constexpr (std::is_integral_v<T>) {
        // uniform_int_distribution takes no 8-bit types; 8- and 16-bit values are drawn as int.
        using Draw = std::conditional_t<(sizeof(T) < sizeof(int)), int, T>;
        const auto [lo, hi] = integer_range<T>(narrow);
        std::uniform_int_distribution<Draw> dist(lo, hi);
        for (auto& v : out) v = static_cast<T>(dist(rng));
    } else {
        std::uniform_real_distribution<T> dist(T(-1000), T(1000));
        for (std::uint64_t i = 0; i < n; ++i) out[i] = dist(rng) * (i % 97 == 0 ? T(1000) : T(1));
    }
    return out;
}

template <class T>
std::string random_values_description(bool narrow) {
    if constexpr (std::is_integral_v<T>) {
        const auto [lo, hi] = integer_range<T>(narrow);
        const bool whole = lo == std::numeric_limits<T>::min() && hi == std::numeric_limits<T>::max();
        return "uniform integers in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]" +
               (whole ? " (the type's whole range)" : "");
    } else {
        (void)narrow;
        return "uniform in [-1000, 1000), every 97th value scaled by 1000";
    }
}

#define CLREDUCE_RANDOM_VALUES(T)                                              \
    template std::vector<T> random_values(std::uint64_t, std::uint64_t, bool); \
    template std::string random_values_description<T>(bool);
CLREDUCE_RANDOM_VALUES(std::int8_t)
CLREDUCE_RANDOM_VALUES(std::uint8_t)
CLREDUCE_RANDOM_VALUES(std::int16_t)
CLREDUCE_RANDOM_VALUES(std::uint16_t)
CLREDUCE_RANDOM_VALUES(std::int32_t)
CLREDUCE_RANDOM_VALUES(std::uint32_t)
CLREDUCE_RANDOM_VALUES(std::int64_t)
CLREDUCE_RANDOM_VALUES(std::uint64_t)
CLREDUCE_RANDOM_VALUES(float)
CLREDUCE_RANDOM_VALUES(double)
#undef CLREDUCE_RANDOM_VALUES

}  // namespace clreduce::testing
