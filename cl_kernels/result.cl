// clreduce: an asynchronous call's result, finished on the device. CLREDUCE_RESULT_KIND says
// how a final state becomes the operation's result (result_t<Op, T> in
// include/clreduce/operation_result.hpp), the same value, bit for bit, that the host makes of
// the same state (src/api/operation_results.hpp, src/api/reducer_state.hpp); the host names the
// kind (src/ops/result_kind.hpp). CLREDUCE_RESULT_T is the result's value type, or for the
// structures (MinMax, ArgResult, ArgMinMax, Statistics) the element type. Included by reduce.cl
// and segments.cl after the plug-in.

#define CLREDUCE_RESULT_VALUE 0         // the state's value (sums, products, counts, bitwise)
#define CLREDUCE_RESULT_QUIET 1         // the value, a NaN as the type's quiet NaN (min, max)
#define CLREDUCE_RESULT_ALL 2           // uchar: every element nonzero
#define CLREDUCE_RESULT_ANY 3           // uchar: some element nonzero
#define CLREDUCE_RESULT_PAIR 4          // MinMax<T>
#define CLREDUCE_RESULT_INDEXED 5       // ArgResult<T>
#define CLREDUCE_RESULT_INDEXED_PAIR 6  // ArgMinMax<T>
#define CLREDUCE_RESULT_MEAN 7          // double: the sum divided by the count
#define CLREDUCE_RESULT_ROOT 8          // double: the square root of the sum (norm_l2)
#define CLREDUCE_RESULT_STATISTICS 9    // Statistics<T>
#define CLREDUCE_RESULT_NORM_INF 10     // double: as QUIET, 0 for no element
#define CLREDUCE_RESULT_ROUNDED 11      // double: the exact value rounded (norm_l1)

#ifndef CLREDUCE_RESULT_KIND
#define CLREDUCE_RESULT_KIND CLREDUCE_RESULT_VALUE
#endif
// A 64-bit integer result that may not fit its type (src/ops/result_kind.hpp decides):
// CLREDUCE_RESULT_CHECK: an exact wide sum under IntegerOverflow::check, or any value of a
// floating-point accumulator over integer data, is checked against the type's range; one that
// does not fit is not written, and bit CLREDUCE_STATUS_OVERFLOW of the caller's status word
// (AsyncTarget::status) is set instead, the value the host would refuse with Overflow.
// CLREDUCE_RESULT_MODULO: a floating-point accumulator's finite sum outside the range is
// written modulo 2^64 (IntegerOverflow::wrap), as the host does (src/ops/integer_result.hpp).
#ifndef CLREDUCE_RESULT_CHECK
#define CLREDUCE_RESULT_CHECK 0
#endif
#ifndef CLREDUCE_RESULT_MODULO
#define CLREDUCE_RESULT_MODULO 0
#endif
#define CLREDUCE_STATUS_OVERFLOW 1u
#ifndef clreduce_value_double
#define clreduce_value_double(s) ((double)clreduce_value(s))  // the state's value as the host reads it
#endif

#if CLREDUCE_RESULT_KIND == CLREDUCE_RESULT_MEAN || CLREDUCE_RESULT_KIND == CLREDUCE_RESULT_ROOT || \
    CLREDUCE_RESULT_KIND == CLREDUCE_RESULT_ROUNDED
#if !CLREDUCE_ACC_FLOAT
// An exact integer's magnitude, up to 192 bits: three 64-bit limbs, lowest first.
typedef struct {
    ulong limb[3];
} clreduce_magnitude;

inline uint clreduce_magnitude_bit(const clreduce_magnitude* m, int k) {
    return (uint)(m->limb[k >> 6] >> (k & 63)) & 1u;
}

