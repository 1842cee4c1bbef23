// Random transform expressions: trees written with the fewest parentheses C allows must
// parse as C groups them, and random token soup and bytes must parse or be refused with
// InvalidArgument, never crash. Seeded: $CLREDUCE_TEST_SEED repeats a run.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <iterator>
#include <map>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <clreduce/error.hpp>

#include "transform/expression.hpp"

namespace clreduce::test {
namespace {

// $CLREDUCE_TEST_SEED, else a fresh one; printed so that a failure can be repeated.
std::uint64_t run_seed() {
    static const std::uint64_t value = [] {
        const char* s = std::getenv("CLREDUCE_TEST_SEED");
        const std::uint64_t v = (s != nullptr && *s != '\0')
                                    ? std::stoull(s)
                                    : (std::uint64_t(std::random_device{}()) << 32) ^ std::random_device{}();
        std::cout << "clreduce unit tests: seed " << v << " (CLREDUCE_TEST_SEED=" << v << " repeats this run)\n";
        return v;
    }();
    return value;
}

// The printed text may hold only these: no ';', braces, '#', quotes, backslashes, '[' or '.'
// outside numbers; nothing that could end the function the kernel puts it in.
bool printable_safely(const std::string& text) {
    for (char c : text) {
        const bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        if (!word && std::string_view(" ().,+-*/%<>=!&|^~?:").find(c) == std::string_view::npos) return false;
    }
    return true;
}

// An expression tree of the test's own, printed two ways: with the fewest parentheses C's
// precedence allows (what a user writes) and fully parenthesised (what the kernel gets).
struct Tree {
    std::string op;  // "x", a literal, a unary or binary operator, "?", "cast:<type>", "call:<name>"
    std::vector<Tree> kids;
};

// C's binary operators and their precedence, written here independently of the parser.
const std::map<std::string, int> kBinding = {{"*", 10}, {"/", 10}, {"%", 10}, {"+", 9}, {"-", 9},  {"<<", 8},
                                             {">>", 8}, {"<", 7},  {"<=", 7}, {">", 7}, {">=", 7}, {"==", 6},
                                             {"!=", 6}, {"&", 5},  {"^", 4},  {"|", 3}, {"&&", 2}, {"||", 1}};

int binding(const Tree& t) {  // 0 for ?:, 11 for prefix operators and casts, 12 for primaries
    if (t.op == "?") return 0;
    if (t.kids.size() == 2 && t.op.rfind("call:", 0) != 0) return kBinding.at(t.op);
    if (t.kids.size() == 1 && t.op.rfind("call:", 0) != 0) return 11;
    return 12;
}

std::string minimal(const Tree& t);
std::string wrapped_below(const Tree& t, int at_least) {
    return binding(t) < at_least ? "(" + minimal(t) + ")" : minimal(t);
}

std::string minimal(const Tree& t) {
    if (t.kids.empty()) return t.op;
    if (t.op.rfind("call:", 0) == 0) {
        std::string s = t.op.substr(5) + "(";
        for (std::size_t i = 0; i < t.kids.size(); ++i) s += (i ? ", " : "") + minimal(t.kids[i]);
        return s + ")";
    }
    if (t.op == "?")
        return wrapped_below(t.kids[0], 1) + " ? " + minimal(t.kids[1]) + " : " + wrapped_below(t.kids[2], 0);
    if (t.op.rfind("cast:", 0) == 0) return "(" + t.op.substr(5) + ")" + wrapped_below(t.kids[0], 11);
    if (t.kids.size() == 1) {
        // "- -x", not "--x"
        const std::string operand = wrapped_below(t.kids[0], 11);
        return t.op + (operand[0] == t.op[0] ? " " : "") + operand;
    }
    const int b = binding(t);
    return wrapped_below(t.kids[0], b) + " " + t.op + " " + wrapped_below(t.kids[1], b + 1);
}

std::string full(const Tree& t) {
    if (t.kids.empty()) return t.op;
    if (t.op.rfind("call:", 0) == 0) {
        std::string s = t.op.substr(5) + "(";
        for (std::size_t i = 0; i < t.kids.size(); ++i) s += (i ? ", " : "") + full(t.kids[i]);
        return s + ")";
    }
    if (t.op == "?") return "(" + full(t.kids[0]) + " ? " + full(t.kids[1]) + " : " + full(t.kids[2]) + ")";
    if (t.op.rfind("cast:", 0) == 0) return "((" + t.op.substr(5) + ")" + full(t.kids[0]) + ")";
    if (t.kids.size() == 1) return "(" + t.op + full(t.kids[0]) + ")";
    return "(" + full(t.kids[0]) + " " + t.op + " " + full(t.kids[1]) + ")";
}

Tree random_tree(std::mt19937_64& rng, int depth) {
    const auto pick = [&rng](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
    static const std::vector<std::string> leaves = {"x", "x", "x", "1", "0", "2.5f", "0x10u", "3e2", ".5", "07", "1ul"};
    static const std::vector<std::string> unary = {"-", "+", "!", "~"};
    static const std::vector<std::string> casts = {"int", "uint", "float", "char", "ulong", "double"};
    static const std::vector<std::pair<std::string, int>> calls = {{"sqrt", 1}, {"min", 2},    {"clamp", 3},
                                                                   {"fabs", 1}, {"select", 3}, {"convert_int_sat", 1}};
    if (depth == 0 || pick(4) == 0) return {leaves[pick(leaves.size())], {}};
    switch (pick(6)) {
        case 0: return {unary[pick(unary.size())], {random_tree(rng, depth - 1)}};
        case 1: return {"cast:" + casts[pick(casts.size())], {random_tree(rng, depth - 1)}};
        case 2: return {"?", {random_tree(rng, depth - 1), random_tree(rng, depth - 1), random_tree(rng, depth - 1)}};
        case 3: {
            const auto& [name, arity] = calls[pick(calls.size())];
            Tree t{"call:" + name, {}};
            for (int i = 0; i < arity; ++i) t.kids.push_back(random_tree(rng, depth - 1));
            return t;
        }
        default: {
            auto it = kBinding.begin();
            std::advance(it, pick(kBinding.size()));
            return {it->first, {random_tree(rng, depth - 1), random_tree(rng, depth - 1)}};
        }
    }
}

}  // namespace

TEST_CASE("random expressions written with the fewest parentheses parse as C groups them", "[expression]") {
    const std::uint64_t seed = run_seed();
    INFO("seed " << seed);
    std::mt19937_64 rng(seed ^ 0x5eed0001);
    for (int i = 0; i < 3000; ++i) {
        const Tree tree = random_tree(rng, 1 + i % 7);
        const std::string written = minimal(tree);
        INFO("written: " << written);
        const std::string printed = transform_source(written);
        CHECK(printed == full(tree));
        CHECK(transform_source(printed) == printed);
    }
}

TEST_CASE("random token soup and random bytes parse or are refused, never crash", "[expression]") {
    const std::uint64_t seed = run_seed();
    INFO("seed " << seed);
    std::mt19937_64 rng(seed ^ 0x5eed0002);
    const auto pick = [&rng](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
    static const std::vector<std::string> vocabulary = {"x",
                                                        "x",
                                                        "x",
                                                        "1",
                                                        "0x1p3f",
                                                        "1e",
                                                        "08",
                                                        ".5h",
                                                        "(",
                                                        "(",
                                                        ")",
                                                        ")",
                                                        "+",
                                                        "-",
                                                        "*",
                                                        "/",
                                                        "%",
                                                        "<<",
                                                        ">>",
                                                        "<",
                                                        ">=",
                                                        "==",
                                                        "!=",
                                                        "&",
                                                        "^",
                                                        "|",
                                                        "&&",
                                                        "||",
                                                        "!",
                                                        "~",
                                                        "?",
                                                        ":",
                                                        ",",
                                                        "=",
                                                        "++",
                                                        "--",
                                                        "+=",
                                                        "[",
                                                        "]",
                                                        ".",
                                                        "->",
                                                        ";",
                                                        "{",
                                                        "}",
                                                        "#",
                                                        "\"",
                                                        "\\",
                                                        "sqrt",
                                                        "pow",
                                                        "clamp",
                                                        "convert_int_rtz",
                                                        "int",
                                                        "unsigned",
                                                        "long",
                                                        "float4",
                                                        "get_global_id",
                                                        "barrier",
                                                        "__global",
                                                        "sizeof",
                                                        " ",
                                                        "\t",
                                                        "\n",
                                                        "$",
                                                        "/*",
                                                        "y"};
    int accepted = 0, refused = 0;
    const auto attempt = [&](const std::string& text) {
        INFO("expression: " << text);
        try {
            const std::string printed = transform_source(text);
            ++accepted;
            CHECK(printable_safely(printed));
            CHECK(transform_source(printed) == printed);
        } catch (const InvalidArgument& e) {
            ++refused;
            CHECK_THAT(e.what(), Catch::StartsWith("transform expression '"));
        }
    };
    for (int i = 0; i < 20000; ++i) {
        std::string text;
        for (std::size_t n = 1 + pick(12); n > 0; --n)
            text += vocabulary[pick(vocabulary.size())] + (pick(2) ? " " : "");
        attempt(text);
    }
    for (int i = 0; i < 5000; ++i) {
        std::string text(pick(40), ' ');
        for (char& c : text) c = static_cast<char>(pick(4) == 0 ? pick(256) : " x1+-*/()?:,.<>=!&|^~ef"[pick(23)]);
        attempt(text);
    }
    std::cout << "random transform expressions (seed " << seed << "): " << accepted << " accepted, " << refused
              << " refused\n";
    CHECK(accepted > 100);
    CHECK(refused > 100);
}

}  // namespace clreduce::test
