// Operation: add (sum, mean, count_nonzero, sum_of_squares, norm_l1, norm_l2, transform-sum).
// State: the accumulator. Level 3 may finish with an atomic add (integer accumulators) or,
// with CLREDUCE_FLOAT_ATOMIC, a compare-and-swap loop on a float accumulator's bits.
#ifndef CLREDUCE_FLOAT_ATOMIC
#define CLREDUCE_FLOAT_ATOMIC 0
#endif

typedef CLREDUCE_ACC clreduce_state;
#define CLREDUCE_STATE_SCALAR 1
#define clreduce_value(s) (s)        // the result a state stands for (asynchronous calls)

inline clreduce_state clreduce_init(void) { return (clreduce_state)0; }
inline clreduce_state clreduce_combine(clreduce_state a, clreduce_state b) { return a + b; }
inline clreduce_state clreduce_accumulate(clreduce_state s, CLREDUCE_T x, ulong index) {
    return s + clreduce_map(x);
}

#define CLREDUCE_ADD_(a, b) ((a) + (b))
#if CLREDUCE_MAP != CLREDUCE_MAP_TRANSFORM
#define CLREDUCE_VECTOR_PATH 1
#if defined(CLREDUCE_DP4A)
// 8-bit integers as they are, on NVIDIA (sm_61 and later): dp4a adds the four bytes of a
// word into a 32-bit lane in one instruction, where widening each byte costs two. One lane
// per word of the vector (CLREDUCE_VEC 4, 8 or 16); the host checks times * 4 * 255 fits.
#if CLREDUCE_DP4A_SIGNED
#define CLREDUCE_DP4A_ASM "dp4a.s32.s32 %0, %1, 0x01010101, %2;"
#else
#define CLREDUCE_DP4A_ASM "dp4a.u32.u32 %0, %1, 0x01010101, %2;"
#endif
inline uint clreduce_dp4a(uint word, uint acc) {
    uint r;
    asm volatile(CLREDUCE_DP4A_ASM : "=r"(r) : "r"(word), "r"(acc));
    return r;
}
#if CLREDUCE_VEC == 4
#define CLREDUCE_WORDS 1
#elif CLREDUCE_VEC == 8
#define CLREDUCE_WORDS 2
#elif CLREDUCE_VEC == 16
#define CLREDUCE_WORDS 4
#else
#error "dp4a reads whole words: CLREDUCE_VEC 4, 8 or 16"
#endif
#if CLREDUCE_WORDS == 1
typedef uint clreduce_vstate;
inline clreduce_vstate clreduce_vaccumulate(clreduce_vstate s, CLREDUCE_T_VEC v) { return clreduce_dp4a(as_uint(v), s); }
#else
typedef CLREDUCE_CAT(uint, CLREDUCE_WORDS) clreduce_vstate;
inline clreduce_vstate clreduce_vaccumulate(clreduce_vstate s, CLREDUCE_T_VEC v) {
    const clreduce_vstate w = CLREDUCE_CAT(as_uint, CLREDUCE_WORDS)(v);
    s.s0 = clreduce_dp4a(w.s0, s.s0);
    s.s1 = clreduce_dp4a(w.s1, s.s1);
#if CLREDUCE_WORDS == 4
    s.s2 = clreduce_dp4a(w.s2, s.s2);
    s.s3 = clreduce_dp4a(w.s3, s.s3);
#endif
    return s;
}
#endif
inline clreduce_vstate clreduce_vinit(void) { return (clreduce_vstate)0; }
// The lanes' bits are two's complement sums for signed data: widen them as int.
#if CLREDUCE_DP4A_SIGNED
#define CLREDUCE_LANE_WIDEN(x) CLREDUCE_TO_ACC((int)(x))
#else
#define CLREDUCE_LANE_WIDEN(x) CLREDUCE_TO_ACC(x)
#endif
#if CLREDUCE_WORDS == 1
inline clreduce_state clreduce_vfinish(clreduce_vstate s) { return CLREDUCE_LANE_WIDEN(s); }
#elif CLREDUCE_WORDS == 2
inline clreduce_state clreduce_vfinish(clreduce_vstate s) { return CLREDUCE_LANE_WIDEN(s.s0) + CLREDUCE_LANE_WIDEN(s.s1); }
#else
inline clreduce_state clreduce_vfinish(clreduce_vstate s) {
    return (CLREDUCE_LANE_WIDEN(s.s0) + CLREDUCE_LANE_WIDEN(s.s1)) + (CLREDUCE_LANE_WIDEN(s.s2) + CLREDUCE_LANE_WIDEN(s.s3));
}
#endif
#elif defined(CLREDUCE_LANE)
// 8/16-bit integers: level 1 adds in 32-bit lanes, the accumulator takes their sums.
typedef CLREDUCE_LANE_VEC clreduce_vstate;
inline clreduce_vstate clreduce_vinit(void) { return (clreduce_vstate)0; }
#if CLREDUCE_MAP == CLREDUCE_MAP_ABS
#define clreduce_lane_map(v) CLREDUCE_TO_LANE_VEC(abs(v))
#elif CLREDUCE_MAP == CLREDUCE_MAP_NONZERO && CLREDUCE_VEC > 1
#define clreduce_lane_map(v) CLREDUCE_TO_LANE_VEC(-((v) != (CLREDUCE_T_VEC)0))
#elif CLREDUCE_MAP == CLREDUCE_MAP_NONZERO
#define clreduce_lane_map(v) CLREDUCE_TO_LANE_VEC((v) != (CLREDUCE_T)0)
#else
#define clreduce_lane_map(v) CLREDUCE_TO_LANE_VEC(v)
#endif
inline clreduce_vstate clreduce_vaccumulate(clreduce_vstate s, CLREDUCE_T_VEC v) { return s + clreduce_lane_map(v); }
inline clreduce_state clreduce_vfinish(clreduce_vstate s) { return CLREDUCE_HORIZONTAL(CLREDUCE_ADD_, CLREDUCE_TO_ACC_VEC(s)); }
#else
typedef CLREDUCE_ACC_VEC clreduce_vstate;
inline clreduce_vstate clreduce_vinit(void) { return (clreduce_vstate)0; }
inline clreduce_vstate clreduce_vaccumulate(clreduce_vstate s, CLREDUCE_T_VEC v) { return s + clreduce_vmap(v); }
inline clreduce_state clreduce_vfinish(clreduce_vstate s) { return CLREDUCE_HORIZONTAL(CLREDUCE_ADD_, s); }
#endif
#endif

