// Operation: add, correctly rounded (FloatMode::correctly_rounded), float accumulators.
// (One file of over 500 lines: a plug-in is one source file (src/ops/operation_table.cpp), and
// the expansion route's parts, lanes, work-item expansion, sink, the CPU devices' untested
// passes, the GPUs' anchored pass and the bins, are built on one another's types; the
// fixed-point route shares the zero flags.)
// The exact sum is kept as a long fixed-point number (cl_kernels/fixed_point.cl). Integer
// additions are exact and independent of the order: every plan, device and run gives the
// same number, which the host rounds once, to nearest even (src/ops/exact_state.cpp).
//
// Two ways to get there, one number at the end:
//  - with the exact atomic finish (InterGroup::exact_atomic, the default where the device has
//    64-bit atomics, base and extended, and doubles), the fast one, after ExBLAS (Collange,
//    Defour, Graillat and Iakymchuk, 2015): each work-item keeps its sum as a short expansion of
//    doubles that TwoSum keeps exact (a few flops per element; measured in docs/performance.md,
//    "Correctly rounded sums"); what
//    falls out of its last term, and values the expansion must not take (NaN, infinities,
//    doubles from 2^990 up), go to the work-group's fixed-point number in local memory (the
//    "sink", CLREDUCE_GROUP_SINK in reduce.cl) with local atomics. Level 2 adds expansions
//    with TwoSum; level 3 adds the group's expansion and sink to the result's number with
//    global atomics.
//  - with a second pass or the last-group finish (and in segments.cl), the state is the
//    fixed-point number itself, every element added into its limbs (slower: the state is
//    large, 88 bytes for float and 544 for double).
// The sign of a zero sum is IEEE addition's: -0.0 when every term is -0.0, else +0.0 (the
// flags say which; an empty sum is +0.0).
#define CLREDUCE_EXACT_NEG_ZERO 8       // some term is -0.0
#define CLREDUCE_EXACT_NOT_NEG_ZERO 16  // some term is not -0.0
#if CLREDUCE_FINISH == CLREDUCE_FINISH_EXACT_ATOMIC
#define CLREDUCE_EXACT_GROUP 1
#else
#define CLREDUCE_EXACT_GROUP 0
#endif

#if !CLREDUCE_EXACT_GROUP
// Each work-item adds at most times * vector_width values before its state is combined, and
// combine propagates the carries (limbs below the top are left in [0, 2^32)), so no limb
// can overflow.
typedef struct {
    long limb[CLREDUCE_EXACT_LIMBS];
    long flags;
} clreduce_state;

inline clreduce_state clreduce_init(void) {
    clreduce_state z;
    for (int k = 0; k < CLREDUCE_EXACT_LIMBS; ++k) z.limb[k] = 0;
    z.flags = 0;
    return z;
}

inline void clreduce_exact_add(clreduce_state* s, CLREDUCE_ACC x) {
    const clreduce_digits d = clreduce_split(x);
    // Which zero an exact zero sum is (IEEE: -0.0 only when every term is -0.0).
#if CLREDUCE_ACC_SIZE == 4
    const bool negative_zero = as_uint(x) == 0x80000000u;
#else
    const bool negative_zero = as_ulong(x) == 0x8000000000000000UL;
#endif
    s->flags |= negative_zero ? CLREDUCE_EXACT_NEG_ZERO : CLREDUCE_EXACT_NOT_NEG_ZERO;
    if (d.flags) {
        s->flags |= d.flags;
        return;
    }
#if CLREDUCE_ACC_SIZE == 4
    // Ten limbs: fixed indices let the compiler keep them in registers.
    for (int j = 0; j < CLREDUCE_EXACT_LIMBS - 1; ++j)
        s->limb[j] += j == (int)d.k ? d.d[0] : j == (int)d.k + 1 ? d.d[1] : 0;
#else
    // 67 limbs: three updates at computed indices cost less than a pass over all of them
    // (measured on PoCL); the expansion below makes them rare.
    s->limb[d.k] += d.d[0];
    s->limb[d.k + 1] += d.d[1];
    s->limb[d.k + 2] += d.d[2];
#endif
}

inline clreduce_state clreduce_combine(clreduce_state a, clreduce_state b) {
    for (int k = 0; k < CLREDUCE_EXACT_LIMBS; ++k) a.limb[k] += b.limb[k];
    // Carries up: limb k keeps its value modulo 2^32 (the arithmetic shift floors).
    for (int k = 0; k < CLREDUCE_EXACT_LIMBS - 1; ++k) {
        const long carry = a.limb[k] >> 32;
        a.limb[k] &= 0xffffffffL;
        a.limb[k + 1] += carry;
    }
    a.flags |= b.flags;
    return a;
}

inline clreduce_state clreduce_accumulate(clreduce_state s, CLREDUCE_T x, ulong index) {
    clreduce_exact_add(&s, clreduce_map(x));
    return s;
}

