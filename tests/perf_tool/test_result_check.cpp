// clreduce-perf compare's verdicts: exact integers, the double bound for floats, float32
// accumulations as imprecise within 2^-16, and every call and the data checked.
#include <catch2/catch.hpp>

#include <cmath>

#include "measure/result_check.hpp"

using namespace clreduce;
using namespace clreduce::perf;

namespace {

Measurement measured(std::vector<long double> values, ElementType accumulator = ElementType::float64) {
    Measurement m;
    m.values = std::move(values);
    m.accumulator = accumulator;
    return m;
}

CompareRow checked(const Reference& ref, const Measurement& m) {
    CompareRow row;
    check_result(ref, m, row);
    return row;
}

}  // namespace

TEST_CASE("integer results must be exact, in every call", "[compare]") {
    const std::vector<std::int64_t> data = {std::int64_t(1) << 62, std::int64_t(1) << 62, 5, -7};
    const Reference ref = make_reference(data);
    const long double exact = std::ldexp(1.0L, 63) - 2;  // needs all 64 bits
    CHECK(checked(ref, measured({exact, exact})).verdict == Verdict::correct);
    CHECK(checked(ref, measured({exact})).value == exact);
    const CompareRow off_by_one = checked(ref, measured({exact, exact - 1}));
    CHECK(off_by_one.verdict == Verdict::wrong);
    CHECK(off_by_one.problem.find("exact sum") != std::string::npos);
}

TEST_CASE("float results: correct within the double bound, imprecise or wrong beyond", "[compare]") {
    std::vector<float> data(4096);
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = float(i % 13) - 6.25f;
    const Reference ref = make_reference(data);
    const long double sum = ref.floats.sum;
    const long double bound = ref.floats.bound(data.size(), ElementType::float64);
    REQUIRE(std::fabs(sum) > 1000);

    CHECK(checked(ref, measured({sum})).verdict == Verdict::correct);
    CHECK(checked(ref, measured({sum + bound / 2})).verdict == Verdict::correct);
    // Just outside the double bound: a float32 accumulation is imprecise, a double one wrong.
    const long double slightly = sum + std::fabs(sum) * 1e-7L;
    REQUIRE(std::fabs(sum) * 1e-7L > bound);
    CHECK(checked(ref, measured({slightly}, ElementType::float32)).verdict == Verdict::imprecise);
    CHECK(checked(ref, measured({slightly}, ElementType::float64)).verdict == Verdict::wrong);
    // Beyond 2^-16 relative error even a float32 accumulation is wrong.
    const CompareRow far = checked(ref, measured({sum * (1 + 1e-3L)}, ElementType::float32));
    CHECK(far.verdict == Verdict::wrong);
    CHECK(far.relative_error == Approx(1e-3));
    CHECK(checked(ref, measured({NAN}, ElementType::float32)).verdict == Verdict::wrong);
    // The worst call decides.
    CHECK(checked(ref, measured({sum, slightly, sum}, ElementType::float32)).verdict == Verdict::imprecise);
    CHECK(checked(ref, measured({slightly, sum * 2, sum}, ElementType::float32)).verdict == Verdict::wrong);
}

TEST_CASE("a result from other data is wrong", "[compare]") {
    const std::vector<std::int32_t> data = {1, 2, 3};
    const Reference ref = make_reference(data);
    Measurement m = measured({6});
    m.data_fingerprint = ref.fingerprint;
    CHECK(checked(ref, m).verdict == Verdict::correct);
    const std::vector<std::int32_t> other = {3, 2, 1};  // same sum, other data
    m.data_fingerprint = make_reference(other).fingerprint;
    const CompareRow row = checked(ref, m);
    CHECK(row.verdict == Verdict::wrong);
    CHECK(row.problem.find("other data") != std::string::npos);
}
