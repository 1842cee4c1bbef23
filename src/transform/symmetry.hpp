#pragma once
#include <string>

#include "parser.hpp"
#include "typing.hpp"

namespace clreduce::expr {

// A user's combine must be commutative: the kernels combine partial results in an order that is
// not the elements' (a work-item takes every G-th vector, the work-group tree pairs work-item l
// with l + s). Commutativity cannot be decided in general, so the rule is a written one: the
// combine is symmetric when swapping a and b gives the same canonical text, where
//  - the operands of a commutative operator or function are sorted (+ * & | ^ == != && ||,
//    min max fmin fmax maxmag minmag hypot abs_diff add_sat hadd rhadd mul_hi mul24 isequal
//    isnotequal islessgreater isordered isunordered, and the first two arguments of fma mad
//    mad24 mad_hi mad_sat),
//  - a chain of one associative operator or of min, max, fmin or fmax is one operation over all
//    its operands (the combine's associativity is the user's promise): a + a * b + b,
//  - abs or fabs of a difference u - v in a signed or floating type is |v - u|.
// `types` are the tree's node types (typing.hpp). Returns the canonical text of the tree with a
// and b swapped where it differs from the tree's own, else "" (symmetric).
std::string asymmetry(const Node& tree, const NodeTypes& types);

}  // namespace clreduce::expr