#if CLREDUCE_MAP != CLREDUCE_MAP_TRANSFORM
// Whole vectors at a time: one state update per load rather than per element.
#define CLREDUCE_VECTOR_PATH 1
#if CLREDUCE_ACC_SIZE == 4
typedef clreduce_state clreduce_vstate;
inline clreduce_vstate clreduce_vinit(void) { return clreduce_init(); }
inline void clreduce_vadd(clreduce_vstate* s, CLREDUCE_ACC x) { clreduce_exact_add(s, x); }
inline clreduce_state clreduce_vfinish(clreduce_vstate s) { return s; }
#else
// Doubles first go through a floating-point expansion (ExBLAS's FPE): four doubles that
// TwoSum keeps equal to the exact sum of what they took, in registers. Only what falls out of
// the last one, and the expansion itself at the end, touch the limbs. TwoSum is exact for
// finite values while nothing overflows: values from 2^990 up (at most 2^24 of them reach
// one work-item's expansion, whose sum stays below 2^1014), infinities and NaN go straight
// to the limbs.
#define CLREDUCE_EXACT_FPE 4
typedef struct {
    double a[CLREDUCE_EXACT_FPE];
    clreduce_state s;
} clreduce_vstate;
inline clreduce_vstate clreduce_vinit(void) {
    clreduce_vstate v;
    for (int k = 0; k < CLREDUCE_EXACT_FPE; ++k) v.a[k] = 0;
    v.s = clreduce_init();
    return v;
}
inline void clreduce_vadd(clreduce_vstate* v, double x) {
    v->s.flags |= as_ulong(x) == 0x8000000000000000UL ? CLREDUCE_EXACT_NEG_ZERO : CLREDUCE_EXACT_NOT_NEG_ZERO;
    if (!(fabs(x) < 0x1p990)) {
        clreduce_exact_add(&v->s, x);
        return;
    }
    for (int k = 0; k < CLREDUCE_EXACT_FPE; ++k) {
        const double sum = v->a[k] + x;
        const double b = sum - v->a[k];
        x = (v->a[k] - (sum - b)) + (x - b);
        v->a[k] = sum;
    }
    if (x != 0) clreduce_exact_add(&v->s, x);
}
inline clreduce_state clreduce_vfinish(clreduce_vstate v) {
    // Zero terms add nothing (and must not count as terms for the sign of a zero sum).
    for (int k = 0; k < CLREDUCE_EXACT_FPE; ++k)
        if (v.a[k] != 0) clreduce_exact_add(&v.s, v.a[k]);
    return v.s;
}
#endif
inline clreduce_vstate clreduce_vaccumulate(clreduce_vstate s, CLREDUCE_T_VEC v) {
#if CLREDUCE_VEC == 1
    clreduce_vadd(&s, clreduce_vmap(v));
#else
    CLREDUCE_ACC lanes[CLREDUCE_VEC];
    CLREDUCE_CAT(vstore, CLREDUCE_VEC)(clreduce_vmap(v), 0, lanes);
    for (int i = 0; i < CLREDUCE_VEC; ++i) clreduce_vadd(&s, lanes[i]);
#endif
    return s;
}
#endif
#endif  // !CLREDUCE_EXACT_GROUP

#if CLREDUCE_EXACT_GROUP
// The expansion path (see the top). CLREDUCE_FPE doubles per expansion: each holds a window
// of 53 bits, so the sum of values spread over w binades needs about w / 53 of them; what
// does not fit is not lost, it goes to the sink (slower).
// Flags are or-ed as whole 64-bit words (cl_khr_int64_extended_atomics): a 32-bit atomic on a
// word the host filled as 64 bits reads as uninitialised to Oclgrind.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
#ifndef CLREDUCE_FPE
#define CLREDUCE_FPE 6  // the host passes src/ops/exact_state.hpp's kExactExpansionTerms
#endif
#if CLREDUCE_FPE < 2 || CLREDUCE_FPE > 8
#error "CLREDUCE_FPE: 2 to 8 doubles"
#endif
#ifndef CLREDUCE_EXACT_OPTIMISTIC
#define CLREDUCE_EXACT_OPTIMISTIC 0  // 1: level 1 tries the lanes untested first (see below)
#endif
#define CLREDUCE_GROUP_SINK 1
#if CLREDUCE_EXACT_OPTIMISTIC == 2
// A number like the result's, and the GPU passes' three words (the group's largest exponent,
// CLREDUCE_PEEK_NONE less its smallest, whether some work-item's bins did not hold).
#define CLREDUCE_SINK_WORDS (CLREDUCE_EXACT_WORDS + 3)
#define CLREDUCE_SINK_ANCHOR CLREDUCE_EXACT_WORDS
#define CLREDUCE_SINK_UNHELD (CLREDUCE_EXACT_WORDS + 2)
#else
#define CLREDUCE_SINK_WORDS CLREDUCE_EXACT_WORDS  // a number like the result's
#endif
#define CLREDUCE_EXACT_FINISH 1
#if CLREDUCE_VEC == 1
#define CLREDUCE_ANY(c) (c)
typedef double clreduce_dvec;
#define clreduce_to_dvec(x) convert_double(x)
#else
#define CLREDUCE_ANY(c) any(c)
typedef CLREDUCE_CAT(double, CLREDUCE_VEC) clreduce_dvec;
#define clreduce_to_dvec(x) CLREDUCE_CAT(convert_double, CLREDUCE_VEC)(x)
#endif
// Whether every lane of x is a double the expansions may take: finite and below 2^990.
#define CLREDUCE_EXPANDABLE(x) (!CLREDUCE_ANY(!(fabs(x) < 0x1p990)))

