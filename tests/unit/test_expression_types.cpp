// The transform language's types on the host (src/transform/typing.cpp): a built-in that takes
// only floating-point arguments, called with integers only where x is an integer, is refused
// with the function, its column and the conversion that fixes it, before any compiler sees it;
// mixed and converted arguments, generic and integer built-ins pass. An integer division or
// remainder by a constant 0, folded as OpenCL C folds it, is refused at its operator; one by
// anything else but a constant it is defined for becomes a guarded call in the kernel's text,
// in the type its operands convert to. Host only (test_ops_transform.cpp runs them).
#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

#include <clreduce/error.hpp>

#include "transform/builtins.hpp"
#include "transform/expression.hpp"

namespace clreduce::test {
namespace {

// The message transform_source() refuses text with where x is `x_type`, or "" when it accepts.
std::string refusal(const std::string& text, const std::string& x_type) {
    try {
        transform_source(text, x_type);
    } catch (const InvalidArgument& e) {
        return e.what();
    }
    return "";
}

TEST_CASE("float-only built-ins over integers are refused on the host, naming the column and the fix", "[expression]") {
    CHECK(refusal("exp(x)", "long") ==
          "transform expression 'exp(x)': function 'exp' at column 1 takes floating-point arguments, and these are "
          "integers (x is long here): convert one first, as in exp((double)x) (or (float)x)");
    CHECK_THAT(refusal("pow(x, 2)", "int"), Catch::Contains("function 'pow' at column 1") &&
                                                Catch::Contains("x is int here") &&
                                                Catch::Contains("pow((double)x, ...)"));
    CHECK_THAT(refusal("x + mad(x, x, x)", "uint"), Catch::Contains("function 'mad' at column 5"));
    CHECK_THAT(refusal("1 + fma(x, 2, 3)", "long"), Catch::Contains("function 'fma' at column 5"));
    CHECK_THAT(refusal("sqrt(abs(x))", "long"), Catch::Contains("function 'sqrt' at column 1"));
    CHECK_THAT(refusal("(int)x + exp((long)x)", "double"), Catch::Contains("function 'exp' at column 10"));
    CHECK_THAT(refusal("exp(x > 0)", "double"), Catch::Contains("function 'exp'"));  // a comparison is an int
    CHECK_THAT(refusal("isnan(x)", "long"), Catch::Contains("function 'isnan'"));
    CHECK_THAT(refusal("exp(ilogb(x))", "double"), Catch::Contains("function 'exp' at column 1"));
    // Every float-only function of the table is caught over integer x.
    for (const std::string name : {"acos", "cbrt", "log1p", "rint", "native_exp", "degrees", "sign", "atan2", "pown",
                                   "ldexp", "fmax", "step", "native_divide", "mix", "smoothstep"}) {
        const int arity = *expr::builtin_arity(name);
        std::string text = name + "(x";
        for (int k = 1; k < arity; ++k) text += ", 1";
        text += ")";
        INFO(text);
        CHECK_THAT(refusal(text, "long"), Catch::Contains("function '" + name + "' at column 1"));
    }
    // A floating argument anywhere, a float literal, a cast or a conversion: accepted.
    for (const std::string text : {"exp((double)x)", "exp((float)x)", "pow(x * 1.0, 2)", "pow(x, 2.0f)",
                                   "mad(x, x, 0.5)", "fma(convert_float(x), x, x)", "exp(x ? 1.5 : 0)", "exp(x / 2.0)",
                                   "isnan(-(double)x)", "sqrt(max(x, 0.0))", "exp(select(0.5, 1.0, x > 0))"}) {
        INFO(text);
        CHECK(refusal(text, "long").empty());
    }
    // Integer and generic built-ins over integers, and anything over floating x: accepted.
    for (const std::string text : {"abs(x)", "clz(x)", "max(x, 3)", "clamp(x, -1, 1)", "select(x, 2, x > 0)",
                                   "popcount(x) + mad24(x, x, x)", "(int)x % 3"})
        CHECK(refusal(text, "int").empty());
    for (const std::string text : {"exp(x)", "pow(x, 2)", "mad(x, x, x)", "fma(x, x, x)", "exp(1) + x"}) {
        CHECK(refusal(text, "double").empty());
        CHECK(refusal(text, "float").empty());
    }
    // Without a type (the language alone), nothing is typed.
    CHECK(transform_source("exp(x)") == "exp(x)");
}

TEST_CASE("an integer division or remainder by a constant 0 is refused at its operator's column", "[expression]") {
    CHECK(refusal("x / 0", "long") ==
          "transform expression 'x / 0': integer division by zero: the divisor of '/' at column 3 is a constant 0 "
          "(the operands are long, x is long here; OpenCL C leaves it undefined)");
    CHECK(refusal("1 + x % 0", "int") ==
          "transform expression '1 + x % 0': integer division by zero: the divisor of '%' at column 7 is a constant "
          "0 (the operands are int, x is int here; OpenCL C leaves it undefined)");
    // Divisors of literals, operators and casts are folded as OpenCL C folds them, in their types.
    const std::vector<std::pair<std::string, std::string>> zero = {
        {"x / (1 - 1)", "long"},
        {"x % (2 * 0)", "uint"},
        {"x / (0 ? 1 : 0)", "long"},
        {"x / (1 ? 0 : 1)", "ulong"},
        {"x / !1", "long"},
        {"x / (3 & 4)", "int"},
        {"x / (1 == 2)", "long"},
        {"x / (7 >> 3)", "long"},
        {"x / -0", "long"},
        {"x / ~-1", "int"},
        {"x / (char)256", "long"},        // (char)256 is 0
        {"x / (uchar)-256", "long"},      // so is (uchar)-256
        {"x / 0x100000000", "int"},       // the literal takes x's type: (int)2^32 is 0
        {"x / 0x100000000", "uint"},      //
        {"x / (int)0.5f", "long"},        // a float literal cast to int truncates to 0
        {"x / (long)-0.75", "long"},      //
        {"(long)x / (long)0", "double"},  // an integer division where x is floating
        {"(int)x % (int)0", "float"},     //
        {"x / (65536 * 65536)", "uint"},  // modulo 2^32 for unsigned types
        {"x / (1 / 0)", "long"},          // the inner division, first
        {"x % (x / 0)", "long"},          // a zero divisor under a divisor that is not constant
    };
    for (const auto& [text, type] : zero) {
        INFO(text << " with x " << type);
        CHECK_THAT(refusal(text, type), Catch::Contains("integer division by zero: the divisor of"));
    }
    CHECK_THAT(refusal("x / (1 / 0)", "long"), Catch::Contains("'/' at column 8"));
    CHECK_THAT(refusal("x % (x / 0)", "long"), Catch::Contains("'/' at column 8"));
    CHECK_THAT(refusal("(long)x / (long)0", "double"), Catch::Contains("the operands are long, x is double here"));
    // Accepted: floating divisions (IEEE: inf or NaN), nonzero constants, divisors that are not
    // constant (guarded in the kernel: a call, a half), and a signed overflow in a divisor, which
    // is not folded; OpenCL C shifts by the count modulo the width (1 << 32 of int is 1).
    const std::vector<std::pair<std::string, std::string>> accepted = {
        {"x / 0", "double"},       {"x % 0", "float"},        {"x / 0.0", "long"},
        {"(double)x / 0", "long"}, {"x / 0.0f", "int"},       {"x / 2", "long"},
        {"(long)x / 0", "double"},  // the literal takes x's type: long / double is floating
        {"x % -1", "long"},        {"x / (1 - 2)", "int"},    {"x / x", "long"},
        {"x % (x > 3)", "uint"},   {"x / (1 << 32)", "int"},  {"x / (2147483647 + 1)", "int"},
        {"x / abs(0)", "long"},    {"x / (int)0.5h", "long"}, {"x / (1 << 64)", "ulong"},
    };
    for (const auto& [text, type] : accepted) {
        INFO(text << " with x " << type);
        CHECK(refusal(text, type).empty());
    }
}

TEST_CASE("integer divisions print as guarded calls in the kernel's text, typed as OpenCL C types them",
          "[expression]") {
    // (transform_kernel_text takes the canonical text transform_source prints.)
    const auto kernel = [](const std::string& text, const std::string& type) {
        return transform_kernel_text(transform_source(text, type), type);
    };
    // A constant divisor it is defined for: the division as written.
    CHECK(kernel("x / 2", "long") == "(x / ((CLREDUCE_X)2))");
    CHECK(kernel("x % (1 - 3)", "int") == "(x % (((CLREDUCE_X)1) - ((CLREDUCE_X)3)))");
    CHECK(kernel("x / -1", "ulong") == "(x / (-((CLREDUCE_X)1)))");  // 2^64 - 1
    CHECK(kernel("x / 0", "double") == "(x / ((CLREDUCE_X)0))");     // floating: inf or NaN
    CHECK(kernel("x / 2.5", "long") == "(x / CLREDUCE_WEAK_FLOAT(2.5))");
    // Anything else: the helper of the type the operands convert to.
    CHECK(kernel("x / x", "long") == "clreduce_div_long(x, x)");
    CHECK(kernel("100 % x", "uint") == "clreduce_rem_uint(((CLREDUCE_X)100), x)");
    CHECK(kernel("x / -1", "long") == "clreduce_div_long(x, (-((CLREDUCE_X)1)))");           // MIN / -1
    CHECK(kernel("(char)x / (char)x", "long") == "clreduce_div_int(((char)x), ((char)x))");  // promoted
    CHECK(kernel("(uint)x % x", "int") == "clreduce_rem_uint(((uint)x), x)");
    CHECK(kernel("(uint)x % x", "long") == "clreduce_rem_long(((uint)x), x)");
    CHECK(kernel("(ulong)x / x", "int") == "clreduce_div_ulong(((ulong)x), x)");
    CHECK(kernel("(x > 0) / (x < 5)", "long") == "clreduce_div_int((x > ((CLREDUCE_X)0)), (x < ((CLREDUCE_X)5)))");
    CHECK(kernel("x / abs(x)", "int") == "clreduce_div_uint(x, abs(x))");  // abs of an int is a uint
    CHECK(kernel("(long)x / (long)x", "double") == "clreduce_div_long(((long)x), ((long)x))");
    CHECK(kernel("x / clz(x)", "uint") == "clreduce_div_uint(x, clz(x))");
    CHECK(kernel("x / upsample((short)x, (ushort)x)", "long") ==
          "clreduce_div_long(x, upsample(((short)x), ((ushort)x)))");
    CHECK(kernel("x / (int)x", "float") == "(x / ((int)x))");  // float / int: floating
    // Nested divisions each print once: the text grows with the expression, never doubles.
    CHECK(kernel("x / (x / (x / x))", "long") == "clreduce_div_long(x, clreduce_div_long(x, clreduce_div_long(x, x)))");
    std::string deep = "x";
    for (int k = 0; k < 60; ++k) deep = "x / (" + deep + ")";
    CHECK(kernel(deep, "long").size() < 60 * 24 + 10);
    // The helpers the text calls, and only those.
    CHECK(transform_kernel_helpers("(x + ((CLREDUCE_X)1))").empty());
    CHECK(transform_kernel_helpers(kernel("x / x + x % x", "long")) ==
          "inline long clreduce_div_long(long a, long b) { return b == 0 ? 0 : b == -1 ? (long)((ulong)0 - (ulong)a) : "
          "a / b; }\n"
          "inline long clreduce_rem_long(long a, long b) { return b == 0 || b == -1 ? 0 : a % b; }\n");
    CHECK(transform_kernel_helpers(kernel("x % x", "uint")) ==
          "inline uint clreduce_rem_uint(uint a, uint b) { return b == 0 ? 0 : a % b; }\n");
}

TEST_CASE("a floating literal beyond its type's range is refused with its column", "[expression]") {
    CHECK(refusal("1e999 + x", "int") ==
          "transform expression '1e999 + x': malformed number '1e999' at column 1 (outside double's range)");
    CHECK(refusal("x * 2e38f * 3e38f", "float").empty());  // each literal fits; the product is the data's
    CHECK_THAT(refusal("x + 4e38f", "double"), Catch::Contains("'4e38f' at column 5 (outside float's range)"));
}

}  // namespace
}  // namespace clreduce::test
