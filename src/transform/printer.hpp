#pragma once
#include <string>

#include "parser.hpp"
#include "typing.hpp"

namespace clreduce::expr {

// OpenCL C text of a tree, every operator, cast and conditional in its own parentheses:
// "x + 2 * 3" prints as "(x + (2 * 3))", "(int)x" as "((int)x)". Parsing the printed text
// gives the same tree.
std::string print(const Node& node);

// The kernel's text of a tree: print()'s, with every integer literal cast to CLREDUCE_X, the
// type x is converted to, and every float literal wrapped in CLREDUCE_WEAK_FLOAT (the same
// cast where that type is floating; the literal as written where it is an integer, so that
// "x * 2.5f" of integer data keeps its fraction). Literals are weak, like numpy's Python
// numbers: they take x's type, so that "clamp(x, -100, 100)" and "fma(x, 2.0f, 0.25f)"
// resolve whatever that type is.
// Each integer division or remainder of `guarded` (typing.hpp) is printed as a call of
// clreduce_div_<type> or clreduce_rem_<type> (expression.hpp's transform_kernel_helpers), its
// operands converted to <type> by the call: "x / x" of long x is "clreduce_div_long(x, x)".
std::string print_typed(const Node& node, const GuardedDivisions& guarded = {});

}  // namespace clreduce::expr
