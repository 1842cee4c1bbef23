#include "expression.hpp"

#include <cstdio>

#include <clreduce/error.hpp>

#include "lexer.hpp"
#include "parser.hpp"
#include "printer.hpp"
#include "syntax_error.hpp"
#include "typing.hpp"

namespace clreduce {
namespace {

// The expression as messages quote it: bytes outside printable ASCII as \xNN, at most 200 of
// them (the column still locates the fault).
std::string quoted(std::string_view expression) {
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

}  // namespace

std::string transform_source(std::string_view expression) { return transform_source(expression, {}); }

std::string transform_source(std::string_view expression, std::string_view x_type) {
    const std::string what = "transform expression " + quoted(expression) + ": ";
    if (expression.size() > kMaxTransformLength)
        throw InvalidArgument(what + std::to_string(expression.size()) + " characters, more than " +
                              std::to_string(kMaxTransformLength));
    try {
        const auto tokens = expr::tokenize(expression);
        if (tokens.size() == 1) throw expr::SyntaxError("empty (give one expression in x, such as 'x * x')");
        const expr::NodePtr tree = expr::parse(tokens);
        if (!x_type.empty()) expr::check_float_arguments(*tree, expression, x_type);
        return expr::print(*tree);
    } catch (const expr::SyntaxError& e) {
        throw InvalidArgument(what + e.what());
    }
}

std::string transform_kernel_text(std::string_view source) {
    try {
        return expr::print_typed(*expr::parse(expr::tokenize(source)));
    } catch (const expr::SyntaxError& e) {
        throw Error("internal: a transform source that does not parse again: " + std::string(e.what()));
    }
}

}  // namespace clreduce
