#pragma once
// Reading a plug-in's final state from its bits, by the layout its operation-table row
// gives (operation_table.hpp): the host never repeats a plug-in's struct by hand.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include <clreduce/element_type.hpp>
#include <clreduce/error.hpp>
#include <clreduce/results.hpp>

#include "ops/exact_integer.hpp"
#include "ops/exact_state.hpp"
#include "ops/operation_table.hpp"

namespace clreduce {

// Byte offsets inside StateLayout::indexed (ops/indexed.cl's struct { ulong index; ACC value; }),
// and its size: StateLayout::indexed_pair is two of them.
constexpr std::size_t kIndexedIndexOffset = 0;
constexpr std::size_t kIndexedValueOffset = 8;
constexpr std::size_t kIndexedStateSize = 16;

// A value of accumulator type `type` at `bits`, converted to R. A floating-point value that an
// integer R cannot hold (a named float accumulator's product of integers, say) throws Overflow
// rather than converting out of range.
template <class R>
R decode(ElementType type, const unsigned char* bits) {
    if constexpr (std::is_integral_v<R>) {
        if (type == ElementType::float32 || type == ElementType::float64) {
            const double d = decode<double>(type, bits);
            const double top = static_cast<double>(std::numeric_limits<R>::max());  // 2^64 for uint64
            if (!(d >= static_cast<double>(std::numeric_limits<R>::lowest()) && (sizeof(R) < 8 ? d <= top : d < top)))
                throw Overflow("a floating-point result " + std::to_string(d) + " outside the range of its " +
                               std::to_string(8 * sizeof(R)) + "-bit integer type");
            return static_cast<R>(d);
        }
    }
    return visit_type(type, [bits](auto tag) -> R {
        using V = decltype(tag);
        if constexpr (std::is_same_v<V, half>) {
            throw Error("internal: a half accumulator");
        } else {
            V v;
            std::memcpy(&v, bits, sizeof v);
            return static_cast<R>(v);
        }
    });
}

// The value of a one-value state (value, compensated or exact layout), converted to R.
template <class R>
R state_value(KernelOp op, ElementType accumulator, const unsigned char* bits) {
    switch (plugin_info(op).layout) {
        case StateLayout::exact: return static_cast<R>(round_exact_state(bits, accumulator));
        case StateLayout::compensated:
            return static_cast<R>(decode<double>(accumulator, bits) +
                                  decode<double>(accumulator, bits + type_size(accumulator)));
        case StateLayout::value: return decode<R>(accumulator, bits);
        default: break;
    }
    throw Error("internal: the state of " + std::string(plugin_info(op).file) + " holds more than one value");
}

// The exact integer of an integer additive state: a wide state's limbs (int128, int192), or the
// value of an integer accumulator.
inline ExactInteger state_integer(KernelOp op, ElementType accumulator, const unsigned char* bits) {
    if (const int limbs = wide_limbs(plugin_info(op).layout)) return ExactInteger::from_limbs(bits, limbs);
    if (is_signed(accumulator)) return ExactInteger::from_signed(decode<std::int64_t>(accumulator, bits));
    return ExactInteger::from_unsigned(decode<std::uint64_t>(accumulator, bits));
}

// A NaN result as the type's quiet NaN, other values as they are: which NaN's bits a state
// keeps depends on the device (its NAN constant, or an element's) and on the path, and the
// result is one value everywhere (min, max, minmax, norm_inf, argmin/argmax of NaN only).
template <class T>
T quiet(T v) {
    if constexpr (std::is_floating_point_v<T>)
        if (std::isnan(v)) return std::numeric_limits<T>::quiet_NaN();
    return v;
}

// Both values of a StateLayout::pair state.
template <class T>
MinMax<T> state_pair(ElementType accumulator, const unsigned char* bits) {
    return {quiet(decode<T>(accumulator, bits)), quiet(decode<T>(accumulator, bits + type_size(accumulator)))};
}

// The value and index of a StateLayout::indexed state (a NaN value: quiet()).
template <class T>
ArgResult<T> state_indexed(ElementType accumulator, const unsigned char* bits) {
    ArgResult<T> r;
    r.value = quiet(decode<T>(accumulator, bits + kIndexedValueOffset));
    std::memcpy(&r.index, bits + kIndexedIndexOffset, sizeof r.index);
    return r;
}

// Both halves of a StateLayout::indexed_pair state.
template <class T>
ArgMinMax<T> state_indexed_pair(ElementType accumulator, const unsigned char* bits) {
    return {state_indexed<T>(accumulator, bits), state_indexed<T>(accumulator, bits + kIndexedStateSize)};
}

// A StateLayout::moments state (ops/moments.cl): the count, the shift, the sums of the
// deviations and of their squares in the accumulator's type, and the extremes: in the
// accumulator's type too, but for integer elements in a float32 accumulator, where they are
// 32-bit integers (int32 or uint32 by the element's signedness: a float would round them).
struct MomentsState {
    std::uint64_t count = 0;
    double shift = 0, s1 = 0, s2 = 0, lo = 0, hi = 0;
};
// The type a moments state keeps its extremes in (each in its accumulator's bytes).
inline ElementType moments_extreme_type(ElementType element, ElementType accumulator) {
    if (is_floating(element) || accumulator != ElementType::float32) return accumulator;
    return is_signed(element) ? ElementType::int32 : ElementType::uint32;
}
inline MomentsState state_moments(ElementType element, ElementType accumulator, const unsigned char* bits) {
    const std::size_t a = type_size(accumulator);
    const ElementType extremes = moments_extreme_type(element, accumulator);
    MomentsState m;
    std::memcpy(&m.count, bits, sizeof m.count);
    m.shift = decode<double>(accumulator, bits + 8);
    m.s1 = decode<double>(accumulator, bits + 8 + a);
    m.s2 = decode<double>(accumulator, bits + 8 + 2 * a);
    m.lo = decode<double>(extremes, bits + 8 + 3 * a);
    m.hi = decode<double>(extremes, bits + 8 + 4 * a);
    return m;
}
// The count and the sums alone (the extremes read as accumulator values, which they are but
// for integer elements in a float32 accumulator: read them with the element type above).
inline MomentsState state_moments(ElementType accumulator, const unsigned char* bits) {
    return state_moments(ElementType::float64, accumulator, bits);
}

}  // namespace clreduce
