// Operation: statistics, the count, mean, variance and both extremes of one pass (what
// meanStdDev and a histogram's range need). CLREDUCE_ACC is floating (double, or float on a
// device without fp64) for every element type.
//
// The moments are kept about a shift, the state's first value (the shifted-data algorithm):
// s1 = sum of (x - shift), s2 = sum of (x - shift)^2. Since the shift is one of the values,
// the deviations are of the data's spread, not of its magnitude, and the host's
// s2 - s1^2 / count loses little to cancellation (plain sums of x and x^2 lose everything when
// the mean is large against the spread). Two states combine by moving the second one's sums
// to the first one's shift, exactly in algebra: no division anywhere in the kernel.
// The extremes ignore NaN as extremum.cl does; a NaN or an infinity makes mean and variance
// not finite. A shift is always finite (0 in place of a first value that is not): an infinite
// shift would turn every other deviation into the opposite infinity and the sum (n shift + s1)
// into NaN, where IEEE addition of the values gives the infinity (mean +inf for data holding
// +inf), and which happened would depend on the launch shape.
// The extremes are kept in the accumulator's type, exact for every element type it takes but
// for integers in a float accumulator (a device without fp64, or one named), whose 24-bit
// significand would round 32-bit values (-2145286346 to -2145286400): there the host sets
// CLREDUCE_MOMENTS_X, int or uint by the element's signedness (and its limits
// CLREDUCE_MOMENTS_X_LOWEST and CLREDUCE_MOMENTS_X_HIGHEST), and the extremes are exact
// integers in the same 4 bytes each.
#ifdef CLREDUCE_MOMENTS_X
#define CLREDUCE_MOMENTS_X_INT 1
#define CLREDUCE_MOMENTS_MIN(a, b) min(a, b)
#define CLREDUCE_MOMENTS_MAX(a, b) max(a, b)
#else
#define CLREDUCE_MOMENTS_X CLREDUCE_ACC
#define CLREDUCE_MOMENTS_X_INT 0
#define CLREDUCE_MOMENTS_MIN(a, b) fmin(a, b)
#define CLREDUCE_MOMENTS_MAX(a, b) fmax(a, b)
#endif
typedef struct {
    ulong count;
    CLREDUCE_ACC shift;
    CLREDUCE_ACC s1;
    CLREDUCE_ACC s2;
    CLREDUCE_MOMENTS_X lo;
    CLREDUCE_MOMENTS_X hi;
} clreduce_state;

#if !CLREDUCE_ACC_FLOAT
#error "statistics accumulate in a floating accumulator"
#endif

inline clreduce_state clreduce_init(void) {
#if CLREDUCE_MOMENTS_X_INT
    // No value yet: the identities of min and max (a state of no elements is never read).
    clreduce_state s = {0, (CLREDUCE_ACC)0, (CLREDUCE_ACC)0, (CLREDUCE_ACC)0, (CLREDUCE_MOMENTS_X)CLREDUCE_MOMENTS_X_HIGHEST,
                        (CLREDUCE_MOMENTS_X)CLREDUCE_MOMENTS_X_LOWEST};
#else
    clreduce_state s = {0, (CLREDUCE_ACC)0, (CLREDUCE_ACC)0, (CLREDUCE_ACC)0, (CLREDUCE_ACC)NAN, (CLREDUCE_ACC)NAN};
#endif
    return s;
}
inline clreduce_state clreduce_combine(clreduce_state a, clreduce_state b) {
    if (b.count == 0) return a;
    if (a.count == 0) return b;
    // b's sums about a's shift: sum (x - a.shift) = b.s1 + n_b d, and
    // sum (x - a.shift)^2 = b.s2 + 2 d b.s1 + n_b d^2, with d = b.shift - a.shift.
    const CLREDUCE_ACC d = b.shift - a.shift;
    const CLREDUCE_ACC nb = (CLREDUCE_ACC)b.count;
    const CLREDUCE_ACC nbd = nb * d;
    a.s1 = a.s1 + (b.s1 + nbd);
    a.s2 = a.s2 + (b.s2 + d * ((CLREDUCE_ACC)2 * b.s1 + nbd));
    a.count += b.count;
    a.lo = CLREDUCE_MOMENTS_MIN(a.lo, b.lo);
    a.hi = CLREDUCE_MOMENTS_MAX(a.hi, b.hi);
    return a;
}
inline clreduce_state clreduce_accumulate(clreduce_state s, CLREDUCE_T x, ulong index) {
    const CLREDUCE_ACC v = clreduce_map(x);
    if (s.count == 0) s.shift = isfinite(v) ? v : (CLREDUCE_ACC)0;
    const CLREDUCE_ACC d = v - s.shift;
    s.s1 = s.s1 + d;
    s.s2 = s.s2 + d * d;
    s.count += 1;
#if CLREDUCE_MOMENTS_X_INT
    s.lo = min(s.lo, (CLREDUCE_MOMENTS_X)x);  // the element itself, exact
    s.hi = max(s.hi, (CLREDUCE_MOMENTS_X)x);
#else
    s.lo = fmin(s.lo, v);
    s.hi = fmax(s.hi, v);
#endif
    return s;
}

