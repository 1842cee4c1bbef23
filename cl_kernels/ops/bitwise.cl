// Operation: bitwise and, or or xor (CLREDUCE_BIT_OP 1, 2, 3) of integer elements (bit_and,
// bit_or, bit_xor). State: the accumulator, the element type itself (its two's complement
// bits for signed types). The identity is all ones for and, zero for or and xor.
#ifndef CLREDUCE_BIT_OP
#define CLREDUCE_BIT_OP 1
#endif

typedef CLREDUCE_ACC clreduce_state;
#define clreduce_value(s) (s)  // the result a state stands for (asynchronous calls)
#define CLREDUCE_STATE_SCALAR 1

#if CLREDUCE_BIT_OP == 1
#define CLREDUCE_IDENTITY_ ((CLREDUCE_ACC)(~(CLREDUCE_ACC)0))
#define CLREDUCE_BITS_(a, b) ((a) & (b))
#elif CLREDUCE_BIT_OP == 2
#define CLREDUCE_IDENTITY_ ((CLREDUCE_ACC)0)
#define CLREDUCE_BITS_(a, b) ((a) | (b))
#else
#define CLREDUCE_IDENTITY_ ((CLREDUCE_ACC)0)
#define CLREDUCE_BITS_(a, b) ((a) ^ (b))
#endif

inline clreduce_state clreduce_init(void) { return CLREDUCE_IDENTITY_; }
inline clreduce_state clreduce_combine(clreduce_state a, clreduce_state b) { return CLREDUCE_BITS_(a, b); }
inline clreduce_state clreduce_accumulate(clreduce_state s, CLREDUCE_T x, ulong index) {
    return CLREDUCE_BITS_(s, clreduce_map(x));
}

#if CLREDUCE_MAP != CLREDUCE_MAP_TRANSFORM
#define CLREDUCE_VECTOR_PATH 1
typedef CLREDUCE_ACC_VEC clreduce_vstate;
inline clreduce_vstate clreduce_vinit(void) { return (clreduce_vstate)(CLREDUCE_IDENTITY_); }
inline clreduce_vstate clreduce_vaccumulate(clreduce_vstate s, CLREDUCE_T_VEC v) {
    return CLREDUCE_BITS_(s, clreduce_vmap(v));
}
inline clreduce_state clreduce_vfinish(clreduce_vstate s) { return CLREDUCE_HORIZONTAL(CLREDUCE_BITS_, s); }
#endif

// Level 3 may finish atomically: atomic_and/or/xor on 32-bit words are core OpenCL,
// atom_and/or/xor on 64-bit ones need cl_khr_int64_extended_atomics (CLREDUCE_INT64_MIN_MAX,
// the flag the host sets for that extension).
#ifndef CLREDUCE_INT64_MIN_MAX
#define CLREDUCE_INT64_MIN_MAX 0
#endif
#if CLREDUCE_ACC_SIZE == 4
#define CLREDUCE_ATOMIC_FINISH 1
inline void clreduce_atomic(volatile __global clreduce_state* p, clreduce_state s) {
#if CLREDUCE_BIT_OP == 1
    atomic_and(p, s);
#elif CLREDUCE_BIT_OP == 2
    atomic_or(p, s);
#else
    atomic_xor(p, s);
#endif
}
#elif CLREDUCE_ACC_SIZE == 8 && CLREDUCE_INT64_MIN_MAX
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
#define CLREDUCE_ATOMIC_FINISH 1
inline void clreduce_atomic(volatile __global clreduce_state* p, clreduce_state s) {
#if CLREDUCE_BIT_OP == 1
    atom_and(p, s);
#elif CLREDUCE_BIT_OP == 2
    atom_or(p, s);
#else
    atom_xor(p, s);
#endif
}
#endif
