#pragma once
#include <string_view>

#include "parser.hpp"

namespace clreduce::expr {

// Refuses (SyntaxError) a call of a built-in that takes only floating-point arguments (the
// math functions, native_*, degrees, radians, sign, step, mix, smoothstep, the relational
// is* and signbit) whose arguments are all of integer type, where `x` is of OpenCL type
// `x_type`: the OpenCL compiler finds no overload for them (exp(x) of long x), so the fault is
// named here with its column and the conversion that fixes it. `expression` is the text the
// tree views (for the columns).
void check_float_arguments(const Node& tree, std::string_view expression, std::string_view x_type);

}  // namespace clreduce::expr
