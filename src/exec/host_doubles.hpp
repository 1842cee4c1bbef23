#pragma once
// Eight doubles as one value (GCC's vector extension), or four (Doubles4), for the host path's
// loops in the plan's order (host_plan_order.cpp, host_plan_moments.cpp) and the transpose of
// work-items' lanes (lane_vectors). Written on whole 64-byte vectors, a loop over independent
// lanes converts eight floats with one instruction in the AVX-512 clone, where GCC vectorizes
// the same plain loop at 32 bytes. The clones without 64-byte registers take Doubles4 instead
// (unaligned.hpp's host_vectors_512): there GCC keeps a 64-byte value on the stack, stores it by
// pieces that the next load cannot forward, and compares and selects it element by element.
// Each lane's additions stay in their order, so the bits are the same at any width.
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "exec/unaligned.hpp"

// GCC warns that a function returning a 64-byte vector has another ABI with AVX-512 than
// without: the helpers here are always inlined into their callers' target clones, so no call
// passes one.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

// Always inlined: a target clone compiles the helper for its own vector width, where a call
// would run it at the default target's.
#define CLREDUCE_INLINE __attribute__((always_inline)) inline

namespace clreduce {

typedef double Doubles __attribute__((vector_size(64)));
constexpr std::uint64_t kDoublesWidth = 8;
// Four doubles: for loops that compare and select, in the clones without 64-byte registers
// (unaligned.hpp's host_vectors_512).
typedef double Doubles4 __attribute__((vector_size(32)));

// Element k of `in` (any address) as a double, or elements [k, k + 8) as Doubles, or [k, k + 4)
// as Doubles4.
template <class T, class V>
CLREDUCE_INLINE V load_as(const unsigned char* in, std::uint64_t k) {
    if constexpr (std::is_same_v<V, double>) {
        return static_cast<double>(load_at<T>(in, k));
    } else if constexpr (std::is_same_v<V, Doubles4>) {
        typedef T Elements __attribute__((vector_size(4 * sizeof(T))));
        Elements e;
        std::memcpy(&e, in + k * sizeof(T), sizeof e);
        if constexpr (std::is_same_v<T, std::uint32_t>)
            return __builtin_convertvector(e, Doubles4);
        else
            return Doubles4{double(e[0]), double(e[1]), double(e[2]), double(e[3])};
    } else {
        typedef T Elements __attribute__((vector_size(kDoublesWidth * sizeof(T))));
        Elements e;
        std::memcpy(&e, in + k * sizeof(T), sizeof e);
        if constexpr (std::is_same_v<T, std::uint32_t>) {
            return __builtin_convertvector(e, Doubles);
        } else {
            // Element by element, which GCC makes one conversion of the whole vector (vcvtps2pd,
            // vcvtdq2pd into a 64-byte register); __builtin_convertvector converts it as two
            // halves and joins them (four instructions, on the port the arithmetic needs).
            // Unsigned elements keep __builtin_convertvector, which this form makes 8 scalars.
            return Doubles{double(e[0]), double(e[1]), double(e[2]), double(e[3]),
                           double(e[4]), double(e[5]), double(e[6]), double(e[7])};
        }
    }
}

// N elements of type T as one vector.
template <class T, std::uint64_t N>
struct ElementsOf {
    typedef T type __attribute__((vector_size(N * sizeof(T))));
};

// The lanes of V: eight (Doubles) or four (Doubles4).
template <class V>
constexpr std::uint32_t kLanesOf = sizeof(V) / sizeof(double);

// The V at p.
template <class V>
CLREDUCE_INLINE V vector_at(const double* p) {
    V v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

// Lanes k to k + 3 of four consecutive work-items (VW lanes each, at p) into out[0] to out[3]:
// a 4 x 4 transpose. Each vector is loaded into a register of its own: loaded into an array,
// GCC copied it there by 16-byte halves that the 32-byte load from it waited for.
template <std::uint32_t VW>
CLREDUCE_INLINE void transpose4(const double* p, std::uint32_t k, Doubles4* out) {
    const Doubles4 w0 = vector_at<Doubles4>(p + k), w1 = vector_at<Doubles4>(p + VW + k);
    const Doubles4 w2 = vector_at<Doubles4>(p + 2 * VW + k), w3 = vector_at<Doubles4>(p + 3 * VW + k);
    const Doubles4 t0 = __builtin_shufflevector(w0, w1, 0, 4, 2, 6);  // lanes 0 and 2 of items 0, 1
    const Doubles4 t1 = __builtin_shufflevector(w0, w1, 1, 5, 3, 7);  // lanes 1 and 3
    const Doubles4 t2 = __builtin_shufflevector(w2, w3, 0, 4, 2, 6);  // ... of items 2, 3
    const Doubles4 t3 = __builtin_shufflevector(w2, w3, 1, 5, 3, 7);
    out[0] = __builtin_shufflevector(t0, t2, 0, 1, 4, 5);
    out[1] = __builtin_shufflevector(t1, t3, 0, 1, 4, 5);
    out[2] = __builtin_shufflevector(t0, t2, 2, 3, 6, 7);
    out[3] = __builtin_shufflevector(t1, t3, 2, 3, 6, 7);
}

// Lane k of V's lanes of consecutive work-items (vector_width VW lanes each, at p) into out[k],
// for every k < VW: a transpose. Eight work-items: widths 2 and 4 by shuffles of whole vectors
// (a 4 x 8 transpose is eight vpermt2pd), wider ones by two 4 x 4 transposes joined. Four: by
// 4 x 4 transposes from width 4 up.
template <std::uint32_t VW, class V>
CLREDUCE_INLINE void lane_vectors(const double* p, V* out) {
    if constexpr (VW == 1) {
        out[0] = vector_at<V>(p);
    } else if constexpr (std::is_same_v<V, Doubles4>) {
        if constexpr (VW == 2) {
            const V v0 = vector_at<V>(p), v1 = vector_at<V>(p + 4);
            out[0] = __builtin_shufflevector(v0, v1, 0, 2, 4, 6);
            out[1] = __builtin_shufflevector(v0, v1, 1, 3, 5, 7);
        } else {
            for (std::uint32_t k = 0; k < VW; k += 4) transpose4<VW>(p, k, out + k);
        }
    } else if constexpr (VW == 2) {
        const V v0 = vector_at<V>(p), v1 = vector_at<V>(p + 8);
        out[0] = __builtin_shufflevector(v0, v1, 0, 2, 4, 6, 8, 10, 12, 14);
        out[1] = __builtin_shufflevector(v0, v1, 1, 3, 5, 7, 9, 11, 13, 15);
    } else if constexpr (VW == 4) {
        const V v0 = vector_at<V>(p), v1 = vector_at<V>(p + 8), v2 = vector_at<V>(p + 16), v3 = vector_at<V>(p + 24);
        // a: lanes 0 then 1 of work-items 0-3; b: lanes 2 then 3; c, d: the same of 4-7.
        const V a = __builtin_shufflevector(v0, v1, 0, 4, 8, 12, 1, 5, 9, 13);
        const V b = __builtin_shufflevector(v0, v1, 2, 6, 10, 14, 3, 7, 11, 15);
        const V c = __builtin_shufflevector(v2, v3, 0, 4, 8, 12, 1, 5, 9, 13);
        const V d = __builtin_shufflevector(v2, v3, 2, 6, 10, 14, 3, 7, 11, 15);
        out[0] = __builtin_shufflevector(a, c, 0, 1, 2, 3, 8, 9, 10, 11);
        out[1] = __builtin_shufflevector(a, c, 4, 5, 6, 7, 12, 13, 14, 15);
        out[2] = __builtin_shufflevector(b, d, 0, 1, 2, 3, 8, 9, 10, 11);
        out[3] = __builtin_shufflevector(b, d, 4, 5, 6, 7, 12, 13, 14, 15);
    } else {
        for (std::uint32_t k = 0; k < VW; k += 4) {
            Doubles4 lo[4], hi[4];  // work-items 0-3 and 4-7
            transpose4<VW>(p, k, lo);
            transpose4<VW>(p + 4 * VW, k, hi);
            for (std::uint32_t j = 0; j < 4; ++j)
                out[k + j] = __builtin_shufflevector(lo[j], hi[j], 0, 1, 2, 3, 4, 5, 6, 7);
        }
    }
}

}  // namespace clreduce
