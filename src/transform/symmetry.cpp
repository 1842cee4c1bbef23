// The written rule of a user's combine's commutativity (symmetry.hpp): canonical texts of the
// tree as it is and with a and b swapped.
#include "symmetry.hpp"

#include <algorithm>
#include <string_view>
#include <vector>

namespace clreduce::expr {
namespace {

constexpr std::string_view kCommutativeOperators[] = {"+", "*", "&", "|", "^", "==", "!=", "&&", "||"};
// Of these, the ones whose chains are one operation: associative as the combine is promised.
constexpr std::string_view kChainOperators[] = {"+", "*", "&", "|", "^", "&&", "||"};
constexpr std::string_view kCommutativeFunctions[] = {"min",       "max",        "fmin",       "fmax",
                                                      "maxmag",    "minmag",     "hypot",      "abs_diff",
                                                      "add_sat",   "hadd",       "rhadd",      "mul_hi",
                                                      "mul24",     "isequal",    "isnotequal", "islessgreater",
                                                      "isordered", "isunordered"};
constexpr std::string_view kChainFunctions[] = {"min", "max", "fmin", "fmax"};
// Functions whose first two arguments commute: fma(a, b, c) == fma(b, a, c).
constexpr std::string_view kProductFunctions[] = {"fma", "mad", "mad24", "mad_hi", "mad_sat"};

template <std::size_t N>
bool in(const std::string_view (&list)[N], std::string_view name) {
    return std::find(std::begin(list), std::end(list), name) != std::end(list);
}

bool signed_or_floating(std::string_view type) { return type[0] != 'u'; }

class Canonical {
public:
    Canonical(const NodeTypes& types, bool swapped) : types_(types), swapped_(swapped) {}

    std::string text(const Node& node) const {
        const auto& o = node.operands;
        std::string name(node.text);
        switch (node.kind) {
            case Node::Kind::variable:
                if (swapped_ && (name == "a" || name == "b")) return name == "a" ? "b" : "a";
                return name;
            case Node::Kind::number: return name;
            case Node::Kind::unary: return "(" + name + text(*o[0]) + ")";
            case Node::Kind::cast: return "((" + name + ")" + text(*o[0]) + ")";
            case Node::Kind::ternary: return "(" + text(*o[0]) + " ? " + text(*o[1]) + " : " + text(*o[2]) + ")";
            case Node::Kind::binary: {
                if (!in(kCommutativeOperators, node.text))
                    return "(" + text(*o[0]) + " " + name + " " + text(*o[1]) + ")";
                std::vector<std::string> parts;
                chain(node, in(kChainOperators, node.text), parts);
                return joined("(", parts, " " + name + " ", ")");
            }
            case Node::Kind::call: {
                std::vector<std::string> parts;
                if ((name == "abs" || name == "fabs") && difference(*o[0])) {
                    // |u - v| == |v - u| where the difference is signed or floating.
                    std::vector<std::string> sides{text(*o[0]->operands[0]), text(*o[0]->operands[1])};
                    std::sort(sides.begin(), sides.end());
                    return name + "(" + sides[0] + " - " + sides[1] + ")";
                }
                if (in(kCommutativeFunctions, node.text)) {
                    chain(node, in(kChainFunctions, node.text), parts);
                    return joined(name + "(", parts, ", ", ")");
                }
                for (const NodePtr& operand : o) parts.push_back(text(*operand));
                if (in(kProductFunctions, node.text)) std::sort(parts.begin(), parts.begin() + 2);
                std::string out = name + "(";
                for (std::size_t i = 0; i < parts.size(); ++i) out += (i == 0 ? "" : ", ") + parts[i];
                return out + ")";
            }
        }
        return {};
    }

private:
    bool difference(const Node& node) const {
        if (node.kind != Node::Kind::binary || node.text != "-") return false;
        const auto type = types_.find(&node);
        return type != types_.end() && signed_or_floating(type->second);
    }

    // The node's operands' texts, a chain of the same operator or function followed through
    // where `follow`.
    void chain(const Node& node, bool follow, std::vector<std::string>& parts) const {
        for (const NodePtr& operand : node.operands) {
            if (follow && operand->kind == node.kind && operand->text == node.text &&
                operand->operands.size() == node.operands.size())
                chain(*operand, follow, parts);
            else
                parts.push_back(text(*operand));
        }
    }

    static std::string joined(const std::string& open, std::vector<std::string> parts, const std::string& between,
                              const std::string& close) {
        std::sort(parts.begin(), parts.end());
        std::string out = open;
        for (std::size_t i = 0; i < parts.size(); ++i) out += (i == 0 ? "" : between) + parts[i];
        return out + close;
    }

    const NodeTypes& types_;
    bool swapped_;
};

}  // namespace

std::string asymmetry(const Node& tree, const NodeTypes& types) {
    const std::string as_is = Canonical(types, false).text(tree);
    const std::string swapped = Canonical(types, true).text(tree);
    return as_is == swapped ? std::string() : swapped;
}

}  // namespace clreduce::expr
