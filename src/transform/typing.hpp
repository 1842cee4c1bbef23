#pragma once
#include <string_view>
#include <unordered_map>

#include "parser.hpp"

namespace clreduce::expr {

// The integer divisions and remainders ('/' and '%' nodes whose operands convert to an integer
// type) that the kernel guards (printer.hpp's print_typed): each with the type its operands
// convert to, int, uint, long or ulong. Those whose divisor is a constant the operation is
// defined for (not 0, nor -1 in a signed type) are left out.
using GuardedDivisions = std::unordered_map<const Node*, std::string_view>;

// Types the tree as OpenCL C does, where `x` is of OpenCL type `x_type` ("long", "double", ...)
// and every integer literal takes that type (printer.hpp), and refuses (SyntaxError) what the
// types make wrong, at its column in `expression` (the text the tree views):
//  - a call of a built-in that takes only floating-point arguments (the math functions,
//    native_*, degrees, radians, sign, step, mix, smoothstep, the relational is* and signbit)
//    whose arguments are all of integer type: the OpenCL compiler finds no overload for them
//    (exp(x) of long x), so the fault is named here with the conversion that fixes it;
//  - an integer division or remainder whose divisor is a constant 0 ("x / 0", "x % (2 - 2)",
//    "x / (char)256"): undefined in OpenCL C. The divisor is folded as the compiler folds it
//    where it is made of literals, operators and casts (a call is not folded; its value is
//    guarded at run time like x's).
// Returns the divisions the kernel guards; where `types` is given, every node's type there.
// `variables` names the variables in messages: "x" (the map), "a and b" (a user's combine),
// both of x_type.
using NodeTypes = std::unordered_map<const Node*, std::string_view>;
GuardedDivisions check_types(const Node& tree, std::string_view expression, std::string_view x_type,
                             NodeTypes* types = nullptr, std::string_view variables = "x");

}  // namespace clreduce::expr
