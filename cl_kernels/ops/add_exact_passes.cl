// Part of ops/add_exact.cl (included there, inside CLREDUCE_EXACT_GROUP): level 1's untested
// passes, which take a work-item's vectors without testing every TwoSum and check once after:
// the CPU devices' untested-first pass and the GPUs' anchored pass (src/device/vendor.hpp,
// exact_lane_passes, says which device takes which).

#if CLREDUCE_EXACT_OPTIMISTIC
// Level 1 takes the work-item's vectors without testing each TwoSum's error (a branch in the
// loop costs more than a few flops on both device classes) and checks once afterwards that its
// lanes hold the exact sum; where not, the work-item takes the same vectors again, in a pass
// that holds more, and last with clreduce_vaccumulate. CLREDUCE_EXACT_OPTIMISTIC says which
// first pass (src/device/vendor.hpp, exact_lane_passes): 1, untested first, on CPU devices;
// 2, anchored, on GPUs.

// The optimistic passes' own state, apart from clreduce_vstate: no array in it and no address
// taken, so that a GPU's compiler keeps it in registers (NVIDIA's compiler keeps a state with an
// array in local memory and stores it again at every vector).
typedef struct {
    clreduce_dvec a0, a1;             // as in clreduce_vstate
    clreduce_lvec errors;             // every error past a1, or-ed (the folds: some term not -0.0)
    clreduce_uvec largest, smallest;  // the float magnitudes' bits
#if CLREDUCE_ACC_SIZE == 8
    // Only in double kernels: unused fields in the float kernels still cost the floats'
    // anchored pass registers and time (docs/performance.md, "Correctly rounded sums").
    clreduce_dvec a2;                    // the GPUs' doubles: the third fold
    clreduce_ulvec dlargest, dsmallest;  // the GPUs' doubles: the magnitudes' bits
#endif
    clreduce_uvec lowest;             // the anchored pass: the smallest bits, sign included
    int k;                            // the anchored pass: a0 started at 1.5 * 2^k
    int low;                          // the GPU passes: the smallest exponent seen
    int promising;                    // the GPU passes: whether the group takes the first
} clreduce_vtry_state;
#define CLREDUCE_PEEK_NONE 4095  // above every exponent: no nonzero value seen

// L, the bits of the count of values a lane takes: 2^L >= CLREDUCE_TIMES.
inline int clreduce_log2_times(void) { return 32 - clz((uint)CLREDUCE_TIMES - 1u); }

inline clreduce_vtry_state clreduce_vtry_init(void) {
    clreduce_vtry_state t;
#if CLREDUCE_ACC_SIZE == 4 && CLREDUCE_EXACT_OPTIMISTIC == 2
    t.a0 = (clreduce_dvec)(1.5);  // the anchored pass: 1.5 * 2^k, k = 0 until a first vector
#else
    t.a0 = (clreduce_dvec)(-0.0);
#endif
    t.a1 = (clreduce_dvec)(0.0);
    t.errors = 0;
    t.largest = 0;
    t.smallest = 0xffffffffu;
#if CLREDUCE_ACC_SIZE == 8
    t.a2 = (clreduce_dvec)(0.0);
    t.dlargest = 0;
    t.dsmallest = 0xffffffffffffffffUL;
#endif
    t.lowest = 0xffffffffu;
    t.k = 0;
    t.low = CLREDUCE_PEEK_NONE;
    t.promising = 1;
    return t;
}

#if CLREDUCE_ACC_SIZE == 4 && CLREDUCE_EXACT_OPTIMISTIC == 2
// A held anchored pass's lanes (below): a0 less its anchor (exact: both lie in
// [2^k, 2^(k+1))), and a1. The anchor's sum cannot be -0.0, which a lane must give when every
// term it took was -0.0 or it took none (-0.0 is the identity for the sign of a zero sum, as
// in vinit): its terms were zeros only when the largest magnitude is 0, and none was +0.0
// when the lowest bits are not 0.
inline clreduce_vstate clreduce_vtry_result(clreduce_vtry_state t, __local long* sink) {
    clreduce_vstate v = clreduce_vinit();
    v.a0 = clreduce_zero_sign(t.a0 - (clreduce_dvec)(ldexp(1.5, t.k)), t.largest, t.lowest);
    v.a1 = t.a1;
    return v;
}
#elif CLREDUCE_ACC_SIZE == 4 || CLREDUCE_EXACT_OPTIMISTIC != 2
// A pass that held: its lanes are the work-item's exact sum.
inline clreduce_vstate clreduce_vtry_result(clreduce_vtry_state t, __local long* sink) {
    clreduce_vstate v = clreduce_vinit();
    v.a0 = t.a0;
    v.a1 = t.a1;
    return v;
}
#endif

