// A combine of the user's own (src/transform/combine.hpp): its expression in a and b parsed and
// typed by the transform language, the written rule of its commutativity, its identity checked
// against the accumulation type, and every refusal at its column. Host only.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <string>

#include <clreduce/error.hpp>

#include "transform/combine.hpp"
#include "transform/expression.hpp"

namespace clreduce::test {
namespace {

// The message a combine (in `type`) is refused with, or "" when it is accepted.
std::string combine_refusal(const std::string& text, const std::string& type = "long") {
    try {
        combine_source(text, type);
    } catch (const InvalidArgument& e) {
        return e.what();
    }
    return "";
}

std::string identity_refusal(const std::string& text, const std::string& type = "long") {
    try {
        combine_identity(text, type);
    } catch (const InvalidArgument& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("the built-in combines written as expressions are accepted and printed from their trees", "[combine]") {
    CHECK(combine_source("a + b", "long") == "(a + b)");
    CHECK(combine_source("a*b", "double") == "(a * b)");
    CHECK(combine_source("min(a, b)", "long") == "min(a, b)");
    CHECK(combine_source("fmax(b,a)", "double") == "fmax(b, a)");
    // The kernel's copy casts integer literals to the accumulation type, as the map's does.
    CHECK(combine_kernel_text(combine_source("a + b + 1 - 1", "long"), "long") ==
          "(((a + b) + ((CLREDUCE_X)1)) - ((CLREDUCE_X)1))");
    // An integer division by anything but a constant is guarded as in a map expression.
    CHECK(combine_kernel_text(combine_source("(a + b) / (a * b)", "long"), "long") ==
          "clreduce_div_long((a + b), (a * b))");
}

TEST_CASE("a combine must be commutative as written", "[combine]") {
    // Commutative by the rule: sorted operands of commutative operators and functions, chains of
    // one associative operator as one operation, |u - v| == |v - u| in signed and floating types.
    for (const char* symmetric : {"a + b", "b + a", "a * b", "a & b", "a | b", "a ^ b", "max(a, b)", "min(b, a)",
                                  "a + b + a * b", "a + a * b + b", "max(max(a, b), 0)", "max(a, max(b, 0))",
                                  "abs_diff(a, b)", "a == b ? a + b : b + a", "add_sat(a, b)", "(a + b) / 2", "1"})
        CHECK(combine_refusal(symmetric) == "");
    CHECK(combine_refusal("max(a,b) + log(1 + exp(-fabs(a-b)))", "double") == "");
    CHECK(combine_refusal("fma(a, b, 1)", "double") == "");
    // abs takes integers: over doubles the compiler refuses it (BuildError, as in a map
    // expression); the host types it as its argument, not as an integer that exp would refuse.
    CHECK(combine_refusal("max(a,b) + log(1 + exp(-abs(a-b)))", "double") == "");
    CHECK(transform_source("exp(-abs(x))", "double") == "exp((-abs(x)))");
    CHECK(combine_refusal("fmax(a, b) + log1p(exp(-fabs(b - a)))", "double") == "");
    // Associative but not commutative (the first operand, the second), and neither (a - b):
    // refused, with the swapped text.
    CHECK(combine_refusal("a") ==
          "combine expression 'a': not symmetric in a and b (with a and b swapped it reads b): the kernels "
          "combine partial results in an order that is not the elements', so a combine must be commutative as "
          "written (docs/expression-language.md, \"A combine of one's own\"; write min(a, b), not a < b ? a : b)");
    CHECK(combine_refusal("b").find("not symmetric in a and b (with a and b swapped it reads a)") != std::string::npos);
    CHECK(combine_refusal("a - b").find("not symmetric in a and b (with a and b swapped it reads (b - a))") !=
          std::string::npos);
    CHECK(combine_refusal("a < b ? a : b").find("not symmetric") != std::string::npos);
    CHECK(combine_refusal("a * 2 + b").find("not symmetric") != std::string::npos);
    CHECK(combine_refusal("pow(a, b)", "double").find("not symmetric") != std::string::npos);
    // |a - b| of unsigned values wraps before abs: not the same as |b - a|.
    CHECK(combine_refusal("abs(a - b)", "ulong").find("not symmetric") != std::string::npos);
    CHECK(combine_refusal("abs(a - b)", "long") == "");
}

TEST_CASE("combine expressions are refused at their column", "[combine]") {
    CHECK(combine_refusal("a + c") ==
          "combine expression 'a + c': unknown identifier 'c' at column 5 (allowed: a, b, casts to scalar types "
          "and the built-in functions listed in docs/expression-language.md)");
    CHECK(combine_refusal("a + x") ==
          "combine expression 'a + x': unknown identifier 'x' at column 5: x is the element in the map "
          "expression; a combine takes two partial results, a and b (allowed: a, b, casts to scalar types and the "
          "built-in functions listed in docs/expression-language.md)");
    CHECK(combine_refusal("") ==
          "combine expression '': empty (give one expression in a and b, such as 'a + b' or "
          "'max(a, b)')");
    CHECK(combine_refusal("   ").find("empty") != std::string::npos);
    CHECK(combine_refusal("a + ") == "combine expression 'a + ': unexpected end of expression at column 5");
    CHECK(combine_refusal("a += b") == "combine expression 'a += b': unexpected '+=' at column 3");
    CHECK(combine_refusal("exp(a) + exp(b)")
              .find("function 'exp' at column 1 takes floating-point arguments, and "
                    "these are integers (a and b are long here)") != std::string::npos);
    CHECK(combine_refusal("a / 0 + b / 0").find("integer division by zero: the divisor of '/' at column 3") !=
          std::string::npos);
    // A state of two values (a maximum with its count) cannot be written: one value only.
    const std::string pair = combine_refusal("max(a, b), a + b");
    CHECK(pair.find("unexpected ',' at column 10: a combine's state is one value of the accumulation type") !=
          std::string::npos);
    CHECK(combine_refusal("(max(a.max, b.max), a.count + b.count)")
              .find("unexpected '.' at column 7: a combine's "
                    "state is one value") != std::string::npos);
    CHECK(combine_refusal("a[0] + b[0]").find("unexpected '[' at column 2: a combine's state is one value") !=
          std::string::npos);
    // And the map expression names its own variable.
    try {
        transform_source("a + 1");
        FAIL("a map expression in a");
    } catch (const InvalidArgument& e) {
        CHECK(std::string(e.what()).find("unknown identifier 'a' at column 1: a and b are a combine's operands") !=
              std::string::npos);
    }
}

TEST_CASE("a combine's identity is a literal of the accumulation type", "[combine]") {
    CHECK(combine_identity("0", "long").bits == 0);
    CHECK(combine_identity("0", "long").kernel_text == "((long)0L)");
    CHECK(combine_identity("-1", "long").bits == ~std::uint64_t(0));
    CHECK(combine_identity("9223372036854775807", "long").bits == std::uint64_t(INT64_MAX));
    const CombineIdentity lowest = combine_identity("-9223372036854775808", "long");
    CHECK(lowest.bits == std::uint64_t(1) << 63);
    CHECK(lowest.kernel_text == "((long)(-9223372036854775807L - 1L))");
    CHECK(combine_identity("18446744073709551615", "ulong").bits == ~std::uint64_t(0));
    CHECK(combine_identity("0xffffffffffffffff", "ulong").kernel_text == "((ulong)18446744073709551615UL)");
    CHECK(combine_identity("-2147483648", "int").kernel_text == "((int)(-2147483647L - 1L))");
    const CombineIdentity one = combine_identity("1", "double");
    CHECK(one.floating);
    CHECK(one.real == 1.0);
    CHECK(one.kernel_text == "((double)0x1p+0)");
    CHECK(combine_identity("-0x1.fffffffffffffp1023", "double").real == -std::numeric_limits<double>::max());
    CHECK(combine_identity("0.1", "float").real == double(0.1f));
    CHECK(combine_identity("0.1", "float").kernel_text == "((float)0x1.99999ap-4f)");
    CHECK(combine_identity("+2.5f", "double").real == 2.5);

    CHECK(identity_refusal("1.5") ==
          "combine identity '1.5': '1.5' at column 1 is a floating-point literal, and the accumulation type is long "
          "here: the identity must be of that type (write an integer)");
    CHECK(identity_refusal("-1", "ulong") == "combine identity '-1': '-1' at column 1 is outside ulong's range");
    CHECK(identity_refusal("9223372036854775808") ==
          "combine identity '9223372036854775808': '9223372036854775808' at column 1 is outside long's range");
    CHECK(identity_refusal("-2147483649", "int").find("outside int's range") != std::string::npos);
    CHECK(identity_refusal("1e39", "float") == "combine identity '1e39': '1e39' at column 1 is outside float's range");
    CHECK(identity_refusal("") ==
          "combine identity '': empty (give a literal of the accumulation type, long here, such as 0 or -1)");
    CHECK(identity_refusal("1 + 1") ==
          "combine identity '1 + 1': not a literal: '+' at column 3 (an identity is one literal of the accumulation "
          "type, long here, optionally signed, such as 0, -1 or 1.5)");
    CHECK(identity_refusal("a") ==
          "combine identity 'a': unknown identifier 'a' at column 1: an identity is one literal, optionally signed "
          "(no name; no literal is an infinity or NaN)");
    CHECK(identity_refusal("-inf", "double").find("unknown identifier 'inf' at column 2: an identity is one literal") !=
          std::string::npos);
    CHECK(identity_refusal("1.5h", "double").find("is a half literal") != std::string::npos);
    CHECK(identity_refusal("1e999", "double").find("malformed number '1e999' at column 1") != std::string::npos);
}

}  // namespace clreduce::test
