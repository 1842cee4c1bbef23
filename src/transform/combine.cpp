#include "combine.hpp"

#include <cmath>
#include <cstdio>

#include <clreduce/error.hpp>

#include "expression.hpp"
#include "lexer.hpp"
#include "literal.hpp"
#include "parser.hpp"
#include "printer.hpp"
#include "symmetry.hpp"
#include "syntax_error.hpp"
#include "typing.hpp"

namespace clreduce {
namespace {

int type_bits(std::string_view type) {
    const std::string_view base = type[0] == 'u' ? type.substr(1) : type;
    return base == "char" ? 8 : base == "short" ? 16 : base == "int" ? 32 : 64;
}
bool floating_type(std::string_view type) { return type == "half" || type == "float" || type == "double"; }

std::string column_of(std::string_view text, std::string_view within) {
    return std::to_string(text.data() - within.data() + 1);
}

// The integer literal `value` (negated where `negative`) in `type`, or a fault.
CombineIdentity integer_identity(std::uint64_t value, bool negative, std::string_view type, const std::string& where) {
    const int bits = type_bits(type);
    const bool is_unsigned = type[0] == 'u';
    const std::uint64_t top = bits == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << bits) - 1;
    const std::uint64_t most = is_unsigned ? top : top >> 1;  // the largest positive value
    const bool fits = negative ? (is_unsigned ? value == 0 : value <= most + 1) : value <= most;
    if (!fits) throw expr::SyntaxError(where + " is outside " + std::string(type) + "'s range");
    CombineIdentity identity;
    identity.bits = negative ? 0 - value : value;
    const std::string t(type);
    if (is_unsigned)
        identity.kernel_text = "((" + t + ")" + std::to_string(value) + "UL)";
    else if (negative && value == most + 1)  // the type's minimum: no literal holds its magnitude
        identity.kernel_text = "((" + t + ")(-" + std::to_string(most) + "L - 1L))";
    else
        identity.kernel_text = "((" + t + ")" + (negative ? "-" : "") + std::to_string(value) + "L)";
    return identity;
}

}  // namespace

std::string combine_source(std::string_view expression, std::string_view x_type) {
    const std::string what = "combine expression " + quoted_expression(expression) + ": ";
    if (expression.size() > kMaxTransformLength)
        throw InvalidArgument(what + std::to_string(expression.size()) + " characters, more than " +
                              std::to_string(kMaxTransformLength));
    try {
        const auto tokens = expr::tokenize(expression);
        if (tokens.size() == 1)
            throw expr::SyntaxError("empty (give one expression in a and b, such as 'a + b' or 'max(a, b)')");
        const expr::NodePtr tree = expr::parse(tokens, expr::Variables::combine);
        expr::NodeTypes types;
        expr::check_types(*tree, expression, x_type, &types, "a and b");
        const std::string swapped = expr::asymmetry(*tree, types);
        if (!swapped.empty())
            throw expr::SyntaxError(
                "not symmetric in a and b (with a and b swapped it reads " + swapped +
                "): the kernels combine partial results in an order that is not the elements', so a combine must "
                "be commutative as written (docs/expression-language.md, \"A combine of one's own\"; "
                "write min(a, b), not a < b ? a : b)");
        return expr::print(*tree);
    } catch (const expr::SyntaxError& e) {
        throw InvalidArgument(what + e.what());
    }
}

CombineIdentity combine_identity(std::string_view identity, std::string_view x_type) {
    const std::string what = "combine identity " + quoted_expression(identity) + ": ";
    const std::string type(x_type);
    if (identity.size() > kMaxTransformLength)
        throw InvalidArgument(what + std::to_string(identity.size()) + " characters, more than " +
                              std::to_string(kMaxTransformLength));
    try {
        const auto tokens = expr::tokenize(identity);
        if (tokens.size() == 1)
            throw expr::SyntaxError("empty (give a literal of the accumulation type, " + type +
                                    " here, such as 0 or -1)");
        const expr::NodePtr tree = expr::parse(tokens, expr::Variables::none);
        // A literal, or + or - before one.
        const expr::Node* literal = tree.get();
        bool negative = false;
        if (literal->kind == expr::Node::Kind::unary && (literal->text == "-" || literal->text == "+")) {
            negative = literal->text == "-";
            literal = literal->operands[0].get();
        }
        if (literal->kind != expr::Node::Kind::number)
            throw expr::SyntaxError("not a literal: '" + std::string(literal->text) + "' at column " +
                                    column_of(literal->text, identity) +
                                    " (an identity is one literal of the accumulation type, " + type +
                                    " here, optionally signed, such as 0, -1 or 1.5)");
        const std::string where = "'" + std::string(negative ? "-" : "") + std::string(literal->text) + "' at column " +
                                  column_of(tree->text, identity);
        if (!floating_type(x_type)) {
            if (!expr::is_integer_literal(literal->text))
                throw expr::SyntaxError(where + " is a floating-point literal, and the accumulation type is " + type +
                                        " here: the identity must be of that type (write an integer)");
            return integer_identity(expr::integer_literal_value(literal->text), negative, x_type, where);
        }
        CombineIdentity out;
        out.floating = true;
        if (expr::is_integer_literal(literal->text)) {
            out.real = static_cast<double>(expr::integer_literal_value(literal->text));
        } else {
            const std::optional<double> value = expr::float_literal_value(literal->text);
            if (!value)
                throw expr::SyntaxError(where + " is a half literal; write the identity as a " + type + " literal");
            out.real = *value;
        }
        if (negative) out.real = -out.real;
        if (x_type == "float") {
            if (std::isinf(static_cast<float>(out.real))) throw expr::SyntaxError(where + " is outside float's range");
            out.real = static_cast<double>(static_cast<float>(out.real));
        }
        char text[64];
        std::snprintf(text, sizeof text, "%a%s", out.real, x_type == "float" ? "f" : "");
        out.kernel_text = "((" + type + ")" + text + ")";
        return out;
    } catch (const expr::SyntaxError& e) {
        throw InvalidArgument(what + e.what());
    }
}

std::string combine_kernel_text(std::string_view source, std::string_view x_type) {
    try {
        const expr::NodePtr tree = expr::parse(expr::tokenize(source), expr::Variables::combine);
        return expr::print_typed(*tree, expr::check_types(*tree, source, x_type, nullptr, "a and b"));
    } catch (const expr::SyntaxError& e) {
        throw Error("internal: a combine source that does not parse again: " + std::string(e.what()));
    }
}

}  // namespace clreduce
