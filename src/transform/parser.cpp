#include "parser.hpp"

#include <algorithm>
#include <array>
#include <string>

#include "builtins.hpp"
#include "syntax_error.hpp"

namespace clreduce::expr {
namespace {

using Kind = Node::Kind;

// Binary operators from the loosest to the tightest binding, as in C; all left-associative.
const std::array<std::vector<std::string_view>, 10> kLevels = {{
    {"||"},
    {"&&"},
    {"|"},
    {"^"},
    {"&"},
    {"==", "!="},
    {"<", "<=", ">", ">="},
    {"<<", ">>"},
    {"+", "-"},
    {"*", "/", "%"},
}};

[[noreturn]] void unexpected(const Token& t) { throw SyntaxError("unexpected " + where(t)); }
// In a combine, the tokens that would build a state of several values (a pair, a member, an
// array) get the rule with the fault.
[[noreturn]] void unexpected(const Token& t, Variables variables) {
    const bool state = t.kind == TokenKind::punctuator &&
                       (t.text == "," || t.text == "." || t.text == "->" || t.text == "[" || t.text == "{");
    if (variables != Variables::combine || !state) unexpected(t);
    throw SyntaxError("unexpected " + where(t) +
                      ": a combine's state is one value of the accumulation type (a, b and the result), not a pair, "
                      "structure or array such as a maximum with its count");
}
[[noreturn]] void too_deep(const Token& t) {
    throw SyntaxError("more than " + std::to_string(kMaxDepth) + " operations nested at " + where(t));
}
[[noreturn]] void too_many_parentheses(const Token& t) {
    throw SyntaxError("more than " + std::to_string(kMaxParentheses) + " parentheses nested at " + where(t));
}
[[noreturn]] void unknown_identifier(const Token& t, Variables variables) {
    if (variables == Variables::none)  // (combine.cpp names the type)
        throw SyntaxError("unknown identifier " + where(t) +
                          ": an identity is one literal, optionally signed (no name; no literal is an infinity or "
                          "NaN)");
    std::string why;
    if (variables == Variables::combine && t.text == "x")
        why = ": x is the element in the map expression; a combine takes two partial results, a and b";
    if (variables == Variables::map && (t.text == "a" || t.text == "b"))
        why = ": a and b are a combine's operands; the map expression takes the element, x";
    throw SyntaxError("unknown identifier " + where(t) + why +
                      " (allowed: " + (variables == Variables::map ? "x" : "a, b") +
                      ", casts to scalar types and the built-in functions listed in docs/expression-language.md)");
}
[[noreturn]] void without_arguments(const Token& name, const Token& found) {
    throw SyntaxError("function " + where(name) + " without its arguments in ( ): found " + where(found));
}
[[noreturn]] void wrong_arity(const Token& name, int arity, std::size_t given) {
    throw SyntaxError("function " + where(name) + " takes " + std::to_string(arity) + " argument" +
                      (arity == 1 ? "" : "s") + ", given " + std::to_string(given));
}

// A node over operands (moved in), refused past kMaxDepth.
NodePtr join(Kind kind, const Token& at, std::vector<NodePtr> operands) {
    auto node = std::make_unique<Node>(Node{kind, at.text, std::move(operands)});
    for (const NodePtr& o : node->operands) node->depth = std::max(node->depth, o->depth);
    if (++node->depth > kMaxDepth) too_deep(at);
    return node;
}
template <class... Operands>
NodePtr make(Kind kind, const Token& at, Operands... operands) {
    std::vector<NodePtr> list;
    list.reserve(sizeof...(operands));
    (list.push_back(std::move(operands)), ...);
    return join(kind, at, std::move(list));
}

// One more level of a count, refused past its limit before the parser recurses further.
class Nest {
public:
    Nest(int& count, int limit, const Token& at, void (*refuse)(const Token&)) : count_(count) {
        if (++count_ > limit) refuse(at);
    }
    ~Nest() { --count_; }
    Nest(const Nest&) = delete;
    Nest& operator=(const Nest&) = delete;

private:
    int& count_;
};

// Recursive descent over C's expression grammar, cut down to the language. It recurses only
// into parentheses (kMaxParentheses deep) and ?: branches (kMaxDepth deep); binary operators
// and prefixes are read in loops. Functions return nodes on the heap so that its frames stay
// small: the deepest texts need 64-96 KiB of stack (GCC 12, -O2 and -O0; a unit test runs
// them on a 128 KiB thread).
class Parser {
public:
    Parser(const std::vector<Token>& tokens, Variables variables) : tokens_(tokens), variables_(variables) {}

    NodePtr whole() {
        NodePtr tree = conditional();
        if (peek().kind != TokenKind::end) unexpected(peek(), variables_);
        return tree;
    }

private:
    const Token& peek(std::size_t ahead = 0) const { return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)]; }
    const Token& take() {
        const Token& t = peek();
        if (t.kind != TokenKind::end) ++pos_;
        return t;
    }
    bool at(std::string_view punctuator, std::size_t ahead = 0) const {
        return peek(ahead).kind == TokenKind::punctuator && peek(ahead).text == punctuator;
    }
    void expect(std::string_view punctuator) {
        if (!at(punctuator)) unexpected(peek(), variables_);
        ++pos_;
    }
    bool starts_type(std::size_t ahead) const {
        const Token& t = peek(ahead);
        return t.kind == TokenKind::identifier && (is_scalar_type(t.text) || t.text == "unsigned");
    }

