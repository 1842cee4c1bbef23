// Operation: add, correctly rounded (FloatMode::correctly_rounded), float accumulators.
// State: the exact sum as a long fixed-point number, in the manner of ExBLAS: limb k holds
// a signed count of units of 2^(32k + lowest), where lowest is the exponent of the least
// subnormal of the accumulator type (2^-149 for float, 2^-1074 for double), so every
// finite value of that type is a whole number of units. Adding is integer arithmetic, hence
// exact and independent of the order: every plan, device and run gives the same state's
// value, which the host rounds once, to nearest even (src/exact_state.cpp).
//
// Each value adds a signed 32-bit digit into two (float) or three (double) limbs. Limbs
// are 64-bit and carry-saved: a work-item adds at most times * vector_width values before
// its state is combined, and combine propagates the carries (limbs below the top are left
// in [0, 2^32)), so no limb can overflow. NaN and infinities are kept as flags, combined
// as IEEE addition would.
#if CLREDUCE_ACC_SIZE == 4
#define CLREDUCE_EXACT_LIMBS 10  // 2^-149 .. 2^128, + a limb of carries
#else
#define CLREDUCE_EXACT_LIMBS 67  // 2^-1074 .. 2^1024, + a limb of carries
#endif
#define CLREDUCE_EXACT_NAN 1
#define CLREDUCE_EXACT_POS_INF 2
#define CLREDUCE_EXACT_NEG_INF 4

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
#if CLREDUCE_ACC_SIZE == 4
    const uint bits = as_uint(x);
    const uint biased = (bits >> 23) & 0xffu;
    ulong m = bits & 0x7fffffu;
    const bool negative = bits >> 31;
    if (biased == 0xffu) {
        s->flags |= m ? CLREDUCE_EXACT_NAN : negative ? CLREDUCE_EXACT_NEG_INF : CLREDUCE_EXACT_POS_INF;
        return;
    }
#else
    const ulong bits = as_ulong(x);
    const uint biased = (uint)(bits >> 52) & 0x7ffu;
    ulong m = bits & 0xfffffffffffffUL;
    const bool negative = bits >> 63;
    if (biased == 0x7ffu) {
        s->flags |= m ? CLREDUCE_EXACT_NAN : negative ? CLREDUCE_EXACT_NEG_INF : CLREDUCE_EXACT_POS_INF;
        return;
    }
#endif
    // Position of the significand's lowest bit, in units of the least subnormal.
    uint p = 0;
    if (biased != 0) {
#if CLREDUCE_ACC_SIZE == 4
        m |= 0x800000UL;
#else
        m |= 0x10000000000000UL;
#endif
        p = biased - 1;
    }
    const uint k = p >> 5, shift = p & 31u;
    const ulong low = m << shift;
    const long sign = negative ? -1 : 1;
    const long d0 = sign * (long)(low & 0xffffffffUL), d1 = sign * (long)(low >> 32);
#if CLREDUCE_ACC_SIZE == 4
    // Ten limbs: fixed indices let the compiler keep them in registers.
    for (int j = 0; j < CLREDUCE_EXACT_LIMBS - 1; ++j) s->limb[j] += j == (int)k ? d0 : j == (int)k + 1 ? d1 : 0;
#else
    // 67 limbs: three updates at computed indices cost less than a pass over all of them
    // (measured on PoCL); the expansion below makes them rare.
    s->limb[k] += d0;
    s->limb[k + 1] += d1;
    s->limb[k + 2] += sign * (long)(shift ? m >> (64 - shift) : 0UL);
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
    for (int k = 0; k < CLREDUCE_EXACT_FPE; ++k) clreduce_exact_add(&v.s, v.a[k]);
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
