#pragma once
// The extremes of statistics on the host (host_plan_moments.cpp): of the values as doubles, or of
// the elements in their own type, which take half the comparisons. They depend on no order, so
// level 1 keeps them in registers while it takes a lane's sums in the plan's order.
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "exec/host_doubles.hpp"

namespace clreduce::host_moments {

// The extremes of the values a pass took, by `<` (NaN never compares): +inf and -inf before any
// number (V: double, or Doubles or Doubles4 for their lanes).
template <class V>
struct Extremes {
    V lo = V{} + std::numeric_limits<double>::infinity();
    V hi = V{} - std::numeric_limits<double>::infinity();
    CLREDUCE_INLINE void take(V l, V h) {
        lo = l < lo ? l : lo;
        hi = hi < h ? h : hi;
    }
};

// The extremes as level 1 (host_plan_moments.cpp's take_lanes) sees them: each value converted
// (Converted: the extremes of V's lanes of doubles), or the elements of each run as they are
// (Native, below).
template <class V>
struct Converted {
    Extremes<V> ext;
    CLREDUCE_INLINE void see(V x) { ext.take(x, x); }
    CLREDUCE_INLINE void see_run(const unsigned char*, std::uint64_t) {}
};

// ... in the elements' own type, N's lanes at once (twice a V's: 16 four-byte elements where V
// holds 8 doubles), so half as many comparisons as on the doubles: statistics on the host are
// bound by their arithmetic where the data is in cache. `<` orders 4-byte integers and floats
// as it orders their (exact) doubles, and NaN never compares in either.
template <class T, class N>
struct Native {
    static constexpr T kHighest =
        std::is_floating_point_v<T> ? std::numeric_limits<T>::infinity() : std::numeric_limits<T>::max();
    static constexpr T kLowest =
        std::is_floating_point_v<T> ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::lowest();
    N lo = N{} + kHighest;
    N hi = N{} + kLowest;
    template <class V>
    CLREDUCE_INLINE void see(V) {}
    CLREDUCE_INLINE void see_run(const unsigned char* in, std::uint64_t k) {
        N x;
        std::memcpy(&x, in + k * sizeof(T), sizeof x);
        lo = x < lo ? x : lo;
        hi = hi < x ? x : hi;
    }
};

// Whether T's extremes are taken as Native: 4-byte elements (doubles gain nothing).
template <class T>
constexpr bool kNativeExtremes = sizeof(T) == 4;

}  // namespace clreduce::host_moments