    // condition ? a : b, right-associative; the branches are whole conditionals. Each ?: on
    // the way down will be a node above the branch, so more than kMaxDepth of them are refused
    // before recursing further.
    NodePtr conditional() {
        NodePtr condition = binary();
        if (!at("?")) return condition;
        const Token& question = take();
        const Nest nest(ternaries_, kMaxDepth, question, too_deep);
        NodePtr yes = conditional();
        expect(":");
        NodePtr no = conditional();
        return make(Kind::ternary, question, std::move(condition), std::move(yes), std::move(no));
    }

    // The binary operator at the next token: its level in kLevels, or kLevels.size() for none.
    std::size_t level_of_next() const {
        if (peek().kind != TokenKind::punctuator) return kLevels.size();
        for (std::size_t level = 0; level < kLevels.size(); ++level)
            if (std::find(kLevels[level].begin(), kLevels[level].end(), peek().text) != kLevels[level].end())
                return level;
        return kLevels.size();
    }

    // Unary expressions joined by binary operators, grouped by precedence with two explicit
    // stacks (operator precedence parsing), left-associative.
    NodePtr binary() {
        std::vector<NodePtr> operands;
        std::vector<std::pair<const Token*, std::size_t>> operators;  // the token and its level
        const auto reduce = [&operands, &operators] {
            NodePtr right = std::move(operands.back());
            operands.pop_back();
            operands.back() = make(Kind::binary, *operators.back().first, std::move(operands.back()), std::move(right));
            operators.pop_back();
        };
        operands.push_back(unary());
        for (std::size_t level = level_of_next(); level < kLevels.size(); level = level_of_next()) {
            while (!operators.empty() && operators.back().second >= level) reduce();
            operators.emplace_back(&take(), level);
            operands.push_back(unary());
        }
        while (!operators.empty()) reduce();
        return std::move(operands.back());
    }

    // Prefix operators + - ! ~ and casts before a primary (C's cast-expression), applied from
    // the innermost out.
    NodePtr unary() {
        std::vector<std::pair<const Token*, std::string_view>> prefixes;  // the token; the cast's type or ""
        for (;;) {
            if (at("+") || at("-") || at("!") || at("~")) {
                prefixes.emplace_back(&take(), "");
            } else if (at("(") && starts_type(1)) {
                take();
                const Token& type = take();
                std::string_view name = type.text;
                if (name == "unsigned") {
                    const Token& base = take();
                    name = unsigned_type(base.kind == TokenKind::identifier ? base.text : "");
                    if (name.empty()) unexpected(base);
                }
                expect(")");
                prefixes.emplace_back(&type, name);
            } else {
                break;
            }
        }
        NodePtr node = primary();
        for (auto p = prefixes.rbegin(); p != prefixes.rend(); ++p) {
            node = make(p->second.empty() ? Kind::unary : Kind::cast, *p->first, std::move(node));
            if (!p->second.empty()) node->text = p->second;
        }
        return node;
    }

    NodePtr primary() {
        const Token& t = take();
        if (t.kind == TokenKind::number) return std::make_unique<Node>(Node{Kind::number, t.text, {}});
        if (t.kind == TokenKind::identifier) {
            if (is_variable(t.text)) return std::make_unique<Node>(Node{Kind::variable, t.text, {}});
            if (const auto arity = builtin_arity(t.text)) return call(t, *arity);
            if (is_scalar_type(t.text) || t.text == "unsigned") unexpected(t);
            unknown_identifier(t, variables_);
        }
        if (t.kind == TokenKind::punctuator && t.text == "(") {
            const Nest nest(parentheses_, kMaxParentheses, t, too_many_parentheses);
            NodePtr inner = conditional();
            expect(")");
            return inner;
        }
        unexpected(t, variables_);
    }

    bool is_variable(std::string_view name) const {
        switch (variables_) {
            case Variables::map: return name == "x";
            case Variables::combine: return name == "a" || name == "b";
            case Variables::none: break;
        }
        return false;
    }

    NodePtr call(const Token& name, int arity) {
        if (!at("(")) without_arguments(name, peek());
        const Nest nest(parentheses_, kMaxParentheses, take(), too_many_parentheses);
        std::vector<NodePtr> arguments;
        if (!at(")")) {
            arguments.push_back(conditional());
            while (at(",")) {
                take();
                arguments.push_back(conditional());
            }
        }
        expect(")");
        if (arguments.size() != static_cast<std::size_t>(arity)) wrong_arity(name, arity, arguments.size());
        return join(Kind::call, name, std::move(arguments));
    }

    const std::vector<Token>& tokens_;
    Variables variables_;
    std::size_t pos_ = 0;
    int parentheses_ = 0;
    int ternaries_ = 0;
};

}  // namespace

NodePtr parse(const std::vector<Token>& tokens, Variables variables) { return Parser(tokens, variables).whole(); }

}  // namespace clreduce::expr
