#pragma once
// Exact integer references for the tests: the exact sum (of the values, their magnitudes or
// their squares) of integer data as a big integer, and checks that a double is the correctly
// rounded value, quotient or square root of one. The checks compare the double's rounding
// interval with the exact value in big-integer arithmetic, independently of how the library
// rounds (src/ops/exact_integer.cpp generates the bits instead).
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace clreduce::testing {

// A non-negative integer in base 2^32, lowest digit first, no leading zeros.
struct Natural {
    std::vector<std::uint32_t> digits;

    static Natural of(unsigned __int128 v);
    bool is_zero() const { return digits.empty(); }
    std::string decimal() const;
};
int compare(const Natural& a, const Natural& b);
Natural operator+(const Natural& a, const Natural& b);
Natural operator-(const Natural& a, const Natural& b);  // a >= b
Natural operator*(const Natural& a, const Natural& b);
Natural shifted_left(const Natural& a, int bits);

// A signed big integer.
struct BigInteger {
    bool negative = false;
    Natural magnitude;

    void add(bool term_negative, const Natural& term);
    std::optional<std::int64_t> to_int64() const;
    std::optional<std::uint64_t> to_uint64() const;
    std::string decimal() const { return (negative ? "-" : "") + magnitude.decimal(); }
};

enum class Terms { values, magnitudes, squares };

// The exact sum of the terms of data[0, n).
template <class T>
BigInteger exact_integer_sum(const T* data, std::uint64_t n, Terms terms) {
    static_assert(std::is_integral_v<T>);
    BigInteger sum;
    for (std::uint64_t i = 0; i < n; ++i) {
        const __int128 x = data[i];
        const unsigned __int128 magnitude =
            x < 0 ? static_cast<unsigned __int128>(-x) : static_cast<unsigned __int128>(x);
        if (terms == Terms::squares) {
            const Natural m = Natural::of(magnitude);
            sum.add(false, m * m);
        } else {
            sum.add(terms == Terms::values && x < 0, Natural::of(magnitude));
        }
    }
    return sum;
}

// Whether r is value / divisor rounded to the nearest double, ties to even.
bool is_correctly_rounded(double r, const BigInteger& value, std::uint64_t divisor = 1);
// Whether r is sqrt(value) rounded to the nearest double, ties to even (value >= 0).
bool is_correctly_rounded_sqrt(double r, const BigInteger& value);

}  // namespace clreduce::testing
