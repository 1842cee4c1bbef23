#pragma once
// An exact sum of floating-point values: a long fixed-point accumulator (in the manner of
// ExBLAS), the reference every float result is measured against.
#include <array>
#include <cstdint>
#include <string>

namespace clreduce::testing {

// Holds the exact value of a sum of doubles (and of floats, halves and integers, which are
// all exact doubles or sums of scaled 64-bit integers) as a two's-complement fixed-point
// number of kLimbs 64-bit limbs. Bit 0 of limb 0 weighs 2^-1074 (the least subnormal
// double); the top limbs leave 2^64-fold headroom above the largest finite double, so
// any 2^64 finite doubles add up without overflow. Adding is exact and commutative: the
// state, and so every result, does not depend on the order of the additions.
//
// NaN and infinities are kept as flags, with IEEE 754's rules for a sum: any NaN, or
// +inf together with -inf, makes the sum NaN; else an infinity makes it that infinity.
// Rounding (to_double, to_float) is round-to-nearest-even of the exact value, and gives
// ±inf when the exact value rounds beyond the format's largest finite value, as IEEE
// arithmetic would. An exact zero is returned as +0, except that a sum of nothing but
// negative zeros is -0 (IEEE: -0 + -0 = -0; x + (-x) = +0); a nonzero value that rounds to
// zero keeps its sign.
class ExactSum {
public:
    static constexpr int kLimbs = 35;           // 2240 bits: 1074 + 1024 + 64 + sign, rounded up
    static constexpr int kMinExponent = -1074;  // weight of the lowest bit

    ExactSum() = default;

    void add(double x);
    void add(float x) { add(static_cast<double>(x)); }
    // Adds (negative ? -1 : 1) * magnitude * 2^exponent exactly, for -1074 <= exponent <= 974
    // (checked; throws std::out_of_range): up to 2^1038, 128 bits below the top.
    void add_scaled(std::uint64_t magnitude, bool negative, int exponent);
    void add_integer(std::int64_t x) { add_scaled(x < 0 ? 0 - static_cast<std::uint64_t>(x) : x, x < 0, 0); }
    void add_unsigned(std::uint64_t x) { add_scaled(x, false, 0); }
    // x * y exactly (the product of two doubles has at most 106 significant bits). Throws
    // std::domain_error when the product's low part falls below 2^-1074 (then it is not
    // representable here); an infinite or NaN product is kept as such.
    void add_product(double x, double y);
    void add(const ExactSum& other);
    void negate();

    double to_double() const;  // correctly rounded, round-to-nearest-even
    float to_float() const;    // correctly rounded to float directly (no double rounding)
    // Long double value, rounded to its 64-bit significand (x86) or whatever long double is.
    long double to_long_double() const;

    bool is_nan() const { return nan_ || (pos_inf_ && neg_inf_); }
    bool is_infinite() const { return !is_nan() && (pos_inf_ || neg_inf_); }
    bool is_finite() const { return !nan_ && !pos_inf_ && !neg_inf_; }
    // -1, 0, +1 for the finite part (meaningless when !is_finite()).
    int sign() const;
    bool is_zero() const { return sign() == 0; }
    bool operator==(const ExactSum& other) const;
    bool operator!=(const ExactSum& other) const { return !(*this == other); }
    std::string to_string() const;  // "%.17g" of to_double(), "nan", "inf", "-inf"

private:
    template <int Precision, int MinExponent, int MaxExponent>
    double round_to() const;

    std::array<std::uint64_t, kLimbs> limbs_{};
    bool nan_ = false, pos_inf_ = false, neg_inf_ = false;
    bool any_ = false, all_negative_zero_ = true;  // for the sign of a zero result
};

// The exact sum of data[0..n), conveniences over ExactSum.
ExactSum exact_sum_of(const double* data, std::uint64_t n);
ExactSum exact_sum_of(const float* data, std::uint64_t n);

// |got - exact| / |exact|: the difference is exact, the quotient rounded once in long
// double. 0 when both are equal; +inf when exact is 0 and got is not. When either is not
// finite: 0 if both are NaN or both the same infinity, else +inf.
double relative_error(double got, const ExactSum& exact);
// |got - exact|, computed exactly and rounded once (same rules for non-finite values).
double absolute_error(double got, const ExactSum& exact);

}  // namespace clreduce::testing
