// The transform expression language (src/transform/): what it accepts, the text it prints
// for the kernel, and that everything else is refused with the column and the token.
// Random expressions: test_expression_random.cpp. Host only: no OpenCL device is used.
#include <catch2/catch.hpp>

#include <cstddef>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <clreduce/error.hpp>

#if defined(__unix__) || defined(__APPLE__)
#include <pthread.h>
#endif

#include "source_dir.hpp"
#include "transform/builtins.hpp"
#include "transform/expression.hpp"
#include "transform/parser.hpp"

namespace clreduce::test {
namespace {

// The message transform_source() refuses text with, or "" when it accepts it.
std::string refusal(const std::string& text) {
    try {
        transform_source(text);
    } catch (const InvalidArgument& e) {
        return e.what();
    }
    return "";
}

std::string repeat(const std::string& s, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += s;
    return out;
}

}  // namespace

TEST_CASE("expressions that reach memory, synchronise or change x are refused at their token", "[expression]") {
    CHECK(refusal("x = 0") == "transform expression 'x = 0': unexpected '=' at column 3");
    CHECK(refusal("(int)get_global_id(0)") ==
          "transform expression '(int)get_global_id(0)': unknown identifier 'get_global_id' at column 6 "
          "(allowed: x, casts to scalar types and the built-in functions listed in docs/expression-language.md)");
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"*(__global int*)8 = 1", "unexpected '*' at column 1"},
        {"atomic_inc((volatile __global int*)0)", "unknown identifier 'atomic_inc' at column 1"},
        {"vload4(0, (__global int*)0).x", "unknown identifier 'vload4' at column 1"},
        {"(barrier(CLK_GLOBAL_MEM_FENCE), x)", "unknown identifier 'barrier' at column 2"},
        {"x++", "unexpected '++' at column 2"},
        {"(x = 7) + x", "unexpected '=' at column 4"},
        {"x, 0", "unexpected ',' at column 2"},
        {"&x ? 1 : 0", "unexpected '&' at column 1"},
        {"x += 1", "unexpected '+=' at column 3"},
        {"x <<= 1", "unexpected '<<=' at column 3"},
        {"--x", "unexpected '--' at column 1"},
        {"x[0]", "unexpected '[' at column 2"},
        {"x.s0", "unexpected '.' at column 2"},
        {"x->y", "unexpected '->' at column 2"},
        {"sizeof(x)", "unknown identifier 'sizeof' at column 1"},
        {"(float4)(x)", "unknown identifier 'float4' at column 2"},
        {"(__global int*)x", "unknown identifier '__global' at column 2"},
        {"(void)x", "unknown identifier 'void' at column 2"},
        {"(size_t)x", "unknown identifier 'size_t' at column 2"},
        {"mem_fence(CLK_GLOBAL_MEM_FENCE)", "unknown identifier 'mem_fence' at column 1"},
        {"atomic_add(0, 1)", "unknown identifier 'atomic_add' at column 1"},
        {"x + get_local_id(0)", "unknown identifier 'get_local_id' at column 5"},
        {"as_int(x)", "unknown identifier 'as_int' at column 1"},
        {"__builtin_trap()", "unknown identifier '__builtin_trap' at column 1"},
        {"y", "unknown identifier 'y' at column 1"},
        {"X", "unknown identifier 'X' at column 1"},
        {"printf(\"%d\", x)", "unexpected character '\"' at column 8"},
        {"x; }  __kernel void evil(__global int* p) { p[0] = 1; ", "unexpected ';' at column 2"},
        {"({ x; })", "unexpected '{' at column 2"},
        {"x }", "unexpected '}' at column 3"},
        {"#define y 1", "unexpected '#' at column 1"},
        {"x ## y", "unexpected '##' at column 3"},
        {"x /* comment */", "unexpected '/*' at column 3"},
        {"x // comment", "unexpected '//' at column 3"},
        {"x \\\n + 1", "unexpected character '\\' at column 3"},
        {"x\n+ 1", "unexpected byte 0x0a at column 2"},
        {"x <% %>", "unexpected '%' at column 4"},
        {"x ?"
         "?< ?"
         "?>",
         "unexpected '?' at column 4"},
        {"'a'", "unexpected character ''' at column 1"},
        {"x $ 1", "unexpected character '$' at column 3"},
        {"x$", "unexpected character '$' at column 2"},
        {"x@", "unexpected character '@' at column 2"},
        {"x \xc3\xa9", "unexpected byte 0xc3 at column 3"},
        {"x ?: 1", "unexpected ':' at column 4"},
        {"x ? 1", "unexpected end of expression at column 6"},
        {"(x + 1", "unexpected end of expression at column 7"},
        {"x + 1)", "unexpected ')' at column 6"},
        {"x +* 2", "unexpected '*' at column 4"},
        {"x y", "unexpected 'y' at column 3"},
        {"x(1)", "unexpected '(' at column 2"},
        {"x...", "unexpected '...' at column 2"},
        {"int", "unexpected 'int' at column 1"},
        {"int(x)", "unexpected 'int' at column 1"},
        {"(unsigned)x", "unexpected ')' at column 10"},
        {"(long long)x", "unexpected 'long' at column 7"},
        {"(int)", "unexpected end of expression at column 6"},
        {"sqrt", "function 'sqrt' at column 1 without its arguments in ( ): found end of expression at column 5"},
        {"sqrt(x,)", "unexpected ')' at column 8"},
        {"sqrt(,x)", "unexpected ',' at column 6"},
        {"", "empty (give one expression in x, such as 'x * x')"},
        {"  \t ", "empty (give one expression in x, such as 'x * x')"},
    };
    for (const auto& [text, why] : cases) {
        INFO("expression: " << text);
        const std::string message = refusal(text);
        CHECK_THAT(message, Catch::StartsWith("transform expression '") && Catch::EndsWith(why) ||
                                Catch::Contains(why + " (allowed: x,"));
    }
    // Nothing outside printable ASCII is echoed as it is.
    CHECK(refusal("x\n+ 1") == "transform expression 'x\\x0a+ 1': unexpected byte 0x0a at column 2");
}