// Two TwoSums per lane, the second one's errors only or-ed together. The lanes hold the exact
// sum where no error was left and every term is finite and below 2^990 (NaN, infinities and
// large doubles end there; TwoSum is exact for finite values that do not overflow): data
// whose lanes stay within two doubles' 106 bits.
inline clreduce_vtry_state clreduce_vtry_two_sums(clreduce_vtry_state s, CLREDUCE_T_VEC v) {
    clreduce_dvec x = clreduce_to_dvec(clreduce_mapped_vector(v));
    CLREDUCE_TWO_SUM(clreduce_dvec, s.a0, x)
    CLREDUCE_TWO_SUM(clreduce_dvec, s.a1, x)
    s.errors |= clreduce_as_lvec(x);
    return s;
}

// (An error of -0.0 is zero.)
inline bool clreduce_vheld_two_sums(clreduce_vtry_state s) {
    return !CLREDUCE_ANY((s.errors << 1) != 0) && CLREDUCE_EXPANDABLE(s.a0) && CLREDUCE_EXPANDABLE(s.a1);
}

#if CLREDUCE_EXACT_OPTIMISTIC == 2
// NVIDIA GPUs (CLREDUCE_EXACT_OPTIMISTIC=2): before its first pass each work-item looks at its
// first and last vectors (data that grows or shrinks along the range has its extremes at the
// ends) and the work-group agrees on their largest and smallest exponents, which size the
// float data's anchor and tell whether the first pass can hold at all: a warp runs the tested
// lanes when any of its work-items must, so a group whose ends already span more than the
// pass holds goes straight to them rather than read its vectors twice.
#define CLREDUCE_VECTOR_PEEK 1
#if CLREDUCE_ACC_SIZE == 4
typedef uint clreduce_bits;
#define clreduce_bits_of(x) clreduce_as_uvec(x)
#define CLREDUCE_EXPONENT_SHIFT 23
#define CLREDUCE_EXPONENT_MASK 0xffu
#define CLREDUCE_MAGNITUDE_MASK 0x7fffffffu
#else
typedef long clreduce_bits;
#define clreduce_bits_of(x) clreduce_as_lvec(x)
#define CLREDUCE_EXPONENT_SHIFT 52
#define CLREDUCE_EXPONENT_MASK 0x7ffL
#define CLREDUCE_MAGNITUDE_MASK 0x7fffffffffffffffL
#endif

// The largest exponent of v's lanes so far in s.k, the smallest of its nonzero lanes in s.low.
inline clreduce_vtry_state clreduce_vtry_peek(clreduce_vtry_state s, CLREDUCE_T_VEC v) {
    clreduce_bits lanes[CLREDUCE_VEC];
#if CLREDUCE_VEC == 1
    lanes[0] = clreduce_bits_of(clreduce_mapped_vector(v));
#else
    CLREDUCE_CAT(vstore, CLREDUCE_VEC)(clreduce_bits_of(clreduce_mapped_vector(v)), 0, lanes);
#endif
    for (int i = 0; i < CLREDUCE_VEC; ++i) {
        const int exponent = (int)((lanes[i] >> CLREDUCE_EXPONENT_SHIFT) & CLREDUCE_EXPONENT_MASK);
        s.k = max(s.k, exponent);
        if ((lanes[i] & CLREDUCE_MAGNITUDE_MASK) != 0) s.low = min(s.low, exponent);
    }
    return s;
}

