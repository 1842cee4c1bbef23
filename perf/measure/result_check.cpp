#include "measure/result_check.hpp"

#include <cmath>

#include <fmt/format.h>

namespace clreduce::perf {
namespace {

std::string number(long double v) { return fmt::format("{:.17g}", static_cast<double>(v)); }

}  // namespace

void check_result(const Reference& ref, const Measurement& m, CompareRow& row) {
    auto fail = [&](Verdict v, std::string why) {
        if (row.verdict == Verdict::wrong) return;
        if (v == Verdict::wrong || row.verdict == Verdict::correct) row.verdict = v, row.problem = std::move(why);
    };
    if (m.data_fingerprint && *m.data_fingerprint != ref.fingerprint)
        fail(Verdict::wrong,
             "it summed other data (fingerprint " + *m.data_fingerprint + ", expected " + ref.fingerprint + ")");
    const long double expected = ref.integral ? ref.exact : ref.floats.sum;
    for (long double got : m.values) {
        const long double error = std::fabs(got - expected);
        const double relative = expected != 0 ? double(error / std::fabs(expected)) : double(error);
        if (!std::isnan(row.relative_error) && !(relative <= row.relative_error)) row.relative_error = relative;
        if (ref.integral) {
            if (got != expected) fail(Verdict::wrong, "got " + number(got) + ", exact sum is " + number(expected));
            continue;
        }
        const long double bound = ref.floats.bound(ref.n, ElementType::float64);
        if (error <= bound) continue;
        const std::string what = fmt::format("got {}, reference {}, error {:.3g} > double-accumulation bound {:.3g}",
                                             number(got), number(expected), double(error), double(bound));
        if (m.accumulator == ElementType::float32 && relative <= kImpreciseRelativeError)
            fail(Verdict::imprecise, what + " (a float accumulation; relative error within 2^-16)");
        else
            fail(Verdict::wrong, what);
    }
    if (!m.values.empty()) row.value = m.values.back();
}

}  // namespace clreduce::perf
