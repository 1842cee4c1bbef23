#pragma once
// Exact integer results on the host: the 128- and 192-bit states of ops/add_wide.cl and every
// integer accumulator's value, with the conversions the results need: to an integer type if
// it fits, and the correctly rounded double of the value, of its quotient by the count (a
// mean) and of its square root (an L2 norm).
#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace clreduce {

class ExactInteger {
public:
    // A two's-complement integer of `limbs` little-endian 64-bit limbs (1 to 3).
    static ExactInteger from_limbs(const unsigned char* bits, int limbs);
    static ExactInteger from_signed(std::int64_t value);
    static ExactInteger from_unsigned(std::uint64_t value);

    bool negative() const { return negative_; }
    std::optional<std::int64_t> to_int64() const;    // nullopt: outside int64's range
    std::optional<std::uint64_t> to_uint64() const;  // nullopt: negative or 2^64 or more

    // Rounded to the nearest double, ties to even (every value here is finite as a double).
    double rounded() const;
    // value / count, correctly rounded; count > 0.
    double rounded_quotient(std::uint64_t count) const;
    // The square root of a non-negative value, correctly rounded.
    double rounded_sqrt() const;

    // For messages: the value in decimal if it has at most 20 digits, else its rounded double.
    std::string describe() const;

    // The magnitude: six 64-bit limbs, lowest first, room for the scaled values of the
    // roundings (a 192-bit value times 2^118).
    using Magnitude = std::array<std::uint64_t, 6>;

private:
    bool negative_ = false;
    Magnitude magnitude_{};
};

}  // namespace clreduce
