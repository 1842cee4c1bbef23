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

#if CLREDUCE_MAP != CLREDUCE_MAP_TRANSFORM
#define CLREDUCE_VECTOR_PATH 1
typedef CLREDUCE_ACC_VEC clreduce_vstate;
inline clreduce_vstate clreduce_vinit(void) { return (clreduce_vstate)0; }
inline clreduce_vstate clreduce_vaccumulate(clreduce_vstate s, CLREDUCE_T_VEC v) { return s + clreduce_vmap(v); }
#define CLREDUCE_ADD_(a, b) ((a) + (b))
inline clreduce_state clreduce_vfinish(clreduce_vstate s) { return CLREDUCE_HORIZONTAL(CLREDUCE_ADD_, s); }
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
    ulong seen = *bits, expected;
    do {
        expected = seen;
        seen = atom_cmpxchg(bits, expected, as_ulong(as_double(expected) + s));
    } while (seen != expected);
}
#else
inline void clreduce_atomic(volatile __global clreduce_state* p, clreduce_state s) {
    volatile __global uint* bits = (volatile __global uint*)p;
    uint seen = *bits, expected;
    do {
        expected = seen;
        seen = atomic_cmpxchg(bits, expected, as_uint(as_float(expected) + s));
    } while (seen != expected);
}
#endif
#endif
