// Whether each node of a transform expression is of floating-point type, as OpenCL C's rules
// give it (x and integer literals in x's type, float literals floating, the usual arithmetic
// conversions, casts and conversions by their type, built-ins by their family), to refuse
// float-only built-ins over integers before the compiler does.
#include "typing.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "builtins.hpp"
#include "literal.hpp"
#include "syntax_error.hpp"

namespace clreduce::expr {
namespace {

constexpr std::string_view kGeneric[] = {"max", "min", "clamp", "select", "bitselect"};
constexpr std::string_view kInteger[] = {"abs",     "clz",      "popcount", "abs_diff", "add_sat",
                                         "hadd",    "mul_hi",   "mul24",    "rhadd",    "rotate",
                                         "sub_sat", "upsample", "mad_hi",   "mad_sat",  "mad24"};
// Float-only built-ins whose value is an integer.
constexpr std::string_view kIntegerValued[] = {"ilogb",          "isfinite",  "isinf",       "isnan",
                                               "isnormal",       "signbit",   "isequal",     "isgreater",
                                               "isgreaterequal", "isless",    "islessequal", "islessgreater",
                                               "isnotequal",     "isordered", "isunordered"};
constexpr std::string_view kLogical[] = {"<", ">", "<=", ">=", "==", "!=", "&&", "||"};

template <std::size_t N>
bool in(const std::string_view (&list)[N], std::string_view name) {
    return std::find(std::begin(list), std::end(list), name) != std::end(list);
}

bool is_floating_type(std::string_view type) { return type == "half" || type == "float" || type == "double"; }

class Typing {
public:
    Typing(std::string_view expression, std::string_view x_type)
        : expression_(expression), x_type_(x_type), x_floating_(is_floating_type(x_type)) {}

    // Whether the node's value is floating; refuses a float-only call over integers below it.
    bool floating(const Node& node) const {
        const auto operand = [&](std::size_t k) { return floating(*node.operands[k]); };
        switch (node.kind) {
            case Node::Kind::variable: return x_floating_;
            case Node::Kind::number: return is_integer_literal(node.text) ? x_floating_ : true;
            case Node::Kind::unary: return node.text == "!" ? (operand(0), false) : operand(0);
            case Node::Kind::binary: {
                const bool left = operand(0), right = operand(1);
                if (in(kLogical, node.text)) return false;
                return left || right;
            }
            case Node::Kind::ternary: {
                operand(0);
                const bool yes = operand(1), no = operand(2);
                return yes || no;
            }
            case Node::Kind::cast: return operand(0), is_floating_type(node.text);
            case Node::Kind::call: return call(node);
        }
        return false;
    }

private:
    bool call(const Node& node) const {
        std::vector<bool> arguments;  // each argument typed once: calls nest
        for (const NodePtr& a : node.operands) arguments.push_back(floating(*a));
        const bool any = std::find(arguments.begin(), arguments.end(), true) != arguments.end();
        const std::string_view name = node.text;
        if (name.substr(0, 8) == "convert_") {
            const std::string_view to = name.substr(8);
            return to.substr(0, 4) == "half" || to.substr(0, 5) == "float" || to.substr(0, 6) == "double";
        }
        if (in(kInteger, name)) return false;
        if (in(kGeneric, name)) {
            if (name == "select" || name == "bitselect") return arguments[0] || arguments[1];
            return any;
        }
        // Every other built-in takes floating-point arguments only.
        if (!any) refuse(node);
        return !in(kIntegerValued, name);
    }

    [[noreturn]] void refuse(const Node& node) const {
        const auto column = static_cast<std::size_t>(node.text.data() - expression_.data()) + 1;
        const std::string name(node.text);
        const std::string fix = name + (node.operands.size() == 1 ? "((double)x)" : "((double)x, ...)");
        throw SyntaxError("function '" + name + "' at column " + std::to_string(column) +
                          " takes floating-point arguments, and these are integers (x is " + std::string(x_type_) +
                          " here): convert one first, as in " + fix + " (or (float)x)");
    }

    std::string_view expression_;
    std::string_view x_type_;
    bool x_floating_;
};

}  // namespace

void check_float_arguments(const Node& tree, std::string_view expression, std::string_view x_type) {
    Typing(expression, x_type).floating(tree);
}

}  // namespace clreduce::expr
