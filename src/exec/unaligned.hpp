#pragma once
// How the host path's loops read host data. It may start at any byte address (a numpy view at
// a byte offset, a cv::Mat over user memory): the host reads its elements through memcpy, which
// is defined at any address and compiles to the plain (unaligned) load on x86-64 and AArch64,
// vectorised as the loop was. CLREDUCE_HOST_CLONES compiles a loop for the host's vector width,
// chosen when the library loads (GCC's target_clones on x86-64, not under the sanitizers):
// lanes that are independent, or operations whose order changes no bits, give the same bits
// at any width. The AVX-512 clone is x86-64-v4 (AVX-512 F, CD, BW, DQ and VL, as every AVX-512
// server core since 2017 has), not AVX-512 F alone: 64-bit multiplies (sums of squares) and
// byte and word lanes need DQ and BW, which AVX-512 F alone emulates with several instructions.
#include <cstdint>
#include <cstring>

#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__) && \
    !defined(__SANITIZE_THREAD__)
#define CLREDUCE_HOST_CLONES __attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
#define CLREDUCE_HOST_CLONES_X86 1
#else
#define CLREDUCE_HOST_CLONES
#define CLREDUCE_HOST_CLONES_X86 0
#endif

namespace clreduce {

// Whether the loops run their AVX-512 clone (the host is x86-64-v4). GCC compiles a comparison
// of 64-byte vectors (GCC's vector extension) element by element in a clone without 64-byte
// registers, far slower than the memory there (docs/performance.md), so the loops that compare
// and select (extremes, arg-extremes, the moments' shift) are instantiated for 64-byte and for
// 32-byte vectors and the caller takes the 64-byte ones only here.
inline bool host_vectors_512() {
#if CLREDUCE_HOST_CLONES_X86
    static const bool v4 = __builtin_cpu_supports("x86-64-v4");
    return v4;
#else
    return false;
#endif
}

// Element i of the T array that starts at `bytes`, wherever it lies.
template <class T>
inline T load_at(const unsigned char* bytes, std::uint64_t i) {
    T value;
    std::memcpy(&value, bytes + i * sizeof(T), sizeof(T));
    return value;
}

}  // namespace clreduce
