#pragma once
#include <string_view>

namespace clreduce {

// The reductions clreduce offers. Every one runs through the same three-level kernel
// (cl_kernels/reduce.cl), specialised with -D options.
enum class Operation {
    sum,
    product,
    min,
    max,
    minmax,
    argmin,
    argmax,
    count_nonzero,
    mean,
    sum_of_squares,
    norm_l1,
    norm_l2,
    norm_inf,
    statistics,  // count, mean, variance, min and max of one pass (Statistics, results.hpp)
};

// Operations whose kernels behave alike for launch tuning: the tuning database keeps one
// entry per family, not per operation.
//   additive: an add combine (sum, mean, count_nonzero, sum_of_squares, norm_l1, norm_l2,
//             statistics)
//   extremum: a compare combine (min, max, minmax, argmin, argmax, norm_inf)
//   product:  a multiply combine
enum class OperationFamily { additive, extremum, product };

std::string_view operation_name(Operation op);     // "sum", "argmin", ...
Operation parse_operation(std::string_view name);  // throws InvalidArgument
OperationFamily operation_family(Operation op);
std::string_view family_name(OperationFamily family);  // "additive", "extremum", "product"
OperationFamily parse_family(std::string_view name);   // throws InvalidArgument

}  // namespace clreduce
