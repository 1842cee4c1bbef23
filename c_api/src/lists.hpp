#pragma once
// The C API's enumerations, each mapped to the library's by one list (convert.cpp checks them
// against the library's lists; reduce.cpp makes the named calls from the first).
// X(C enumerator, library enumerator), in the C values' order.
#define CLREDUCE_C_OPERATIONS(X)               \
    X(CLREDUCE_SUM, sum)                       \
    X(CLREDUCE_PRODUCT, product)               \
    X(CLREDUCE_MIN, min)                       \
    X(CLREDUCE_MAX, max)                       \
    X(CLREDUCE_MINMAX, minmax)                 \
    X(CLREDUCE_ARGMIN, argmin)                 \
    X(CLREDUCE_ARGMAX, argmax)                 \
    X(CLREDUCE_COUNT_NONZERO, count_nonzero)   \
    X(CLREDUCE_MEAN, mean)                     \
    X(CLREDUCE_SUM_OF_SQUARES, sum_of_squares) \
    X(CLREDUCE_NORM_L1, norm_l1)               \
    X(CLREDUCE_NORM_L2, norm_l2)               \
    X(CLREDUCE_NORM_INF, norm_inf)             \
    X(CLREDUCE_STATISTICS, statistics)         \
    X(CLREDUCE_BIT_AND, bit_and)               \
    X(CLREDUCE_BIT_OR, bit_or)                 \
    X(CLREDUCE_BIT_XOR, bit_xor)               \
    X(CLREDUCE_ALL, all)                       \
    X(CLREDUCE_ANY, any)                       \
    X(CLREDUCE_ARGMINMAX, argminmax)

#define CLREDUCE_C_TYPES(X)      \
    X(CLREDUCE_INT8, int8)       \
    X(CLREDUCE_UINT8, uint8)     \
    X(CLREDUCE_INT16, int16)     \
    X(CLREDUCE_UINT16, uint16)   \
    X(CLREDUCE_INT32, int32)     \
    X(CLREDUCE_UINT32, uint32)   \
    X(CLREDUCE_INT64, int64)     \
    X(CLREDUCE_UINT64, uint64)   \
    X(CLREDUCE_FLOAT16, float16) \
    X(CLREDUCE_FLOAT32, float32) \
    X(CLREDUCE_FLOAT64, float64)
