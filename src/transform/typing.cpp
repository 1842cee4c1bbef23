// The OpenCL C type of each node of a transform expression, as the compiler gives it (x and
// integer literals in x's type, float literals in x's type where it is floating and in their
// own otherwise, the integer promotions and the usual arithmetic conversions, comparisons int,
// casts and conversions by their type, built-ins by their family), to refuse float-only
// built-ins over integers and integer divisions by a constant 0 before the compiler sees them,
// and to name the type each guarded integer division computes in.
#include "typing.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
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
// Float-only built-ins whose value is an integer (int).
constexpr std::string_view kIntegerValued[] = {"ilogb",          "isfinite",  "isinf",       "isnan",
                                               "isnormal",       "signbit",   "isequal",     "isgreater",
                                               "isgreaterequal", "isless",    "islessequal", "islessgreater",
                                               "isnotequal",     "isordered", "isunordered"};
constexpr std::string_view kLogical[] = {"<", ">", "<=", ">=", "==", "!=", "&&", "||"};
// Every type a node can have, by its OpenCL name.
constexpr std::string_view kTypes[] = {"char", "uchar", "short", "ushort", "int",   "uint",
                                       "long", "ulong", "half",  "float",  "double"};

template <std::size_t N>
bool in(const std::string_view (&list)[N], std::string_view name) {
    return std::find(std::begin(list), std::end(list), name) != std::end(list);
}

// The name as one of kTypes (a view that outlives the tree).
std::string_view canonical(std::string_view type) {
    for (std::string_view t : kTypes)
        if (t == type) return t;
    return "int";  // unreachable: the parser takes scalar types only
}

bool is_floating_type(std::string_view type) { return type == "half" || type == "float" || type == "double"; }
bool is_unsigned(std::string_view type) { return type[0] == 'u'; }
int bits_of(std::string_view type) {
    const std::string_view base = is_unsigned(type) ? type.substr(1) : type;
    return base == "char" ? 8 : base == "short" ? 16 : base == "int" ? 32 : 64;
}
// (A floating type stays itself: abs and abs_diff take integers, and the compiler refuses them
// over floats; typed as their argument, the call does not look like an integer to its caller.)
std::string_view unsigned_of(std::string_view type) {
    return is_floating_type(type) || is_unsigned(type) ? type : unsigned_type(type);
}

// The integer promotions: char and short types become int.
std::string_view promoted(std::string_view type) {
    return !is_floating_type(type) && bits_of(type) < 32 ? "int" : type;
}

// The usual arithmetic conversions of two operands.
std::string_view common(std::string_view a, std::string_view b) {
    for (std::string_view f : {"double", "float", "half"})
        if (a == f || b == f) return canonical(f);
    a = promoted(a);
    b = promoted(b);
    if (a == b) return a;
    if (is_unsigned(a) == is_unsigned(b)) return bits_of(a) >= bits_of(b) ? a : b;
    const std::string_view u = is_unsigned(a) ? a : b, s = is_unsigned(a) ? b : a;
    return bits_of(u) >= bits_of(s) ? u : s;  // (uint, long): long holds every uint
}

// The type of a gentype built-in's arguments: theirs where they agree (no promotion: clz of a
// char is a char); where they do not, the compiler refuses the call as ambiguous, and the usual
// arithmetic conversions stand in.
std::string_view same(const std::vector<std::string_view>& types) {
    std::string_view t = types.front();
    bool agree = true;
    for (std::string_view u : types) agree = agree && u == t;
    if (agree) return t;
    for (std::string_view u : types) t = common(t, u);
    return t;
}

// upsample(hi, lo): the integer of twice hi's width.
std::string_view wider(std::string_view type) {
    const bool u = is_unsigned(type);
    switch (bits_of(type)) {
        case 8: return u ? "ushort" : "short";
        case 16: return u ? "uint" : "int";
        default: return u ? "ulong" : "long";
    }
}

// convert_<type>[_sat][_rt?]: <type>.
std::string_view converted_to(std::string_view name) {
    name.remove_prefix(8);
    return canonical(name.substr(0, name.find('_')));
}

// A constant of the tree: an integer of `type` (its bits, sign-extended for signed types) or a
// floating value.
struct Constant {
    std::string_view type;
    std::uint64_t bits = 0;
    double real = 0;
};