// The exact integer a state holds (a wide state's limbs, or the accumulator) as its sign and
// magnitude.
inline clreduce_magnitude clreduce_state_magnitude(clreduce_state s, bool* negative) {
    clreduce_magnitude m = {{0, 0, 0}};
#ifdef CLREDUCE_WIDE_LIMBS
    for (int k = 0; k < CLREDUCE_WIDE_LIMBS; ++k) m.limb[k] = s.limb[k];
    *negative = CLREDUCE_WIDE_SIGNED && (long)s.limb[CLREDUCE_WIDE_LIMBS - 1] < 0;
    if (*negative) {  // two's complement: invert and add one
        ulong carry = 1;
        for (int k = 0; k < CLREDUCE_WIDE_LIMBS; ++k) {
            m.limb[k] = ~m.limb[k] + carry;
            carry = carry && m.limb[k] == 0;
        }
    }
#else
    const CLREDUCE_ACC v = clreduce_value(s);
    *negative = v < (CLREDUCE_ACC)0;
    m.limb[0] = *negative ? (ulong)0 - (ulong)v : (ulong)v;
#endif
    return m;
}

// Both roundings below collect the result's leading 55 bits in `q`, the weight 2^last of its
// last bit, and whether anything nonzero lies below it (`sticky`), then convert once: a value
// of two bits more than a double's 53 with a sticky bit in its last place rounds to nearest
// (ties to even) as the exact value does ("round to odd"). The host rounds the same exact
// integers correctly (src/ops/exact_integer.cpp), so the bits agree.
inline double clreduce_round_collected(ulong q, int last, bool sticky) {
    return ldexp(convert_double_rte(q | (sticky ? 1ul : 0ul)), last);
}

// The double nearest m / n (n from 1 to 2^63), by long division a bit at a time: the
// integer quotient's bits from m's highest down, then fraction bits until 55 are collected
// (those of a quotient below 1 among them).
inline double clreduce_rounded_quotient(clreduce_magnitude m, ulong n) {
    const bool zero = (m.limb[0] | m.limb[1] | m.limb[2]) == 0;
    ulong q = 0, r = 0;
    int bits = 0, last = 0;
    bool sticky = false;
    for (int k = 191; k >= 0 || (!zero && bits < 55); --k) {
        r = (r << 1) | (k >= 0 ? clreduce_magnitude_bit(&m, k) : 0u);  // r < n <= 2^63: no overflow
        const bool bit = r >= n;
        if (bit) r -= n;
        if (bits < 55) {
            if (bits > 0 || bit) {
                q = (q << 1) | (bit ? 1ul : 0ul);
                ++bits;
                last = k;
            }
        } else {
            sticky = sticky || bit;
        }
    }
    return bits == 0 ? 0.0 : clreduce_round_collected(q, last, sticky || r != 0);
}

// 128-bit unsigned integers for the square root's digits.
typedef struct {
    ulong lo, hi;
} clreduce_u128;
inline clreduce_u128 clreduce_u128_shl(clreduce_u128 a, int k) {  // k is 1 or 2
    const clreduce_u128 r = {a.lo << k, (a.hi << k) | (a.lo >> (64 - k))};
    return r;
}
inline bool clreduce_u128_ge(clreduce_u128 a, clreduce_u128 b) { return a.hi != b.hi ? a.hi > b.hi : a.lo >= b.lo; }
inline clreduce_u128 clreduce_u128_sub(clreduce_u128 a, clreduce_u128 b) {
    const clreduce_u128 r = {a.lo - b.lo, a.hi - b.hi - (a.lo < b.lo ? 1ul : 0ul)};
    return r;
}

