#include "parser.hpp"

#include <algorithm>
#include <array>

#include "builtins.hpp"
#include "syntax_error.hpp"

namespace clreduce::expr {
namespace {

using Kind = Node::Kind;

// Binary operators from the loosest to the tightest binding, as in C; all left-associative.
const std::array<std::vector<std::string_view>, 10> kLevels = {{
    {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<", "<=", ">", ">="}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"},
}};

class Parser {
public:
    explicit Parser(const std::vector<Token>& tokens) : tokens_(tokens) {}

    Node whole() {
        Node tree = conditional();
        if (peek().kind != TokenKind::end) unexpected(peek());
        return tree;
    }

private:
    // One level of textual nesting, refused past kMaxNesting before the parser recurses further.
    class Nest {
    public:
        Nest(Parser& parser, const Token& at) : parser_(parser) {
            if (++parser_.nesting_ > kMaxNesting) too_nested(at);
        }
        ~Nest() { --parser_.nesting_; }
        Nest(const Nest&) = delete;
        Nest& operator=(const Nest&) = delete;

    private:
        Parser& parser_;
    };

    [[noreturn]] static void unexpected(const Token& t) { throw SyntaxError("unexpected " + where(t)); }
    [[noreturn]] static void too_deep(const Token& t) {
        throw SyntaxError("more than " + std::to_string(kMaxDepth) + " operations nested at " + where(t));
    }
    [[noreturn]] static void too_nested(const Token& t) {
        throw SyntaxError("more than " + std::to_string(kMaxNesting) + " parentheses, prefix operators and ?: nested at " +
                          where(t));
    }

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
        if (!at(punctuator)) unexpected(peek());
        ++pos_;
    }
    bool starts_type(std::size_t ahead) const {
        const Token& t = peek(ahead);
        return t.kind == TokenKind::identifier && (is_scalar_type(t.text) || t.text == "unsigned");
    }

    static Node make(Kind kind, const Token& at, std::vector<Node> operands) {
        Node node{kind, std::string(at.text), std::move(operands)};
        for (const Node& o : node.operands) node.depth = std::max(node.depth, o.depth);
        if (++node.depth > kMaxDepth) too_deep(at);
        return node;
    }

    // condition ? a : b, right-associative; the branches are whole conditionals.
    Node conditional() {
        Node condition = binary(0);
        if (!at("?")) return condition;
        const Token& question = take();
        const Nest nest(*this, question);
        Node yes = conditional();
        expect(":");
        Node no = conditional();
        return make(Kind::ternary, question, {std::move(condition), std::move(yes), std::move(no)});
    }

    // The binary operator at the next token: its level in kLevels, or kLevels.size() for none.
    std::size_t level_of_next() const {
        if (peek().kind != TokenKind::punctuator) return kLevels.size();
        for (std::size_t level = 0; level < kLevels.size(); ++level)
            if (std::find(kLevels[level].begin(), kLevels[level].end(), peek().text) != kLevels[level].end())
                return level;
        return kLevels.size();
    }

    // Precedence climbing: operators of level >= lowest, left-associative. It recurses only
    // where the next operator binds tighter, so at most kLevels.size() frames deep.
    Node binary(std::size_t lowest) {
        Node left = unary();
        for (std::size_t level = level_of_next(); level < kLevels.size() && level >= lowest; level = level_of_next()) {
            const Token& op = take();
            Node right = binary(level + 1);
            left = make(Kind::binary, op, {std::move(left), std::move(right)});
        }
        return left;
    }

    // Unary + - ! ~ and casts, applied to a unary expression (C's cast-expression).
    Node unary() {
        const Token& t = peek();
        if (at("+") || at("-") || at("!") || at("~")) {
            take();
            const Nest nest(*this, t);
            return make(Kind::unary, t, {unary()});
        }
        if (at("(") && starts_type(1)) {
            take();
            const Nest nest(*this, t);
            Token type = take();
            std::string name(type.text);
            if (name == "unsigned") {
                const Token& base = take();
                name = unsigned_type(base.kind == TokenKind::identifier ? base.text : "");
                if (name.empty()) unexpected(base);
            }
            expect(")");
            Node cast = make(Kind::cast, type, {unary()});
            cast.text = name;
            return cast;
        }
        return primary();
    }

    Node primary() {
        const Token& t = take();
        if (t.kind == TokenKind::number) return Node{Kind::number, std::string(t.text), {}};
        if (t.kind == TokenKind::identifier) {
            if (t.text == "x") return Node{Kind::variable, "x", {}};
            if (const auto arity = builtin_arity(t.text)) return call(t, *arity);
            if (is_scalar_type(t.text) || t.text == "unsigned") unexpected(t);
            throw SyntaxError("unknown identifier " + where(t) +
                              " (allowed: x, casts to scalar types and the built-in functions listed in "
                              "docs/expression-language.md)");
        }
        if (t.kind == TokenKind::punctuator && t.text == "(") {
            const Nest nest(*this, t);
            Node inner = conditional();
            expect(")");
            return inner;
        }
        unexpected(t);
    }

    Node call(const Token& name, int arity) {
        const Nest nest(*this, name);
        if (!at("("))
            throw SyntaxError("function " + where(name) + " without its arguments in ( ): found " + where(peek()));
        take();
        std::vector<Node> arguments;
        if (!at(")")) {
            arguments.push_back(conditional());
            while (at(",")) {
                take();
                arguments.push_back(conditional());
            }
        }
        expect(")");
        if (static_cast<int>(arguments.size()) != arity)
            throw SyntaxError("function " + where(name) + " takes " + std::to_string(arity) + " argument" +
                              (arity == 1 ? "" : "s") + ", given " + std::to_string(arguments.size()));
        return make(Kind::call, name, std::move(arguments));
    }

    const std::vector<Token>& tokens_;
    std::size_t pos_ = 0;
    int nesting_ = 0;
};

}  // namespace

Node parse(const std::vector<Token>& tokens) { return Parser(tokens).whole(); }

}  // namespace clreduce::expr
