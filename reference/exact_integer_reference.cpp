#include "exact_integer_reference.hpp"

#include <algorithm>
#include <cmath>

namespace clreduce::testing {
namespace {

void trim(Natural& a) {
    while (!a.digits.empty() && a.digits.back() == 0) a.digits.pop_back();
}

}  // namespace

Natural Natural::of(unsigned __int128 v) {
    Natural a;
    for (; v != 0; v >>= 32) a.digits.push_back(static_cast<std::uint32_t>(v));
    return a;
}

std::string Natural::decimal() const {
    if (is_zero()) return "0";
    std::vector<std::uint32_t> d = digits;
    std::string out;
    while (!d.empty()) {
        std::uint64_t r = 0;
        for (auto it = d.rbegin(); it != d.rend(); ++it) {
            const std::uint64_t v = (r << 32) | *it;
            *it = static_cast<std::uint32_t>(v / 10);
            r = v % 10;
        }
        out.push_back(static_cast<char>('0' + r));
        while (!d.empty() && d.back() == 0) d.pop_back();
    }
    std::reverse(out.begin(), out.end());
    return out;
}

int compare(const Natural& a, const Natural& b) {
    if (a.digits.size() != b.digits.size()) return a.digits.size() < b.digits.size() ? -1 : 1;
    for (std::size_t k = a.digits.size(); k-- > 0;)
        if (a.digits[k] != b.digits[k]) return a.digits[k] < b.digits[k] ? -1 : 1;
    return 0;
}

Natural operator+(const Natural& a, const Natural& b) {
    Natural out;
    std::uint64_t carry = 0;
    for (std::size_t k = 0; k < std::max(a.digits.size(), b.digits.size()) || carry; ++k) {
        const std::uint64_t v =
            carry + (k < a.digits.size() ? a.digits[k] : 0) + (k < b.digits.size() ? b.digits[k] : 0);
        out.digits.push_back(static_cast<std::uint32_t>(v));
        carry = v >> 32;
    }
    trim(out);
    return out;
}

Natural operator-(const Natural& a, const Natural& b) {
    Natural out;
    std::int64_t borrow = 0;
    for (std::size_t k = 0; k < a.digits.size(); ++k) {
        std::int64_t v = std::int64_t(a.digits[k]) - borrow - (k < b.digits.size() ? std::int64_t(b.digits[k]) : 0);
        borrow = v < 0;
        if (v < 0) v += std::int64_t(1) << 32;
        out.digits.push_back(static_cast<std::uint32_t>(v));
    }
    trim(out);
    return out;
}

Natural operator*(const Natural& a, const Natural& b) {
    Natural out;
    out.digits.assign(a.digits.size() + b.digits.size() + 1, 0);
    for (std::size_t i = 0; i < a.digits.size(); ++i) {
        std::uint64_t carry = 0;
        for (std::size_t j = 0; j < b.digits.size() || carry; ++j) {
            const std::uint64_t v =
                out.digits[i + j] + carry + (j < b.digits.size() ? std::uint64_t(a.digits[i]) * b.digits[j] : 0);
            out.digits[i + j] = static_cast<std::uint32_t>(v);
            carry = v >> 32;
        }
    }
    trim(out);
    return out;
}

Natural shifted_left(const Natural& a, int bits) {
    Natural out;
    if (a.is_zero()) return out;
    out.digits.assign(bits / 32, 0);
    std::uint32_t carry = 0;
    const int s = bits % 32;
    for (std::uint32_t d : a.digits) {
        out.digits.push_back(s == 0 ? d : (d << s) | carry);
        carry = s == 0 ? 0 : d >> (32 - s);
    }
    out.digits.push_back(carry);
    trim(out);
    return out;
}

void BigInteger::add(bool term_negative, const Natural& term) {
    if (term_negative == negative) {
        magnitude = magnitude + term;
    } else if (compare(magnitude, term) >= 0) {
        magnitude = magnitude - term;
    } else {
        magnitude = term - magnitude;
        negative = term_negative;
    }
    if (magnitude.is_zero()) negative = false;
}

std::optional<std::int64_t> BigInteger::to_int64() const {
    if (magnitude.digits.size() > 2) return std::nullopt;
    std::uint64_t m = 0;
    for (std::size_t k = magnitude.digits.size(); k-- > 0;) m = (m << 32) | magnitude.digits[k];
    if (m > (negative ? (std::uint64_t(1) << 63) : (std::uint64_t(1) << 63) - 1)) return std::nullopt;
    return negative ? static_cast<std::int64_t>(0 - m) : static_cast<std::int64_t>(m);
}

std::optional<std::uint64_t> BigInteger::to_uint64() const {
    if (negative || magnitude.digits.size() > 2) return std::nullopt;
    std::uint64_t m = 0;
    for (std::size_t k = magnitude.digits.size(); k-- > 0;) m = (m << 32) | magnitude.digits[k];
    return m;
}

namespace {

// |r| = M * 2^e with M an integer below 2^53, and the bounds of its rounding interval in
// units of 2^(e-2): [low, high] = 4M - (1 or 2), 4M + 2 (the lower neighbour is closer when
// M is a power of two at the top of its binade).
struct Interval {
    Natural low, high;
    int e;  // the unit is 2^(e-2)
    bool even;
};

Interval interval_of(double r) {
    int exponent = 0;
    const double f = std::frexp(std::fabs(r), &exponent);  // |r| = f * 2^exponent, f in [0.5, 1)
    const auto m = static_cast<std::uint64_t>(std::ldexp(f, 53));
    const int e = exponent - 53;
    const bool binade_bottom = m == (std::uint64_t(1) << 52);
    return {Natural::of(4 * static_cast<unsigned __int128>(m) - (binade_bottom ? 1 : 2)),
            Natural::of(4 * static_cast<unsigned __int128>(m) + 2), e, (m & 1u) == 0};
}

// Whether x * 2^(scale_x) lies in [low, high] * 2^(scale_b) (both non-negative), closed at a
// bound only when the double is even (ties to even).
bool within(const Natural& x, int scale_x, const Interval& b, int scale_b, const Natural& factor_low,
            const Natural& factor_high) {
    const int shift = std::min(scale_x, scale_b);
    const Natural value = shifted_left(x, scale_x - shift);
    const Natural low = shifted_left(factor_low, scale_b - shift);
    const Natural high = shifted_left(factor_high, scale_b - shift);
    const int c_low = compare(value, low), c_high = compare(value, high);
    if (c_low > 0 && c_high < 0) return true;
    return (c_low == 0 || c_high == 0) && b.even;
}

}  // namespace

bool is_correctly_rounded(double r, const BigInteger& value, std::uint64_t divisor) {
    if (value.magnitude.is_zero()) return r == 0.0;
    if (!std::isfinite(r) || r == 0.0 || (r < 0) != value.negative) return false;
    const Interval b = interval_of(r);
    const Natural n = Natural::of(divisor);
    // value / divisor in [low, high] * 2^(e-2)  <=>  value in [low * divisor, high * divisor] * 2^(e-2)
    return within(value.magnitude, 0, b, b.e - 2, b.low * n, b.high * n);
}

bool is_correctly_rounded_sqrt(double r, const BigInteger& value) {
    if (value.negative) return false;
    if (value.magnitude.is_zero()) return r == 0.0;
    if (!std::isfinite(r) || r <= 0.0) return false;
    const Interval b = interval_of(r);
    // sqrt(value) in [low, high] * 2^(e-2)  <=>  value in [low^2, high^2] * 2^(2e-4)
    return within(value.magnitude, 0, b, 2 * b.e - 4, b.low * b.low, b.high * b.high);
}

}  // namespace clreduce::testing