std::uint64_t normalized(std::string_view type, std::uint64_t bits) {
    const int n = bits_of(type);
    if (n == 64) return bits;
    const std::uint64_t mask = (std::uint64_t(1) << n) - 1;
    bits &= mask;
    if (!is_unsigned(type) && (bits >> (n - 1)) != 0) bits |= ~mask;
    return bits;
}
std::int64_t signed_value(std::uint64_t bits) { return static_cast<std::int64_t>(bits); }

// The constant converted to `type`, as a cast or an implicit conversion does it; nothing where
// the conversion is undefined (a floating value outside the integer type) or not folded (half).
std::optional<Constant> converted(const Constant& c, std::string_view type) {
    if (type == "half" || c.type == "half") return std::nullopt;
    if (is_floating_type(type)) {
        double v = c.real;
        if (!is_floating_type(c.type))
            v = is_unsigned(c.type) ? static_cast<double>(c.bits) : static_cast<double>(signed_value(c.bits));
        if (type == "float") v = static_cast<double>(static_cast<float>(v));
        return Constant{type, 0, v};
    }
    if (!is_floating_type(c.type)) return Constant{type, normalized(type, c.bits)};
    // Floating to integer: truncated toward zero, defined only where the result fits.
    const double t = c.real < 0 ? -std::floor(-c.real) : std::floor(c.real);
    if (!(t == t)) return std::nullopt;  // NaN
    const int n = bits_of(type);
    const double lo = is_unsigned(type) ? 0.0 : -std::ldexp(1.0, n - 1);
    const double hi = is_unsigned(type) ? std::ldexp(1.0, n) : std::ldexp(1.0, n - 1);
    if (!(t >= lo && t < hi)) return std::nullopt;
    const std::uint64_t bits =
        t < 0 ? static_cast<std::uint64_t>(static_cast<std::int64_t>(t)) : static_cast<std::uint64_t>(t);
    return Constant{type, normalized(type, bits)};
}

bool is_zero(const Constant& c) { return is_floating_type(c.type) ? c.real == 0 : c.bits == 0; }

class Typing {
public:
    Typing(std::string_view expression, std::string_view x_type, std::string_view variables)
        : expression_(expression),
          x_type_(canonical(x_type)),
          x_floating_(is_floating_type(x_type_)),
          variables_(variables) {}

    // The node's type, every node below it typed first; refuses a float-only call over
    // integers and an integer division by a constant 0 below it.
    std::string_view type(const Node& node) {
        std::vector<std::string_view> operands;
        for (const NodePtr& o : node.operands) operands.push_back(type(*o));
        std::string_view t;
        switch (node.kind) {
            case Node::Kind::variable: t = x_type_; break;
            case Node::Kind::number:
                t = is_integer_literal(node.text) || x_floating_         ? x_type_
                    : node.text.back() == 'f' || node.text.back() == 'F' ? "float"
                    : node.text.back() == 'h' || node.text.back() == 'H' ? "half"
                                                                         : "double";
                break;
            case Node::Kind::unary: t = node.text == "!" ? "int" : promoted(operands[0]); break;
            case Node::Kind::binary:
                t = in(kLogical, node.text)                  ? "int"
                    : node.text == "<<" || node.text == ">>" ? promoted(operands[0])
                                                             : common(operands[0], operands[1]);
                if ((node.text == "/" || node.text == "%") && !is_floating_type(t)) division(node, t);
                break;
            case Node::Kind::ternary: t = common(operands[1], operands[2]); break;
            case Node::Kind::cast: t = canonical(node.text); break;
            case Node::Kind::call: t = call(node, operands); break;
        }
        types_[&node] = t;
        return t;
    }

    GuardedDivisions guarded() && { return std::move(guarded_); }
    NodeTypes types() const { return types_; }

private:
    std::string_view call(const Node& node, const std::vector<std::string_view>& arguments) const {
        const std::string_view name = node.text;
        if (name.substr(0, 8) == "convert_") return converted_to(name);
        if (name == "abs") return unsigned_of(arguments[0]);
        if (name == "abs_diff") return unsigned_of(same(arguments));
        if (name == "upsample") return wider(arguments[0]);
        if (in(kInteger, name)) return same(arguments);
        if (name == "select") return same({arguments[0], arguments[1]});
        if (in(kGeneric, name)) return same(arguments);
        // Every other built-in takes floating-point arguments only.
        std::vector<std::string_view> floating;
        for (std::string_view a : arguments)
            if (is_floating_type(a)) floating.push_back(a);
        if (floating.empty()) refuse_call(node);
        return in(kIntegerValued, name) ? "int" : same(floating);
    }

