// The contents of a Partial's state against what a reduction of its operation leaves: an
// empty range's state is all zero bytes (Partial of a call of no elements), an index lies
// within the count, a count in the state is the header's, a minimum is not above its maximum,
// and an exact integer sum lies within count times the range of the mapped elements.
#include "api/partial_validation.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "ops/state_value.hpp"

namespace clreduce {
namespace {

// Whether the first value of `accumulator` at `lo` is above the one at `hi` (NaN: neither).
bool above(ElementType accumulator, const std::uint8_t* lo, const std::uint8_t* hi) {
    return visit_type(accumulator, [&](auto tag) {
        using A = decltype(tag);
        if constexpr (std::is_same_v<A, half>) {
            return false;  // refused before: no half accumulator
        } else {
            A a, b;
            std::memcpy(&a, lo, sizeof a);
            std::memcpy(&b, hi, sizeof b);
            return a > b;
        }
    });
}

// The least and greatest value one element of integer type `element` maps to.
std::pair<double, double> mapped_range(ElementType element, ElementMap map) {
    const auto [lo, hi] = visit_type(element, [](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_integral_v<T>)
            return std::pair<double, double>{static_cast<double>(std::numeric_limits<T>::lowest()),
                                             static_cast<double>(std::numeric_limits<T>::max())};
        else
            return std::pair<double, double>{0.0, 0.0};  // integer sums only
    });
    const double magnitude = std::max(-lo, hi);
    switch (map) {
        case ElementMap::identity: return {lo, hi};
        case ElementMap::square: return {0.0, magnitude * magnitude};
        case ElementMap::abs: return {0.0, magnitude};
        case ElementMap::nonzero: return {0.0, 1.0};
        case ElementMap::transform: break;
    }
    return {-HUGE_VAL, HUGE_VAL};
}

}  // namespace

std::string partial_state_fault(Operation op, ElementType element, ElementType accumulator, KernelOp plugin,
                                ElementMap map, std::uint64_t count, const std::uint8_t* state, std::size_t bytes) {
    const std::string what = std::string(operation_name(op)) + " state ";
    if (count == 0) {
        if (std::any_of(state, state + bytes, [](std::uint8_t b) { return b != 0; }))
            return what + "of no elements that is not all zero bytes";
        return {};
    }
    const std::size_t a = type_size(accumulator);
    switch (plugin_info(plugin).layout) {
        case StateLayout::indexed:
        case StateLayout::indexed_pair: {
            for (std::size_t at = 0; at < bytes; at += kIndexedStateSize) {
                std::uint64_t index = 0;
                std::memcpy(&index, state + at + kIndexedIndexOffset, sizeof index);
                if (index >= count)
                    return what + "with index " + std::to_string(index) + " of " + std::to_string(count) + " elements";
            }
            if (bytes > kIndexedStateSize &&
                above(accumulator, state + kIndexedValueOffset, state + kIndexedStateSize + kIndexedValueOffset))
                return what + "whose minimum is above its maximum";
            return {};
        }
        case StateLayout::moments: {
            std::uint64_t n = 0;
            std::memcpy(&n, state, sizeof n);
            if (n != count)
                return what + "counting " + std::to_string(n) + " elements where its header counts " +
                       std::to_string(count);
            const MomentsState m = state_moments(element, accumulator, state);
            if (m.lo > m.hi) return what + "whose minimum is above its maximum";  // (NaN: neither)
            if (!is_floating(element)) {  // the extremes are values of the element type
                const auto [lo, hi] = mapped_range(element, ElementMap::identity);
                if (!(m.lo >= lo && m.hi <= hi))
                    return what + "whose extremes are not " + std::string(type_name(element)) + " values";
            }
            return {};
        }
        case StateLayout::pair:
            if (above(accumulator, state, state + a)) return what + "whose minimum is above its maximum";
            return {};
        case StateLayout::int192: {
            // count times the mapped elements' range, with room for the double's rounding.
            if (is_floating(element) && map != ElementMap::nonzero) return {};  // integer sums only
            const auto [lo, hi] = mapped_range(element, map);
            const double n = static_cast<double>(count), slack = 1 + 1e-12;
            const double v = ExactInteger::from_limbs(state, 3).rounded();
            if (v < lo * n * slack || v > hi * n * slack)
                return what + "of " + std::to_string(count) + " " + std::string(type_name(element)) +
                       " elements holding " + ExactInteger::from_limbs(state, 3).describe() +
                       ", beyond what they can sum to";
            return {};
        }
        case StateLayout::value:
            // Counts and magnitudes of integers in a uint64 that no call widens.
            if (map == ElementMap::nonzero || (map == ElementMap::abs && !is_floating(element))) {
                std::uint64_t v = 0;
                std::memcpy(&v, state, sizeof v);
                const double most = map == ElementMap::nonzero ? static_cast<double>(count)
                                                               : mapped_range(element, ElementMap::abs).second;
                if (accumulator == ElementType::uint64 && static_cast<double>(v) > most)
                    return what + "holding " + std::to_string(v) + ", more than " + std::to_string(count) + " " +
                           std::string(type_name(element)) + " elements give";
            }
            return {};
        case StateLayout::compensated:  // any two numbers are a sum and its compensation
        case StateLayout::exact:        // any limbs are some fixed-point number
        case StateLayout::int128: return {};
    }
    return {};
}

std::string upgrade_moments_extremes(ElementType element, ElementType accumulator, KernelOp plugin, std::uint64_t count,
                                     std::uint8_t* state) {
    const ElementType extremes = moments_extreme_type(element, accumulator);
    if (plugin_info(plugin).layout != StateLayout::moments || extremes == accumulator || count == 0) return {};
    const auto [lo, hi] = mapped_range(element, ElementMap::identity);
    for (std::size_t at = 8 + 3 * 4; at <= 8 + 4 * 4; at += 4) {
        float v = 0;
        std::memcpy(&v, state + at, sizeof v);
        if (!(v >= lo && v <= hi && std::nearbyint(v) == v))
            return "statistics state whose extremes are not " + std::string(type_name(element)) + " values";
        if (extremes == ElementType::int32) {
            const auto i = static_cast<std::int32_t>(v);
            std::memcpy(state + at, &i, sizeof i);
        } else {
            const auto u = static_cast<std::uint32_t>(v);
            std::memcpy(state + at, &u, sizeof u);
        }
    }
    return {};
}

}  // namespace clreduce
