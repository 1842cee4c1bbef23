#include "lexer.hpp"

#include <cstdio>

#include "literal.hpp"
#include "syntax_error.hpp"

namespace clreduce::expr {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_word(char c) { return is_letter(c) || is_digit(c); }

// C's punctuators, longest first, plus the comment openers; the parser accepts a few.
constexpr std::string_view kPunctuators[] = {"...", "<<=", ">>=", "->", "++", "--", "<<", ">>", "<=", ">=",
                                             "==",  "!=",  "&&",  "||", "*=", "/=", "%=", "+=", "-=", "&=",
                                             "^=",  "|=",  "##",  "/*", "//", "[",  "]",  "(",  ")",  "{",
                                             "}",   ".",   "&",   "*",  "+",  "-",  "~",  "!",  "/",  "%",
                                             "<",   ">",   "^",   "|",  "?",  ":",  ";",  "=",  ",",  "#"};

std::size_t punctuator_length(std::string_view rest) {
    for (std::string_view p : kPunctuators)
        if (rest.substr(0, p.size()) == p) return p.size();
    return 0;
}

// A preprocessing number as C reads one: a digit (or '.' and a digit), then letters, digits,
// '_', '.', and a sign right after e, E, p or P. "0x1e+1" is one (malformed) number, as in C.
std::size_t number_length(std::string_view rest) {
    std::size_t n = 1;
    while (n < rest.size()) {
        const char c = rest[n];
        const char before = rest[n - 1];
        const bool sign = (c == '+' || c == '-') && (before == 'e' || before == 'E' || before == 'p' || before == 'P');
        if (!is_word(c) && c != '.' && !sign) break;
        ++n;
    }
    return n;
}

[[noreturn]] void bad_character(char c, std::size_t column) {
    const auto byte = static_cast<unsigned char>(c);
    char text[32];
    if (byte >= 0x20 && byte < 0x7f)
        std::snprintf(text, sizeof text, "character '%c'", c);
    else
        std::snprintf(text, sizeof text, "byte 0x%02x", byte);
    throw SyntaxError(std::string("unexpected ") + text + " at column " + std::to_string(column));
}

}  // namespace

std::vector<Token> tokenize(std::string_view expression) {
    std::vector<Token> tokens;
    std::size_t i = 0;
    while (i < expression.size()) {
        const char c = expression[i];
        const std::string_view rest = expression.substr(i);
        if (c == ' ' || c == '\t') {
            ++i;
            continue;
        }
        Token token{TokenKind::punctuator, {}, i + 1};
        std::size_t length = 0;
        if (is_letter(c)) {
            token.kind = TokenKind::identifier;
            while (length < rest.size() && is_word(rest[length])) ++length;
        } else if (is_digit(c) || (c == '.' && rest.size() > 1 && is_digit(rest[1]))) {
            token.kind = TokenKind::number;
            length = number_length(rest);
        } else {
            length = punctuator_length(rest);
            if (length == 0) bad_character(c, i + 1);
        }
        token.text = rest.substr(0, length);
        if (token.kind == TokenKind::number) {
            const std::string fault = literal_fault(token.text);
            if (!fault.empty()) throw SyntaxError("malformed number " + where(token) + " (" + fault + ")");
        }
        tokens.push_back(token);
        i += length;
    }
    tokens.push_back(Token{TokenKind::end, {}, expression.size() + 1});
    return tokens;
}

std::string where(const Token& token) {
    const std::string column = " at column " + std::to_string(token.column);
    if (token.kind == TokenKind::end) return "end of expression" + column;
    return "'" + std::string(token.text) + "'" + column;
}

}  // namespace clreduce::expr
