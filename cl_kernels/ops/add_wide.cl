// Operation: exact integer add, for the integer sums, means, sums of squares, norms and
// transform sums whose accumulator could overflow for the call's n (the plan's
// exact_integer_bits; src/ops/integer_range.cpp decides). State: a two's-complement integer
// of CLREDUCE_WIDE_LIMBS 64-bit limbs, lowest first: 2 (128 bits) for elements, magnitudes
// and transformed values (64-bit terms), 3 (192 bits) for squares of 64-bit data (128-bit
// terms). Fewer than 2^64 terms cannot overflow either. The host rounds or checks the exact
// value (src/ops/exact_integer.cpp). Level 3 may finish with one 64-bit atomic add per limb,
// each adder carrying into the next limb itself.
#ifndef CLREDUCE_WIDE_LIMBS
#define CLREDUCE_WIDE_LIMBS 2
#endif
#if CLREDUCE_ACC_FLOAT || CLREDUCE_ACC_SIZE != 8
#error "add_wide.cl takes 64-bit integer terms (CLREDUCE_ACC long or ulong)"
#endif

typedef struct {
    ulong limb[CLREDUCE_WIDE_LIMBS];
} clreduce_state;
// The low 64 bits: what an asynchronous sum with IntegerOverflow::wrap writes (a checked one
// is finished on the host; means and norms round all the limbs, result.cl).
#define clreduce_value(s) ((s).limb[0])

// Whether the terms are signed (CLREDUCE_ACC long): their high half is then their sign.
#define CLREDUCE_WIDE_SIGNED (((CLREDUCE_ACC)-1) < (CLREDUCE_ACC)0)

inline clreduce_state clreduce_init(void) {
    clreduce_state s;
    for (uint k = 0; k < CLREDUCE_WIDE_LIMBS; ++k) s.limb[k] = 0;
    return s;
}

// s + the 128-bit term hi:lo: two's complement with two limbs (signed values), unsigned with
// three (the squares of 64-bit values, up to (2^64 - 1)^2).
inline clreduce_state clreduce_add_term(clreduce_state s, ulong lo, ulong hi) {
    const ulong low = s.limb[0] + lo;
    const ulong carry = low < lo;
    s.limb[0] = low;
#if CLREDUCE_WIDE_LIMBS == 2
    s.limb[1] += hi + carry;
#else
    const ulong mid = s.limb[1] + hi;
    const ulong carry_mid = mid < hi;
    const ulong mid_carried = mid + carry;
    s.limb[1] = mid_carried;
    s.limb[2] += carry_mid + (mid_carried < carry);
#endif
    return s;
}

inline clreduce_state clreduce_combine(clreduce_state a, clreduce_state b) {
    ulong carry = 0;
    for (uint k = 0; k < CLREDUCE_WIDE_LIMBS; ++k) {
        const ulong with_carry = a.limb[k] + carry;
        const ulong sum = with_carry + b.limb[k];
        carry = (ulong)(with_carry < carry) + (ulong)(sum < with_carry);
        a.limb[k] = sum;
    }
    return a;
}

inline clreduce_state clreduce_accumulate(clreduce_state s, CLREDUCE_T x, ulong index) {
#if CLREDUCE_MAP == CLREDUCE_MAP_SQUARE && CLREDUCE_WIDE_LIMBS == 3
    // The square of a 64-bit value as a 128-bit number.
    const ulong a = abs(x);
    return clreduce_add_term(s, a * a, mul_hi(a, a));
#else
    const CLREDUCE_ACC v = clreduce_map(x);
    return clreduce_add_term(s, (ulong)v, CLREDUCE_WIDE_SIGNED ? (ulong)((long)v >> 63) : 0ul);
#endif
}

