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