// The double nearest the square root of m (up to 192 bits), digit by digit: two bits of m per
// bit of the root, from m's highest pair down, then zero pairs until the root holds 55 bits.
// root^2 <= (m's pairs so far) < (root + 1)^2 and rem is the difference (below 2 root + 1, and
// the root stays below 2^97, so both fit 128 bits).
inline double clreduce_rounded_sqrt(clreduce_magnitude m) {
    clreduce_u128 root = {0, 0}, rem = {0, 0};
    int bits = 0, last = 0;
    for (int k = 95; k >= 0 || (bits > 0 && bits < 55); --k) {
        const uint pair = k >= 0 ? (clreduce_magnitude_bit(&m, 2 * k + 1) << 1) | clreduce_magnitude_bit(&m, 2 * k) : 0u;
        rem = clreduce_u128_shl(rem, 2);
        rem.lo |= pair;
        clreduce_u128 trial = clreduce_u128_shl(root, 2);  // 4 root + 1
        trial.lo |= 1;
        root = clreduce_u128_shl(root, 1);
        if (clreduce_u128_ge(rem, trial)) {
            rem = clreduce_u128_sub(rem, trial);
            root.lo |= 1;
        }
        if (bits > 0 || root.lo != 0 || root.hi != 0) ++bits;
        last = k;
    }
    if (bits == 0) return 0.0;
    // The root's leading 55 bits (it has `bits` of them), the rest sticky.
    bool sticky = rem.lo != 0 || rem.hi != 0;
    const int drop = bits > 55 ? bits - 55 : 0;
    for (int k = 0; k < drop; ++k) {
        sticky = sticky || (root.lo & 1ul);
        root.lo = (root.lo >> 1) | (root.hi << 63);
        root.hi >>= 1;
    }
    return clreduce_round_collected(root.lo, last + drop, sticky);
}
#endif  // !CLREDUCE_ACC_FLOAT
#endif

#if CLREDUCE_RESULT_KIND == CLREDUCE_RESULT_QUIET || CLREDUCE_RESULT_KIND == CLREDUCE_RESULT_PAIR ||      \
    CLREDUCE_RESULT_KIND == CLREDUCE_RESULT_INDEXED || CLREDUCE_RESULT_KIND == CLREDUCE_RESULT_INDEXED_PAIR || \
    CLREDUCE_RESULT_KIND == CLREDUCE_RESULT_NORM_INF
// A float or double NaN as its type's quiet NaN (the host's std::numeric_limits<T>::quiet_NaN();
// the host says which type with CLREDUCE_RESULT_IS_DOUBLE or CLREDUCE_RESULT_IS_FLOAT32), other
// values as they are: which NaN's bits a state keeps depends on the device.
inline CLREDUCE_RESULT_T clreduce_quiet(CLREDUCE_RESULT_T v) {
#if CLREDUCE_RESULT_IS_DOUBLE
    return isnan(v) ? as_double(0x7ff8000000000000ul) : v;
#elif CLREDUCE_RESULT_IS_FLOAT32
    return isnan(v) ? as_float(0x7fc00000u) : v;
#else
    return v;
#endif
}
#endif

#if CLREDUCE_RESULT_CHECK
#define CLREDUCE_RESULT_SIGNED (((CLREDUCE_RESULT_T)-1) < (CLREDUCE_RESULT_T)0)
#if CLREDUCE_ACC_FLOAT
// The accumulator's value as the result, where it lies in the result type's range (it is an
// integer: the sum or extreme of integers, rounded), or modulo 2^64 where CLREDUCE_RESULT_MODULO
// and it is finite (fmod is exact, and a double beyond 2^53 is an integer). False: neither.
inline bool clreduce_integer_result(double v, CLREDUCE_RESULT_T* r) {
    const double two63 = 9223372036854775808.0, two64 = 18446744073709551616.0;
    const double low = CLREDUCE_RESULT_SIGNED ? -two63 : 0.0, high = CLREDUCE_RESULT_SIGNED ? two63 : two64;
    if (v >= low && v < high) {
        *r = CLREDUCE_RESULT_SIGNED ? (CLREDUCE_RESULT_T)convert_long(v) : (CLREDUCE_RESULT_T)convert_ulong(v);
        return true;
    }
#if CLREDUCE_RESULT_MODULO
    if (isfinite(v)) {
        double m = fmod(v, two64);
        if (m < 0) m += two64;
        *r = (CLREDUCE_RESULT_T)(m >= two63 ? convert_ulong(m - two63) + (1ul << 63) : convert_ulong(m));
        return true;
    }
#endif
    return false;
}
#else
// Whether an exact wide state's value fits the result type: its limbs above the lowest are
// the lowest one's sign extension (a signed result) or zero (an unsigned one).
inline bool clreduce_wide_fits(clreduce_state s) {
    const bool negative = CLREDUCE_WIDE_SIGNED && (long)s.limb[CLREDUCE_WIDE_LIMBS - 1] < 0;
    if (CLREDUCE_RESULT_SIGNED && !CLREDUCE_WIDE_SIGNED && (s.limb[0] >> 63) != 0) return false;
    if (!CLREDUCE_RESULT_SIGNED && negative) return false;
    const ulong high = CLREDUCE_RESULT_SIGNED ? (ulong)((long)s.limb[0] >> 63) : 0ul;
    for (int k = 1; k < CLREDUCE_WIDE_LIMBS; ++k)
        if (s.limb[k] != high) return false;
    return true;
}
#endif
#endif

