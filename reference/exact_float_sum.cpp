#include "reference/exact_float_sum.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace clreduce::testing {
namespace {

using u128 = unsigned __int128;
constexpr int kBits = ExactSum::kLimbs * 64;

std::uint64_t bits_of(double x) {
    std::uint64_t b;
    std::memcpy(&b, &x, sizeof b);
    return b;
}

int highest_bit(const std::array<std::uint64_t, ExactSum::kLimbs>& limbs) {
    for (int k = ExactSum::kLimbs - 1; k >= 0; --k)
        if (limbs[k]) return k * 64 + 63 - __builtin_clzll(limbs[k]);
    return -1;
}

bool bit(const std::array<std::uint64_t, ExactSum::kLimbs>& limbs, int b) { return (limbs[b / 64] >> (b % 64)) & 1u; }

// Any bit set among bits [0, b] (b may be negative: none).
bool any_bit_up_to(const std::array<std::uint64_t, ExactSum::kLimbs>& limbs, int b) {
    if (b < 0) return false;
    for (int k = 0; k < b / 64; ++k)
        if (limbs[k]) return true;
    const int s = b % 64;
    const std::uint64_t mask = s == 63 ? ~0ull : ((1ull << (s + 1)) - 1);
    return (limbs[b / 64] & mask) != 0;
}

// Bits [low, low + width) as an integer, width <= 64.
std::uint64_t bits_at(const std::array<std::uint64_t, ExactSum::kLimbs>& limbs, int low, int width) {
    const int k = low / 64, s = low % 64;
    u128 v = limbs[k];
    if (k + 1 < ExactSum::kLimbs) v |= static_cast<u128>(limbs[k + 1]) << 64;
    v >>= s;
    return width == 64 ? static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v) & ((1ull << width) - 1);
}

void negate_limbs(std::array<std::uint64_t, ExactSum::kLimbs>& limbs) {
    std::uint64_t carry = 1;
    for (auto& limb : limbs) {
        limb = ~limb + carry;
        carry = carry && limb == 0;
    }
}

}  // namespace

void ExactSum::add(double x) {
    any_ = true;
    if (!(x == 0 && std::signbit(x))) all_negative_zero_ = false;
    if (std::isnan(x)) {
        nan_ = true;
        return;
    }
    if (std::isinf(x)) {
        (x > 0 ? pos_inf_ : neg_inf_) = true;
        return;
    }
    if (x == 0) return;
    const std::uint64_t b = bits_of(x);
    const int biased = static_cast<int>((b >> 52) & 0x7ff);
    const std::uint64_t fraction = b & ((1ull << 52) - 1);
    if (biased == 0)
        add_scaled(fraction, b >> 63, kMinExponent);
    else
        add_scaled(fraction | (1ull << 52), b >> 63, biased - 1075);
}

void ExactSum::add_scaled(std::uint64_t magnitude, bool negative, int exponent) {
    if (magnitude == 0) return;
    const int low = exponent - kMinExponent;
    // Keeps 64 bits of headroom above the highest bit this addend can touch.
    if (low < 0 || low + 64 > kBits - 128)
        throw std::out_of_range("ExactSum::add_scaled: 2^" + std::to_string(exponent) + " outside the accumulator");
    const int k = low / 64;
    const u128 v = static_cast<u128>(magnitude) << (low % 64);
    const std::uint64_t parts[2] = {static_cast<std::uint64_t>(v), static_cast<std::uint64_t>(v >> 64)};
    if (!negative) {
        std::uint64_t carry = 0;
        for (int i = 0; i < 2; ++i) {
            const u128 s = static_cast<u128>(limbs_[k + i]) + parts[i] + carry;
            limbs_[k + i] = static_cast<std::uint64_t>(s);
            carry = static_cast<std::uint64_t>(s >> 64);
        }
        for (int i = k + 2; carry && i < kLimbs; ++i) carry = ++limbs_[i] == 0;
    } else {
        std::uint64_t borrow = 0;
        for (int i = 0; i < 2; ++i) {
            const u128 d = static_cast<u128>(limbs_[k + i]) - parts[i] - borrow;
            limbs_[k + i] = static_cast<std::uint64_t>(d);
            borrow = (d >> 64) != 0;
        }
        for (int i = k + 2; borrow && i < kLimbs; ++i) borrow = limbs_[i]-- == 0;
    }
}

void ExactSum::add_product(double x, double y) {
    const double p = x * y;
    if (!std::isfinite(p)) {
        add(p);  // inf (overflow: the exact product is beyond every double too) or NaN
        return;
    }
    const double e = std::fma(x, y, -p);  // x * y == p + e exactly, unless e underflowed
    if (e != 0 && std::fabs(e) < std::ldexp(1.0, -1022 + 53))
        throw std::domain_error("ExactSum::add_product: product's low part underflows");
    if (p == 0 && x != 0 && y != 0) throw std::domain_error("ExactSum::add_product: product underflows");
    add(p);
    add(e);
}

void ExactSum::add(const ExactSum& other) {
    std::uint64_t carry = 0;
    for (int i = 0; i < kLimbs; ++i) {
        const u128 s = static_cast<u128>(limbs_[i]) + other.limbs_[i] + carry;
        limbs_[i] = static_cast<std::uint64_t>(s);
        carry = static_cast<std::uint64_t>(s >> 64);
    }
    nan_ |= other.nan_;
    pos_inf_ |= other.pos_inf_;
    neg_inf_ |= other.neg_inf_;
    any_ |= other.any_;
    all_negative_zero_ = all_negative_zero_ && other.all_negative_zero_;
}

