#include "ops/state_merge.hpp"

#include <cmath>
#include <cstring>
#include <string>
#include <type_traits>

#include <clreduce/error.hpp>

#include "ops/exact_state.hpp"
#include "ops/state_value.hpp"

namespace clreduce {
namespace {

template <class V>
V load(const unsigned char* p) {
    V v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
template <class V>
void store(unsigned char* p, V v) {
    std::memcpy(p, &v, sizeof v);
}

// min/max as the kernels take them: fmin/fmax for floats (NaN ignored).
template <class A>
A extreme(A a, A b, bool is_max) {
    if constexpr (std::is_floating_point_v<A>)
        return is_max ? std::fmax(a, b) : std::fmin(a, b);
    else
        return is_max ? (a < b ? b : a) : (b < a ? b : a);
}

template <class A>
void merge_value(KernelOp op, unsigned char* into, const unsigned char* later) {
    const A a = load<A>(into), b = load<A>(later);
    switch (op) {
        case KernelOp::add:
            if constexpr (std::is_integral_v<A>)  // modulo 2^bits, as the kernels wrap
                store(into, static_cast<A>(static_cast<std::make_unsigned_t<A>>(a) +
                                           static_cast<std::make_unsigned_t<A>>(b)));
            else
                store(into, static_cast<A>(a + b));
            return;
        case KernelOp::multiply:
            if constexpr (std::is_integral_v<A>)
                store(into, static_cast<A>(static_cast<std::make_unsigned_t<A>>(a) *
                                           static_cast<std::make_unsigned_t<A>>(b)));
            else
                store(into, static_cast<A>(a * b));
            return;
        case KernelOp::min:
        case KernelOp::max: store(into, extreme(a, b, plugin_info(op).is_max)); return;
        case KernelOp::bit_and:
        case KernelOp::bit_or:
        case KernelOp::bit_xor:
            if constexpr (std::is_integral_v<A>) {
                const int bit_op = plugin_info(op).bit_op;
                store(into, static_cast<A>(bit_op == 1 ? (a & b) : bit_op == 2 ? (a | b) : (a ^ b)));
                return;
            }
            break;
        default: break;
    }
    throw Error("internal: no host merge of " + std::string(plugin_info(op).file) + "'s one-value state");
}

// ops/add_compensated.cl's combine: b's sum added with its rounding error kept, errors summed.
template <class A>
void merge_compensated(unsigned char* into, const unsigned char* later) {
    A s = load<A>(into), c = load<A>(into + sizeof(A));
    const A x = load<A>(later), xc = load<A>(later + sizeof(A));
    const A t = s + x;
    if (std::isfinite(t)) c += std::fabs(s) >= std::fabs(x) ? (s - t) + x : (x - t) + s;
    s = t;
    c += xc;
    store(into, s);
    store(into + sizeof(A), c);
}

template <class A>
void merge_pair(unsigned char* into, const unsigned char* later) {
    store(into, extreme(load<A>(into), load<A>(later), false));
    store(into + sizeof(A), extreme(load<A>(into + sizeof(A)), load<A>(later + sizeof(A)), true));
}

// ops/indexed.cl: NaN loses to every number; among equals the lower index (into's) wins.
template <class A>
void merge_indexed(bool is_max, unsigned char* into, const unsigned char* later, std::uint64_t into_count) {
    const A a = load<A>(into + 8), b = load<A>(later + 8);
    const std::uint64_t b_index = load<std::uint64_t>(later) + into_count;
    bool take = false;
    if constexpr (std::is_floating_point_v<A>) {
        if (std::isnan(a) != std::isnan(b))
            take = std::isnan(a);
        else
            take = !std::isnan(a) && (is_max ? b > a : b < a);
    } else {
        take = is_max ? b > a : b < a;
    }
    if (take) {
        store(into + 8, b);
        store(into, b_index);
    }
}

// ops/moments.cl's combine: later's sums moved to into's shift; the extremes in E (the
// accumulator A, or a 32-bit integer for integer elements in a float accumulator).
template <class A, class E>
void merge_moments(unsigned char* into, const unsigned char* later) {
    const std::uint64_t na = load<std::uint64_t>(into), nb = load<std::uint64_t>(later);
    if (nb == 0) return;
    if (na == 0) {
        std::memcpy(into, later, 8 + 5 * sizeof(A));
        return;
    }
    const auto at = [](auto* s, int k) { return s + 8 + k * sizeof(A); };
    const A d = load<A>(at(later, 0)) - load<A>(at(into, 0));
    const A b1 = load<A>(at(later, 1)), b2 = load<A>(at(later, 2));
    const A nbd = static_cast<A>(nb) * d;
    store(at(into, 1), static_cast<A>(load<A>(at(into, 1)) + (b1 + nbd)));
    store(at(into, 2), static_cast<A>(load<A>(at(into, 2)) + (b2 + d * (A(2) * b1 + nbd))));
    store(into, na + nb);
    store(at(into, 3), extreme(load<E>(at(into, 3)), load<E>(at(later, 3)), false));
    store(at(into, 4), extreme(load<E>(at(into, 4)), load<E>(at(later, 4)), true));
}

// ops/add_exact.cl's combine: limbs added, carries up (limbs below the top in [0, 2^32)),
// flags or-ed. The value is exact, so any order of merges gives the same limbs.
void merge_exact(ElementType accumulator, unsigned char* into, const unsigned char* later) {
    const int limbs = exact_state_limbs(accumulator);
    std::int64_t carry = 0;
    for (int k = 0; k < limbs; ++k) {
        const std::uint64_t sum = static_cast<std::uint64_t>(load<std::int64_t>(into + 8 * k)) +
                                  static_cast<std::uint64_t>(load<std::int64_t>(later + 8 * k)) +
                                  static_cast<std::uint64_t>(carry);
        std::int64_t v = static_cast<std::int64_t>(sum);
        if (k + 1 < limbs) {
            carry = v >> 32;  // arithmetic: floors
            v &= 0xffffffffLL;
        }
        store(into + 8 * k, v);
    }
    store(into + 8 * limbs, load<std::int64_t>(into + 8 * limbs) | load<std::int64_t>(later + 8 * limbs));
}

template <class F>
void with_accumulator(ElementType accumulator, F f) {
    visit_type(accumulator, [&](auto tag) {
        using A = decltype(tag);
        if constexpr (std::is_same_v<A, half>)
            throw Error("internal: a half accumulator");
        else
            f(A{});
    });
}

}  // namespace

void merge_state(KernelOp op, ElementType element, ElementType accumulator, unsigned char* into,
                 const unsigned char* later, std::uint64_t into_count) {
    const PluginInfo& plugin = plugin_info(op);
    switch (plugin.layout) {
        case StateLayout::value:
            with_accumulator(accumulator, [&](auto a) { merge_value<decltype(a)>(op, into, later); });
            return;
        case StateLayout::compensated:
            with_accumulator(accumulator, [&](auto a) {
                if constexpr (std::is_floating_point_v<decltype(a)>) merge_compensated<decltype(a)>(into, later);
            });
            return;
        case StateLayout::pair:
            with_accumulator(accumulator, [&](auto a) { merge_pair<decltype(a)>(into, later); });
            return;
        case StateLayout::indexed:
            with_accumulator(accumulator,
                             [&](auto a) { merge_indexed<decltype(a)>(plugin.is_max, into, later, into_count); });
            return;
        case StateLayout::indexed_pair:  // ops/argminmax.cl: argmin's state, then argmax's
            with_accumulator(accumulator, [&](auto a) {
                merge_indexed<decltype(a)>(false, into, later, into_count);
                merge_indexed<decltype(a)>(true, into + kIndexedStateSize, later + kIndexedStateSize, into_count);
            });
            return;
        case StateLayout::moments:
            with_accumulator(accumulator, [&](auto a) {
                using A = decltype(a);
                if constexpr (std::is_floating_point_v<A>) {
                    const ElementType extremes = moments_extreme_type(element, accumulator);
                    if (extremes == ElementType::int32)
                        merge_moments<A, std::int32_t>(into, later);
                    else if (extremes == ElementType::uint32)
                        merge_moments<A, std::uint32_t>(into, later);
                    else
                        merge_moments<A, A>(into, later);
                }
            });
            return;
        case StateLayout::exact: merge_exact(accumulator, into, later); return;
        case StateLayout::int128:
        case StateLayout::int192: break;
    }
    throw Error("internal: the wide integer states are added by add_int192");
}

void add_int192(unsigned char* into, const unsigned char* value, int limbs, bool is_signed) {
    if (limbs < 1 || limbs > 3) throw Error("internal: an integer of " + std::to_string(limbs) + " limbs");
    std::uint64_t v[3];
    std::memcpy(v, value, 8 * static_cast<std::size_t>(limbs));
    const bool negative = (is_signed || limbs > 1) && (v[limbs - 1] >> 63) != 0;
    for (int k = limbs; k < 3; ++k) v[k] = negative ? ~std::uint64_t(0) : 0;
    std::uint64_t carry = 0;
    for (int k = 0; k < 3; ++k) {
        const std::uint64_t a = load<std::uint64_t>(into + 8 * k);
        const std::uint64_t s = a + v[k];
        const std::uint64_t s2 = s + carry;
        carry = (s < a ? 1 : 0) + (s2 < s ? 1 : 0);
        store(into + 8 * k, s2);
    }
}

}  // namespace clreduce