    // An integer division or remainder computing in `type`: refused where its divisor is a
    // constant 0, guarded where it is not a constant it is defined for.
    void division(const Node& node, std::string_view type) {
        const std::optional<Constant> folded = constant(*node.operands[1]);
        const std::optional<Constant> divisor = folded ? converted(*folded, type) : std::nullopt;
        if (divisor && is_zero(*divisor)) refuse_division(node, type);
        const bool minus_one = divisor && !is_unsigned(type) && signed_value(divisor->bits) == -1;
        if (!divisor || minus_one) guarded_[&node] = type;
    }

    // The node's value where it is made of literals, operators and casts (typed already).
    std::optional<Constant> constant(const Node& node) const {
        const std::string_view t = types_.at(&node);
        const auto operand = [&](std::size_t k) { return constant(*node.operands[k]); };
        switch (node.kind) {
            case Node::Kind::variable:
            case Node::Kind::call: return std::nullopt;
            case Node::Kind::number: {
                if (!is_integer_literal(node.text)) {
                    const std::optional<double> v = float_literal_value(node.text);
                    if (!v) return std::nullopt;
                    return converted(Constant{node.text.back() == 'f' || node.text.back() == 'F' ? "float" : "double",
                                              0, *v},
                                     t);
                }
                // An integer literal of x's type: the literal's value converted (the kernel casts it).
                return converted(Constant{"ulong", integer_literal_value(node.text)}, t);
            }
            case Node::Kind::cast: {
                const std::optional<Constant> c = operand(0);
                return c ? converted(*c, t) : std::nullopt;
            }
            case Node::Kind::unary: {
                const std::optional<Constant> c = operand(0);
                if (!c) return std::nullopt;
                if (node.text == "!") return Constant{"int", is_zero(*c) ? 1u : 0u};
                const std::optional<Constant> v = converted(*c, t);
                if (!v || node.text == "+") return v;
                if (is_floating_type(t))
                    return node.text == "-" ? std::optional<Constant>(Constant{t, 0, -v->real}) : std::nullopt;
                if (node.text == "~") return Constant{t, normalized(t, ~v->bits)};
                if (!is_unsigned(t) && v->bits == normalized(t, std::uint64_t(1) << (bits_of(t) - 1)))
                    return std::nullopt;  // -MIN overflows
                return Constant{t, normalized(t, 0 - v->bits)};
            }
            case Node::Kind::ternary: {
                const std::optional<Constant> c = operand(0);
                if (!c) return std::nullopt;
                const std::optional<Constant> chosen = operand(is_zero(*c) ? 2 : 1);
                return chosen ? converted(*chosen, t) : std::nullopt;
            }
            case Node::Kind::binary: return binary(node, t);
        }
        return std::nullopt;
    }