// STEP(k) for k = 0 .. CLREDUCE_FPE - 1, written out: the terms are reached by constant
// indices only, so they stay in registers (a loop with an early exit left them in memory).
#define CLREDUCE_FPE_IF(k, STEP) CLREDUCE_CAT(CLREDUCE_FPE_IF_, k)(STEP)
#define CLREDUCE_FPE_IF_1(STEP) STEP(1)
#if CLREDUCE_FPE > 2
#define CLREDUCE_FPE_IF_2(STEP) STEP(2)
#else
#define CLREDUCE_FPE_IF_2(STEP)
#endif
#if CLREDUCE_FPE > 3
#define CLREDUCE_FPE_IF_3(STEP) STEP(3)
#else
#define CLREDUCE_FPE_IF_3(STEP)
#endif
#if CLREDUCE_FPE > 4
#define CLREDUCE_FPE_IF_4(STEP) STEP(4)
#else
#define CLREDUCE_FPE_IF_4(STEP)
#endif
#if CLREDUCE_FPE > 5
#define CLREDUCE_FPE_IF_5(STEP) STEP(5)
#else
#define CLREDUCE_FPE_IF_5(STEP)
#endif
#if CLREDUCE_FPE > 6
#define CLREDUCE_FPE_IF_6(STEP) STEP(6)
#else
#define CLREDUCE_FPE_IF_6(STEP)
#endif
#if CLREDUCE_FPE > 7
#define CLREDUCE_FPE_IF_7(STEP) STEP(7)
#else
#define CLREDUCE_FPE_IF_7(STEP)
#endif
#define CLREDUCE_FPE_EACH(STEP)                                                                       \
    STEP(0) CLREDUCE_FPE_IF(1, STEP) CLREDUCE_FPE_IF(2, STEP) CLREDUCE_FPE_IF(3, STEP)                \
        CLREDUCE_FPE_IF(4, STEP) CLREDUCE_FPE_IF(5, STEP) CLREDUCE_FPE_IF(6, STEP) CLREDUCE_FPE_IF(7, STEP)

// An expansion: a[0] + a[1] + ... is the exact sum of what it took (less what went to the
// sink). a[0] starts at -0.0 and takes every element and every other expansion's a[0] by IEEE
// addition, so it ends -0.0 exactly when every term was -0.0.
typedef struct {
    double a[CLREDUCE_FPE];
} clreduce_state;

inline clreduce_state clreduce_init(void) {
    clreduce_state z;
#define CLREDUCE_ZERO_TERM(term) z.a[term] = term == 0 ? -0.0 : 0.0;
    CLREDUCE_FPE_EACH(CLREDUCE_ZERO_TERM)
#undef CLREDUCE_ZERO_TERM
    return z;
}

inline void clreduce_sink_flags(__local long* sink, long flags) {
    atom_or((volatile __local long*)(sink + CLREDUCE_EXACT_LIMBS), flags);
}

// x exactly into the sink's limbs (x finite, a whole number of the accumulator's units).
inline void clreduce_sink_add(__local long* sink, double x) {
    const clreduce_digits d = clreduce_split_double(x);
    for (uint j = 0; j < 3; ++j)
        if (d.d[j] != 0) atom_add((volatile __local long*)(sink + d.k + j), d.d[j]);
}

// One mapped element as a double the expansion may take: exact, finite, below 2^990. The rest
// is settled here (NaN and infinities as flags, larger doubles into the sink) and becomes 0.
inline double clreduce_exact_value(CLREDUCE_ACC x, __local long* sink) {
#if CLREDUCE_ACC_SIZE == 4
    const uint bits = as_uint(x);
    const uint e = bits & 0x7f800000u;
    if (e == 0x7f800000u) {
        clreduce_sink_flags(sink, clreduce_special_flag(bits & 0x7fffffu, bits >> 31) | CLREDUCE_EXACT_NOT_NEG_ZERO);
        return 0.0;
    }
    if (e == 0) {  // zeros and subnormals from the bits: a device may flush them in conversions
        const double m = (double)(bits & 0x7fffffu) * 0x1p-149;
        return bits >> 31 ? -m : m;
    }
    return convert_double(x);
#else
    if (fabs(x) < 0x1p990) return x;
    if (isnan(x) || isinf(x)) {
        clreduce_sink_flags(sink, clreduce_special_flag(isnan(x), x < 0) | CLREDUCE_EXACT_NOT_NEG_ZERO);
    } else {
        clreduce_sink_add(sink, x);
        clreduce_sink_flags(sink, CLREDUCE_EXACT_NOT_NEG_ZERO);  // it passed a[0] by
    }
    return 0.0;
#endif
}

// x into the expansion: TwoSum with each term in turn while an error is left; what is left
// after the last goes to the sink.
inline void clreduce_expansion_add(clreduce_state* s, double x, __local long* sink) {
#define CLREDUCE_ADD_TERM(term)                 \
    CLREDUCE_TWO_SUM(double, s->a[term], x)     \
    if (x == 0) return;
    CLREDUCE_FPE_EACH(CLREDUCE_ADD_TERM)
#undef CLREDUCE_ADD_TERM
    clreduce_sink_add(sink, x);
}