// Every work-item of the group, after its peeks: the group's largest exponent in s.k, its
// smallest in s.low (a barrier; every work-item reaches it).
inline clreduce_vtry_state clreduce_vtry_group_range(clreduce_vtry_state s, __local long* sink) {
    atom_max((volatile __local long*)(sink + CLREDUCE_SINK_ANCHOR), (long)s.k);
    atom_max((volatile __local long*)(sink + CLREDUCE_SINK_ANCHOR + 1), (long)(CLREDUCE_PEEK_NONE - s.low));
    barrier(CLK_LOCAL_MEM_FENCE);
    s.k = (int)sink[CLREDUCE_SINK_ANCHOR];
    s.low = CLREDUCE_PEEK_NONE - (int)sink[CLREDUCE_SINK_ANCHOR + 1];
    return s;
}

inline bool clreduce_vtry_promising(clreduce_vtry_state s) { return s.promising != 0; }
#endif

#if CLREDUCE_ACC_SIZE == 4 && CLREDUCE_EXACT_OPTIMISTIC == 2
// NVIDIA GPUs, float data (CLREDUCE_EXACT_OPTIMISTIC=2): one pass, anchored (the extraction of
// ReproBLAS, Ahrens, Nguyen and Demmel): each lane's a0 starts at an anchor A = 1.5 * 2^k
// above its values, so that a0 + x rounds x to a multiple of ulp(A) = 2^(k - 52), and what
// that rounding left, x - ((a0 + x) - a0), is exact (FastTwoSum: |a0| > |x|) and goes to a1,
// a plain double. Four double additions a float and no branch, where the tested lanes make
// six and a test. It held when
//  - every |x| <= 2^(k - L - 2) (2^L >= CLREDUCE_TIMES, the values a lane takes): a0 then
//    stays in [2^k, 2^(k+1)), where its additions of the rounded parts are exact;
//  - a1 added exactly: its terms are below 2^(k - 53) and multiples of the lane's smallest
//    float unit 2^(max(emin, 1) - 150), its partial sums below 2^(k - 53 + L), so 53 bits
//    hold them when k + L + 44 <= max(emin, 1) (or the lane took zeros only);
//  - nothing was NaN or infinite (the largest magnitude's exponent is not 255).
// k is the work-group's: the largest exponent of every work-item's first and last vectors
// (above), CLREDUCE_ANCHOR_MARGIN binades of room for larger values elsewhere, and L + 2
// (clreduce_vtry_anchor). A lane's floats may then span up to
// 80 - 2L - CLREDUCE_ANCHOR_MARGIN binades (54 at CLREDUCE_TIMES 512, GPUs' default): every data set of
// docs/performance.md but the wide and whole ranges; those, and values far above the ends',
// take the tested path over the same vectors. (A warp runs that path when any of its
// work-items needs it, so the anchor is the group's rather than each work-item's: a margin
// over one work-item's first vector fails some work-item of nearly every warp on cancelling
// data, and the warp then runs both paths.) Where
// the ends' values alone already span more than that (wide ranges), the group goes straight
// to the tested path (clreduce_vtry_promising).
#define CLREDUCE_VECTOR_RETRY 1
#define CLREDUCE_ANCHOR_MARGIN 8

inline clreduce_vtry_state clreduce_vtry_anchor(clreduce_vtry_state s, __local long* sink) {
    s = clreduce_vtry_group_range(s, sink);
    const int log2_times = clreduce_log2_times();
    s.promising = s.k < 255 && s.k - max(s.low, 1) <= 80 - 2 * log2_times - CLREDUCE_ANCHOR_MARGIN;
    s.k = s.k - 124 + log2_times + CLREDUCE_ANCHOR_MARGIN;
    s.a0 = (clreduce_dvec)(ldexp(1.5, s.k));
    return s;
}

inline clreduce_vtry_state clreduce_vtry1(clreduce_vtry_state s, CLREDUCE_T_VEC v) {
    const CLREDUCE_ACC_VEC y = clreduce_mapped_vector(v);
    const clreduce_uvec bits = clreduce_as_uvec(y);
    const clreduce_uvec magnitude = bits & 0x7fffffffu;
    s.largest = max(s.largest, magnitude);
    s.smallest = min(s.smallest, magnitude - 1u);
    s.lowest = min(s.lowest, bits);
    const clreduce_dvec x = clreduce_to_dvec(y);
    const clreduce_dvec sum = s.a0 + x;
    s.a1 += x - (sum - s.a0);
    s.a0 = sum;
    return s;
}

