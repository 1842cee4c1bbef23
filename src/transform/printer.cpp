#include "printer.hpp"

#include "literal.hpp"

namespace clreduce::expr {

namespace {

std::string print_node(const Node& node, bool typed, const GuardedDivisions& guarded) {
    const auto print = [typed, &guarded](const Node& operand) { return print_node(operand, typed, guarded); };
    const auto& o = node.operands;
    const std::string text(node.text);
    switch (node.kind) {
        case Node::Kind::variable: return text;
        case Node::Kind::number:
            if (!typed) return text;
            return is_integer_literal(text) ? "((CLREDUCE_X)" + text + ")" : "CLREDUCE_WEAK_FLOAT(" + text + ")";
        case Node::Kind::unary: return "(" + text + print(*o[0]) + ")";
        case Node::Kind::binary:
            if (typed) {
                const auto division = guarded.find(&node);
                if (division != guarded.end())
                    return std::string(text == "/" ? "clreduce_div_" : "clreduce_rem_") +
                           std::string(division->second) + "(" + print(*o[0]) + ", " + print(*o[1]) + ")";
            }
            return "(" + print(*o[0]) + " " + text + " " + print(*o[1]) + ")";
        case Node::Kind::ternary: return "(" + print(*o[0]) + " ? " + print(*o[1]) + " : " + print(*o[2]) + ")";
        case Node::Kind::cast: return "((" + text + ")" + print(*o[0]) + ")";
        case Node::Kind::call: {
            std::string out = text + "(";
            for (std::size_t i = 0; i < o.size(); ++i) out += (i == 0 ? "" : ", ") + print(*o[i]);
            return out + ")";
        }
    }
    return {};
}

}  // namespace

std::string print(const Node& node) { return print_node(node, false, {}); }
std::string print_typed(const Node& node, const GuardedDivisions& guarded) { return print_node(node, true, guarded); }

}  // namespace clreduce::expr
