#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace clreduce::expr {

enum class TokenKind { identifier, number, punctuator, end };

// One token: a view into the expression and its 1-based column. The list ends with one
// `end` token whose column is one past the last character.
struct Token {
    TokenKind kind;
    std::string_view text;
    std::size_t column;
};

// Splits an expression into identifiers, numeric literals (checked: literal.hpp) and every
// punctuator of C, so that a refused operator is named whole ("'+='", "'->'"). Blanks are
// spaces and tabs; any other character (line breaks, quotes, backslashes, '$', '@', non-ASCII)
// throws SyntaxError.
std::vector<Token> tokenize(std::string_view expression);

// "'=' at column 3", or "end of expression at column 6".
std::string where(const Token& token);

}  // namespace clreduce::expr