#if CLREDUCE_WIDE_LIMBS == 2 && CLREDUCE_MAP != CLREDUCE_MAP_TRANSFORM
// Level 1 on whole vectors: each lane a 128-bit sum (low and high words), so that an int64
// sum reads at the memory's speed; add-with-carry is two more instructions per element.
#define CLREDUCE_VECTOR_PATH 1
#if CLREDUCE_VEC == 1
typedef ulong clreduce_wide_uvec;
#define CLREDUCE_AS_UVEC(v) as_ulong(v)
#define CLREDUCE_AS_LVEC(v) as_long(v)
// A scalar comparison gives 1 for true: add it.
#define CLREDUCE_ADD_CARRY(hi, carry) ((hi) + (ulong)(carry))
#else
typedef CLREDUCE_CAT(ulong, CLREDUCE_VEC) clreduce_wide_uvec;
#define CLREDUCE_AS_UVEC(v) CLREDUCE_CAT(as_ulong, CLREDUCE_VEC)(v)
#define CLREDUCE_AS_LVEC(v) CLREDUCE_CAT(as_long, CLREDUCE_VEC)(v)
// A vector comparison gives -1 (all ones) for true: subtract it.
#define CLREDUCE_ADD_CARRY(hi, carry) ((hi) - CLREDUCE_AS_UVEC(carry))
#endif
typedef struct {
    clreduce_wide_uvec lo, hi;
} clreduce_vstate;
inline clreduce_vstate clreduce_vinit(void) {
    clreduce_vstate s;
    s.lo = (clreduce_wide_uvec)0;
    s.hi = (clreduce_wide_uvec)0;
    return s;
}
inline clreduce_vstate clreduce_vaccumulate(clreduce_vstate s, CLREDUCE_T_VEC v) {
    const clreduce_wide_uvec t = CLREDUCE_AS_UVEC(clreduce_vmap(v));
    s.lo += t;
    s.hi = CLREDUCE_ADD_CARRY(s.hi, s.lo < t);
    if (CLREDUCE_WIDE_SIGNED) s.hi += CLREDUCE_AS_UVEC(CLREDUCE_AS_LVEC(t) >> 63);
    return s;
}
#if CLREDUCE_VEC == 1
inline clreduce_state clreduce_vfinish(clreduce_vstate s) { return clreduce_add_term(clreduce_init(), s.lo, s.hi); }
#else
#define CLREDUCE_WIDE_LANE(k)                                                       \
    {                                                                              \
        clreduce_state lane;                                                       \
        lane.limb[0] = s.lo.s##k;                                                  \
        lane.limb[1] = s.hi.s##k;                                                  \
        acc = clreduce_combine(acc, lane);                                         \
    }
inline clreduce_state clreduce_vfinish(clreduce_vstate s) {
    clreduce_state acc = clreduce_init();
    CLREDUCE_WIDE_LANE(0) CLREDUCE_WIDE_LANE(1)
#if CLREDUCE_VEC >= 4
    CLREDUCE_WIDE_LANE(2) CLREDUCE_WIDE_LANE(3)
#endif
#if CLREDUCE_VEC >= 8
    CLREDUCE_WIDE_LANE(4) CLREDUCE_WIDE_LANE(5) CLREDUCE_WIDE_LANE(6) CLREDUCE_WIDE_LANE(7)
#endif
#if CLREDUCE_VEC == 16
    CLREDUCE_WIDE_LANE(8) CLREDUCE_WIDE_LANE(9) CLREDUCE_WIDE_LANE(a) CLREDUCE_WIDE_LANE(b)
    CLREDUCE_WIDE_LANE(c) CLREDUCE_WIDE_LANE(d) CLREDUCE_WIDE_LANE(e) CLREDUCE_WIDE_LANE(f)
#endif
    return acc;
}
#endif
#endif

#define CLREDUCE_ATOMIC_FINISH 1
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
// Each limb's atomic add returns the limb before it: the adder sees its own carry out and adds
// it to the next limb, so the words hold the exact total (modulo 2^(64 * limbs)) once every
// group has added, in any order.
inline void clreduce_atomic(volatile __global clreduce_state* p, clreduce_state s) {
    volatile __global ulong* words = (volatile __global ulong*)p;
    ulong carry = 0;
    for (uint k = 0; k < CLREDUCE_WIDE_LIMBS; ++k) {
        const ulong add = s.limb[k] + carry;
        carry = add < carry;
        if (add != 0) {
            const ulong old = atom_add(words + k, add);
            carry += (ulong)(old + add < old);
        }
    }
}