inline bool clreduce_vheld1(clreduce_vtry_state s) {
    const int log2_times = clreduce_log2_times();
    const clreduce_uvec emax = s.largest >> 23;
    const clreduce_uvec emin = max((s.smallest + 1u) >> 23, (clreduce_uvec)1u);
    const uint top = (uint)(s.k + 124 - log2_times);  // |x| < 2^(emax - 126) <= 2^(k - L - 2)
    const uint need = (uint)max(s.k + log2_times + 44, 0);
    return !CLREDUCE_ANY(emax > top | emax == 255u | (s.smallest != 0xffffffffu & emin < need));
}
#elif CLREDUCE_ACC_SIZE == 4
// Floats first in one double per lane, keeping the largest and the smallest nonzero
// magnitude's bits (zero wraps to the largest uint in magnitude - 1): with at most
// CLREDUCE_TIMES = 2^L values per lane, every partial sum is a multiple of the smallest
// value's unit, 2^(max(emin, 1) - 150), and below 2^(L + emax - 126), so a double (53 bits)
// held it exactly when L + emax - max(emin, 1) <= 53 - 24. NaN and infinities leave a0 not
// finite. About the deterministic sum's cost; data spread wider takes the TwoSums next.
#define CLREDUCE_VECTOR_RETRY 2
inline clreduce_vtry_state clreduce_vtry1(clreduce_vtry_state s, CLREDUCE_T_VEC v) {
    const CLREDUCE_ACC_VEC y = clreduce_mapped_vector(v);
    const clreduce_uvec magnitude = clreduce_as_uvec(y) & 0x7fffffffu;
    s.largest = max(s.largest, magnitude);
    s.smallest = min(s.smallest, magnitude - 1u);
    s.a0 += clreduce_to_dvec(y);
    return s;
}

inline bool clreduce_vheld1(clreduce_vtry_state s) {
    const clreduce_uvec emax = s.largest >> 23;
    const clreduce_uvec emin = max((s.smallest + 1u) >> 23, (clreduce_uvec)1u);
    const uint log2_times = (uint)clreduce_log2_times();
    return !CLREDUCE_ANY(emax + log2_times > emin + (53u - 24u)) && CLREDUCE_EXPANDABLE(s.a0);
}
#define clreduce_vtry2 clreduce_vtry_two_sums
#define clreduce_vheld2 clreduce_vheld_two_sums
#elif CLREDUCE_EXACT_OPTIMISTIC != 2
#define CLREDUCE_VECTOR_RETRY 1
#define clreduce_vtry1 clreduce_vtry_two_sums
#define clreduce_vheld1 clreduce_vheld_two_sums
#else
// NVIDIA GPUs, double data: three folds, anchored, as the floats' pass but one fold more. With
// T the group's largest exponent (biased) from its ends, M = CLREDUCE_FOLDS_MARGIN binades of
// room above it and 2^L >= CLREDUCE_TIMES values a lane, a0 starts at A0 = 1.5 * 2^E, E =
// T - 1022 + L + 2 + M, a1 at A1 = 1.5 * 2^F, F = E - 51 + L. A value within the room (|x| <=
// 2^(E - L - 2)) adds to a0 exactly rounded to a multiple of 2^(E - 52) (a0 stays in
// [2^E, 2^(E+1))), what that left, |r| <= 2^(E - 53), adds to a1 likewise, and what that
// left, |r1| <= 2^(E - 104 + L), goes to a2, a plain double: every r1 is a multiple of the
// lane's smallest unit u = 2^(max(emin, 1) - 1075) and their partial sums are below
// 2^(E - 104 + 2L), exact where that is at most 2^53 u, that is where emin >= T + 3L + M - 102.
// Seven double additions a double and no test; the work-item checks once, from its lanes'
// largest and smallest magnitudes, that every value lay within the room and the lanes' doubles
// within 102 - 3L - M binades (67 at `times` 512, 76 at 64). A group whose ends already span
// more, or whose anchor would overflow, takes the later passes.
#define CLREDUCE_VECTOR_RETRY 1
#define CLREDUCE_FOLDS_MARGIN 8
// E from T (s.k, which the later passes read too); the highest T whose A0 is below 2^1024.
inline int clreduce_folds_highest(void) { return 2043 - clreduce_log2_times() - CLREDUCE_FOLDS_MARGIN; }
inline int clreduce_folds_exponent(clreduce_vtry_state s) {
    return min(s.k, clreduce_folds_highest()) - 1022 + clreduce_log2_times() + 2 + CLREDUCE_FOLDS_MARGIN;
}