#define CLREDUCE_VECTOR_PATH 1
#if CLREDUCE_MOMENTS_INT
// Level 1 on whole vectors of 8/16-bit integers (CLREDUCE_MOMENTS_INT, set by the host): each
// lane keeps exact integer sums of x and x^2 and integer extremes, which cost a few integer
// instructions per element where the double state's cost a conversion and five double
// operations. The sums are kept in the narrowest type that holds a lane's (the host's
// CLREDUCE_MOMENTS_S1, int or long, and CLREDUCE_MOMENTS_S2, uint or ulong, from the most
// values a lane takes): a GPU adds 32-bit integers in one instruction, 64-bit ones in two or
// three, with twice the registers.
// At the end each lane becomes the state about its own minimum (one of its values) exactly in
// 64-bit integers, each sum rounded once: the host sets it where a lane takes fewer than 2^29
// elements, so x^2 < 2^32, sum x^2 < 2^61 and 2 lo sum x < 2^62.
#ifndef CLREDUCE_MOMENTS_S1
#define CLREDUCE_MOMENTS_S1 long
#endif
#ifndef CLREDUCE_MOMENTS_S2
#define CLREDUCE_MOMENTS_S2 ulong
#endif
#if CLREDUCE_VEC == 1
#define CLREDUCE_MOMENTS_V(t) t
#else
#define CLREDUCE_MOMENTS_V(t) CLREDUCE_CAT(t, CLREDUCE_VEC)
#endif
typedef struct {
    uint count;  // vectors taken: each lane's count
    CLREDUCE_MOMENTS_V(CLREDUCE_MOMENTS_S1) s1;
    CLREDUCE_MOMENTS_V(CLREDUCE_MOMENTS_S2) s2;
    CLREDUCE_MOMENTS_V(int) lo;
    CLREDUCE_MOMENTS_V(int) hi;
} clreduce_vstate;
inline clreduce_vstate clreduce_vinit(void) {
    clreduce_vstate s = {0, (CLREDUCE_MOMENTS_V(CLREDUCE_MOMENTS_S1))0,
                         (CLREDUCE_MOMENTS_V(CLREDUCE_MOMENTS_S2))0, (CLREDUCE_MOMENTS_V(int))INT_MAX,
                         (CLREDUCE_MOMENTS_V(int))INT_MIN};
    return s;
}
inline clreduce_vstate clreduce_vaccumulate(clreduce_vstate s, CLREDUCE_T_VEC v) {
    const CLREDUCE_MOMENTS_V(int) x = CLREDUCE_CAT(convert_, CLREDUCE_MOMENTS_V(int))(v);
    // x * x as unsigned: |x| < 2^16, so the square is below 2^32, whatever x's sign.
    const CLREDUCE_MOMENTS_V(uint) u = CLREDUCE_CAT(as_, CLREDUCE_MOMENTS_V(uint))(x);
    s.s1 += CLREDUCE_CAT(convert_, CLREDUCE_MOMENTS_V(CLREDUCE_MOMENTS_S1))(x);
    s.s2 += CLREDUCE_CAT(convert_, CLREDUCE_MOMENTS_V(CLREDUCE_MOMENTS_S2))(u * u);
    s.count += 1;
    s.lo = min(s.lo, x);
    s.hi = max(s.hi, x);
    return s;
}
// One lane's sums as the state about its minimum.
inline clreduce_state clreduce_moments_lane(ulong n, long s1, ulong s2, int lo, int hi) {
    if (n == 0) return clreduce_init();
    const long shift = lo;
    const long n_shift = (long)n * shift;
    clreduce_state r = {n, (CLREDUCE_ACC)shift, (CLREDUCE_ACC)(s1 - n_shift),
                        (CLREDUCE_ACC)((long)s2 - 2 * shift * s1 + n_shift * shift), (CLREDUCE_MOMENTS_X)lo,
                        (CLREDUCE_MOMENTS_X)hi};
    return r;
}
inline clreduce_state clreduce_vfinish(clreduce_vstate s) {
#if CLREDUCE_VEC == 1
    return clreduce_moments_lane(s.count, s.s1, s.s2, s.lo, s.hi);
#else
    CLREDUCE_MOMENTS_S1 s1[CLREDUCE_VEC];
    CLREDUCE_MOMENTS_S2 s2[CLREDUCE_VEC];
    int lo[CLREDUCE_VEC], hi[CLREDUCE_VEC];
    CLREDUCE_CAT(vstore, CLREDUCE_VEC)(s.s1, 0, s1);
    CLREDUCE_CAT(vstore, CLREDUCE_VEC)(s.s2, 0, s2);
    CLREDUCE_CAT(vstore, CLREDUCE_VEC)(s.lo, 0, lo);
    CLREDUCE_CAT(vstore, CLREDUCE_VEC)(s.hi, 0, hi);
    clreduce_state r = clreduce_init();
    for (uint k = 0; k < CLREDUCE_VEC; ++k)
        r = clreduce_combine(r, clreduce_moments_lane(s.count, s1[k], s2[k], lo[k], hi[k]));
    return r;
#endif
}
#else
// Level 1 on whole vectors: each lane keeps its own sums about its own shift (the lane's first
// value), and the lanes combine in order at the end, as scalar states would. The extremes of
// float and double data are kept in the data's own type (CLREDUCE_MOMENTS_EXT): a float's
// conversion to double is exact and keeps the order, so the extremes are the same, at a
// float min/max per element where a double one costs several instructions on GPUs.
// Integer extremes (CLREDUCE_MOMENTS_X) are kept in their own type by lanes too.
#if CLREDUCE_T_FLOAT && !CLREDUCE_FP16 && CLREDUCE_MAP == CLREDUCE_MAP_IDENTITY
#define CLREDUCE_MOMENTS_EXT CLREDUCE_T
#define CLREDUCE_MOMENTS_EXT_VEC CLREDUCE_T_VEC
#define CLREDUCE_MOMENTS_EXT_OF(v, m) (v)
#define CLREDUCE_MOMENTS_EXT_NONE ((CLREDUCE_MOMENTS_EXT)NAN)
#define CLREDUCE_MOMENTS_EXT_NONE_HI CLREDUCE_MOMENTS_EXT_NONE
#elif CLREDUCE_MOMENTS_X_INT
#define CLREDUCE_MOMENTS_EXT CLREDUCE_MOMENTS_X
#if CLREDUCE_VEC == 1
#define CLREDUCE_MOMENTS_EXT_VEC CLREDUCE_MOMENTS_X
#else
#define CLREDUCE_MOMENTS_EXT_VEC CLREDUCE_CAT(CLREDUCE_MOMENTS_X, CLREDUCE_VEC)
#endif
#define CLREDUCE_MOMENTS_EXT_OF(v, m) CLREDUCE_CAT(convert_, CLREDUCE_MOMENTS_EXT_VEC)(v)
#define CLREDUCE_MOMENTS_EXT_NONE ((CLREDUCE_MOMENTS_EXT)CLREDUCE_MOMENTS_X_HIGHEST)
#define CLREDUCE_MOMENTS_EXT_NONE_HI ((CLREDUCE_MOMENTS_EXT)CLREDUCE_MOMENTS_X_LOWEST)
#else
#define CLREDUCE_MOMENTS_EXT CLREDUCE_ACC
#define CLREDUCE_MOMENTS_EXT_VEC CLREDUCE_ACC_VEC
#define CLREDUCE_MOMENTS_EXT_OF(v, m) (m)
#define CLREDUCE_MOMENTS_EXT_NONE ((CLREDUCE_MOMENTS_EXT)NAN)
#define CLREDUCE_MOMENTS_EXT_NONE_HI CLREDUCE_MOMENTS_EXT_NONE
#endif
typedef struct {
    ulong count;  // vectors taken: each lane's count
    CLREDUCE_ACC_VEC shift;
    CLREDUCE_ACC_VEC s1;
    CLREDUCE_ACC_VEC s2;
    CLREDUCE_MOMENTS_EXT_VEC lo;
    CLREDUCE_MOMENTS_EXT_VEC hi;
} clreduce_vstate;
inline clreduce_vstate clreduce_vinit(void) {
    clreduce_vstate s = {0,
                         (CLREDUCE_ACC_VEC)((CLREDUCE_ACC)0),
                         (CLREDUCE_ACC_VEC)((CLREDUCE_ACC)0),
                         (CLREDUCE_ACC_VEC)((CLREDUCE_ACC)0),
                         (CLREDUCE_MOMENTS_EXT_VEC)(CLREDUCE_MOMENTS_EXT_NONE),
                         (CLREDUCE_MOMENTS_EXT_VEC)(CLREDUCE_MOMENTS_EXT_NONE_HI)};
    return s;
}
inline clreduce_vstate clreduce_vaccumulate(clreduce_vstate s, CLREDUCE_T_VEC v) {
    const CLREDUCE_ACC_VEC m = clreduce_vmap(v);
    if (s.count == 0) s.shift = isfinite(m) ? m : (CLREDUCE_ACC_VEC)((CLREDUCE_ACC)0);
    const CLREDUCE_ACC_VEC d = m - s.shift;
    s.s1 = s.s1 + d;
    s.s2 = s.s2 + d * d;
    s.count += 1;
    s.lo = CLREDUCE_MOMENTS_MIN(s.lo, CLREDUCE_MOMENTS_EXT_OF(v, m));
    s.hi = CLREDUCE_MOMENTS_MAX(s.hi, CLREDUCE_MOMENTS_EXT_OF(v, m));
    return s;
}
inline clreduce_state clreduce_vfinish(clreduce_vstate s) {
#if CLREDUCE_VEC == 1
    clreduce_state r = {s.count, s.shift, s.s1, s.s2, (CLREDUCE_MOMENTS_X)s.lo, (CLREDUCE_MOMENTS_X)s.hi};
    return r;
#else
    CLREDUCE_ACC shift[CLREDUCE_VEC], s1[CLREDUCE_VEC], s2[CLREDUCE_VEC];
    CLREDUCE_MOMENTS_EXT lo[CLREDUCE_VEC], hi[CLREDUCE_VEC];
    CLREDUCE_CAT(vstore, CLREDUCE_VEC)(s.shift, 0, shift);
    CLREDUCE_CAT(vstore, CLREDUCE_VEC)(s.s1, 0, s1);
    CLREDUCE_CAT(vstore, CLREDUCE_VEC)(s.s2, 0, s2);
    CLREDUCE_CAT(vstore, CLREDUCE_VEC)(s.lo, 0, lo);
    CLREDUCE_CAT(vstore, CLREDUCE_VEC)(s.hi, 0, hi);
    clreduce_state r = clreduce_init();
    for (uint k = 0; k < CLREDUCE_VEC; ++k) {
        const clreduce_state lane = {s.count,          shift[k], s1[k], s2[k], (CLREDUCE_MOMENTS_X)lo[k],
                                     (CLREDUCE_MOMENTS_X)hi[k]};
        r = clreduce_combine(r, lane);
    }
    return r;
#endif
}
#endif