inline clreduce_state clreduce_combine(clreduce_state a, clreduce_state b, __local long* sink) {
    // b's first term always (the sign of a zero sum), the others where they are not zero.
#define CLREDUCE_TAKE_TERM(term) \
    if (term == 0 || b.a[term] != 0) clreduce_expansion_add(&a, b.a[term], sink);
    CLREDUCE_FPE_EACH(CLREDUCE_TAKE_TERM)
#undef CLREDUCE_TAKE_TERM
    return a;
}

inline clreduce_state clreduce_accumulate(clreduce_state s, CLREDUCE_T x, ulong index, __local long* sink) {
    clreduce_expansion_add(&s, clreduce_exact_value(clreduce_map(x), sink), sink);
    return s;
}

// Level 1 on whole vectors: a short expansion per lane (two doubles), added
// lane-wise with vector TwoSum; its second term is touched only when some lane's error is not
// zero (for most data rare: a float's 24 bits fit the first double whole). What falls out of
// a lane goes to the work-item's own expansion (clreduce_state, CLREDUCE_FPE terms), and only
// what falls out of that to the sink. Lanes cost registers VEC times over, so they are short.
#define CLREDUCE_VECTOR_PATH 1
#if CLREDUCE_VEC == 1
typedef long clreduce_lvec;
typedef ulong clreduce_ulvec;
typedef uint clreduce_uvec;
#define clreduce_as_uvec(x) as_uint(x)
#define clreduce_as_lvec(x) as_long(x)
#define clreduce_as_ulvec(x) as_ulong(x)
#else
typedef CLREDUCE_CAT(uint, CLREDUCE_VEC) clreduce_uvec;
#define clreduce_as_uvec(x) CLREDUCE_CAT(as_uint, CLREDUCE_VEC)(x)
typedef CLREDUCE_CAT(long, CLREDUCE_VEC) clreduce_lvec;
#define clreduce_as_lvec(x) CLREDUCE_CAT(as_long, CLREDUCE_VEC)(x)
typedef CLREDUCE_CAT(ulong, CLREDUCE_VEC) clreduce_ulvec;
#define clreduce_as_ulvec(x) CLREDUCE_CAT(as_ulong, CLREDUCE_VEC)(x)
#endif

typedef struct {
    clreduce_dvec a0, a1;  // the lanes' expansions
    clreduce_state rest;   // what falls out of them
} clreduce_vstate;

inline clreduce_vstate clreduce_vinit(void) {
    clreduce_vstate v;
    v.a0 = (clreduce_dvec)(-0.0);
    v.a1 = (clreduce_dvec)(0.0);
    v.rest = clreduce_init();
    return v;
}

// A lane's sum from a pass that tracks its float terms' largest magnitude and smallest bits
// (sign included) rather than adding from -0.0: -0.0 where every term was -0.0 or there was
// none (largest magnitude 0, and no +0.0: the smallest bits not 0), the sum (+0.0 there) else.
inline clreduce_dvec clreduce_zero_sign(clreduce_dvec sum, clreduce_uvec largest, clreduce_uvec lowest) {
#if CLREDUCE_VEC == 1
    return largest == 0 && lowest != 0 ? -0.0 : sum;
#else
    const clreduce_lvec negative_zero =
        CLREDUCE_CAT(convert_long, CLREDUCE_VEC)(largest == 0 & lowest != 0) & (long)0x8000000000000000UL;
    return CLREDUCE_CAT(as_double, CLREDUCE_VEC)(clreduce_as_lvec(sum) | negative_zero);
#endif
}

#if CLREDUCE_VEC > 1
// The lanes of a vector that need care (zeros and subnormal floats, NaN, infinities, doubles
// from 2^990 up), one by one.
inline clreduce_dvec clreduce_exact_lanes(CLREDUCE_ACC_VEC x, __local long* sink) {
    CLREDUCE_ACC lanes[CLREDUCE_VEC];
    double out[CLREDUCE_VEC];
    CLREDUCE_CAT(vstore, CLREDUCE_VEC)(x, 0, lanes);
    for (int i = 0; i < CLREDUCE_VEC; ++i) out[i] = clreduce_exact_value(lanes[i], sink);
    return CLREDUCE_CAT(vload, CLREDUCE_VEC)(0, out);
}
#endif

// A vector mapped to the accumulator (lane by lane for an expression).
inline CLREDUCE_ACC_VEC clreduce_mapped_vector(CLREDUCE_T_VEC v) {
#if CLREDUCE_VEC == 1
    return clreduce_map(v);
#elif CLREDUCE_MAP == CLREDUCE_MAP_TRANSFORM
    CLREDUCE_T in[CLREDUCE_VEC];
    CLREDUCE_ACC mapped[CLREDUCE_VEC];
    CLREDUCE_CAT(vstore, CLREDUCE_VEC)(v, 0, in);
    for (int i = 0; i < CLREDUCE_VEC; ++i) mapped[i] = clreduce_map(in[i]);
    return CLREDUCE_CAT(vload, CLREDUCE_VEC)(0, mapped);
#else
    return clreduce_vmap(v);
#endif
}