TEST_CASE("accepted expressions print fully parenthesised, with C's precedence", "[expression]") {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"x", "x"},
        {"((x))", "x"},
        {"x + 2 * 3", "(x + (2 * 3))"},
        {"(x + 2) * 3", "((x + 2) * 3)"},
        {"x*x+1", "((x * x) + 1)"},
        {"\tx\t+ 1", "(x + 1)"},
        {"x - 1 - 2", "((x - 1) - 2)"},
        {"x / 2 % 3 * 4", "(((x / 2) % 3) * 4)"},
        {"x << 1 + 2", "(x << (1 + 2))"},
        {"x >> 1 < 2", "((x >> 1) < 2)"},
        {"x < 1 == x >= 2", "((x < 1) == (x >= 2))"},
        {"x & 1 == 1", "(x & (1 == 1))"},
        {"x | 1 ^ 2 & 3", "(x | (1 ^ (2 & 3)))"},
        {"x != 0 && x <= 9 || !x", "(((x != 0) && (x <= 9)) || (!x))"},
        {"x || x && x", "(x || (x && x))"},
        {"x > 0 ? x : 0", "((x > 0) ? x : 0)"},
        {"x ? 1 : x ? 2 : 3", "(x ? 1 : (x ? 2 : 3))"},
        {"x ? x ? 1 : 2 : 3", "(x ? (x ? 1 : 2) : 3)"},
        {"x || x ? 1 + 1 : 2", "((x || x) ? (1 + 1) : 2)"},
        {"-x * 2", "((-x) * 2)"},
        {"- -x", "(-(-x))"},
        {"1 - -1", "(1 - (-1))"},
        {"!~+x", "(!(~(+x)))"},
        {"(int)x * 2", "(((int)x) * 2)"},
        {"(float)-x", "((float)(-x))"},
        {"(double)(float)x", "((double)((float)x))"},
        {"(unsigned char)x", "((uchar)x)"},
        {"(unsigned short)x", "((ushort)x)"},
        {"( unsigned int )x >> 3u", "(((uint)x) >> 3u)"},
        {"(unsigned long)x", "((ulong)x)"},
        {"(half)x", "((half)x)"},
        {"sqrt(x)", "sqrt(x)"},
        {"pow(x, 2.0f) + 1", "(pow(x, 2.0f) + 1)"},
        {"clamp(x, 0, 255)", "clamp(x, 0, 255)"},
        {"select(0, 1, x > 0)", "select(0, 1, (x > 0))"},
        {"fma(x, x, x ? 1.0f : 2.0f)", "fma(x, x, (x ? 1.0f : 2.0f))"},
        {"convert_int_sat_rte(x * 2.5f)", "convert_int_sat_rte((x * 2.5f))"},
        {"(x - 3.5f) * (x - 3.5f)", "((x - 3.5f) * (x - 3.5f))"},
    };
    for (const auto& [text, printed] : cases) {
        INFO("expression: " << text);
        CHECK(transform_source(text) == printed);
        CHECK(transform_source(printed) == printed);  // parse -> print -> parse -> print is stable
    }
    // Up to 4096 characters.
    CHECK(transform_source("x" + std::string(kMaxTransformLength - 1, ' ')) == "x");
    CHECK_THAT(refusal("x" + std::string(kMaxTransformLength, ' ')),
               Catch::Contains("4097 characters, more than 4096"));
}

