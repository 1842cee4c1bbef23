#pragma once
// The host path's indexed states (argmin, argmax, argminmax) of a part of host data, as
// ops/indexed.cl keeps them: the lowest index of the best value, NaN losing to every number.
// Block by block: the block's best value by a vectorised compare and select, then, only where
// it beats the part's so far, the block again for the first index that holds it. Included by
// host_order_free.cpp alone (its loops are target clones, whose resolvers one file defines).
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "exec/unaligned.hpp"

namespace clreduce::host_indexed {

// The indexed operations look at blocks of this many elements: the block's extreme first (a
// loop the compiler vectorises), then, where it beats the part's so far, the block again (in
// the first level of cache) for the first index that holds it.
constexpr std::uint64_t kIndexBlock = 4096;

// ops/indexed.cl's state: the lowest index of the best value (NaN loses to every number).
template <class A>
struct Indexed {
    std::uint64_t index = std::numeric_limits<std::uint64_t>::max();
    A value{};
};
template <class A>
inline bool is_nan(A v) {
    if constexpr (std::is_floating_point_v<A>)
        return std::isnan(v);
    else
        return false;
}
// Whether `b` (at a higher index than `a`, or `a` empty) replaces `a`.
template <bool IsMax, class A>
inline bool replaces(const Indexed<A>& a, const Indexed<A>& b) {
    if (b.index == std::numeric_limits<std::uint64_t>::max()) return false;
    if (a.index == std::numeric_limits<std::uint64_t>::max()) return true;
    if (is_nan(a.value) != is_nan(b.value)) return is_nan(a.value);
    return !is_nan(a.value) && (IsMax ? a.value < b.value : b.value < a.value);
}

// A block's best values (lo: the smallest, hi: the largest) by `<` alone, NaN never comparing
// (a block of NaN and numbers gives its best numbers; a block of NaN only, the identities +inf
// and -inf; integers, their type's extremes at worst). Bytes of lanes (GCC's vector extension:
// a compare and a select per lane; 64 or 32 as the host's vectors: host_vectors_512), each lane
// its own best; the lanes' best is the block's best value whatever their order (only the value
// is wanted here: the index comes from the scan for its first occurrence).
template <class A, std::size_t Bytes>
CLREDUCE_HOST_CLONES void block_best(const unsigned char* in, std::uint64_t n, A& lo, A& hi) {
    constexpr std::size_t kWidth = Bytes / sizeof(A);
    typedef A Lanes __attribute__((vector_size(Bytes)));
    constexpr A top = std::is_floating_point_v<A> ? std::numeric_limits<A>::infinity() : std::numeric_limits<A>::max();
    constexpr A bottom =
        std::is_floating_point_v<A> ? -std::numeric_limits<A>::infinity() : std::numeric_limits<A>::lowest();
    Lanes l, h;
    for (std::size_t j = 0; j < kWidth; ++j) {
        l[j] = top;
        h[j] = bottom;
    }
    std::uint64_t i = 0;
    for (; i + kWidth <= n; i += kWidth) {
        Lanes x;
        std::memcpy(&x, in + i * sizeof(A), sizeof x);
        l = x < l ? x : l;
        h = h < x ? x : h;
    }
    lo = top;
    hi = bottom;
    for (std::size_t j = 0; j < kWidth; ++j) {
        lo = l[j] < lo ? l[j] : lo;
        hi = hi < h[j] ? h[j] : hi;
    }
    for (; i < n; ++i) {
        const A x = load_at<A>(in, i);
        lo = x < lo ? x : lo;
        hi = hi < x ? x : hi;
    }
}

// The index of the first of elements [0, m) at `in` equal to `best`, else m: a vector of lanes
// (Bytes, as block_best's) compared at once and one branch for all of them. An element at a
// time took a compare and two branches each, and a part's first block is always looked at
// again: at 2^16 elements that loop was most of an argmax's time.
template <class A, std::size_t Bytes>
CLREDUCE_HOST_CLONES std::uint64_t first_equal(const unsigned char* in, std::uint64_t m, A best) {
    constexpr std::size_t kWidth = Bytes / sizeof(A);
    typedef A Lanes __attribute__((vector_size(Bytes)));
    Lanes b;
    for (std::size_t j = 0; j < kWidth; ++j) b[j] = best;
    std::uint64_t i = 0;
    for (; i + kWidth <= m; i += kWidth) {
        Lanes x;
        std::memcpy(&x, in + i * sizeof(A), sizeof x);
        const auto equal = x == b;  // lanes of all ones where equal
        std::uint64_t words[Bytes / 8];
        std::memcpy(words, &equal, sizeof words);
        std::uint64_t any = 0;
        for (const std::uint64_t w : words) any |= w;
        if (any != 0) break;
    }
    for (; i < m; ++i)
        if (load_at<A>(in, i) == best) return i;
    return m;
}

// The first element of a block equal to `best` (a number), else (the block is all NaN) its
// first element: the block's candidate.
template <class T, class A>
Indexed<A> first_of(const unsigned char* block, std::uint64_t m, std::uint64_t first, A best) {
    static const auto find = host_vectors_512() ? first_equal<A, 64> : first_equal<A, 32>;
    const std::uint64_t i = find(block, m, best);
    if (i < m) return {first + i, load_at<A>(block, i)};  // (-0 where best is +0, or the reverse)
    return {first, load_at<A>(block, 0)};
}

// The indexed states (argmin, argmax) of elements [first, first + n) at `in` (index `first`
// is element 0), block by block in index order.
template <class T, class A>
std::array<Indexed<A>, 2> indexed_part(const unsigned char* in, std::uint64_t n, std::uint64_t first) {
    std::array<Indexed<A>, 2> acc;
    const auto best = host_vectors_512() ? block_best<A, 64> : block_best<A, 32>;
    for (std::uint64_t b = 0; b < n; b += kIndexBlock) {
        const std::uint64_t m = std::min(kIndexBlock, n - b);
        const unsigned char* block = in + b * sizeof(T);
        A lo, hi;
        static_assert(std::is_same_v<T, A>, "indexed states keep the element type");
        best(block, m, lo, hi);
        // The block again (in the first level of cache) only where it can replace the part's.
        if (acc[0].index == std::numeric_limits<std::uint64_t>::max() || is_nan(acc[0].value) || lo < acc[0].value) {
            const Indexed<A> c = first_of<T, A>(block, m, first + b, lo);
            if (replaces<false>(acc[0], c)) acc[0] = c;
        }
        if (acc[1].index == std::numeric_limits<std::uint64_t>::max() || is_nan(acc[1].value) || acc[1].value < hi) {
            const Indexed<A> c = first_of<T, A>(block, m, first + b, hi);
            if (replaces<true>(acc[1], c)) acc[1] = c;
        }
    }
    return acc;
}

}  // namespace clreduce::host_indexed
