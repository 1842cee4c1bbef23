#pragma once
// Calls an operation of clreduce by its Operation value on host data, for the float tests
// that loop over operations and modes, and the mode-by-mode error rule of each.
#include <string>
#include <vector>

#include <clreduce/clreduce.hpp>

#include "reference/op_reference.hpp"

namespace clreduce::test {

// The float modes in the order the tests and the report list them.
inline const std::vector<FloatMode>& float_modes() {
    static const std::vector<FloatMode> modes{FloatMode::deterministic, FloatMode::atomic, FloatMode::compensated,
                                              FloatMode::correctly_rounded};
    return modes;
}

inline testing::Summation summation_of(FloatMode mode) {
    switch (mode) {
        case FloatMode::compensated: return testing::Summation::compensated;
        case FloatMode::correctly_rounded: return testing::Summation::exact;
        default: return testing::Summation::plain;
    }
}

// The additive operations (the ones FloatMode applies to), whose results are one double.
inline const std::vector<Operation>& additive_operations() {
    static const std::vector<Operation> ops{Operation::sum, Operation::mean, Operation::sum_of_squares,
                                            Operation::norm_l1, Operation::norm_l2};
    return ops;
}

template <class T>
double run_additive(const Reducer& r, Operation op, const T* data, std::uint64_t n, const LaunchParams& p,
                    CallInfo* info = nullptr) {
    switch (op) {
        case Operation::sum: return r.sum<T>(data, n, p, info);
        case Operation::mean: return r.mean<T>(data, n, p, info);
        case Operation::sum_of_squares: return r.sum_of_squares<T>(data, n, p, info);
        case Operation::norm_l1: return r.norm_l1<T>(data, n, p, info);
        case Operation::norm_l2: return r.norm_l2<T>(data, n, p, info);
        default: throw std::logic_error("run_additive: not an additive operation");
    }
}

// The reference of an additive operation with the tolerance of `summation` in an
// accumulator of unit roundoff u. (sum_of_squares and norm_l2 have one rule for the plain
// and compensated modes: the compensated one is tighter, so this only checks it loosely.)
template <class T>
testing::Approx additive_reference(Operation op, const T* data, std::uint64_t n, long double u,
                                   testing::Summation summation) {
    switch (op) {
        case Operation::sum: return testing::reference_sum(data, n, u, summation);
        case Operation::mean: return testing::reference_mean(data, n, u, summation);
        case Operation::sum_of_squares: return testing::reference_sum_of_squares(data, n, u);
        case Operation::norm_l1: return testing::reference_norm_l1(data, n, u);
        case Operation::norm_l2: return testing::reference_norm_l2(data, n, u);
        default: throw std::logic_error("additive_reference: not an additive operation");
    }
}

}  // namespace clreduce::test
