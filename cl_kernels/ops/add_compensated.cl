// Operation: add with Neumaier compensation (FloatMode::compensated), float accumulators.
// State: the running sum and the accumulated rounding errors; the host returns s + c.
typedef struct {
    CLREDUCE_ACC s;
    CLREDUCE_ACC c;
} clreduce_state;
#define clreduce_value(a) ((a).s + (a).c)  // the result a state stands for (asynchronous calls)
// The host adds the two parts in double (src/ops/state_value.hpp); so does result.cl, where
// the device has doubles.
#define clreduce_value_double(a) ((double)(a).s + (double)(a).c)
#define CLREDUCE_VALUE_IN_DOUBLE 1

inline clreduce_state clreduce_init(void) {
    clreduce_state z = {0, 0};
    return z;
}
// Adds x to s exactly up to one rounding error, which goes into c: TwoSum's error, the same
// number Neumaier's ordered form gives, in six operations without a comparison or a branch
// (a branch per element cost PoCL's CPU device far more than the flops).
inline clreduce_state clreduce_add(clreduce_state a, CLREDUCE_ACC x) {
    CLREDUCE_TWO_SUM(CLREDUCE_ACC, a.s, x)
    // Past an infinity or an overflow the error would be inf - inf = NaN: c stays finite, so
    // s + c keeps IEEE's infinity.
    a.c += isfinite(a.s) ? x : (CLREDUCE_ACC)0;
    return a;
}
inline clreduce_state clreduce_combine(clreduce_state a, clreduce_state b) {
    a = clreduce_add(a, b.s);
    a.c += b.c;
    return a;
}
inline clreduce_state clreduce_accumulate(clreduce_state s, CLREDUCE_T x, ulong index) {
    return clreduce_add(s, clreduce_map(x));
}

#if CLREDUCE_MAP != CLREDUCE_MAP_TRANSFORM
// Level 1 lane by lane: a sum and an error per lane of the vector, each lane's additions
// independent of the others' (one state for all lanes would make every element wait for the
// one before it). The lanes are combined
// in order at the end, as clreduce_combine combines any two states.
#define CLREDUCE_VECTOR_PATH 1
typedef struct {
    CLREDUCE_ACC_VEC s;
    CLREDUCE_ACC_VEC c;
} clreduce_vstate;

inline clreduce_vstate clreduce_vinit(void) {
    clreduce_vstate z;
    z.s = (CLREDUCE_ACC_VEC)0;
    z.c = (CLREDUCE_ACC_VEC)0;
    return z;
}

inline clreduce_vstate clreduce_vaccumulate(clreduce_vstate a, CLREDUCE_T_VEC v) {
    CLREDUCE_ACC_VEC x = clreduce_vmap(v);
    CLREDUCE_TWO_SUM(CLREDUCE_ACC_VEC, a.s, x)
#if CLREDUCE_VEC == 1
    a.c += isfinite(a.s) ? x : (CLREDUCE_ACC)0;
#else
    a.c += select((CLREDUCE_ACC_VEC)0, x, isfinite(a.s));  // as in clreduce_add
#endif
    return a;
}

inline clreduce_state clreduce_vfinish(clreduce_vstate v) {
#if CLREDUCE_VEC == 1
    const clreduce_state r = {v.s, v.c};
    return r;
#else
    CLREDUCE_ACC sums[CLREDUCE_VEC], errors[CLREDUCE_VEC];
    CLREDUCE_CAT(vstore, CLREDUCE_VEC)(v.s, 0, sums);
    CLREDUCE_CAT(vstore, CLREDUCE_VEC)(v.c, 0, errors);
    clreduce_state r = {sums[0], errors[0]};
    for (int i = 1; i < CLREDUCE_VEC; ++i) {
        const clreduce_state lane = {sums[i], errors[i]};
        r = clreduce_combine(r, lane);
    }
    return r;
#endif
}
#endif

