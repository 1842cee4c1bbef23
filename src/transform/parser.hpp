#pragma once
#include <memory>
#include <string_view>
#include <vector>

#include "lexer.hpp"

namespace clreduce::expr {

// An expression tree. Leaves are `x` and numbers; every other node is an operator, a cast or
// a call whose operands are its children.
struct Node {
    enum class Kind { variable, number, unary, binary, ternary, cast, call };
    Kind kind;
    std::string_view text;                        // the number, operator ("?" for ?:), type or function name: a view
                                                  // into the expression's text or a static type name
    std::vector<std::unique_ptr<Node>> operands;  // in source order
    int depth = 0;  // operations from here to the deepest leaf, this one included; 0 for leaves
};
using NodePtr = std::unique_ptr<Node>;

// How deep operations (operators, casts, calls, ?:) may nest in the tree: a chain a + b + c is
// ((a + b) + c), two levels. It bounds the recursion of the printer and of the parser's ?:
// branches, and the nesting of the printed text, which compilers limit (clang: 256).
constexpr int kMaxDepth = 64;
// How deep parentheses (around expressions and of calls) may nest in the text, redundant
// ones included; a cast's parentheses nest nothing. It bounds the parser's recursion. The
// printed text of a tree kMaxDepth deep nests at most kMaxDepth parentheses.
constexpr int kMaxParentheses = 64;

// Which expression of the language is parsed: the map, in `x`; a user's combine, in `a` and
// `b` (one value each: a pair or structure is refused with a word on why); a combine's
// identity, with no variable.
enum class Variables { map, combine, none };

// Parses tokens (from tokenize()) as one expression of the transform language
// (docs/expression-language.md) in `variables`; throws SyntaxError naming the first token that
// does not fit. The tree views the tokens' text: the expression must outlive it.
NodePtr parse(const std::vector<Token>& tokens, Variables variables = Variables::map);

}  // namespace clreduce::expr
