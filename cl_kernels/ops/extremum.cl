// Operation: min or max (CLREDUCE_IS_MAX) of the mapped elements (min, max, norm_inf,
// transform-min/max). State: the accumulator. Floats compare with fmin/fmax, which ignore a
// NaN operand, and start from NaN: the result is NaN only when every element is NaN.
#ifndef CLREDUCE_IS_MAX
#define CLREDUCE_IS_MAX 0
#endif

typedef CLREDUCE_ACC clreduce_state;
#define clreduce_value(s) (s)        // the result a state stands for (asynchronous calls)
#define CLREDUCE_STATE_SCALAR 1

#if CLREDUCE_ACC_FLOAT
#define CLREDUCE_IDENTITY_ (CLREDUCE_ACC)NAN
#if CLREDUCE_IS_MAX
#define CLREDUCE_PICK_(a, b) fmax(a, b)
#else
#define CLREDUCE_PICK_(a, b) fmin(a, b)
#endif
#else
#if CLREDUCE_IS_MAX
#define CLREDUCE_IDENTITY_ (CLREDUCE_ACC)(CLREDUCE_ACC_LOWEST)
#define CLREDUCE_PICK_(a, b) max(a, b)
#else
#define CLREDUCE_IDENTITY_ (CLREDUCE_ACC)(CLREDUCE_ACC_HIGHEST)
#define CLREDUCE_PICK_(a, b) min(a, b)
#endif
#endif

inline clreduce_state clreduce_init(void) { return CLREDUCE_IDENTITY_; }
inline clreduce_state clreduce_combine(clreduce_state a, clreduce_state b) { return CLREDUCE_PICK_(a, b); }
inline clreduce_state clreduce_accumulate(clreduce_state s, CLREDUCE_T x, ulong index) {
    return CLREDUCE_PICK_(s, clreduce_map(x));
}

#if CLREDUCE_MAP != CLREDUCE_MAP_TRANSFORM
#define CLREDUCE_VECTOR_PATH 1
typedef CLREDUCE_ACC_VEC clreduce_vstate;
inline clreduce_vstate clreduce_vinit(void) { return (clreduce_vstate)(CLREDUCE_IDENTITY_); }
inline clreduce_vstate clreduce_vaccumulate(clreduce_vstate s, CLREDUCE_T_VEC v) {
    return CLREDUCE_PICK_(s, clreduce_vmap(v));
}
inline clreduce_state clreduce_vfinish(clreduce_vstate s) { return CLREDUCE_HORIZONTAL(CLREDUCE_PICK_, s); }
#endif

// Integer accumulators finish atomically: atomic_min/max on 32-bit words are core OpenCL,
// atom_min/max on 64-bit ones need cl_khr_int64_extended_atomics (CLREDUCE_INT64_MIN_MAX).
#ifndef CLREDUCE_INT64_MIN_MAX
#define CLREDUCE_INT64_MIN_MAX 0
#endif
#if !CLREDUCE_ACC_FLOAT && CLREDUCE_ACC_SIZE == 4
#define CLREDUCE_ATOMIC_FINISH 1
inline void clreduce_atomic(volatile __global clreduce_state* p, clreduce_state s) {
#if CLREDUCE_IS_MAX
    atomic_max(p, s);
#else
    atomic_min(p, s);
#endif
}
#elif !CLREDUCE_ACC_FLOAT && CLREDUCE_ACC_SIZE == 8 && CLREDUCE_INT64_MIN_MAX
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
#define CLREDUCE_ATOMIC_FINISH 1
inline void clreduce_atomic(volatile __global clreduce_state* p, clreduce_state s) {
#if CLREDUCE_IS_MAX
    atom_max(p, s);
#else
    atom_min(p, s);
#endif
}
#endif
