#pragma once
// The lists the entry points are written out for: every element type, and every operation with
// the result type of its value. Each user defines its macro, applies the list, and undefines it
// (api/operations.cpp, api/segment_operations.cpp, api/partial.cpp, multi/multi_reducer.cpp).

// M(T) for every element type a Reducer takes.
#define CLREDUCE_FOR_EACH_ELEMENT_TYPE(M) \
    M(std::int8_t)                        \
    M(std::uint8_t)                       \
    M(std::int16_t)                       \
    M(std::uint16_t)                      \
    M(std::int32_t)                       \
    M(std::uint32_t)                      \
    M(std::int64_t)                       \
    M(std::uint64_t)                      \
    M(half)                               \
    M(float)                              \
    M(double)

// M(R, NAME, OP) for every operation whose value is read by NAME##_result<T>
// (api/operation_results.hpp): R is its value's type for elements of type T. argmin and argmax
// (one reader, arg_result) and transform_reduce (its own arguments) are written out apart.
#define CLREDUCE_FOR_EACH_VALUE_OPERATION(M)                      \
    M(sum_type_t<T>, sum, Operation::sum)                         \
    M(sum_type_t<T>, product, Operation::product)                 \
    M(T, min, Operation::min)                                     \
    M(T, max, Operation::max)                                     \
    M(MinMax<T>, minmax, Operation::minmax)                       \
    M(std::uint64_t, count_nonzero, Operation::count_nonzero)     \
    M(double, mean, Operation::mean)                              \
    M(square_sum_t<T>, sum_of_squares, Operation::sum_of_squares) \
    M(double, norm_l1, Operation::norm_l1)                        \
    M(double, norm_l2, Operation::norm_l2)                        \
    M(double, norm_inf, Operation::norm_inf)                      \
    M(Statistics<T>, statistics, Operation::statistics)
