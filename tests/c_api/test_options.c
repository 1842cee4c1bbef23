/* Options (float mode, accumulator, overflow rule) and empty ranges. */
#include <stdint.h>
#include <string.h>

#include "c_api_tests.h"

void test_options_and_empty(const clreduce_reducer* reducer) {
    clreduce_options options;
    clreduce_value v;
    /* 1 + 2^-100 - 1: the correctly rounded sum is 2^-100 in every order of additions. */
    const float cancel[3] = {1.0f, 7.88860905e-31f, -1.0f};
    const float round[2] = {16777216.0f, 1.0f}; /* 2^24 + 1: a float rounds it to 2^24 */
    const int64_t big[2] = {INT64_MAX, 1};

    memset(&options, 0, sizeof options);
    options.float_mode = CLREDUCE_FLOAT_CORRECTLY_ROUNDED;
    if (CHECK_STATUS(clreduce_sum(reducer, CLREDUCE_FLOAT32, cancel, 3, &options, &v), CLREDUCE_SUCCESS, ""))
        CHECK(v.kind == CLREDUCE_VALUE_SCALAR && v.type == CLREDUCE_FLOAT64 && v.scalar.f64 == (double)cancel[1]);

    memset(&options, 0, sizeof options);
    if (CHECK_STATUS(clreduce_sum(reducer, CLREDUCE_FLOAT32, round, 2, &options, &v), CLREDUCE_SUCCESS, ""))
        CHECK(v.scalar.f64 == 16777217.0);
    options.accumulator = CLREDUCE_FLOAT32;
    if (CHECK_STATUS(clreduce_sum(reducer, CLREDUCE_FLOAT32, round, 2, &options, &v), CLREDUCE_SUCCESS, ""))
        CHECK(v.scalar.f64 == 16777216.0);

    memset(&options, 0, sizeof options);
    CHECK_STATUS(clreduce_sum(reducer, CLREDUCE_INT64, big, 2, &options, &v), CLREDUCE_OVERFLOW, "sum");
    options.overflow = CLREDUCE_OVERFLOW_WRAP; /* modulo 2^64, as C's unsigned arithmetic */
    if (CHECK_STATUS(clreduce_sum(reducer, CLREDUCE_INT64, big, 2, &options, &v), CLREDUCE_SUCCESS, ""))
        CHECK(v.type == CLREDUCE_INT64 && v.scalar.i64 == INT64_MIN);
    options.overflow = CLREDUCE_OVERFLOW_CHECK;
    CHECK_STATUS(clreduce_sum(reducer, CLREDUCE_INT64, big, 2, &options, &v), CLREDUCE_OVERFLOW, "int64");

    /* Empty ranges (a NULL pointer is fine with count 0): the identity, or refused. */
    if (CHECK_STATUS(clreduce_reduce(reducer, CLREDUCE_SUM, CLREDUCE_INT32, NULL, 0, NULL, &v), CLREDUCE_SUCCESS, ""))
        CHECK(v.type == CLREDUCE_INT64 && v.scalar.i64 == 0);
    if (CHECK_STATUS(clreduce_bit_and(reducer, CLREDUCE_UINT16, NULL, 0, NULL, &v), CLREDUCE_SUCCESS, ""))
        CHECK(v.type == CLREDUCE_UINT16 && v.scalar.u16 == 0xffffu);
    if (CHECK_STATUS(clreduce_all(reducer, CLREDUCE_INT32, NULL, 0, NULL, &v), CLREDUCE_SUCCESS, ""))
        CHECK(v.kind == CLREDUCE_VALUE_BOOL && v.boolean == 1);
    if (CHECK_STATUS(clreduce_product(reducer, CLREDUCE_FLOAT32, NULL, 0, NULL, &v), CLREDUCE_SUCCESS, ""))
        CHECK(v.type == CLREDUCE_FLOAT64 && v.scalar.f64 == 1.0);
    CHECK_STATUS(clreduce_min(reducer, CLREDUCE_INT32, NULL, 0, NULL, &v), CLREDUCE_INVALID_ARGUMENT, "empty");
    CHECK_STATUS(clreduce_mean(reducer, CLREDUCE_FLOAT64, NULL, 0, NULL, &v), CLREDUCE_INVALID_ARGUMENT, "empty");
}