TEST_CASE("numeric literals are OpenCL C's, checked whole", "[expression]") {
    for (const std::string text : {"0",
                                   "7",
                                   "123",
                                   "00",
                                   "017",
                                   "0777u",
                                   "0u",
                                   "0U",
                                   "10l",
                                   "10L",
                                   "10ul",
                                   "10UL",
                                   "10uL",
                                   "10Ul",
                                   "10lu",
                                   "10LU",
                                   "10lU",
                                   "10Lu",
                                   "0x1F",
                                   "0XffL",
                                   "0x0ul",
                                   "18446744073709551615",
                                   "18446744073709551615u",
                                   "0xFFFFFFFFFFFFFFFF",
                                   "01777777777777777777777",
                                   "1.",
                                   "1.5",
                                   ".5",
                                   "08.5",
                                   "09e1",
                                   "1e3",
                                   "1E-3",
                                   "1e+3",
                                   "1.5e3f",
                                   "1.5F",
                                   ".5h",
                                   "2.0H",
                                   "1e308",
                                   "1.7976931348623157e308",
                                   "1e-999",
                                   "3.4e38f",
                                   "65504.0h",
                                   "0x1.fffffffffffffp1023",
                                   "0x1p3",
                                   "0x1.8p-1f",
                                   "0X.8P+1",
                                   "0x1.P0h",
                                   "0xA.bp1F"}) {
        INFO("literal: " << text);
        CHECK(transform_source(text) == text);
        CHECK(transform_source("x + " + text) == "(x + " + text + ")");
    }
    const std::vector<std::pair<std::string, std::string>> malformed = {
        {"08", "digit 8 or 9 in an octal literal"},
        {"0779", "digit 8 or 9 in an octal literal"},
        {"0x", "no digits after '0x'"},
        {"0x.p1", "no digits after '0x'"},
        {"0xg", "no digits after '0x'"},
        {"0x1.8", "a hexadecimal floating literal needs a 'p' exponent"},
        {"0x1p", "exponent without digits"},
        {"1e", "exponent without digits"},
        {"1e+", "exponent without digits"},
        {"1.5e-f", "exponent without digits"},
        {"1f", "suffix 'f' on an integer literal"},
        {"1h", "suffix 'h' on an integer literal"},
        {"1ll", "suffix 'll' on an integer literal"},
        {"1uu", "suffix 'uu' on an integer literal"},
        {"1u5", "suffix 'u5' on an integer literal"},
        {"0b101", "suffix 'b101' on an integer literal"},
        {"1_000", "suffix '_000' on an integer literal"},
        {"0x1e+1", "suffix '+1' on an integer literal"},
        {"1.5ff", "suffix 'ff' on a floating literal"},
        {"1.0L", "suffix 'L' on a floating literal"},
        {"1.0d", "suffix 'd' on a floating literal"},
        {"1.0u", "suffix 'u' on a floating literal"},
        {"1.2.3", "suffix '.3' on a floating literal"},
        {"1..2", "suffix '.2' on a floating literal"},
        {"1.x", "suffix 'x' on a floating literal"},
        {"18446744073709551616", "too large for 64 bits"},
        {"0x10000000000000000", "too large for 64 bits"},
        {"02000000000000000000000", "too large for 64 bits"},
        {"1e999", "outside double's range"},
        {"1.8e308", "outside double's range"},
        {"0.0000000000000000000000001e334", "outside double's range"},
        {"123456789e301", "outside double's range"},
        {"1e99999999999999999999999", "outside double's range"},
        {"0x1p1024", "outside double's range"},
        {"0x10.0p1020", "outside double's range"},
        {"3.5e38f", "outside float's range"},
        {"1e39F", "outside float's range"},
        {"65520.0h", "outside half's range"},
    };
    for (const auto& [text, why] : malformed) {
        INFO("literal: " << text);
        CHECK(refusal("x + " + text) ==
              "transform expression 'x + " + text + "': malformed number '" + text + "' at column 5 (" + why + ")");
    }
}