inline clreduce_dvec clreduce_exact_vector(CLREDUCE_T_VEC v, __local long* sink) {
#if CLREDUCE_VEC == 1
    return clreduce_exact_value(clreduce_map(v), sink);
#else
    const CLREDUCE_ACC_VEC x = clreduce_mapped_vector(v);
#if CLREDUCE_ACC_SIZE == 4
    const CLREDUCE_CAT(uint, CLREDUCE_VEC) e = CLREDUCE_CAT(as_uint, CLREDUCE_VEC)(x) & 0x7f800000u;
    const bool plain = !any(e == 0 || e == 0x7f800000u);
#else
    const bool plain = CLREDUCE_EXPANDABLE(x);
#endif
    return plain ? clreduce_to_dvec(x) : clreduce_exact_lanes(x, sink);
#endif
}

inline clreduce_vstate clreduce_vaccumulate(clreduce_vstate s, CLREDUCE_T_VEC v, __local long* sink) {
    clreduce_dvec x = clreduce_exact_vector(v, sink);
    CLREDUCE_TWO_SUM(clreduce_dvec, s.a0, x)
    if (!CLREDUCE_ANY(x != 0)) return s;
    CLREDUCE_TWO_SUM(clreduce_dvec, s.a1, x)
    if (!CLREDUCE_ANY(x != 0)) return s;
#if CLREDUCE_VEC == 1
    clreduce_expansion_add(&s.rest, x, sink);
#else
    double out[CLREDUCE_VEC];
    CLREDUCE_CAT(vstore, CLREDUCE_VEC)(x, 0, out);
    for (int i = 0; i < CLREDUCE_VEC; ++i)
        if (out[i] != 0) clreduce_expansion_add(&s.rest, out[i], sink);
#endif
    return s;
}

#if CLREDUCE_EXACT_OPTIMISTIC
// CPU devices, and NVIDIA GPUs for double data (the host passes CLREDUCE_EXACT_OPTIMISTIC=1,
// src/device/vendor.hpp says where): a branch in the loop costs a CPU more than a few flops
// (on PoCL a test of each vector's error made level 1 about three times slower), and on NVIDIA
// GPUs two TwoSums of doubles untested cost less than one tested. So level 1 first takes the
// work-item's vectors without any test (CLREDUCE_VECTOR_RETRY in reduce.cl) and checks once
// afterwards that its lanes hold the exact sum; where not, the work-item takes the same
// vectors again, in a pass that holds more, and last with clreduce_vaccumulate.

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

#if CLREDUCE_ACC_SIZE == 4 && defined(CLREDUCE_EXACT_BINS)
// Float data the passes above did not hold (lanes spread wider than their doubles: wide and
// whole ranges, values far above the group's anchor), before the tested lanes: each work-item
// adds every float into one of CLREDUCE_EXACT_BINS (16) doubles of its own in local memory,
// chosen by the float's top four exponent bits (bins of 16 binades). A float of bin j is a
// multiple of the bin's unit 2^(max(16j, 1) - 150) and below 2^(16j + 16 - 126): at most 2^40
// units (bin 0, with the subnormals: 2^39). A work-item takes CLREDUCE_TIMES * CLREDUCE_VEC
// <= 2^13 floats, so every partial sum of a bin stays below 2^53 units: exact in a double, in
// any order, with no test and no TwoSum (one local load, one double addition and one local
// store a float); at the end a work-item adds its bins into its own expansion (what that
// cannot hold goes to the sink). The host turns the bins on where their 128 bytes a
// work-item fit in local memory beside the group's tree and sink
// (src/kernels/kernel_spec.cpp). NaN and infinities (exponent 255, in the last bin) leave
// the pass not held; the tested lanes then take the same vectors.
#define CLREDUCE_VECTOR_BINS 1
#define CLREDUCE_VBIN_T double  // bin j at word j
#if CLREDUCE_TIMES * CLREDUCE_VEC > 8192
#error "the bins hold at most 2^13 floats a work-item (CLREDUCE_TIMES * CLREDUCE_VEC)"
#endif

typedef struct {
    clreduce_uvec largest;  // the largest magnitude's bits: 0x7f800000 and up for NaN, infinities
    clreduce_uvec lowest;   // the smallest bits, sign included: not 0 when no term was +0.0
} clreduce_vbins_state;

// Bin j's unit: its floats are whole numbers of 2^clreduce_float_bin_unit(j).
inline int clreduce_float_bin_unit(uint j) { return max(16 * (int)j, 1) - 150; }

inline clreduce_vbins_state clreduce_vbins_init(clreduce_vtry_state t) {
    clreduce_vbins_state s;
    s.largest = 0;
    s.lowest = 0xffffffffu;
    return s;
}

