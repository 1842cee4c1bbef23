// Operation: minmax, both extremes in one pass. NaN as in extremum.cl.
typedef struct {
    CLREDUCE_ACC lo;
    CLREDUCE_ACC hi;
} clreduce_state;

#if CLREDUCE_ACC_FLOAT
#define CLREDUCE_LO_INIT_ (CLREDUCE_ACC)NAN
#define CLREDUCE_HI_INIT_ (CLREDUCE_ACC)NAN
#define CLREDUCE_MIN_(a, b) fmin(a, b)
#define CLREDUCE_MAX_(a, b) fmax(a, b)
#else
#define CLREDUCE_LO_INIT_ (CLREDUCE_ACC)(CLREDUCE_ACC_HIGHEST)
#define CLREDUCE_HI_INIT_ (CLREDUCE_ACC)(CLREDUCE_ACC_LOWEST)
#define CLREDUCE_MIN_(a, b) min(a, b)
#define CLREDUCE_MAX_(a, b) max(a, b)
#endif

inline clreduce_state clreduce_init(void) {
    clreduce_state s = {CLREDUCE_LO_INIT_, CLREDUCE_HI_INIT_};
    return s;
}
inline clreduce_state clreduce_combine(clreduce_state a, clreduce_state b) {
    a.lo = CLREDUCE_MIN_(a.lo, b.lo);
    a.hi = CLREDUCE_MAX_(a.hi, b.hi);
    return a;
}
inline clreduce_state clreduce_accumulate(clreduce_state s, CLREDUCE_T x, ulong index) {
    const CLREDUCE_ACC v = clreduce_map(x);
    s.lo = CLREDUCE_MIN_(s.lo, v);
    s.hi = CLREDUCE_MAX_(s.hi, v);
    return s;
}

#define CLREDUCE_VECTOR_PATH 1
typedef struct {
    CLREDUCE_ACC_VEC lo;
    CLREDUCE_ACC_VEC hi;
} clreduce_vstate;
inline clreduce_vstate clreduce_vinit(void) {
    clreduce_vstate s = {(CLREDUCE_ACC_VEC)(CLREDUCE_LO_INIT_), (CLREDUCE_ACC_VEC)(CLREDUCE_HI_INIT_)};
    return s;
}
inline clreduce_vstate clreduce_vaccumulate(clreduce_vstate s, CLREDUCE_T_VEC v) {
    const CLREDUCE_ACC_VEC m = clreduce_vmap(v);
    s.lo = CLREDUCE_MIN_(s.lo, m);
    s.hi = CLREDUCE_MAX_(s.hi, m);
    return s;
}
inline clreduce_state clreduce_vfinish(clreduce_vstate s) {
    clreduce_state r = {CLREDUCE_HORIZONTAL(CLREDUCE_MIN_, s.lo), CLREDUCE_HORIZONTAL(CLREDUCE_MAX_, s.hi)};
    return r;
}
