#pragma once
#include <string>

#include "parser.hpp"

namespace clreduce::expr {

// OpenCL C text of a tree, every operator, cast and conditional in its own parentheses:
// "x + 2 * 3" prints as "(x + (2 * 3))", "(int)x" as "((int)x)". Parsing the printed text
// gives the same tree.
std::string print(const Node& node);

}  // namespace clreduce::expr