inline clreduce_vbins_state clreduce_vbins_add(clreduce_vbins_state s, CLREDUCE_T_VEC v, __local double* bins,
                                               __local long* sink) {
    const CLREDUCE_ACC_VEC y = clreduce_mapped_vector(v);
    const clreduce_uvec bits = clreduce_as_uvec(y);
    s.largest = max(s.largest, bits & 0x7fffffffu);
    s.lowest = min(s.lowest, bits);
#if CLREDUCE_VEC == 1
    bins[((bits >> 27) & 15u) * CLREDUCE_WG] += convert_double(y);
#else
    uint lanes[CLREDUCE_VEC];
    double values[CLREDUCE_VEC];
    CLREDUCE_CAT(vstore, CLREDUCE_VEC)(bits, 0, lanes);
    CLREDUCE_CAT(vstore, CLREDUCE_VEC)(clreduce_to_dvec(y), 0, values);
    for (int i = 0; i < CLREDUCE_VEC; ++i) bins[((lanes[i] >> 27) & 15u) * CLREDUCE_WG] += values[i];
#endif
    return s;
}

inline bool clreduce_vbins_promising(clreduce_vtry_state t) { return true; }  // every float fits a bin

inline bool clreduce_vbins_held(clreduce_vbins_state s) { return !CLREDUCE_ANY(s.largest >= 0x7f800000u); }

// A held pass's state before its bins: each lane's first term -0.0 where every term it took
// was -0.0 (or it took none), else +0.0.
inline clreduce_vstate clreduce_vbins_sign(clreduce_vbins_state s) {
    clreduce_vstate v = clreduce_vinit();
    v.a0 = clreduce_zero_sign((clreduce_dvec)(0.0), s.largest, s.lowest);
    return v;
}

// A held pass's bins into the work-item's expansion (what that cannot hold to the sink).
inline clreduce_vstate clreduce_vbins_result(clreduce_vbins_state s, __local double* bins, __local long* sink) {
    clreduce_vstate v = clreduce_vbins_sign(s);
    for (int j = 0; j < CLREDUCE_EXACT_BINS; ++j) {
        const double bin = bins[j * CLREDUCE_WG];
        if (bin != 0) clreduce_expansion_add(&v.rest, bin, sink);
    }
    return v;
}

#if CLREDUCE_EXACT_OPTIMISTIC == 2 && CLREDUCE_WG % CLREDUCE_EXACT_BINS == 0 && CLREDUCE_WG <= 1024
// NVIDIA GPUs: a work-group whose ends span too wide for the anchored pass (the same in every
// work-item: clreduce_vtry_promising) bins every vector. Where every work-item's bins held, the
// group adds them up together, bin by bin, as whole numbers of the bin's unit in 64-bit integers:
// each work-item sums one bin of 16 work-items (below 2^57 units), then one work-item a bin sums
// those (below 2^63 for up to 1024 work-items) and puts the total into the sink. No work-item
// then adds its 16 bins into its expansion, and the tree of expansions carries only the sign of
// a zero sum (the two steps this saves are most of the cost of wide float data at 2^24:
// docs/performance.md, "Correctly rounded sums"). Every work-item of the group calls it
// (barriers); false, with the bins untouched, where some work-item's bins did not hold.
#define CLREDUCE_GROUP_BINS 1
inline bool clreduce_vbins_group(clreduce_vbins_state s, __local long* sink, uint lid) {
    if (!clreduce_vbins_held(s)) atom_or((volatile __local long*)(sink + CLREDUCE_SINK_UNHELD), 1L);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (sink[CLREDUCE_SINK_UNHELD] != 0) return false;  // the same in every work-item
    // Bin w of work-item i at bins[w * WG + i]. Work-item lid sums bin lid / P of the work-items
    // lid % P + P * t, t < 16 (P = WG / 16: a warp's lanes read adjacent words).
    __local double* bins = (__local double*)(sink + CLREDUCE_SINK_WORDS);
    const uint parts = CLREDUCE_WG / CLREDUCE_EXACT_BINS;
    const uint bin = lid / parts, part = lid % parts;
    const double to_units = ldexp(1.0, -clreduce_float_bin_unit(bin));
    long total = 0;
    for (uint t = 0; t < CLREDUCE_EXACT_BINS; ++t)
        total += convert_long(bins[bin * CLREDUCE_WG + t * parts + part] * to_units);
    barrier(CLK_LOCAL_MEM_FENCE);  // every bin read before the totals take their place
    __local long* totals = (__local long*)bins;
    totals[lid] = total;  // part `part` of bin `bin`
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < CLREDUCE_EXACT_BINS) {
        long sum = 0;
        for (uint p = 0; p < parts; ++p) sum += totals[lid * parts + p];
        // As two doubles of at most 37 and 26 bits, whole numbers of the unit: exact.
        const int unit = clreduce_float_bin_unit(lid);
        const long low = sum & 0x3ffffffL;
        if (sum != low) clreduce_sink_add(sink, ldexp((double)(sum - low), unit));
        if (low != 0) clreduce_sink_add(sink, ldexp((double)low, unit));
    }
    return true;
}
#endif
#endif

