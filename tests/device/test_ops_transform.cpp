// transform_reduce: users' element-wise expressions before a built-in combine, cached like
// the built-ins, and text outside the expression language refused (the language itself:
// tests/unit/test_expression.cpp).
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "test_ops_support.hpp"
#include "transform/expression.hpp"  // src/

namespace clreduce::test {

TEST_CASE("transform_reduce matches the same expression on the CPU for every combine", "[ops][transform]") {
    print_seed();
    Reducer& r = reducer();
    const std::uint64_t n = 30011;
    const auto ints = op_values<std::int32_t>(n + 5, seed_for(31));
    const cl::Buffer ints_buffer = device_copy(r, ints);
    // "x > 0 ? x : 0" (ReLU) over int32 elements [5, 5 + n).
    std::int64_t relu = 0;
    std::int64_t lowest = std::numeric_limits<std::int64_t>::max(), highest = std::numeric_limits<std::int64_t>::min();
    for (std::uint64_t i = 5; i < n + 5; ++i) {
        relu += ints[i] > 0 ? ints[i] : 0;
        lowest = std::min<std::int64_t>(lowest, std::int64_t(ints[i]) * 3 - 1);
        highest = std::max<std::int64_t>(highest, std::int64_t(ints[i]) * 3 - 1);
    }
    CHECK(r.transform_reduce<std::int32_t>(ints_buffer, 5, n, "x > 0 ? x : 0", Combine::sum) == relu);
    // The accumulator is long: the expression's int result converts before the combine.
    CHECK(r.transform_reduce<std::int32_t>(ints_buffer, 5, n, "x * 3 - 1", Combine::min) == lowest);
    CHECK(r.transform_reduce<std::int32_t>(ints_buffer, 5, n, "x * 3 - 1", Combine::max) == highest);
    std::vector<std::uint8_t> small(1000);
    for (std::size_t i = 0; i < small.size(); ++i) small[i] = static_cast<std::uint8_t>(i % 5 == 0 ? 1 : 0);
    // 200 factors of 2: the uint64 product wraps to 0 modulo 2^64; 60 of them fit.
    CHECK(r.transform_reduce(small, "x + 1", Combine::product) == 0);
    CHECK(r.transform_reduce(small.data(), 300, "x + 1", Combine::product) == 1ull << 60);

    // "(x - 3.5f) * (x - 3.5f)" over floats, against a long double reference and its bound.
    const auto floats = op_values<float>(n, seed_for(32));
    long double squares = 0, magnitude = 0;
    const bool in_double = r.device_info().has_fp64;  // x and the literals take the accumulator's type
    for (float x : floats) {
        const double d = in_double ? (double(x) - 3.5) * (double(x) - 3.5) : double((x - 3.5f) * (x - 3.5f));
        squares += d;
        magnitude += std::fabs(d);
    }
    CallInfo info;
    const double got = r.transform_reduce(floats, "(x - 3.5f) * (x - 3.5f)", Combine::sum, {}, &info);
    CHECK(std::fabs(got - double(squares)) <= n * testing::unit_roundoff(info.plan.accumulator) * magnitude + 1e-9);
    LaunchParams compensated;
    compensated.float_mode = FloatMode::compensated;
    CHECK(std::fabs(r.transform_reduce(floats, "(x - 3.5f) * (x - 3.5f)", Combine::sum, compensated) -
                    double(squares)) <= 1e-12 * double(magnitude));
    // Min/max ignore NaN as min() does; every element NaN gives NaN.
    std::vector<float> some_nan(100, 2.0f);
    some_nan[7] = NAN;
    CHECK(r.transform_reduce(some_nan, "x * 2", Combine::max) == 4.0);
    CHECK(std::isnan(r.transform_reduce(some_nan, "x * 2", Combine::sum)));
    CHECK(std::isnan(r.transform_reduce(std::vector<float>(10, NAN), "x", Combine::min)));
    // Empty ranges: the combine's identity, or an error where there is none.
    CHECK(r.transform_reduce<std::int32_t>(ints_buffer, 0, 0, "x", Combine::sum) == 0);
    CHECK(r.transform_reduce<std::int32_t>(ints_buffer, 0, 0, "x", Combine::product) == 1);
    CHECK_THROWS_AS(r.transform_reduce<std::int32_t>(ints_buffer, 0, 0, "x", Combine::min), InvalidArgument);
}

TEST_CASE("transform expressions are cached by their text and repeated calls build nothing",
          "[ops][transform][reuse]") {
    Reducer r(default_device());
    std::vector<std::int32_t> v(5000, 3);
    CHECK(r.transform_reduce(v, "x * 2", Combine::sum) == 30000);
    const Counters warm = r.counters();
    CHECK(r.transform_reduce(v, "x * 2", Combine::sum) == 30000);
    CHECK(r.transform_reduce(v, "x * 2", Combine::sum) == 30000);
    const Counters again = r.counters();
    CHECK(again.programs_built == warm.programs_built);
    CHECK(again.kernels_created == warm.kernels_created);
    CHECK(again.buffers_allocated == warm.buffers_allocated);
    // Another text is another program, with its own result.
    CHECK(r.transform_reduce(v, "x * 5", Combine::sum) == 75000);
    CHECK(r.counters().programs_built > warm.programs_built);
}

TEST_CASE("transform expressions print one canonical text: spellings of one tree share a program",
          "[ops][transform][reuse]") {
    Reducer r(default_device());
    std::vector<std::int32_t> v(5000, 3);
    CHECK(r.transform_reduce(v, "x * 2 + 1", Combine::sum) == 35000);
    const Counters warm = r.counters();
    CHECK(r.transform_reduce(v, "x*2+1", Combine::sum) == 35000);
    CHECK(r.transform_reduce(v, "((x) * (2)) + 1", Combine::sum) == 35000);
    CHECK(r.counters().programs_built == warm.programs_built);
}

TEST_CASE("expressions are typed like the reduction: x and its literals in the accumulator", "[ops][transform]") {
    Reducer& r = reducer();
    // "x*x" of int32 is evaluated in int64: equal to sum_of_squares, not wrapped in 32 bits.
    const std::vector<std::int32_t> big{100000, 3};
    CHECK(r.transform_reduce(big, "x*x", Combine::sum) == 10000000009);
    CHECK(r.transform_reduce(big, "x*x", Combine::sum) == std::int64_t(r.sum_of_squares(big)));
    // Unsigned data minus a larger constant is negative (int64), not a huge unsigned value.
    const std::vector<std::uint8_t> bytes{200, 100};
    CHECK(r.transform_reduce(bytes, "x - 150", Combine::min) == -50);
    CHECK(r.transform_reduce(bytes, "x - 150", Combine::max) == 50);
    CHECK(r.transform_reduce(bytes, "x - 150", Combine::sum) == 0);
    CHECK(r.plan_transform(ElementType::uint8, Combine::min, 2).accumulator == ElementType::int64);
    // uint64 data stays unsigned: its values do not fit int64.
    CHECK(r.plan_transform(ElementType::uint64, Combine::sum, 2).accumulator == ElementType::uint64);
    // A named accumulator is x's type too: an int32 one wraps x*x modulo 2^32 (asked for).
    LaunchParams narrow;
    narrow.accumulator = ElementType::int32;
    narrow.overflow = IntegerOverflow::wrap;
    CHECK(r.transform_reduce(big, "x*x", Combine::sum, narrow) == std::int64_t(std::int32_t(1410065408) + 9));
    // Literals are weak: an integer literal in a built-in takes x's type, a float literal too
    // where that type is floating.
    CHECK(r.transform_reduce(big, "clamp(x, -100, 100)", Combine::sum) == 103);
    const std::vector<float> halves{0.5f, 1.5f};
    if (r.device_info().has_fp64) CHECK(r.transform_reduce(halves, "fma(x, 2.0f, 1)", Combine::sum) == 6.0);
    CHECK(r.transform_reduce(big, "x * 0.5f", Combine::sum) == 50001);  // (long)50000.0f + (long)1.5f
}

TEST_CASE("a named 32-bit accumulator types x whatever state carries the sum", "[ops][transform][exact-integer]") {
    Reducer& r = reducer();
    // uint8 data, x in uint32: x - 150 of 100 is 2^32 - 50, summed exactly, for one element
    // (the uint32 itself) and for many (a 128-bit state, x still uint32).
    LaunchParams narrow;
    narrow.accumulator = ElementType::uint32;
    const std::uint64_t seed = seed_for(42, 4);
    INFO("data seed " << seed);
    std::mt19937_64 rng(seed);
    for (const std::uint64_t n : {1, 2, 3, 1000, 100003}) {
        INFO("n = " << n);
        std::vector<std::uint8_t> bytes(n, 100);
        if (n > 3)
            for (auto& b : bytes) b = static_cast<std::uint8_t>(rng());
        std::int64_t expected = 0;
        for (std::uint8_t b : bytes) expected += std::int64_t(std::uint32_t(b) - 150u);
        CallInfo info;
        CHECK(r.transform_reduce(bytes, "x - 150", Combine::sum, narrow, &info) == expected);
        CHECK(info.plan.expression_type == ElementType::uint32);
        if (n > 1) CHECK(info.plan.exact_integer_bits == 128);
        // A literal in x's type: 150 is a uint32 too, so "150 - x" wraps the same way.
        std::int64_t reversed = 0;
        for (std::uint8_t b : bytes) reversed += std::int64_t(150u - std::uint32_t(b));
        CHECK(r.transform_reduce(bytes, "150 - x", Combine::sum, narrow) == reversed);
        // Segments take the same type: one segment of the whole.
        const cl::Buffer buffer = device_copy(r, bytes);
        CHECK(r.transform_reduce<std::uint8_t>(buffer, 0, Segments::batch(1, n), "x - 150", Combine::sum, narrow) ==
              std::vector<std::int64_t>{expected});
    }
    CHECK(r.transform_reduce(std::vector<std::uint8_t>{100}, "x - 150", Combine::sum, narrow) == 4294967246);
    CHECK(r.transform_reduce(std::vector<std::uint8_t>{100, 100}, "x - 150", Combine::sum, narrow) == 8589934492);
    // int32: the literal 0xFFFFFFFF is an int (-1), so x & it is x; in a long it would be
    // x modulo 2^32 (4294967295 for -1).
    LaunchParams signed32;
    signed32.accumulator = ElementType::int32;
    const std::vector<std::int32_t> negative{-1, -2, -3};
    CallInfo info;
    CHECK(r.transform_reduce(negative, "x & 0xFFFFFFFF", Combine::sum, signed32, &info) == -6);
    CHECK(info.plan.exact_integer_bits == 128);
    CHECK(r.transform_reduce(negative, "x & 0xFFFFFFFF", Combine::sum) == 3 * 4294967296LL - 6);
}

TEST_CASE("float-only built-ins over integers and literals beyond double are refused on the host",
          "[ops][transform][errors]") {
    Reducer& r = reducer();
    const std::vector<std::int32_t> ints{1, 2, 3};
    for (const std::string text : {"exp(x)", "pow(x, 2)", "mad(x, x, x)", "fma(x, x, x)"}) {
        INFO(text);
        const std::string name = text.substr(0, text.find('('));
        CHECK_THROWS_WITH(r.transform_reduce(ints, text, Combine::sum),
                          Catch::Contains("function '" + name + "' at column 1") && Catch::Contains("x is long") &&
                              Catch::Contains(name + "((double)x"));
        LaunchParams narrow;
        narrow.accumulator = ElementType::int32;
        CHECK_THROWS_WITH(r.transform_reduce(ints, text, Combine::sum, narrow), Catch::Contains("x is int"));
    }
    CHECK_THROWS_WITH(r.transform_reduce(ints, "1e999 + x", Combine::sum),
                      Catch::Contains("'1e999' at column 1 (outside double's range)"));
    // The conversion the message names works, and float data take the functions as they are.
    CHECK(r.transform_reduce(ints, "(long)exp2((float)x)", Combine::sum) == 14);
    CHECK(r.transform_reduce(ints, "pow((float)x, 2)", Combine::max) == 9);
    const std::vector<float> floats{1.0f, 2.0f};
    CHECK(r.transform_reduce(floats, "pow(x, 2)", Combine::sum) == 5.0);
}

// The integer division and remainder of docs/expression-language.md: 0 for a zero divisor (as
// numpy gives), MIN / -1 wraps to MIN and MIN % -1 is 0; C's truncation otherwise.
template <class I>
I defined_div(I a, I b) {
    using U = std::make_unsigned_t<I>;
    if (b == 0) return 0;
    if constexpr (std::is_signed_v<I>)
        if (b == -1) return static_cast<I>(U(0) - static_cast<U>(a));
    return a / b;
}
template <class I>
I defined_rem(I a, I b) {
    if (b == 0) return 0;
    if constexpr (std::is_signed_v<I>)
        if (b == -1) return 0;
    return a % b;
}

TEST_CASE("integer division by a zero divisor gives 0 and MIN / -1 gives MIN, in every integer type of x",
          "[ops][transform]") {
    Reducer& r = reducer();
    const std::uint64_t seed = seed_for(35);
    INFO("data seed " << seed);
    std::mt19937_64 rng(seed);
    // int64 data (x is long): many zeros and -1s, and the ends of the type.
    std::vector<std::int64_t> longs(4099);
    for (auto& v : longs) v = static_cast<std::int64_t>(rng() % 21) - 10;
    longs[5] = std::numeric_limits<std::int64_t>::min();
    longs[6] = std::numeric_limits<std::int64_t>::max();
    const auto over = [&](auto f) {
        std::vector<std::int64_t> out;
        for (const std::int64_t x : longs) out.push_back(f(x));
        return out;
    };
    const auto total = [](const std::vector<std::int64_t>& v) {
        std::int64_t s = 0;
        for (const std::int64_t x : v) s += x;
        return s;
    };
    const auto lowest = [](const std::vector<std::int64_t>& v) { return *std::min_element(v.begin(), v.end()); };
    const auto highest = [](const std::vector<std::int64_t>& v) { return *std::max_element(v.begin(), v.end()); };
    const auto dd = defined_div<std::int64_t>;
    const auto dr = defined_rem<std::int64_t>;
    CHECK(r.transform_reduce(longs, "1000 / x", Combine::sum) ==
          total(over([&](std::int64_t x) { return dd(1000, x); })));
    CHECK(r.transform_reduce(longs, "1000 % x", Combine::sum) ==
          total(over([&](std::int64_t x) { return dr(1000, x); })));
    CHECK(r.transform_reduce(longs, "x / x", Combine::sum) == total(over([&](std::int64_t x) { return dd(x, x); })));
    CHECK(r.transform_reduce(longs, "x % (x & 3)", Combine::min) ==
          lowest(over([&](std::int64_t x) { return dr(x, x & 3); })));
    CHECK(r.transform_reduce(longs, "x / (x & 3)", Combine::max) ==
          highest(over([&](std::int64_t x) { return dd(x, x & 3); })));
    CHECK(r.transform_reduce(longs, "x / (x - x)", Combine::max) == 0);
    // MIN / -1 and MIN % -1, with -1 a constant and in the data.
    CHECK(r.transform_reduce(longs, "x / -1", Combine::min) == std::numeric_limits<std::int64_t>::min());
    CHECK(r.transform_reduce(longs, "x % -1", Combine::max) == 0);
    CHECK(r.transform_reduce(longs, "(-9223372036854775807 - 1) / (x < 0 ? -1 : 1)", Combine::max) ==
          std::numeric_limits<std::int64_t>::min());
    CHECK(r.transform_reduce(longs, "(-9223372036854775807 - 1) % (x < 0 ? -1 : 1)", Combine::min) == 0);
    // int32 data: x is long, and (int) casts divide in int.
    const std::vector<std::int32_t> ints{0, 7, -1, std::numeric_limits<std::int32_t>::min(), 3, 0};
    std::int64_t by_x = 0, in_int = 0;
    for (const std::int32_t x : ints) {
        by_x += defined_div<std::int64_t>(100, x);
        in_int += defined_div<std::int32_t>(std::numeric_limits<std::int32_t>::min(), x);
    }
    CHECK(r.transform_reduce(ints, "100 / x", Combine::sum) == by_x);
    CHECK(r.transform_reduce(ints, "(int)-2147483648 / (int)x", Combine::sum) == in_int);
    // uint8 data with a uint32 accumulator: x is uint.
    LaunchParams u32;
    u32.accumulator = ElementType::uint32;
    const std::vector<std::uint8_t> bytes{0, 1, 2, 200, 0, 255};
    std::int64_t quotients = 0, remainders = 0;
    for (const std::uint8_t b : bytes) {
        quotients += defined_div<std::uint32_t>(4000000000u, b);
        remainders += defined_rem<std::uint32_t>(b, b & 7u);
    }
    CHECK(r.transform_reduce(bytes, "4000000000 / x", Combine::sum, u32) == quotients);
    CHECK(r.transform_reduce(bytes, "x % (x & 7)", Combine::sum, u32) == remainders);
    // uint64 data (x is ulong): -1 is 2^64 - 1, a divisor like any other.
    const std::vector<std::uint64_t> wide{0, 5, ~std::uint64_t(0)};
    CHECK(r.transform_reduce(wide, "x / -1", Combine::max) == 1);
    CHECK(r.transform_reduce(wide, "1000 / x", Combine::sum) == 200);
    // Floating x divides as IEEE does: no guard, and x / 0 is accepted.
    const std::vector<float> floats{1.0f, -2.0f};
    CHECK(r.transform_reduce(floats, "x / 0", Combine::max) == std::numeric_limits<double>::infinity());
    CHECK(r.transform_reduce(floats, "x / 0", Combine::min) == -std::numeric_limits<double>::infinity());
    // A constant zero divisor of integers is refused before anything is compiled.
    const Counters before = r.counters();
    CHECK_THROWS_WITH(r.transform_reduce(longs, "x / (2 - 2)", Combine::sum),
                      Catch::Contains("integer division by zero: the divisor of '/' at column 3 is a constant 0"));
    CHECK_THROWS_WITH(r.transform_reduce(floats, "(int)x % (int)0", Combine::sum),
                      Catch::Contains("the divisor of '%' at column 8"));
    CHECK(r.counters().programs_built == before.programs_built);
}

// A random expression of integer literals, operators, casts and ?: (no x): a divisor to fold.
std::string constant_expression(std::mt19937_64& rng, int depth) {
    static const char* const literals[] = {"0",
                                           "1",
                                           "2",
                                           "3",
                                           "7",
                                           "255",
                                           "256",
                                           "65535",
                                           "65536",
                                           "0x7fffffff",
                                           "0x80000000",
                                           "0xffffffff",
                                           "0x100000000",
                                           "0x7fffffffffffffff",
                                           "0xffffffffffffffff",
                                           "(int)0.5f",
                                           "(long)-0.75",
                                           "(uint)2.5"};
    static const char* const casts[] = {"(char)", "(uchar)", "(short)", "(ushort)",
                                        "(int)",  "(uint)",  "(long)",  "(ulong)"};
    static const char* const unary[] = {"-", "~", "!"};
    static const char* const binary[] = {"+",  "-",  "*", "/",  "%",  "&",  "|", "^",
                                         "<<", ">>", "<", "==", "!=", "&&", "||"};
    const auto pick = [&rng](const auto& list) { return std::string(list[rng() % std::size(list)]); };
    if (depth == 0 || rng() % 4 == 0) return pick(literals);
    switch (rng() % 5) {
        case 0: return pick(casts) + "(" + constant_expression(rng, depth - 1) + ")";
        case 1: return pick(unary) + "(" + constant_expression(rng, depth - 1) + ")";
        case 2:
            return "(" + constant_expression(rng, depth - 1) + " ? " + constant_expression(rng, depth - 1) + " : " +
                   constant_expression(rng, depth - 1) + ")";
        default:
            return "(" + constant_expression(rng, depth - 1) + " " + pick(binary) + " " +
                   constant_expression(rng, depth - 1) + ")";
    }
}

// For random constant divisors d: the host refuses "x / d" only where the device computes d as 0,
// and prints it unguarded only where the device computes d as a value it is defined for. The
// device's values come 16 at a time, as the bits of one transform of one element.
template <class T>
void check_folded_divisors(const Reducer& r, const LaunchParams& params, std::mt19937_64& rng, int expressions) {
    CallInfo info;
    r.transform_reduce(std::vector<T>{T(0)}, "x", Combine::sum, params, &info);
    const std::string x(opencl_type_name(info.plan.expression_type));
    INFO("x is " << x);
    int refused = 0, plain = 0, guarded = 0, checked = 0;
    std::vector<std::string> batch;
    const auto flush = [&] {
        std::string bits;
        for (std::size_t k = 0; k < batch.size(); ++k)
            bits += (k == 0 ? "" : " + ") + std::to_string(1u << k) + " * ((" + batch[k] + ") == 0)";
        const auto value =
            static_cast<std::uint64_t>(r.transform_reduce(std::vector<T>{T(0)}, bits, Combine::sum, params));
        for (std::size_t k = 0; k < batch.size(); ++k) {
            const bool zero = ((value >> k) & 1u) != 0;
            const std::string division = "x / (" + batch[k] + ")";
            INFO(division << ": the device computes its divisor as " << (zero ? "0" : "nonzero"));
            bool is_refused = false;
            try {
                transform_source(division, x);
            } catch (const InvalidArgument& e) {
                CHECK_THAT(e.what(), Catch::Contains("integer division by zero"));
                is_refused = true;
            }
            const bool is_plain =
                !is_refused && transform_kernel_text(transform_source(division, x), x).rfind("(x / ", 0) == 0;
            if (is_refused) CHECK(zero);
            if (is_plain) CHECK_FALSE(zero);
            refused += is_refused;
            plain += is_plain;
            guarded += !is_refused && !is_plain;
            ++checked;
        }
        batch.clear();
    };
    for (int k = 0; k < expressions; ++k) {
        const std::string d = constant_expression(rng, 3);
        try {
            transform_source("(" + d + ") == 0", x);  // no zero divisor inside it
        } catch (const InvalidArgument&) {
            continue;
        }
        std::size_t length = d.size();
        for (const std::string& b : batch) length += b.size() + 24;
        if (length > 3500) flush();  // within the 4096 characters of an expression
        batch.push_back(d);
        if (batch.size() == 16) flush();
    }
    if (!batch.empty()) flush();
    WARN("x " << x << ": " << checked << " constant divisors, " << refused << " refused (0), " << plain
              << " unguarded (a constant it is defined for), " << guarded << " guarded (not folded, or -1)");
    CHECK(refused > 0);
    CHECK(plain > 0);
}

TEST_CASE("constant divisors are folded as the OpenCL compiler computes them", "[ops][transform]") {
    Reducer& r = reducer();
    const std::uint64_t seed = seed_for(36);
    INFO("expression seed " << seed);
    std::mt19937_64 rng(seed);
    check_folded_divisors<std::int32_t>(r, {}, rng, 96);   // x is long
    check_folded_divisors<std::uint64_t>(r, {}, rng, 64);  // ulong
    LaunchParams int32;
    int32.accumulator = ElementType::int32;
    check_folded_divisors<std::int8_t>(r, int32, rng, 64);  // int
    LaunchParams uint32;
    uint32.accumulator = ElementType::uint32;
    check_folded_divisors<std::uint8_t>(r, uint32, rng, 64);  // uint
}

TEST_CASE("casts, literals and built-ins of the transform language compile and match the CPU", "[ops][transform]") {
    print_seed();
    Reducer& r = reducer();
    const std::uint64_t n = 4099;
    const auto ints = op_values<std::int32_t>(n, seed_for(33));
    const auto sum_of = [&ints](auto f) {
        std::int64_t total = 0;
        for (std::int32_t x : ints) total += f(x);
        return total;
    };
    CHECK(r.transform_reduce(ints, "(unsigned int)x >> 3u", Combine::sum) ==
          sum_of([](std::int32_t x) { return std::int64_t(std::uint32_t(x) >> 3u); }));
    CHECK(r.transform_reduce(ints, "clamp(x, -100, 0x64)", Combine::sum) ==
          sum_of([](std::int32_t x) { return std::clamp(x, -100, 100); }));
    CHECK(r.transform_reduce(ints, "convert_uchar_sat(x)", Combine::sum) ==
          sum_of([](std::int32_t x) { return std::clamp(x, 0, 255); }));
    CHECK(r.transform_reduce(ints, "x % 7 == 0 ? -1 : !x + ~x & 010", Combine::sum) ==
          sum_of([](std::int32_t x) { return x % 7 == 0 ? -1 : ((x == 0) + ~x) & 8; }));
    const std::int64_t highest = *std::max_element(ints.begin(), ints.end());
    CHECK(r.transform_reduce(ints, "select(0, (long)abs_diff(x, 5), (long)(x > 5))", Combine::max) ==
          std::max<std::int64_t>(0, highest - 5));
    // Floats: a hexadecimal float literal, fma and a cast to int; exact in the accumulator.
    std::vector<float> floats(n);
    for (std::size_t i = 0; i < n; ++i) floats[i] = float(ints[i] % 1000) * 0.25f;
    long double expected = 0;
    for (float x : floats) expected += (int)std::fma(double(x), 2.0, 0x1p-2);
    CHECK(r.transform_reduce(floats, "(int)fma(x, 2.0f, 0x1p-2f)", Combine::sum) == double(expected));
}

TEST_CASE("transform text outside the expression language is refused before compiling, type errors carry the log",
          "[ops][transform][errors]") {
    Reducer& r = reducer();
    const std::vector<float> v(64, 1.0f);
    const auto rejected = [&](const std::string& text, const std::string& why) {
        INFO("expression: " << text);
        CHECK_THROWS_AS(r.transform_reduce(v, text, Combine::sum), InvalidArgument);
        CHECK_THROWS_WITH(r.transform_reduce(v, text, Combine::sum), Catch::Contains(why));
    };
    // Memory, synchronisation, the work-item and changes to x.
    rejected("*(__global int*)8 = 1", "unexpected '*' at column 1");
    rejected("atomic_inc((volatile __global int*)0)", "unknown identifier 'atomic_inc' at column 1");
    rejected("vload4(0, (__global int*)0).x", "unknown identifier 'vload4' at column 1");
    rejected("(barrier(CLK_GLOBAL_MEM_FENCE), x)", "unknown identifier 'barrier' at column 2");
    rejected("x = 0", "unexpected '=' at column 3");
    rejected("x++", "unexpected '++' at column 2");
    rejected("(x = 7) + x", "unexpected '=' at column 4");
    rejected("x, 0", "unexpected ',' at column 2");
    rejected("&x ? 1 : 0", "unexpected '&' at column 1");
    rejected("(int)get_global_id(0)", "unknown identifier 'get_global_id' at column 6");
    // Text that would leave its slot in the kernel.
    rejected("x; }  __kernel void evil(__global int* p) { p[0] = 1; ", "unexpected ';' at column 2");
    rejected("x; x", "unexpected ';' at column 2");
    rejected("({ x; })", "unexpected '{' at column 2");
    rejected("x }", "unexpected '}' at column 3");
    rejected("#define y 1", "unexpected '#' at column 1");
    rejected("x /* comment */", "unexpected '/*' at column 3");
    rejected("x // comment", "unexpected '//' at column 3");
    rejected("x \\\n + 1", "unexpected character '\\' at column 3");
    rejected("x\n+ 1", "unexpected byte 0x0a at column 2");
    rejected("(x + 1", "unexpected end of expression at column 7");
    rejected("x + 1)", "unexpected ')' at column 6");
    rejected("x[0]]", "unexpected '[' at column 2");
    rejected("x <% %>", "unexpected '%' at column 4");  // digraph braces
    rejected(
        "x ?"
        "?< ?"
        "?>",
        "unexpected '?' at column 4");  // trigraph braces (split so the C++ compiler does not see a trigraph)
    rejected("\"text\"", "unexpected character '\"' at column 1");
    rejected("", "empty");
    rejected("   ", "empty");
    rejected("no_such_function(x)", "unknown identifier 'no_such_function' at column 1");
    rejected("x +* 2", "unexpected '*' at column 4");
    rejected("pow(x)", "function 'pow' at column 1 takes 2 arguments, given 1");
    rejected("x + 1e", "malformed number '1e' at column 5");
    // Well formed but ill typed: the compiler's log says why.
    try {
        r.transform_reduce(v, "clz(x)", Combine::sum);
        FAIL("clz of a float compiled");
    } catch (const BuildError& e) {
        CHECK_THAT(e.log(), Catch::Contains("clz"));
    }
    // The reducer still works after a failed build.
    CHECK(r.transform_reduce(v, "x + 1", Combine::sum) == 128.0);
}

}  // namespace clreduce::test
