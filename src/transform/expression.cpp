#include "expression.hpp"

#include <cstdio>

#include <clreduce/error.hpp>

#include "lexer.hpp"
#include "parser.hpp"
#include "printer.hpp"
#include "syntax_error.hpp"
#include "typing.hpp"

namespace clreduce {

// (The column still locates a fault past the 200 characters shown.)
std::string quoted_expression(std::string_view expression) {
    constexpr std::size_t kShown = 200;
    std::string out = "'";
    for (char c : expression.substr(0, kShown)) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte >= 0x20 && byte < 0x7f && c != '\\') {
            out += c;
        } else {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
            out += escaped;
        }
    }
    out += expression.size() > kShown ? "...'" : "'";
    return out;
}

std::string transform_source(std::string_view expression) { return transform_source(expression, {}); }

std::string transform_source(std::string_view expression, std::string_view x_type) {
    const std::string what = "transform expression " + quoted_expression(expression) + ": ";
    if (expression.size() > kMaxTransformLength)
        throw InvalidArgument(what + std::to_string(expression.size()) + " characters, more than " +
                              std::to_string(kMaxTransformLength));
    try {
        const auto tokens = expr::tokenize(expression);
        if (tokens.size() == 1) throw expr::SyntaxError("empty (give one expression in x, such as 'x * x')");
        const expr::NodePtr tree = expr::parse(tokens);
        if (!x_type.empty()) expr::check_types(*tree, expression, x_type);
        return expr::print(*tree);
    } catch (const expr::SyntaxError& e) {
        throw InvalidArgument(what + e.what());
    }
}

std::string transform_kernel_text(std::string_view source, std::string_view x_type) {
    try {
        const expr::NodePtr tree = expr::parse(expr::tokenize(source));
        return expr::print_typed(*tree, expr::check_types(*tree, source, x_type));
    } catch (const expr::SyntaxError& e) {
        throw Error("internal: a transform source that does not parse again: " + std::string(e.what()));
    }
}

std::string transform_kernel_helpers(std::string_view kernel_text) {
    // Integer division and remainder (docs/expression-language.md, "Integer division"): 0 for a
    // zero divisor, as numpy gives; MIN / -1 wraps to MIN, and MIN % -1 is 0.
    std::string out;
    for (const char* type : {"int", "uint", "long", "ulong"}) {
        const std::string t = type, div = "clreduce_div_" + t, rem = "clreduce_rem_" + t;
        const bool is_unsigned = t[0] == 'u';
        const std::string u = is_unsigned ? t : "u" + t;
        if (kernel_text.find(div + "(") != std::string_view::npos)
            out += "inline " + t + " " + div + "(" + t + " a, " + t + " b) { return b == 0 ? 0 : " +
                   (is_unsigned ? "" : "b == -1 ? (" + t + ")((" + u + ")0 - (" + u + ")a) : ") + "a / b; }\n";
        if (kernel_text.find(rem + "(") != std::string_view::npos)
            out += "inline " + t + " " + rem + "(" + t + " a, " + t + " b) { return b == 0" +
                   (is_unsigned ? "" : " || b == -1") + " ? 0 : a % b; }\n";
    }
    return out;
}

}  // namespace clreduce