#if CLREDUCE_ACC_SIZE == 8 && defined(CLREDUCE_EXACT_BINS) && CLREDUCE_EXACT_OPTIMISTIC == 2
// NVIDIA GPUs, double data spread wider than the tested lanes take fast (a work-group's ends
// over more than CLREDUCE_BINS_SPAN binades: wide ranges, the whole range), before the tested
// lanes and instead of them: each double m * 2^(p - 1074) (m its significand, p = max(exponent,
// 1) - 1) goes in as the signed 16-bit digits of m * 2^(p % 16), added into words p / 16 ..
// p / 16 + 4 of its slice's CLREDUCE_DIGIT_WORDS 32-bit words in local memory with 32-bit local
// atomics. A slice is 32 work-items of the group, at most 2^15 values (CLREDUCE_TIMES *
// CLREDUCE_VEC <= 2^10), so a word's sum stays below 2^31: exact, in any order, with no test.
// Every finite double fits, NaN and infinities go to the sink's flags, so the pass always holds;
// the group then adds its slices' words into the sink (clreduce_vbins_group).
// Why 16-bit digits in 32-bit words: NVIDIA GPUs add 32-bit words in local memory in hardware,
// where a 64-bit add (the sink's) is a loop of compare-and-swaps; the words beat both the tested
// lanes and 64-bit words for data over hundreds of binades (docs/performance.md, "Correctly
// rounded sums"). Narrower data the first pass (the three folds) or the tested lanes take faster.
// The words take the bins' local memory (CLREDUCE_DIGITS_FIT: groups of 8 work-items and more).
#define CLREDUCE_VECTOR_BINS 1
#define CLREDUCE_VBIN_T long
#define CLREDUCE_DIGIT_WORDS 132  // 16-bit places of 2^-1074 .. 2^1024, and 4 above
#define CLREDUCE_DIGIT_SLICES ((CLREDUCE_WG + 31) / 32)
#define CLREDUCE_DIGITS_FIT (CLREDUCE_DIGIT_SLICES * CLREDUCE_DIGIT_WORDS * 4 <= CLREDUCE_EXACT_BINS * CLREDUCE_WG * 8)
#define CLREDUCE_BINS_SPAN 106
#if CLREDUCE_TIMES * CLREDUCE_VEC > 1024
#error "the digits take at most 2^10 doubles a work-item (CLREDUCE_TIMES * CLREDUCE_VEC)"
#endif

typedef struct {
    int nonzero;  // some term was not -0.0
} clreduce_vbins_state;

// Whether the group takes the digits: the same in every work-item, none of which took the
// anchored route's first pass (which takes at most 102 - 3L - M binades).
inline bool clreduce_vbins_promising(clreduce_vtry_state t) {
    return CLREDUCE_DIGITS_FIT && t.k - max(t.low, 1) > CLREDUCE_BINS_SPAN;
}

inline clreduce_vbins_state clreduce_vbins_init(clreduce_vtry_state t) {
    barrier(CLK_LOCAL_MEM_FENCE);  // the words zeroed (clreduce_vbins_of) by every work-item
    clreduce_vbins_state s;
    s.nonzero = 0;
    return s;
}

inline void clreduce_vdigits_add(ulong b, __local long* sink) {
    const int e = (int)((b >> 52) & 0x7ffUL);
    if (e == 0x7ff) {
        clreduce_sink_flags(sink, clreduce_special_flag(b & 0xfffffffffffffUL, b >> 63));
        return;
    }
    const ulong m = clreduce_double_significand(b);
    const int p = clreduce_double_position(b);
    const uint r = (uint)p & 15u;
    const ulong low = m << r;
    const int top = r != 0 ? (int)(m >> (64 - r)) : 0;
    volatile __local int* words = (volatile __local int*)(sink + CLREDUCE_SINK_WORDS) +
                                  (get_local_id(0) / 32) * CLREDUCE_DIGIT_WORDS + (p >> 4);
    const int sign = b >> 63 ? -1 : 1;
    for (uint j = 0; j < 4; ++j) {
        const int d = (int)((low >> (16 * j)) & 0xffffUL);
        if (d != 0) atomic_add(words + j, sign * d);
    }
    if (top != 0) atomic_add(words + 4, sign * top);
}

inline clreduce_vbins_state clreduce_vbins_add(clreduce_vbins_state s, CLREDUCE_T_VEC v, __local long* bins,
                                               __local long* sink) {
    ulong lanes[CLREDUCE_VEC];
#if CLREDUCE_VEC == 1
    lanes[0] = as_ulong(clreduce_mapped_vector(v));
#else
    CLREDUCE_CAT(vstore, CLREDUCE_VEC)(CLREDUCE_CAT(as_ulong, CLREDUCE_VEC)(clreduce_mapped_vector(v)), 0, lanes);
#endif
    for (int i = 0; i < CLREDUCE_VEC; ++i) {
        clreduce_vdigits_add(lanes[i], sink);
        s.nonzero |= lanes[i] != 0x8000000000000000UL;
    }
    return s;
}

inline bool clreduce_vbins_held(clreduce_vbins_state s) { return true; }  // every double fits

// The state before the group's words: the lanes' first terms -0.0 where every term was -0.0
// (or none), else +0.0.
inline clreduce_vstate clreduce_vbins_sign(clreduce_vbins_state s) {
    clreduce_vstate v = clreduce_vinit();
    v.a0 = (clreduce_dvec)(s.nonzero ? 0.0 : -0.0);
    return v;
}

// (Not reached: the group adds the words up, clreduce_vbins_group.)
inline clreduce_vstate clreduce_vbins_result(clreduce_vbins_state s, __local long* bins, __local long* sink) {
    return clreduce_vbins_sign(s);
}

