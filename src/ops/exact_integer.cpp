#include "ops/exact_integer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include <clreduce/error.hpp>

namespace clreduce {
namespace {

using Magnitude = ExactInteger::Magnitude;
constexpr int kLimbs = static_cast<int>(std::tuple_size_v<Magnitude>);
constexpr int kBits = 64 * kLimbs;

int bit_length(const Magnitude& m) {
    for (int k = kLimbs - 1; k >= 0; --k)
        if (m[k] != 0) return 64 * k + 64 - __builtin_clzll(m[k]);
    return 0;
}

bool bit(const Magnitude& m, int b) { return b >= 0 && b < kBits && ((m[b / 64] >> (b % 64)) & 1u); }

bool is_zero(const Magnitude& m) { return bit_length(m) == 0; }

Magnitude shifted_left(const Magnitude& m, int shift) {
    if (bit_length(m) + shift > kBits) throw Error("internal: exact integer shifted past its width");
    Magnitude out{};
    const int limbs = shift / 64, bits = shift % 64;
    for (int k = kLimbs - 1; k >= limbs; --k) {
        out[k] = m[k - limbs] << bits;
        if (bits != 0 && k - limbs - 1 >= 0) out[k] |= m[k - limbs - 1] >> (64 - bits);
    }
    return out;
}

Magnitude shifted_right(const Magnitude& m, int shift) {
    Magnitude out{};
    const int limbs = shift / 64, bits = shift % 64;
    for (int k = 0; k + limbs < kLimbs; ++k) {
        out[k] = m[k + limbs] >> bits;
        if (bits != 0 && k + limbs + 1 < kLimbs) out[k] |= m[k + limbs + 1] << (64 - bits);
    }
    return out;
}

int compare(const Magnitude& a, const Magnitude& b) {
    for (int k = kLimbs - 1; k >= 0; --k)
        if (a[k] != b[k]) return a[k] < b[k] ? -1 : 1;
    return 0;
}

Magnitude plus(const Magnitude& a, const Magnitude& b) {
    Magnitude out{};
    unsigned __int128 carry = 0;
    for (int k = 0; k < kLimbs; ++k) {
        const unsigned __int128 s = static_cast<unsigned __int128>(a[k]) + b[k] + carry;
        out[k] = static_cast<std::uint64_t>(s);
        carry = s >> 64;
    }
    return out;
}

Magnitude minus(const Magnitude& a, const Magnitude& b) {  // a >= b
    Magnitude out{};
    std::uint64_t borrow = 0;
    for (int k = 0; k < kLimbs; ++k) {
        const std::uint64_t d = a[k] - b[k];
        const std::uint64_t next = (a[k] < b[k]) || (d < borrow);
        out[k] = d - borrow;
        borrow = next;
    }
    return out;
}

// a / divisor, and the remainder.
Magnitude divided(const Magnitude& a, std::uint64_t divisor, std::uint64_t& remainder) {
    Magnitude out{};
    unsigned __int128 r = 0;
    for (int k = kLimbs - 1; k >= 0; --k) {
        const unsigned __int128 v = (r << 64) | a[k];
        out[k] = static_cast<std::uint64_t>(v / divisor);
        r = v % divisor;
    }
    remainder = static_cast<std::uint64_t>(r);
    return out;
}

// floor(sqrt(a)), and whether it is exact (the digit-by-digit method in base 4).
Magnitude integer_sqrt(Magnitude a, bool& exact) {
    Magnitude root{};
    const int top = std::max(bit_length(a) - 1, 0) & ~1;  // highest even bit at or below a's top
    Magnitude place{};
    place[top / 64] = std::uint64_t(1) << (top % 64);
    while (!is_zero(place)) {
        const Magnitude trial = plus(root, place);
        if (compare(a, trial) >= 0) {
            a = minus(a, trial);
            root = plus(shifted_right(root, 1), place);
        } else {
            root = shifted_right(root, 1);
        }
        place = shifted_right(place, 2);
    }
    exact = is_zero(a);
    return root;
}

// q * 2^exponent rounded to the nearest double, ties to even, where `sticky` says the exact
// value lies a little above q * 2^exponent (less than one unit of q's lowest bit). Callers
// give q at least 54 bits whenever sticky can be set, so its lowest bits decide the rounding.
double round_scaled(const Magnitude& q, int exponent, bool sticky) {
    const int length = bit_length(q);
    if (length <= 53) {
        if (sticky) throw Error("internal: a sticky rounding with fewer than 54 bits");
        return std::ldexp(static_cast<double>(q[0]), exponent);
    }
    const int shift = length - 53;
    std::uint64_t mantissa = shifted_right(q, shift)[0];
    const bool round = bit(q, shift - 1);
    for (int b = shift - 2; b >= 0 && !sticky; --b) sticky = bit(q, b);
    if (round && (sticky || (mantissa & 1u))) ++mantissa;
    return std::ldexp(static_cast<double>(mantissa), exponent + shift);
}

}  // namespace

ExactInteger ExactInteger::from_limbs(const unsigned char* bits, int limbs) {
    if (limbs < 1 || limbs > 3) throw Error("internal: an exact integer of " + std::to_string(limbs) + " limbs");
    ExactInteger v;
    Magnitude m{};
    std::memcpy(m.data(), bits, 8 * static_cast<std::size_t>(limbs));
    v.negative_ = (m[limbs - 1] >> 63) != 0;
    if (v.negative_) {  // magnitude = two's complement of the limbs, within their width
        for (int k = 0; k < limbs; ++k) m[k] = ~m[k];
        Magnitude one{};
        one[0] = 1;
        m = plus(m, one);  // no carry out of the limbs: the top bit was set
    }
    v.magnitude_ = m;
    return v;
}

ExactInteger ExactInteger::from_signed(std::int64_t value) {
    std::uint64_t bits = static_cast<std::uint64_t>(value);
    return from_limbs(reinterpret_cast<const unsigned char*>(&bits), 1);
}

ExactInteger ExactInteger::from_unsigned(std::uint64_t value) {
    ExactInteger v;
    v.magnitude_[0] = value;
    return v;
}

std::optional<std::int64_t> ExactInteger::to_int64() const {
    if (bit_length(magnitude_) > 64) return std::nullopt;
    const std::uint64_t m = magnitude_[0];
    const std::uint64_t limit = negative_ ? (std::uint64_t(1) << 63) : (std::uint64_t(1) << 63) - 1;
    if (m > limit) return std::nullopt;
    return negative_ ? static_cast<std::int64_t>(0 - m) : static_cast<std::int64_t>(m);
}

std::optional<std::uint64_t> ExactInteger::to_uint64() const {
    if (bit_length(magnitude_) > 64 || (negative_ && !is_zero(magnitude_))) return std::nullopt;
    return magnitude_[0];
}

double ExactInteger::rounded() const {
    const double v = round_scaled(magnitude_, 0, false);
    return negative_ ? -v : v;
}

double ExactInteger::rounded_quotient(std::uint64_t count) const {
    if (count == 0) throw Error("internal: a quotient by zero");
    if (is_zero(magnitude_)) return 0.0;
    // Scale so that the quotient has at least 54 bits; the remainder is the sticky bit.
    const int divisor_bits = 64 - __builtin_clzll(count);
    const int scale = std::max(0, 54 - (bit_length(magnitude_) - divisor_bits));
    std::uint64_t remainder = 0;
    const Magnitude q = divided(shifted_left(magnitude_, scale), count, remainder);
    const double v = round_scaled(q, -scale, remainder != 0);
    return negative_ ? -v : v;
}

double ExactInteger::rounded_sqrt() const {
    if (negative_ && !is_zero(magnitude_)) throw Error("internal: the square root of a negative sum");
    if (is_zero(magnitude_)) return 0.0;
    // Scale by 4^k so that the root has at least 54 bits; an inexact root is the sticky bit.
    const int k = std::max(0, (108 - bit_length(magnitude_) + 1) / 2);
    bool exact = false;
    const Magnitude root = integer_sqrt(shifted_left(magnitude_, 2 * k), exact);
    return round_scaled(root, -k, !exact);
}

std::string ExactInteger::describe() const {
    if (bit_length(magnitude_) <= 64) {
        return (negative_ && !is_zero(magnitude_) ? "-" : "") + std::to_string(magnitude_[0]);
    }
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", rounded());
    return std::string("about ") + text;
}

}  // namespace clreduce