// The bytes of one result (segmented calls write one per segment, back to back).
#if CLREDUCE_RESULT_KIND == CLREDUCE_RESULT_PAIR
#define CLREDUCE_RESULT_SIZE (2 * sizeof(CLREDUCE_RESULT_T))
#elif CLREDUCE_RESULT_KIND == CLREDUCE_RESULT_INDEXED
#define CLREDUCE_RESULT_SIZE 16
#elif CLREDUCE_RESULT_KIND == CLREDUCE_RESULT_INDEXED_PAIR
#define CLREDUCE_RESULT_SIZE 32
#elif CLREDUCE_RESULT_KIND == CLREDUCE_RESULT_STATISTICS
#define CLREDUCE_RESULT_SIZE ((8 + 2 * sizeof(CLREDUCE_RESULT_T) + 7) / 8 * 8 + 24)
#else
#define CLREDUCE_RESULT_SIZE sizeof(CLREDUCE_RESULT_T)
#endif

// Writes the result `s` stands for at `at`; `count`: the elements the state took. `status`:
// the caller's status word (CLREDUCE_RESULT_CHECK).
__attribute__((always_inline)) inline void clreduce_write_result(__global uchar* at, clreduce_state s, ulong count,
                                                                 volatile __global uint* status) {
#if CLREDUCE_RESULT_CHECK && CLREDUCE_ACC_FLOAT
    CLREDUCE_RESULT_T r;
    if (clreduce_integer_result(clreduce_value_double(s), &r))
        *(__global CLREDUCE_RESULT_T*)at = r;
    else
        atomic_or(status, CLREDUCE_STATUS_OVERFLOW);
#elif CLREDUCE_RESULT_CHECK
    if (clreduce_wide_fits(s))
        *(__global CLREDUCE_RESULT_T*)at = (CLREDUCE_RESULT_T)clreduce_value(s);
    else
        atomic_or(status, CLREDUCE_STATUS_OVERFLOW);
#elif CLREDUCE_RESULT_KIND == CLREDUCE_RESULT_VALUE && defined(CLREDUCE_VALUE_IN_DOUBLE) && CLREDUCE_FP64
    *(__global CLREDUCE_RESULT_T*)at = (CLREDUCE_RESULT_T)clreduce_value_double(s);  // as the host adds its parts
#elif CLREDUCE_RESULT_KIND == CLREDUCE_RESULT_VALUE
    *(__global CLREDUCE_RESULT_T*)at = (CLREDUCE_RESULT_T)clreduce_value(s);
#elif CLREDUCE_RESULT_KIND == CLREDUCE_RESULT_QUIET
    *(__global CLREDUCE_RESULT_T*)at = clreduce_quiet((CLREDUCE_RESULT_T)clreduce_value(s));
#elif CLREDUCE_RESULT_KIND == CLREDUCE_RESULT_NORM_INF
    *(__global CLREDUCE_RESULT_T*)at = count == 0 ? (CLREDUCE_RESULT_T)0 : clreduce_quiet((CLREDUCE_RESULT_T)clreduce_value(s));
#elif CLREDUCE_RESULT_KIND == CLREDUCE_RESULT_ALL
    *at = count == 0 || (ulong)clreduce_value(s) == count ? 1 : 0;
#elif CLREDUCE_RESULT_KIND == CLREDUCE_RESULT_ANY
    *at = count != 0 && clreduce_value(s) != 0 ? 1 : 0;
#elif CLREDUCE_RESULT_KIND == CLREDUCE_RESULT_PAIR
    __global CLREDUCE_RESULT_T* pair = (__global CLREDUCE_RESULT_T*)at;
    pair[0] = clreduce_quiet((CLREDUCE_RESULT_T)s.lo);
    pair[1] = clreduce_quiet((CLREDUCE_RESULT_T)s.hi);
#elif CLREDUCE_RESULT_KIND == CLREDUCE_RESULT_INDEXED
    *(__global CLREDUCE_RESULT_T*)at = clreduce_quiet((CLREDUCE_RESULT_T)s.value);  // ArgResult: value, then index at 8
    *(__global ulong*)(at + 8) = s.index;
#elif CLREDUCE_RESULT_KIND == CLREDUCE_RESULT_INDEXED_PAIR
    *(__global CLREDUCE_RESULT_T*)at = clreduce_quiet((CLREDUCE_RESULT_T)s.lo.value);  // two ArgResults of 16 bytes
    *(__global ulong*)(at + 8) = s.lo.index;
    *(__global CLREDUCE_RESULT_T*)(at + 16) = clreduce_quiet((CLREDUCE_RESULT_T)s.hi.value);
    *(__global ulong*)(at + 24) = s.hi.index;
#elif CLREDUCE_RESULT_KIND == CLREDUCE_RESULT_MEAN || CLREDUCE_RESULT_KIND == CLREDUCE_RESULT_ROOT || \
    CLREDUCE_RESULT_KIND == CLREDUCE_RESULT_ROUNDED
    double v;
#if CLREDUCE_ACC_FLOAT
#if CLREDUCE_RESULT_KIND == CLREDUCE_RESULT_MEAN
    v = clreduce_value_double(s) / convert_double_rte(count);
#elif CLREDUCE_RESULT_KIND == CLREDUCE_RESULT_ROOT
    v = sqrt(clreduce_value_double(s));
#else
    v = clreduce_value_double(s);
#endif
#else
    bool negative;
    const clreduce_magnitude m = clreduce_state_magnitude(s, &negative);
#if CLREDUCE_RESULT_KIND == CLREDUCE_RESULT_MEAN
    v = clreduce_rounded_quotient(m, count);
#elif CLREDUCE_RESULT_KIND == CLREDUCE_RESULT_ROOT
    v = clreduce_rounded_sqrt(m);
#else
    v = clreduce_rounded_quotient(m, 1);
#endif
    if (negative) v = -v;
#endif
#if CLREDUCE_RESULT_KIND == CLREDUCE_RESULT_ROOT
    if (count == 0) v = 0.0;
#endif
    *(__global double*)at = v;
#elif CLREDUCE_RESULT_KIND == CLREDUCE_RESULT_STATISTICS
    // Statistics<T>: count, min, max, then sum, mean and variance from the first multiple of 8
    // bytes after the extremes; in double, as the host computes them (FP_CONTRACT is off).
    const double n = convert_double_rte(s.count);
    const double shift = (double)s.shift, s1 = (double)s.s1, s2 = (double)s.s2;
    __global CLREDUCE_RESULT_T* extremes = (__global CLREDUCE_RESULT_T*)(at + 8);
    __global double* sums = (__global double*)(at + (8 + 2 * sizeof(CLREDUCE_RESULT_T) + 7) / 8 * 8);
    *(__global ulong*)at = s.count;
    extremes[0] = (CLREDUCE_RESULT_T)s.lo;
    extremes[1] = (CLREDUCE_RESULT_T)s.hi;
    sums[0] = n * shift + s1;
    sums[1] = shift + s1 / n;
    const double m2 = s2 - s1 * (s1 / n);  // the squared deviations about the mean, never below 0
    sums[2] = isnan(m2) ? m2 : (0.0 < m2 ? m2 : 0.0) / n;
#else
#error "unknown CLREDUCE_RESULT_KIND"
#endif
}
