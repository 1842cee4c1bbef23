#include "printer.hpp"

namespace clreduce::expr {

std::string print(const Node& node) {
    const auto& o = node.operands;
    switch (node.kind) {
        case Node::Kind::variable:
        case Node::Kind::number: return node.text;
        case Node::Kind::unary: return "(" + node.text + print(o[0]) + ")";
        case Node::Kind::binary: return "(" + print(o[0]) + " " + node.text + " " + print(o[1]) + ")";
        case Node::Kind::ternary: return "(" + print(o[0]) + " ? " + print(o[1]) + " : " + print(o[2]) + ")";
        case Node::Kind::cast: return "((" + node.text + ")" + print(o[0]) + ")";
        case Node::Kind::call: {
            std::string text = node.text + "(";
            for (std::size_t i = 0; i < o.size(); ++i) text += (i == 0 ? "" : ", ") + print(o[i]);
            return text + ")";
        }
    }
    return {};
}

}  // namespace clreduce::expr
