// Operation: add with Neumaier compensation (FloatMode::compensated), float accumulators.
// State: the running sum and the accumulated rounding errors; the host returns s + c.
typedef struct {
    CLREDUCE_ACC s;
    CLREDUCE_ACC c;
} clreduce_state;
#define clreduce_value(a) ((a).s + (a).c)  // the result a state stands for (asynchronous calls)

inline clreduce_state clreduce_init(void) {
    clreduce_state z = {0, 0};
    return z;
}
// Adds x to s exactly up to one rounding error, which goes into c.
inline clreduce_state clreduce_add(clreduce_state a, CLREDUCE_ACC x) {
    const CLREDUCE_ACC t = a.s + x;
    // Past an infinity or an overflow the error term would be inf - inf = NaN: c stays
    // finite, so s + c keeps IEEE's infinity.
    if (isfinite(t)) a.c += fabs(a.s) >= fabs(x) ? (a.s - t) + x : (x - t) + a.s;
    a.s = t;
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
