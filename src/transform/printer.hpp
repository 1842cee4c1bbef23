#pragma once
#include <string>

#include "parser.hpp"

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
std::string print_typed(const Node& node);

}  // namespace clreduce::expr
