// transform_reduce: users' element-wise expressions before a built-in combine, cached like
// the built-ins, and text that is not one expression refused.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "test_ops_support.hpp"

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
    for (float x : floats) {
        const float d = (x - 3.5f) * (x - 3.5f);  // the expression rounds in float, as on the device
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

TEST_CASE("transform expressions are cached by their text and repeated calls build nothing", "[ops][transform][reuse]") {
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

TEST_CASE("transform text that is not one expression is refused; compile errors carry the log",
          "[ops][transform][errors]") {
    Reducer& r = reducer();
    const std::vector<float> v(64, 1.0f);
    const auto rejected = [&](const std::string& text) {
        INFO("expression: " << text);
        CHECK_THROWS_AS(r.transform_reduce(v, text, Combine::sum), InvalidArgument);
    };
    rejected("x; }  __kernel void evil(__global int* p) { p[0] = 1; ");
    rejected("x; x");
    rejected("({ x; })");
    rejected("x }");
    rejected("#define y 1");
    rejected("x /* comment */");
    rejected("x // comment");
    rejected("x \\\n + 1");
    rejected("x\n+ 1");
    rejected("(x + 1");
    rejected("x + 1)");
    rejected("x[0]]");
    rejected("x <% %>");  // digraph braces
    rejected("x ?" "?< ?" "?>");  // trigraph braces (split so the C++ compiler does not see a trigraph)
    rejected("\"text\"");
    rejected("");
    rejected("   ");
    CHECK_THROWS_WITH(r.transform_reduce(v, "x; y", Combine::sum), Catch::Contains("';'"));
    try {
        r.transform_reduce(v, "no_such_function(x)", Combine::sum);
        FAIL("an unknown function compiled");
    } catch (const BuildError& e) {
        CHECK_THAT(e.log(), Catch::Contains("no_such_function"));
    }
    CHECK_THROWS_AS(r.transform_reduce(v, "x +* 2", Combine::sum), BuildError);
    // The reducer still works after a failed build.
    CHECK(r.transform_reduce(v, "x + 1", Combine::sum) == 128.0);
}

}  // namespace clreduce::test
