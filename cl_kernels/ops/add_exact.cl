// Operation: add, correctly rounded (FloatMode::correctly_rounded), float accumulators.
// State: the exact sum as a long fixed-point number (cl_kernels/fixed_point.cl). Adding is
// integer arithmetic, hence exact and independent of the order: every plan, device and run
// gives the same state's value, which the host rounds once, to nearest even
// (src/exact_state.cpp).
//
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