inline clreduce_vtry_state clreduce_vtry_anchor(clreduce_vtry_state s, __local long* sink) {
    s = clreduce_vtry_group_range(s, sink);
    const int log2_times = clreduce_log2_times();
    s.promising = s.k <= clreduce_folds_highest() &&
                  s.k - max(s.low, 1) <= 102 - 3 * log2_times - CLREDUCE_FOLDS_MARGIN;
    const int e = clreduce_folds_exponent(s);
    s.a0 = (clreduce_dvec)(ldexp(1.5, e));
    s.a1 = (clreduce_dvec)(ldexp(1.5, e - 51 + log2_times));
    return s;
}

inline clreduce_vtry_state clreduce_vtry1(clreduce_vtry_state s, CLREDUCE_T_VEC v) {
    clreduce_dvec x = clreduce_to_dvec(clreduce_mapped_vector(v));
    const clreduce_ulvec bits = clreduce_as_ulvec(x);
    const clreduce_ulvec magnitude = bits & 0x7fffffffffffffffUL;
    s.dlargest = max(s.dlargest, magnitude);
    s.dsmallest = min(s.dsmallest, magnitude - 1UL);
    s.errors |= clreduce_as_lvec(bits ^ 0x8000000000000000UL);  // not 0: a term not -0.0
    const clreduce_dvec s0 = s.a0 + x;
    x = x - (s0 - s.a0);
    s.a0 = s0;
    const clreduce_dvec s1 = s.a1 + x;
    x = x - (s1 - s.a1);
    s.a1 = s1;
    s.a2 += x;
    return s;
}

inline bool clreduce_vheld1(clreduce_vtry_state s) {
    const int log2_times = clreduce_log2_times(), e = clreduce_folds_exponent(s);
    const clreduce_ulvec emax = s.dlargest >> 52;
    const clreduce_ulvec emin = max((s.dsmallest + 1UL) >> 52, (clreduce_ulvec)1UL);
    const ulong top = (ulong)(e + 1020 - log2_times);          // T + M: |x| <= 2^(E - L - 2)
    const ulong need = (ulong)max(e + 918 + 2 * log2_times, 0);  // T + 3L + M - 102
    return !CLREDUCE_ANY((emax > top) | (s.dsmallest != 0xffffffffffffffffUL & emin < need));
}

// A held pass's lanes: a0 - A0 and a1 - A1 (exact: each lies in [2^E, 2^(E+1)) with its
// anchor), -0.0 where every term was -0.0 or there was none; a2 into the work-item's expansion.
inline clreduce_vstate clreduce_vtry_result(clreduce_vtry_state t, __local long* sink) {
    clreduce_vstate v = clreduce_vinit();
    const int e = clreduce_folds_exponent(t);
    v.a0 = t.a0 - (clreduce_dvec)(ldexp(1.5, e));
    v.a1 = t.a1 - (clreduce_dvec)(ldexp(1.5, e - 51 + clreduce_log2_times()));
#if CLREDUCE_VEC == 1
    if (t.errors == 0) v.a0 = -0.0;
    if (t.a2 != 0) clreduce_expansion_add(&v.rest, t.a2, sink);
#else
    v.a0 = CLREDUCE_CAT(as_double, CLREDUCE_VEC)(clreduce_as_lvec(v.a0) |
                                                  (clreduce_as_lvec(t.errors == 0) & (long)0x8000000000000000UL));
    double rest[CLREDUCE_VEC];
    CLREDUCE_CAT(vstore, CLREDUCE_VEC)(t.a2, 0, rest);
    for (int i = 0; i < CLREDUCE_VEC; ++i)
        if (rest[i] != 0) clreduce_expansion_add(&v.rest, rest[i], sink);
#endif
    return v;
}
#endif
#endif
