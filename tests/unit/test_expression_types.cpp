// The transform language's types on the host (src/transform/typing.cpp): a built-in that takes
// only floating-point arguments, called with integers only where x is an integer, is refused
// with the function, its column and the conversion that fixes it, before any compiler sees it;
// mixed and converted arguments, generic and integer built-ins pass. Host only.
#include <catch2/catch.hpp>

#include <string>

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

TEST_CASE("a floating literal beyond its type's range is refused with its column", "[expression]") {
    CHECK(refusal("1e999 + x", "int") ==
          "transform expression '1e999 + x': malformed number '1e999' at column 1 (outside double's range)");
    CHECK(refusal("x * 2e38f * 3e38f", "float").empty());  // each literal fits; the product is the data's
    CHECK_THAT(refusal("x + 4e38f", "double"), Catch::Contains("'4e38f' at column 5 (outside float's range)"));
}

}  // namespace
}  // namespace clreduce::test
