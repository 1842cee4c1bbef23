#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace clreduce::expr {

// Whether text is one OpenCL C numeric literal: decimal, octal or hexadecimal integers with
// an optional u/U and l/L suffix (either order) and a value below 2^64; decimal floats
// (digits with a '.', an exponent or both) and hexadecimal floats (binary exponent 'p'
// required) with an optional f/F or h/H suffix. Returns why it is not, or "" when it is.
std::string literal_fault(std::string_view text);

// Whether a valid literal is an integer one (no '.', no exponent, no float suffix).
bool is_integer_literal(std::string_view text);

// The value of a valid integer literal (its suffix ignored), below 2^64 by literal_fault().
std::uint64_t integer_literal_value(std::string_view text);

// The value of a valid floating literal as its type holds it (double, or float with f/F);
// nothing for half (h/H), which the host does not round.
std::optional<double> float_literal_value(std::string_view text);

}  // namespace clreduce::expr