// Every work-item of the group calls it (a barrier): the slices' words into the sink (word w is
// 2^(16w) units, half of limb w / 2).
#define CLREDUCE_GROUP_BINS 1
inline bool clreduce_vbins_group(clreduce_vbins_state s, __local long* sink, uint lid) {
    barrier(CLK_LOCAL_MEM_FENCE);
    const __local int* words = (const __local int*)(sink + CLREDUCE_SINK_WORDS);
    for (uint w = lid; w < CLREDUCE_DIGIT_WORDS; w += CLREDUCE_WG) {
        long total = 0;
        for (uint q = 0; q < CLREDUCE_DIGIT_SLICES; ++q) total += words[q * CLREDUCE_DIGIT_WORDS + w];
        if (total != 0) atom_add((volatile __local long*)(sink + w / 2), total * (w % 2 ? 65536L : 1L));
    }
    return true;
}
#endif

#ifdef CLREDUCE_VECTOR_BINS
// Either type's bins: CLREDUCE_EXACT_BINS words a work-item after the sink.
#if CLREDUCE_EXACT_BINS != 16
#error "the bins are 16 words a work-item (src/ops/exact_state.hpp, kExactBinWords)"
#endif
#define CLREDUCE_SINK_OWN_WORDS (CLREDUCE_EXACT_BINS * CLREDUCE_WG)

// This work-item's bins, word w at bins[w * CLREDUCE_WG] (a warp's loads of any words then meet
// no bank twice), zeroed.
inline __local CLREDUCE_VBIN_T* clreduce_vbins_of(__local long* sink, uint lid) {
    __local CLREDUCE_VBIN_T* bins = (__local CLREDUCE_VBIN_T*)(sink + CLREDUCE_SINK_WORDS) + lid;
    for (int w = 0; w < CLREDUCE_EXACT_BINS; ++w) bins[w * CLREDUCE_WG] = 0;
    return bins;
}
#endif

// The lanes' first terms always (IEEE addition keeps the sign of a zero sum, as in combine),
// their second terms where they are not zero.
inline clreduce_state clreduce_vfinish(clreduce_vstate v, __local long* sink) {
    clreduce_state s = v.rest;
#if CLREDUCE_VEC == 1
    clreduce_expansion_add(&s, v.a0, sink);
    if (v.a1 != 0) clreduce_expansion_add(&s, v.a1, sink);
#else
    double lanes[CLREDUCE_VEC];
    CLREDUCE_CAT(vstore, CLREDUCE_VEC)(v.a0, 0, lanes);
    for (int i = 0; i < CLREDUCE_VEC; ++i) clreduce_expansion_add(&s, lanes[i], sink);
    CLREDUCE_CAT(vstore, CLREDUCE_VEC)(v.a1, 0, lanes);
    for (int i = 0; i < CLREDUCE_VEC; ++i)
        if (lanes[i] != 0) clreduce_expansion_add(&s, lanes[i], sink);
#endif
    return s;
}

// Level 3, by work-item 0: the group's expansion into the result's number (global atomics),
// with which zero it is for the sign of a zero sum.
inline void clreduce_exact_atomic(volatile __global long* number, clreduce_state s) {
#define CLREDUCE_PUT_TERM(term)                                                  \
    if (s.a[term] != 0) {                                                        \
        const clreduce_digits d = clreduce_split_double(s.a[term]);              \
        for (uint j = 0; j < 3; ++j)                                          \
            if (d.d[j] != 0) atom_add(number + d.k + j, d.d[j]);              \
    }
    CLREDUCE_FPE_EACH(CLREDUCE_PUT_TERM)
#undef CLREDUCE_PUT_TERM
    const bool negative_zero = as_ulong(s.a[0]) == 0x8000000000000000UL;
    atom_or(number + CLREDUCE_EXACT_LIMBS, negative_zero ? CLREDUCE_EXACT_NEG_ZERO : CLREDUCE_EXACT_NOT_NEG_ZERO);
}

// Every work-item, after a barrier that follows level 2: the sink into the result's number,
// each limb as its low 32 bits and its carry into the next limb (the top limb whole), so that
// what the groups add stays far from a 64-bit limb's range. No barrier: nothing is normalised
// in place (a carry pass by one work-item between two barriers under a uniform condition gave
// PoCL 3.1 wrong sums).
inline void clreduce_sink_flush(__local long* sink, volatile __global long* number, uint lid) {
    for (uint k = lid; k < CLREDUCE_EXACT_LIMBS; k += CLREDUCE_WG) {
        const long v = sink[k];
        if (v == 0) continue;
        if (k + 1 == CLREDUCE_EXACT_LIMBS) {
            atom_add(number + k, v);
        } else {
            atom_add(number + k, v & 0xffffffffL);
            if (v >> 32 != 0) atom_add(number + k + 1, v >> 32);
        }
    }
    const long flags = sink[CLREDUCE_EXACT_LIMBS];
    if (lid == 0 && flags != 0) atom_or(number + CLREDUCE_EXACT_LIMBS, flags);
}
#endif  // CLREDUCE_EXACT_GROUP
