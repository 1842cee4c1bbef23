#pragma once
// Integer results under IntegerOverflow::check (launch_params.hpp): the exact value if it fits
// the result type, else Overflow naming the operation, the value and the type.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <type_traits>

#include <clreduce/element_type.hpp>
#include <clreduce/error.hpp>
#include <clreduce/operation.hpp>

#include "ops/exact_integer.hpp"

namespace clreduce {

// `wraps`: whether IntegerOverflow::wrap would give the result modulo 2^64 (sums only: a
// product or an extreme in a floating-point accumulator is always checked).
[[noreturn]] inline void throw_overflow(Operation op, ElementType element, const std::string& value,
                                        std::string_view result_type, bool wraps = true) {
    throw Overflow(std::string(operation_name(op)) + " of " + std::string(type_name(element)) + " data is " + value +
                   ", outside the range of its result type " + std::string(result_type) +
                   (wraps ? "; set LaunchParams::overflow = IntegerOverflow::wrap for the result modulo 2^64"
                          : "; its floating-point accumulator's value has no modulo 2^64, whatever "
                            "LaunchParams::overflow says"));
}

// The exact value as R (int64_t or uint64_t), or Overflow.
template <class R>
R checked_integer(const ExactInteger& value, Operation op, ElementType element) {
    static_assert(std::is_same_v<R, std::int64_t> || std::is_same_v<R, std::uint64_t>);
    if constexpr (std::is_same_v<R, std::int64_t>) {
        if (const auto v = value.to_int64()) return *v;
        throw_overflow(op, element, value.describe(), "int64");
    } else {
        if (const auto v = value.to_uint64()) return *v;
        throw_overflow(op, element, value.describe(), "uint64");
    }
}

// A float accumulator's result over integer data (an integer-valued double) as R: checked
// against R's range, or under IntegerOverflow::wrap reduced modulo 2^64 (sums only: a product
// or an extreme is always checked).
template <class R>
R integer_from_float(double value, IntegerOverflow rule, Operation op, ElementType element) {
    static_assert(std::is_same_v<R, std::int64_t> || std::is_same_v<R, std::uint64_t>);
    constexpr double two63 = 9223372036854775808.0, two64 = 18446744073709551616.0;
    const double low = std::is_signed_v<R> ? -two63 : 0.0;
    const double high = std::is_signed_v<R> ? two63 : two64;  // exclusive
    if (value >= low && value < high) return static_cast<R>(value);
    const bool wraps = operation_family(op) == OperationFamily::additive;
    if (rule == IntegerOverflow::check || !wraps || !std::isfinite(value)) {
        char text[40];
        std::snprintf(text, sizeof text, "%.17g", value);
        throw_overflow(op, element, text, std::is_signed_v<R> ? "int64" : "uint64", wraps);
    }
    // Modulo 2^64: fmod is exact, and a double beyond 2^53 is an integer.
    double r = std::fmod(value, two64);
    if (r < 0) r += two64;
    const std::uint64_t bits =
        r >= two63 ? static_cast<std::uint64_t>(r - two63) + (std::uint64_t(1) << 63) : static_cast<std::uint64_t>(r);
    return static_cast<R>(bits);
}

}  // namespace clreduce