#if !CLREDUCE_ACC_FLOAT
#define CLREDUCE_ATOMIC_FINISH 1
#if CLREDUCE_ACC_SIZE == 8
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
inline void clreduce_atomic(volatile __global clreduce_state* p, clreduce_state s) { atom_add(p, s); }
#else
inline void clreduce_atomic(volatile __global clreduce_state* p, clreduce_state s) { atomic_add(p, s); }
#endif
#elif CLREDUCE_FLOAT_ATOMIC
// Not deterministic: the groups' results arrive in any order.
#define CLREDUCE_ATOMIC_FINISH 1
#if CLREDUCE_ACC_SIZE == 8
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
inline void clreduce_atomic(volatile __global clreduce_state* p, clreduce_state s) {
    volatile __global ulong* bits = (volatile __global ulong*)p;
    // Every access to the word is atomic: a plain read of it beside the other groups'
    // compare-and-swaps would be a data race. The first guess is the identity's bits (right
    // for the first group); a wrong guess returns the word's value for the next try.
    ulong seen = as_ulong((double)0), expected;
    do {
        expected = seen;
        seen = atom_cmpxchg(bits, expected, as_ulong(as_double(expected) + s));
    } while (seen != expected);
}
#else
inline void clreduce_atomic(volatile __global clreduce_state* p, clreduce_state s) {
    volatile __global uint* bits = (volatile __global uint*)p;
    uint seen = as_uint(0.0f), expected;  // a guess, as above
    do {
        expected = seen;
        seen = atomic_cmpxchg(bits, expected, as_uint(as_float(expected) + s));
    } while (seen != expected);
}
#endif
#endif

#if CLREDUCE_ACC_FLOAT && CLREDUCE_FINISH == CLREDUCE_FINISH_EXACT_ATOMIC
// InterGroup::exact_atomic: each group adds its result exactly into a fixed-point number
// (cl_kernels/fixed_point.cl) with 64-bit integer atomics. Integer addition does not care
// about order, so the number is the same on every run; the host rounds it once. Flags go
// into the low word of the flags limb with 32-bit atomic_or (little-endian devices).
#define CLREDUCE_EXACT_FINISH 1
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
inline void clreduce_exact_atomic(volatile __global long* number, clreduce_state x) {
    volatile __global uint* flags = (volatile __global uint*)(number + CLREDUCE_EXACT_LIMBS);
    const clreduce_digits d = clreduce_split(x);
    if (d.flags) {
        atomic_or(flags, (uint)d.flags);
        return;
    }
    for (uint j = 0; j < 3; ++j)
        if (d.d[j] != 0) atom_add(number + d.k + j, d.d[j]);
}
#endif
