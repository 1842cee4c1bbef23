#include "printer.hpp"

namespace clreduce::expr {

std::string print(const Node& node) {
    const auto& o = node.operands;
    const std::string text(node.text);
    switch (node.kind) {
        case Node::Kind::variable:
        case Node::Kind::number: return text;
        case Node::Kind::unary: return "(" + text + print(*o[0]) + ")";
        case Node::Kind::binary: return "(" + print(*o[0]) + " " + text + " " + print(*o[1]) + ")";
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

}  // namespace clreduce::expr