TEST_CASE("every built-in function takes exactly its number of arguments", "[expression]") {
    const auto call = [](std::string_view name, int arguments) {
        std::string text = std::string(name) + "(";
        for (int i = 0; i < arguments; ++i) text += i == 0 ? "x" : ", x";
        return text + ")";
    };
    const auto takes = [](int arity) {
        return " takes " + std::to_string(arity) + (arity == 1 ? " argument" : " arguments");
    };
    REQUIRE(expr::builtin_functions().size() > 100);
    for (const expr::Builtin& b : expr::builtin_functions()) {
        INFO("function: " << b.name << "/" << b.arity);
        CHECK(transform_source(call(b.name, b.arity)) == call(b.name, b.arity));
        CHECK_THAT(refusal(call(b.name, b.arity - 1)),
                   Catch::Contains(takes(b.arity) + ", given " + std::to_string(b.arity - 1)));
        CHECK_THAT(refusal(call(b.name, b.arity + 1)),
                   Catch::Contains(takes(b.arity) + ", given " + std::to_string(b.arity + 1)));
    }
    CHECK(refusal("pow(x)") == "transform expression 'pow(x)': function 'pow' at column 1 takes 2 arguments, given 1");
    // Conversions: every scalar type, _sat for integer destinations, the four rounding modes.
    int conversions = 0;
    for (std::string type :
         {"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "half", "float", "double"}) {
        for (std::string sat : {"", "_sat"}) {
            for (std::string rounding : {"", "_rte", "_rtz", "_rtp", "_rtn"}) {
                const std::string name = "convert_" + type + sat + rounding;
                INFO("conversion: " << name);
                const bool valid = sat.empty() || expr::is_integer_type(type);
                CHECK(refusal(call(name, 1)).empty() == valid);
                if (valid) CHECK_THAT(refusal(call(name, 2)), Catch::Contains(takes(1) + ", given 2"));
                conversions += valid;
            }
        }
    }
    CHECK(conversions == 8 * 10 + 3 * 5);
    // Look-alikes and every built-in left out: pointers, memory, synchronisation, work-items,
    // vectors, images, reinterpretation.
    for (std::string name : {"convert_int4",
                             "convert_int_rte_sat",
                             "convert_int_sat_sat",
                             "convert_bool",
                             "convert_",
                             "convert_int_rtx",
                             "fract",
                             "frexp",
                             "modf",
                             "remquo",
                             "sincos",
                             "lgamma_r",
                             "vload4",
                             "vstore4",
                             "vload_half",
                             "atomic_add",
                             "atom_add",
                             "atomic_xchg",
                             "barrier",
                             "mem_fence",
                             "read_mem_fence",
                             "work_group_barrier",
                             "get_global_id",
                             "get_local_id",
                             "get_group_id",
                             "get_global_size",
                             "get_num_groups",
                             "get_work_dim",
                             "get_global_offset",
                             "printf",
                             "async_work_group_copy",
                             "wait_group_events",
                             "prefetch",
                             "read_imagef",
                             "write_imagef",
                             "shuffle",
                             "any",
                             "all",
                             "as_int",
                             "as_float",
                             "vec_step",
                             "sizeof",
                             "half_sqrt",
                             "SQRT",
                             "sqrtf"}) {
        INFO("function: " << name);
        CHECK_THAT(refusal(call(name, 1)), Catch::Contains("unknown identifier '" + name + "' at column 1"));
    }
}

TEST_CASE("nesting is bounded in the tree and in the text", "[expression]") {
    constexpr int depth = expr::kMaxDepth;
    constexpr int nesting = expr::kMaxParentheses;
    const auto deep_ok = [](const std::string& text) {
        INFO("expression of " << text.size() << " characters: " << text.substr(0, 80));
        const std::string printed = transform_source(text);
        CHECK(transform_source(printed) == printed);  // the printed text nests within the limits too
    };
    const std::string operations = "more than 64 operations nested";
    const std::string parentheses = "more than 64 parentheses nested";
    // A left-to-right chain is a tree as deep as it is long.
    deep_ok("x" + repeat(" + x", depth));
    CHECK_THAT(refusal("x" + repeat(" + x", depth + 1)),
               Catch::Contains(operations + " at '+' at column " + std::to_string(4 * depth + 3)));
    CHECK_THAT(refusal("x" + repeat(" + x", 1000)), Catch::Contains(operations));
    deep_ok(repeat("sqrt(", depth) + "x" + repeat(")", depth));
    CHECK_THAT(refusal(repeat("sqrt(", depth + 1) + "x" + repeat(")", depth + 1)),
               Catch::Contains(parentheses + " at '(' at column " + std::to_string(5 * depth + 5)));
    deep_ok(repeat("- ", depth) + "x");  // "--" would be one (refused) token
    CHECK_THAT(refusal(repeat("- ", depth + 1) + "x"), Catch::Contains(operations + " at '-' at column 1"));
    deep_ok(repeat("(int)", depth) + "x");
    CHECK_THAT(refusal(repeat("(int)", depth + 1) + "x"), Catch::Contains(operations + " at 'int' at column 2"));
    deep_ok(repeat("x ? 1 : ", depth) + "0");
    // (?: branches are refused on the way down, at the first ?: too deep.)
    CHECK_THAT(refusal(repeat("x ? 1 : ", depth + 1) + "0"),
               Catch::Contains(operations + " at '?' at column " + std::to_string(8 * depth + 3)));
    deep_ok(repeat("x ? ", depth) + "1" + repeat(" : 0", depth));
    CHECK_THAT(refusal(repeat("x ? ", depth + 1) + "1" + repeat(" : 0", depth + 1)),
               Catch::Contains(operations + " at '?' at column " + std::to_string(4 * depth + 3)));
    // Redundant parentheses make no tree but count in the text; a cast's do not.
    deep_ok(repeat("(", nesting) + "x" + repeat(")", nesting));
    CHECK_THAT(refusal(repeat("(", nesting + 1) + "x" + repeat(")", nesting + 1)),
               Catch::Contains(parentheses + " at '(' at column " + std::to_string(nesting + 1)));
    deep_ok(repeat("((int)", depth) + "x" + repeat(")", depth));
    deep_ok(repeat("(x ? 1 : ", depth) + "0" + repeat(")", depth));
    CHECK_THAT(refusal(repeat("(x ? 1 : ", depth + 1) + "0" + repeat(")", depth + 1)), Catch::Contains(parentheses));
    // Texts as long as allowed and as deep as they can be are refused, not a stack overflow.
    CHECK_THAT(refusal(repeat("(", 4000)), Catch::Contains(parentheses));
    CHECK_THAT(refusal(repeat("abs(", 800)), Catch::Contains(parentheses));
    CHECK_THAT(refusal(repeat("x?", 2000)), Catch::Contains(operations));
    CHECK_THAT(refusal(repeat("x||x&&x|x^x&x==x<x<<x+x*(", 150)), Catch::Contains(parentheses));
    CHECK_THAT(refusal(repeat("- ", 2000) + "x"), Catch::Contains(operations));
    CHECK_THAT(refusal(repeat("(int)", 800) + "x"), Catch::Contains(operations));
}

#if defined(__unix__) || defined(__APPLE__)
// AddressSanitizer's frames are about eight times larger.
#if defined(__SANITIZE_ADDRESS__)
#define CLREDUCE_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CLREDUCE_TEST_ASAN 1
#endif
#endif
#ifdef CLREDUCE_TEST_ASAN
constexpr std::size_t kSmallStack = 2048 * 1024;
#else
constexpr std::size_t kSmallStack = 128 * 1024;
#endif

TEST_CASE("the deepest texts are parsed or refused on a thread with 128 KiB of stack", "[expression]") {
    // A stack overflow here ends the test program: the limits keep the parser's recursion
    // within what small thread stacks (musl's default is 128 KiB) hold.
    static const std::vector<std::string> texts = {
        repeat("(", 64) + "x" + repeat(")", 64),
        repeat("(x ? ", 64) + "1" + repeat(" : 0)", 64),
        repeat("abs(x ? ", 64) + "1" + repeat(" : 0)", 64),
        repeat("x||x&&x|x^x&x==x<x<<x+x*(", 64) + "x" + repeat(")", 64),
        repeat("(", 4000),
        repeat("abs(x ? ", 400),
        repeat("x||x&&x|x^x&x==x<x<<x+x*(", 150),
        repeat("x?", 2000),
        repeat("- ", 2000) + "x",
        "x" + repeat(" + x", 1000),
    };
    static int parsed, refused;
    parsed = refused = 0;
    const auto run = [](void*) -> void* {
        for (const std::string& text : texts) {
            try {
                transform_source(text);
                ++parsed;
            } catch (const InvalidArgument&) {
                ++refused;
            }
        }
        return nullptr;
    };
    pthread_attr_t attributes;
    REQUIRE(pthread_attr_init(&attributes) == 0);
    REQUIRE(pthread_attr_setstacksize(&attributes, kSmallStack) == 0);
    pthread_t thread;
    REQUIRE(pthread_create(&thread, &attributes, run, nullptr) == 0);
    REQUIRE(pthread_join(thread, nullptr) == 0);
    pthread_attr_destroy(&attributes);
    CHECK(parsed == 2);  // the first two; the others nest too deep
    CHECK(refused == 8);
}
#endif

TEST_CASE("docs/expression-language.md lists exactly the built-in functions and arities", "[expression]") {
    std::ifstream file(clreduce::test::source_dir() + "/docs/expression-language.md");
    REQUIRE(file.good());
    // Table rows "| <arguments> | `name`, `name`, ... |".
    std::map<std::string, int> documented;
    const std::regex row(R"(^\| ([0-9]) \| (.*)\|\s*$)");
    const std::regex name("`([a-z0-9_]+)`");
    std::string line;
    while (std::getline(file, line)) {
        std::smatch m;
        if (!std::regex_match(line, m, row)) continue;
        const std::string names = m[2];
        for (auto it = std::sregex_iterator(names.begin(), names.end(), name); it != std::sregex_iterator(); ++it) {
            INFO("documented twice: " << (*it)[1]);
            CHECK(documented.emplace((*it)[1], std::stoi(m[1])).second);
        }
    }
    std::map<std::string, int> table;
    for (const expr::Builtin& b : expr::builtin_functions()) table.emplace(std::string(b.name), b.arity);
    CHECK(documented == table);
}

}  // namespace clreduce::test
