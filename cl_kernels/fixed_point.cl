// The exact sum's number format, in the manner of ExBLAS: a long fixed-point number whose
// unit is the least subnormal of the accumulator type (2^-149 for float, 2^-1074 for
// double), so every finite value of that type is a whole number of units. Limb k holds a
// signed count of units of 2^(32k); limbs are 64-bit and carry-saved, so a value adds
// signed 32-bit digits into two (float) or three (double) neighbouring limbs and sums of up
// to 2^31 values cannot overflow a limb. NaN and infinities are kept as flags, combined as
// IEEE addition would. The host rounds such a number once (src/exact_state.cpp).
// Users: ops/add_exact.cl (the state of FloatMode::correctly_rounded) and the exact atomic
// finish of ops/add.cl (InterGroup::exact_atomic).
#if CLREDUCE_ACC_FLOAT
#if CLREDUCE_ACC_SIZE == 4
#define CLREDUCE_EXACT_LIMBS 10  // 2^-149 .. 2^128, + a limb of carries
#else
#define CLREDUCE_EXACT_LIMBS 67  // 2^-1074 .. 2^1024, + a limb of carries
#endif
#define CLREDUCE_EXACT_NAN 1
#define CLREDUCE_EXACT_POS_INF 2
#define CLREDUCE_EXACT_NEG_INF 4
// A number in memory: the limbs, then a 64-bit word of flags. The exact atomic finishes spread
// the groups over CLREDUCE_EXACT_COPIES such numbers (the host adds them).
#define CLREDUCE_EXACT_WORDS (CLREDUCE_EXACT_LIMBS + 1)
#ifndef CLREDUCE_EXACT_COPIES
#define CLREDUCE_EXACT_COPIES 1
#endif

// A value as digits: `flags` for NaN and infinities (then no digits), else digit j goes to
// limb k + j (d[2] is 0 for float).
typedef struct {
    long flags;
    uint k;
    long d[3];
} clreduce_digits;

// Which flag a NaN or an infinity sets (`payload`: its significand's bits are not all zero).
inline long clreduce_special_flag(bool payload, bool negative) {
    return payload ? CLREDUCE_EXACT_NAN : negative ? CLREDUCE_EXACT_NEG_INF : CLREDUCE_EXACT_POS_INF;
}

// m units of 2^p (m < 2^53) as signed 32-bit digits of limbs k, k + 1 and k + 2.
inline clreduce_digits clreduce_digits_of(ulong m, uint p, bool negative) {
    clreduce_digits out;
    out.flags = 0;
    const uint shift = p & 31u;
    const ulong low = m << shift;
    const long sign = negative ? -1 : 1;
    out.k = p >> 5;
    out.d[0] = sign * (long)(low & 0xffffffffUL);
    out.d[1] = sign * (long)(low >> 32);
    out.d[2] = sign * (long)(shift ? m >> (64 - shift) : 0UL);
    return out;
}

inline clreduce_digits clreduce_split(CLREDUCE_ACC x) {
#if CLREDUCE_ACC_SIZE == 4
    const uint bits = as_uint(x);
    const uint biased = (bits >> 23) & 0xffu;
    const ulong fraction = bits & 0x7fffffu;
    const bool negative = bits >> 31;
    const uint special = 0xffu;
    const ulong hidden = 0x800000UL;
#else
    const ulong bits = as_ulong(x);
    const uint biased = (uint)(bits >> 52) & 0x7ffu;
    const ulong fraction = bits & 0xfffffffffffffUL;
    const bool negative = bits >> 63;
    const uint special = 0x7ffu;
    const ulong hidden = 0x10000000000000UL;
#endif
    if (biased == special) {
        clreduce_digits out = clreduce_digits_of(0, 0, false);
        out.flags = clreduce_special_flag(fraction != 0, negative);
        return out;
    }
    // The significand, and the position of its lowest bit in units of the least subnormal.
    clreduce_digits out = clreduce_digits_of(biased != 0 ? fraction | hidden : fraction, max(biased, 1u) - 1, negative);
#if CLREDUCE_ACC_SIZE == 4
    out.d[2] = 0;  // 24 bits shifted by at most 31 fill two digits
#endif
    return out;
}

// A finite double's bits as m units of 2^p, p in units of 2^-1074: its significand, with the
// hidden bit where it is normal, and the position of that significand's lowest bit.
inline ulong clreduce_double_significand(ulong bits) {
    return (bits & 0xfffffffffffffUL) | ((bits & 0x7ff0000000000000UL) != 0 ? 0x10000000000000UL : 0UL);
}
inline int clreduce_double_position(ulong bits) { return max((int)(bits >> 52) & 0x7ff, 1) - 1; }

#if CLREDUCE_FP64
// A finite double that is a whole number of the accumulator's units (every exact sum of
// accumulator values, and every TwoSum error of such sums, is one) as three digits: the
// correctly rounded sum's expansion (ops/add_exact.cl) hands its doubles to the limbs so.
// For a float accumulator the unit is 2^-149, 925 binades above the double's 2^-1074: the
// significand's bits below the unit are zero and are shifted out.
inline clreduce_digits clreduce_split_double(double x) {
    const ulong bits = as_ulong(x);
    ulong m = clreduce_double_significand(bits);
    int p = clreduce_double_position(bits);
#if CLREDUCE_ACC_SIZE == 4
    p -= 925;
    if (p < 0) {
        m >>= -p;
        p = 0;
    }
#endif
    return clreduce_digits_of(m, (uint)p, bits >> 63);
}
#endif
#endif
