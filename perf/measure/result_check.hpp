#pragma once
// How compare checks a reduction's results against the CPU reference of its data.
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "competitors/competitor.hpp"
#include "reference/sum_reference.hpp"
#include "report/compare_result.hpp"
#include "report/fingerprint.hpp"

namespace clreduce::perf {

// The exact (integers) or long double (floats) sum of one data set.
struct Reference {
    std::uint64_t n = 0;
    bool integral = true;
    long double exact = 0;
    testing::FloatReference floats;
    std::string fingerprint;
};

template <class T>
Reference make_reference(const std::vector<T>& data) {
    Reference r;
    r.n = data.size();
    if constexpr (std::is_integral_v<T>) {
        r.exact = static_cast<long double>(testing::exact_sum(data.data(), r.n));
    } else {
        r.integral = false;
        r.floats = testing::float_reference(data.data(), r.n);
    }
    r.fingerprint = data_fingerprint(data.data(), r.n * sizeof(T));
    return r;
}

// A float32 accumulation is called imprecise, not wrong, while it keeps 16 of float's 24 bits.
constexpr double kImpreciseRelativeError = 1.0 / 65536;

// Sets row.verdict, row.problem (the worst of all calls), row.relative_error (the largest)
// and row.value (the last call's) from the measurement's results (see Verdict).
void check_result(const Reference& ref, const Measurement& m, CompareRow& row);

}  // namespace clreduce::perf
