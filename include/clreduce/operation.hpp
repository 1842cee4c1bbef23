#pragma once
#include <string_view>

namespace clreduce {

// The one list of operations: CLREDUCE_OPERATIONS(X, T) calls X(T, name, R) for each, R being its
// value's type for elements of type T (the Operation enumerator, the result_t<Op, T> of
// operation_result.hpp, and the library's instantiations all come from it). An operation's
// kernel plug-in, accumulator and rules are its row in src/ops/operation_table.cpp, in this
// order. Every one runs through the same three-level kernel (cl_kernels/reduce.cl).
// clang-format off
#define CLREDUCE_OPERATIONS(X, T)                                                                                    \
    X(T, sum, sum_type_t<T>)              /* empty: 0 */                                                             \
    X(T, product, sum_type_t<T>)          /* empty: 1 */                                                             \
    X(T, min, T)                          /* empty: InvalidArgument */                                               \
    X(T, max, T)                                                                                                     \
    X(T, minmax, MinMax<T>)                                                                                          \
    X(T, argmin, ArgResult<T>)            /* the lowest index of the extreme */                                      \
    X(T, argmax, ArgResult<T>)                                                                                       \
    X(T, argminmax, ArgMinMax<T>)         /* argmin and argmax of one pass */                                        \
    X(T, count_nonzero, std::uint64_t)    /* NaN counts, -0.0 does not */                                            \
    X(T, mean, double)                                                                                               \
    X(T, sum_of_squares, square_sum_t<T>)                                                                            \
    X(T, norm_l1, double)                                                                                            \
    X(T, norm_l2, double)                                                                                            \
    X(T, norm_inf, double)                                                                                           \
    X(T, statistics, Statistics<T>)       /* count, mean, variance, min and max of one pass */                       \
    X(T, bit_and, T)                      /* integer elements; empty: all bits set */                                \
    X(T, bit_or, T)                       /* empty: 0 */                                                             \
    X(T, bit_xor, T)                      /* empty: 0 */                                                             \
    X(T, all, bool)                       /* every element nonzero, as count_nonzero reads it; empty: true */        \
    X(T, any, bool)                       /* some element nonzero; empty: false */
// clang-format on

#define CLREDUCE_OPERATION_ENUMERATOR(T, name, R) name,
enum class Operation { CLREDUCE_OPERATIONS(CLREDUCE_OPERATION_ENUMERATOR, void) };
#undef CLREDUCE_OPERATION_ENUMERATOR

#define CLREDUCE_OPERATION_ONE(T, name, R) +1
// How many operations there are: Operation's values are 0 ... operation_count - 1.
inline constexpr int operation_count = 0 CLREDUCE_OPERATIONS(CLREDUCE_OPERATION_ONE, void);
#undef CLREDUCE_OPERATION_ONE

// Operations whose kernels behave alike for launch tuning: the tuning database keeps one
// entry per family, not per operation.
//   additive: an add combine (sum, mean, count_nonzero, sum_of_squares, norm_l1, norm_l2,
//             statistics, all, any)
//   extremum: a one-instruction combine in the element type (min, max, minmax, argmin, argmax,
//             argminmax, norm_inf, bit_and, bit_or, bit_xor)
//   product:  a multiply combine
enum class OperationFamily { additive, extremum, product };

std::string_view operation_name(Operation op);     // "sum", "argmin", ...
Operation parse_operation(std::string_view name);  // throws InvalidArgument
// One line: what the operation's value is (the Python package's docstring of its own call).
std::string_view operation_summary(Operation op);
OperationFamily operation_family(Operation op);
std::string_view family_name(OperationFamily family);  // "additive", "extremum", "product"
OperationFamily parse_family(std::string_view name);   // throws InvalidArgument

}  // namespace clreduce