    std::optional<Constant> binary(const Node& node, std::string_view t) const {
        const std::optional<Constant> l = constant(*node.operands[0]), r = constant(*node.operands[1]);
        if (!l || !r) return std::nullopt;
        const std::string_view op = node.text;
        if (op == "&&" || op == "||") {
            const bool a = !is_zero(*l), b = !is_zero(*r);
            return Constant{"int", (op == "&&" ? a && b : a || b) ? 1u : 0u};
        }
        // Comparisons in the operands' common type; other operators in the result's.
        const std::string_view in_type = in(kLogical, op)           ? common(l->type, r->type)
                                         : op == "<<" || op == ">>" ? promoted(l->type)
                                                                    : t;
        if (is_floating_type(in_type)) return std::nullopt;  // floating arithmetic is not folded
        const std::optional<Constant> a = converted(*l, in_type);
        const std::optional<Constant> b =
            op == "<<" || op == ">>" ? converted(*r, promoted(r->type)) : converted(*r, in_type);
        if (!a || !b) return std::nullopt;
        const bool u = is_unsigned(in_type);
        const std::uint64_t x = a->bits, y = b->bits;
        const auto less = [&](std::uint64_t p, std::uint64_t q) {
            return u ? p < q : signed_value(p) < signed_value(q);
        };
        const auto truth = [](bool v) { return Constant{"int", v ? 1u : 0u}; };
        if (op == "==") return truth(x == y);
        if (op == "!=") return truth(x != y);
        if (op == "<") return truth(less(x, y));
        if (op == ">") return truth(less(y, x));
        if (op == "<=") return truth(!less(y, x));
        if (op == ">=") return truth(!less(x, y));
        const int n = bits_of(in_type);
        if (op == "<<" || op == ">>") {
            // OpenCL C shifts by the count's low log2(bits) bits.
            const int count = static_cast<int>(y & static_cast<std::uint64_t>(n - 1));
            if (op == "<<") return Constant{in_type, normalized(in_type, x << count)};
            return Constant{in_type, u ? x >> count : static_cast<std::uint64_t>(signed_value(x) >> count)};
        }
        if (op == "&") return Constant{in_type, x & y};
        if (op == "|") return Constant{in_type, x | y};
        if (op == "^") return Constant{in_type, x ^ y};
        if (op == "/" || op == "%") {
            if (y == 0) return std::nullopt;  // refused as the division it is
            if (u) return Constant{in_type, op == "/" ? x / y : x % y};
            const std::int64_t p = signed_value(x), q = signed_value(y);
            if (q == -1) return op == "%" ? std::optional<Constant>(Constant{in_type, 0}) : std::nullopt;
            return Constant{in_type, normalized(in_type, static_cast<std::uint64_t>(op == "/" ? p / q : p % q))};
        }
        // + - *: modulo 2^bits for unsigned types; a signed overflow is undefined, not folded.
        std::uint64_t v = op == "+" ? x + y : op == "-" ? x - y : x * y;
        if (!u) {
            const __int128 exact = op == "+"   ? __int128(signed_value(x)) + signed_value(y)
                                   : op == "-" ? __int128(signed_value(x)) - signed_value(y)
                                               : __int128(signed_value(x)) * signed_value(y);
            const __int128 top = __int128(1) << (n - 1);
            if (exact < -top || exact >= top) return std::nullopt;
            v = static_cast<std::uint64_t>(static_cast<std::int64_t>(exact));
        }
        return Constant{in_type, normalized(in_type, v)};
    }

    std::size_t column(const Node& node) const {
        return static_cast<std::size_t>(node.text.data() - expression_.data()) + 1;
    }

    [[noreturn]] void refuse_call(const Node& node) const {
        const std::string name(node.text);
        const std::string v(variables_.substr(0, 1));
        const std::string fix = name + (node.operands.size() == 1 ? "((double)" + v + ")" : "((double)" + v + ", ...)");
        throw SyntaxError("function '" + name + "' at column " + std::to_string(column(node)) +
                          " takes floating-point arguments, and these are integers (" + are() + std::string(x_type_) +
                          " here): convert one first, as in " + fix + " (or (float)" + v + ")");
    }

    [[noreturn]] void refuse_division(const Node& node, std::string_view type) const {
        throw SyntaxError("integer division by zero: the divisor of '" + std::string(node.text) + "' at column " +
                          std::to_string(column(node)) + " is a constant 0 (the operands are " + std::string(type) +
                          ", " + are() + std::string(x_type_) + " here; OpenCL C leaves it undefined)");
    }

    // "x is ", "a and b are ".
    std::string are() const { return std::string(variables_) + (variables_ == "x" ? " is " : " are "); }

    std::string_view expression_;
    std::string_view x_type_;
    bool x_floating_;
    std::string_view variables_;
    NodeTypes types_;
    GuardedDivisions guarded_;
};

}  // namespace

GuardedDivisions check_types(const Node& tree, std::string_view expression, std::string_view x_type, NodeTypes* types,
                             std::string_view variables) {
    Typing typing(expression, x_type, variables);
    typing.type(tree);
    if (types != nullptr) *types = typing.types();
    return std::move(typing).guarded();
}

}  // namespace clreduce::expr
