// Operation: add, correctly rounded (FloatMode::correctly_rounded), float accumulators.
// Its level 1 passes and bins are in ops/add_exact_passes.cl and ops/add_exact_bins.cl, included
// below (the host expands the #include lines of embedded sources: src/kernels/kernel_source.cpp).
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
#if CLREDUCE_DEVICE_RESULT
#include "ops/add_exact_round.cl"  // clreduce_value_double: the state rounded on the device
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

#include "ops/add_exact_passes.cl"
#include "ops/add_exact_bins.cl"

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
