// Operation: argmin or argmax (CLREDUCE_IS_MAX): the extreme value and the lowest index
// holding it. NaN loses to every number; among equals (NaN included) the lower index wins,
// so all-NaN input gives (NaN, 0). The index is counted from the range's start.
#ifndef CLREDUCE_IS_MAX
#define CLREDUCE_IS_MAX 0
#endif

typedef struct {
    ulong index;
    CLREDUCE_ACC value;
} clreduce_state;

#if CLREDUCE_ACC_FLOAT
#define CLREDUCE_ARG_INIT_ (CLREDUCE_ACC)NAN
#define CLREDUCE_ISNAN_(v) isnan(v)
#elif CLREDUCE_IS_MAX
#define CLREDUCE_ARG_INIT_ (CLREDUCE_ACC)(CLREDUCE_ACC_LOWEST)
#define CLREDUCE_ISNAN_(v) 0
#else
#define CLREDUCE_ARG_INIT_ (CLREDUCE_ACC)(CLREDUCE_ACC_HIGHEST)
#define CLREDUCE_ISNAN_(v) 0
#endif
#if CLREDUCE_IS_MAX
#define CLREDUCE_BETTER_(a, b) ((a) > (b))
#else
#define CLREDUCE_BETTER_(a, b) ((a) < (b))
#endif

inline clreduce_state clreduce_init(void) {
    clreduce_state s = {ULONG_MAX, CLREDUCE_ARG_INIT_};
    return s;
}
// True when b should replace a.
inline bool clreduce_takes(clreduce_state a, clreduce_state b) {
    const bool a_nan = CLREDUCE_ISNAN_(a.value), b_nan = CLREDUCE_ISNAN_(b.value);
    if (a_nan != b_nan) return a_nan;
    if (!a_nan && CLREDUCE_BETTER_(b.value, a.value)) return true;
    if (!a_nan && CLREDUCE_BETTER_(a.value, b.value)) return false;
    return b.index < a.index;
}
inline clreduce_state clreduce_combine(clreduce_state a, clreduce_state b) { return clreduce_takes(a, b) ? b : a; }
inline clreduce_state clreduce_accumulate(clreduce_state s, CLREDUCE_T x, ulong index) {
    clreduce_state e = {index, clreduce_map(x)};
    return clreduce_combine(s, e);
}

#if CLREDUCE_MAP != CLREDUCE_MAP_TRANSFORM
// Level 1 on whole vectors: each lane keeps its own extreme and index (one state for all
// lanes made every element wait for the one before it: on PoCL's CPU device argmin took 15
// times min). A lane meets its elements in rising index order, so among equals (NaN
// included) it keeps the one it has, unless it has none yet; the lanes combine by
// clreduce_combine's rule at the end.
#define CLREDUCE_VECTOR_PATH 1
#define CLREDUCE_VECTOR_INDEXED 1
#if CLREDUCE_VEC == 1
typedef ulong clreduce_index_vec;
#else
typedef CLREDUCE_CAT(ulong, CLREDUCE_VEC) clreduce_index_vec;
#endif
typedef struct {
    clreduce_index_vec index;  // ULONG_MAX: no element yet
    CLREDUCE_ACC_VEC value;
} clreduce_vstate;

inline clreduce_vstate clreduce_vinit(void) {
    clreduce_vstate s;
    s.index = (clreduce_index_vec)ULONG_MAX;
    s.value = (CLREDUCE_ACC_VEC)(CLREDUCE_ARG_INIT_);
    return s;
}

#if CLREDUCE_VEC == 1
inline clreduce_vstate clreduce_vaccumulate(clreduce_vstate s, CLREDUCE_T_VEC v, ulong first) {
    const clreduce_state a = {s.index, s.value}, b = {first, clreduce_map(v)};
    if (clreduce_takes(a, b)) {
        s.index = b.index;
        s.value = b.value;
    }
    return s;
}

inline clreduce_state clreduce_vfinish(clreduce_vstate s) {
    const clreduce_state r = {s.index, s.value};
    return r;
}
#else
// Comparison masks of the value's lanes (-1 where true), and the lanes' offsets.
#if CLREDUCE_ACC_SIZE == 1
#define CLREDUCE_ARG_MASK CLREDUCE_CAT(char, CLREDUCE_VEC)
#elif CLREDUCE_ACC_SIZE == 2
#define CLREDUCE_ARG_MASK CLREDUCE_CAT(short, CLREDUCE_VEC)
#elif CLREDUCE_ACC_SIZE == 4
#define CLREDUCE_ARG_MASK CLREDUCE_CAT(int, CLREDUCE_VEC)
#else
#define CLREDUCE_ARG_MASK CLREDUCE_CAT(long, CLREDUCE_VEC)
#endif
#if CLREDUCE_VEC == 2
#define CLREDUCE_LANE_OFFSETS (clreduce_index_vec)(0, 1)
#elif CLREDUCE_VEC == 4
#define CLREDUCE_LANE_OFFSETS (clreduce_index_vec)(0, 1, 2, 3)
#elif CLREDUCE_VEC == 8
#define CLREDUCE_LANE_OFFSETS (clreduce_index_vec)(0, 1, 2, 3, 4, 5, 6, 7)
#else
#define CLREDUCE_LANE_OFFSETS (clreduce_index_vec)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
#endif

inline clreduce_vstate clreduce_vaccumulate(clreduce_vstate s, CLREDUCE_T_VEC v, ulong first) {
    const CLREDUCE_ACC_VEC x = clreduce_vmap(v);
    // clreduce_takes lane-wise: a better value, a number over NaN, or a first element.
    CLREDUCE_ARG_MASK takes = CLREDUCE_BETTER_(x, s.value);
#if CLREDUCE_ACC_FLOAT
    takes |= isnan(s.value) & ~isnan(x);
#endif
    takes |= CLREDUCE_CAT(convert_, CLREDUCE_ARG_MASK)(s.index == (clreduce_index_vec)ULONG_MAX);
    s.value = select(s.value, x, takes);
    s.index = select(s.index, (clreduce_index_vec)first + CLREDUCE_LANE_OFFSETS,
                     CLREDUCE_CAT(convert_long, CLREDUCE_VEC)(takes));
    return s;
}

inline clreduce_state clreduce_vfinish(clreduce_vstate s) {
    ulong index[CLREDUCE_VEC];
    CLREDUCE_ACC value[CLREDUCE_VEC];
    CLREDUCE_CAT(vstore, CLREDUCE_VEC)(s.index, 0, index);
    CLREDUCE_CAT(vstore, CLREDUCE_VEC)(s.value, 0, value);
    clreduce_state r = clreduce_init();
    for (int k = 0; k < CLREDUCE_VEC; ++k) {
        const clreduce_state lane = {index[k], value[k]};
        r = clreduce_combine(r, lane);
    }
    return r;
}
#endif
#endif

