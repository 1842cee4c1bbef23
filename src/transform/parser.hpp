#pragma once
#include <string>
#include <vector>

#include "lexer.hpp"

namespace clreduce::expr {

// An expression tree. Leaves are `x` and numbers; every other node is an operator, a cast or
// a call whose operands are its children.
struct Node {
    enum class Kind { variable, number, unary, binary, ternary, cast, call };
    Kind kind;
    std::string text;            // the number, operator ("?" for ?:), type or function name
    std::vector<Node> operands;  // in source order
    int depth = 0;               // nodes from here to the deepest leaf, this one included; 0 for leaves
};

// How deep operations (operators, casts, calls, ?:) may nest in the tree: a chain a + b + c is
// ((a + b) + c), two levels. It bounds the printer's recursion and the nesting of the printed
// text, which a compiler limits (clang: 256 brackets).
constexpr int kMaxDepth = 64;
// How deep the text may nest parentheses (of groups, casts and calls), prefix operators and
// ?: branches, redundant parentheses included. It bounds the parser's recursion; the printed
// text of a tree kMaxDepth deep nests at most 2 * kMaxDepth ("((int)...)", "(-...)").
constexpr int kMaxNesting = 2 * kMaxDepth;

// Parses tokens (from tokenize()) as one expression of the transform language
// (docs/expression-language.md); throws SyntaxError naming the first token that does not fit.
Node parse(const std::vector<Token>& tokens);

}  // namespace clreduce::expr
