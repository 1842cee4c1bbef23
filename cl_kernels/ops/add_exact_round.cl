// The correctly rounded sum's result on the device (asynchronous calls, CLREDUCE_DEVICE_RESULT):
// its fixed-point state (cl_kernels/fixed_point.cl) rounded once to the nearest double, ties to
// even, bit for bit as the host rounds it (src/ops/exact_state.cpp's round_exact_state, which
// this follows step by step). Included by ops/add_exact.cl, whose state it reads.

// The weight of the lowest bit: the least subnormal of the accumulator type.
#if CLREDUCE_ACC_SIZE == 4
#define CLREDUCE_EXACT_LOWEST (-149)
#else
#define CLREDUCE_EXACT_LOWEST (-1074)
#endif
#define CLREDUCE_EXACT_DIGITS (CLREDUCE_EXACT_LIMBS + 2)

inline uint clreduce_digit_bit(const uint* digit, int b) { return b >= 0 ? (digit[b >> 5] >> (b & 31)) & 1u : 0u; }

inline double clreduce_round_exact(clreduce_state s) {
    const long flags = s.flags;
    if ((flags & CLREDUCE_EXACT_NAN) || (flags & 6) == 6) return as_double(0x7ff8000000000000ul);
    if (flags & CLREDUCE_EXACT_POS_INF) return as_double(0x7ff0000000000000ul);
    if (flags & CLREDUCE_EXACT_NEG_INF) return as_double(0xfff0000000000000ul);

    // Carry-saved signed limbs to 32-bit digits of a two's-complement number (two digits more
    // than limbs hold any carry out of the top limb). limb + carry is taken as its low 32 bits
    // plus the carry, and its high part, so nothing overflows 64 bits.
    uint digit[CLREDUCE_EXACT_DIGITS];
    long carry = 0;
    for (int k = 0; k < CLREDUCE_EXACT_DIGITS; ++k) {
        const long limb = k < CLREDUCE_EXACT_LIMBS ? s.limb[k] : 0;
        const long low = (limb & 0xffffffffL) + carry;
        digit[k] = (uint)low;
        carry = (limb >> 32) + (low >> 32);  // floor division: 0, or -1 for a negative number at the end
    }
    const bool negative = carry < 0;
    if (negative) {  // magnitude = two's complement of the digits
        ulong c = 1;
        for (int k = 0; k < CLREDUCE_EXACT_DIGITS; ++k) {
            const ulong v = (ulong)(~digit[k]) + c;
            digit[k] = (uint)v;
            c = v >> 32;
        }
    }
    int top = -1;
    for (int k = CLREDUCE_EXACT_DIGITS - 1; k >= 0 && top < 0; --k)
        if (digit[k] != 0) top = k * 32 + 31 - (int)clz(digit[k]);
    // A zero sum is -0.0 only when every term was -0.0, as IEEE addition gives it.
    if (top < 0) return (flags & CLREDUCE_EXACT_NEG_ZERO) && !(flags & CLREDUCE_EXACT_NOT_NEG_ZERO) ? -0.0 : 0.0;

    // The 53 bits from the top (fewer for a subnormal result), then round to nearest even.
    const int lsb_exponent = max(top + CLREDUCE_EXACT_LOWEST - 52, -1074);
    const int low = lsb_exponent - CLREDUCE_EXACT_LOWEST;  // bit index of the result's lowest bit
    const int start = max(low, 0);                          // below bit 0 there is nothing to round
    ulong m = 0;
    for (int b = top; b >= start; --b) m = (m << 1) | clreduce_digit_bit(digit, b);
    const bool round = clreduce_digit_bit(digit, low - 1) != 0;
    bool sticky = false;
    for (int b = low - 2; b >= 0 && !sticky; --b) {
        if (b % 32 == 31 && digit[b / 32] == 0) {  // a whole zero digit at once
            b -= 31;
            continue;
        }
        sticky = clreduce_digit_bit(digit, b) != 0;
    }
    if (round && (sticky || (m & 1))) ++m;
    const int exponent = start + CLREDUCE_EXACT_LOWEST;
    if (exponent + 63 - (int)clz(m) > 1023)
        return negative ? as_double(0xfff0000000000000ul) : as_double(0x7ff0000000000000ul);
    const double value = ldexp(convert_double_rte(m), exponent);  // m < 2^54: exact
    return negative ? -value : value;
}

// The value result.cl writes: the rounded double (CLREDUCE_RESULT_VALUE, _MEAN, _ROUNDED).
#define CLREDUCE_VALUE_IN_DOUBLE 1
#define clreduce_value_double(s) clreduce_round_exact(s)
#define clreduce_value(s) clreduce_round_exact(s)
