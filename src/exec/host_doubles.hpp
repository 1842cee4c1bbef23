#pragma once
// Eight doubles as one value (GCC's vector extension), for the host path's loops in the plan's
// order (host_plan_order.cpp, host_plan_moments.cpp): written on whole 64-byte vectors, a loop
// over independent lanes converts eight floats with one instruction in the AVX-512 clone, where
// GCC vectorizes the same plain loop at 32 bytes, and two or four in the narrower clones. Each
// lane's additions stay in their order, so the bits are the same at any width. Loops that
// compare and select take four doubles (Doubles4) where the host has no 64-byte vectors
// (unaligned.hpp's host_vectors_512).
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

}  // namespace clreduce
