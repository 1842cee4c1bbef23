#include "ops/exact_state.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace clreduce {

namespace {
constexpr int kMaxLimbs = 67;  // a double accumulator's
}  // namespace

int exact_state_limbs(ElementType accumulator) { return type_size(accumulator) == 4 ? 10 : kMaxLimbs; }

std::size_t exact_expansion_size(ElementType) { return kExactExpansionTerms * sizeof(double); }

std::size_t exact_state_size(ElementType accumulator) {
    return static_cast<std::size_t>(exact_state_limbs(accumulator) + 1) * 8;
}

std::size_t exact_sink_size(ElementType accumulator) { return exact_state_size(accumulator) + 3 * 8; }

std::uint64_t exact_bin_terms(ElementType accumulator) { return type_size(accumulator) == 4 ? 8192 : 1024; }

double round_exact_state(const unsigned char* state, ElementType accumulator) {
    const int limbs = exact_state_limbs(accumulator);
    // The weight of the lowest bit: the least subnormal of the accumulator type.
    const int lowest = type_size(accumulator) == 4 ? -149 : -1074;
    std::int64_t flags = 0;
    std::memcpy(&flags, state + limbs * 8, 8);
    if ((flags & 1) || (flags & 6) == 6) return std::numeric_limits<double>::quiet_NaN();
    if (flags & 2) return std::numeric_limits<double>::infinity();
    if (flags & 4) return -std::numeric_limits<double>::infinity();

    // Carry-saved signed limbs to 32-bit digits of a two's-complement number; two digits
    // more than limbs hold any carry out of the top limb.
    std::array<std::uint32_t, kMaxLimbs + 2> digit{};  // on the stack: this runs on every call
    __int128 carry = 0;
    for (int k = 0; k < limbs + 2; ++k) {
        std::int64_t limb = 0;
        if (k < limbs) std::memcpy(&limb, state + k * 8, 8);
        const __int128 v = static_cast<__int128>(limb) + carry;
        digit[k] = static_cast<std::uint32_t>(v & 0xffffffff);
        carry = v >> 32;  // floor division: what is left is 0, or -1 for a negative number
    }
    const bool negative = carry < 0;
    if (negative) {  // magnitude = two's complement of the digits
        std::uint64_t c = 1;
        for (int k = 0; k < limbs + 2; ++k) {
            const std::uint64_t v = static_cast<std::uint64_t>(~digit[k]) + c;
            digit[k] = static_cast<std::uint32_t>(v);
            c = v >> 32;
        }
    }
    int top = -1;
    for (int k = limbs + 1; k >= 0 && top < 0; --k)
        if (digit[k]) top = k * 32 + 31 - __builtin_clz(digit[k]);
    // A zero sum is -0.0 only when every term was -0.0, as IEEE addition gives it.
    if (top < 0) return (flags & 8) && !(flags & 16) ? -0.0 : 0.0;
    auto bit = [&](int b) { return b >= 0 && ((digit[b / 32] >> (b % 32)) & 1u); };

    // The 53 bits from the top (fewer for a subnormal result), then round to nearest even.
    const int lsb_exponent = std::max(top + lowest - 52, -1074);
    const int low = lsb_exponent - lowest;  // bit index of the result's lowest bit
    const int start = std::max(low, 0);     // below bit 0 there is nothing to round
    std::uint64_t m = 0;
    for (int b = top; b >= start; --b) m = (m << 1) | bit(b);
    const bool round = bit(low - 1);
    bool sticky = false;
    for (int b = low - 2; b >= 0 && !sticky; --b) {
        if (b % 32 == 31 && digit[b / 32] == 0) {  // a whole zero digit at once
            b -= 31;
            continue;
        }
        sticky = bit(b);
    }
    if (round && (sticky || (m & 1))) ++m;
    const double inf = std::numeric_limits<double>::infinity();
    const int exponent = start + lowest;
    if (exponent + 63 - __builtin_clzll(m) > 1023) return negative ? -inf : inf;
    const double value = std::ldexp(static_cast<double>(m), exponent);
    return negative ? -value : value;
}

void merge_exact_states(const unsigned char* states, std::uint32_t copies, ElementType accumulator,
                        unsigned char* merged) {
    const std::size_t words = exact_state_size(accumulator) / 8;
    std::array<std::int64_t, kMaxLimbs + 1> total{};
    for (std::uint32_t c = 0; c < copies; ++c) {
        for (std::size_t k = 0; k < words; ++k) {
            std::int64_t v = 0;
            std::memcpy(&v, states + (c * words + k) * 8, 8);
            // Limbs add; the last word is the flags, which combine by or.
            total[k] =
                k + 1 == words
                    ? (total[k] | v)
                    : static_cast<std::int64_t>(static_cast<std::uint64_t>(total[k]) + static_cast<std::uint64_t>(v));
        }
    }
    std::memcpy(merged, total.data(), words * 8);
}

double round_exact_states(const unsigned char* states, std::uint32_t copies, ElementType accumulator) {
    if (copies == 1) return round_exact_state(states, accumulator);
    std::array<unsigned char, (kMaxLimbs + 1) * 8> merged{};
    merge_exact_states(states, copies, accumulator, merged.data());
    return round_exact_state(merged.data(), accumulator);
}

}  // namespace clreduce