void ExactSum::negate() {
    negate_limbs(limbs_);
    std::swap(pos_inf_, neg_inf_);
    all_negative_zero_ = false;
}

int ExactSum::sign() const {
    if (limbs_[kLimbs - 1] >> 63) return -1;
    for (auto limb : limbs_)
        if (limb) return 1;
    return 0;
}

template <int Precision, int MinExponent, int MaxExponent>
double ExactSum::round_to() const {
    // Returned as double for float and double targets; the long double path is separate.
    static_assert(Precision <= 53);
    if (is_nan()) return std::numeric_limits<double>::quiet_NaN();
    if (pos_inf_) return std::numeric_limits<double>::infinity();
    if (neg_inf_) return -std::numeric_limits<double>::infinity();
    auto magnitude = limbs_;
    const bool negative = limbs_[kLimbs - 1] >> 63;
    if (negative) negate_limbs(magnitude);
    const int top = highest_bit(magnitude);
    if (top < 0) return any_ && all_negative_zero_ ? -0.0 : 0.0;
    const int top_exponent = top + kMinExponent;
    const int lsb_exponent = std::max(top_exponent - (Precision - 1), MinExponent);
    const int low = lsb_exponent - kMinExponent;  // >= 0, since MinExponent >= kMinExponent
    // Below half the least subnormal of the format, m is 0 (the value underflows).
    std::uint64_t m = top >= low ? bits_at(magnitude, low, top - low + 1) : 0;
    const bool round = low > 0 && bit(magnitude, low - 1);
    const bool sticky = any_bit_up_to(magnitude, low - 2);
    if (round && (sticky || (m & 1))) ++m;
    if (m == 0) return negative ? -0.0 : 0.0;  // IEEE: an underflow to zero keeps the sign
    const int result_top = lsb_exponent + 63 - __builtin_clzll(m);
    const double inf = std::numeric_limits<double>::infinity();
    if (result_top > MaxExponent) return negative ? -inf : inf;
    const double value = std::ldexp(static_cast<double>(m), lsb_exponent);
    return negative ? -value : value;
}

double ExactSum::to_double() const { return round_to<53, -1074, 1023>(); }

float ExactSum::to_float() const {
    // Exact in double (at most 24 bits, exponent within float's range), so the cast is exact.
    return static_cast<float>(round_to<24, -149, 127>());
}

long double ExactSum::to_long_double() const {
    if (!is_finite()) return to_double();
    auto magnitude = limbs_;
    const bool negative = limbs_[kLimbs - 1] >> 63;
    if (negative) negate_limbs(magnitude);
    const int top = highest_bit(magnitude);
    if (top < 0) return any_ && all_negative_zero_ ? -0.0L : 0.0L;
    constexpr int precision = std::numeric_limits<long double>::digits;
    static_assert(precision <= 64);
    const int low = std::max(top - (precision - 1), 0);
    u128 m = bits_at(magnitude, low, top - low + 1);
    const bool round = low > 0 && bit(magnitude, low - 1);
    const bool sticky = any_bit_up_to(magnitude, low - 2);
    if (round && (sticky || (m & 1))) ++m;
    const long double value = std::ldexp(static_cast<long double>(m), low + kMinExponent);
    return negative ? -value : value;
}

bool ExactSum::operator==(const ExactSum& other) const {
    if (is_nan() || other.is_nan()) return is_nan() && other.is_nan();
    if (is_infinite() || other.is_infinite()) return is_infinite() && other.is_infinite() && pos_inf_ == other.pos_inf_;
    return limbs_ == other.limbs_;
}

std::string ExactSum::to_string() const {
    const double d = to_double();
    if (std::isnan(d)) return "nan";
    if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%.17g", d);
    return buffer;
}

ExactSum exact_sum_of(const double* data, std::uint64_t n) {
    ExactSum s;
    for (std::uint64_t i = 0; i < n; ++i) s.add(data[i]);
    return s;
}

ExactSum exact_sum_of(const float* data, std::uint64_t n) {
    ExactSum s;
    for (std::uint64_t i = 0; i < n; ++i) s.add(data[i]);
    return s;
}

namespace {

// 0 when got and exact agree on a non-finite value, +inf when they disagree; -1 when
// both are finite (the caller computes).
double non_finite_error(double got, const ExactSum& exact) {
    if (exact.is_finite() && std::isfinite(got)) return -1;
    const double e = exact.to_double();
    if (std::isnan(e) || std::isnan(got)) return std::isnan(e) && std::isnan(got) ? 0 : HUGE_VAL;
    return e == got ? 0 : HUGE_VAL;
}

}  // namespace

double absolute_error(double got, const ExactSum& exact) {
    const double special = non_finite_error(got, exact);
    if (special >= 0) return special;
    ExactSum difference = exact;
    difference.add(-got);
    return std::fabs(difference.to_double());
}

double relative_error(double got, const ExactSum& exact) {
    const double special = non_finite_error(got, exact);
    if (special >= 0) return special;
    ExactSum difference = exact;
    difference.add(-got);
    if (difference.is_zero()) return 0;
    if (exact.is_zero()) return HUGE_VAL;
    return static_cast<double>(std::fabs(difference.to_long_double() / exact.to_long_double()));
}

}  // namespace clreduce::testing
