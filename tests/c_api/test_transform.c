/* transform_reduce with a combine of one's own: the built-in combines written as expressions
 * give the named calls' values, from host data and from a buffer, an empty range its identity,
 * and a refused combine or identity CLREDUCE_INVALID_ARGUMENT naming the column. */
#include <stdint.h>

#include "c_api_tests.h"

void test_transform(const clreduce_reducer* reducer) {
    int32_t data[1000];
    clreduce_value user, named;
    cl_mem buffer;
    size_t i;
    c_fill(CLREDUCE_INT32, CLREDUCE_SUM, data, 1000);
    if (CHECK_STATUS(clreduce_transform_reduce(reducer, CLREDUCE_INT32, data, 1000, "x", "a + b", "0", NULL, &user),
                     CLREDUCE_SUCCESS, "") &&
        CHECK_STATUS(clreduce_sum(reducer, CLREDUCE_INT32, data, 1000, NULL, &named), CLREDUCE_SUCCESS, ""))
        CHECK(user.kind == CLREDUCE_VALUE_SCALAR && user.type == CLREDUCE_INT64 && user.scalar.i64 == named.scalar.i64);
    if (CHECK_STATUS(clreduce_transform_reduce(reducer, CLREDUCE_INT32, data, 1000, "x", "max(a, b)",
                                               "-9223372036854775808", NULL, &user),
                     CLREDUCE_SUCCESS, "") &&
        CHECK_STATUS(clreduce_max(reducer, CLREDUCE_INT32, data, 1000, NULL, &named), CLREDUCE_SUCCESS, ""))
        CHECK(user.scalar.i64 == named.scalar.i32);
    buffer = c_buffer(reducer, data, sizeof data);
    if (buffer != NULL) {
        int32_t lowest = data[3];
        for (i = 3; i < 503; ++i) lowest = data[i] < lowest ? data[i] : lowest;
        if (CHECK_STATUS(clreduce_transform_reduce_buffer(reducer, CLREDUCE_INT32, buffer, 3, 500, "x", "min(a, b)",
                                                          "9223372036854775807", NULL, &user),
                         CLREDUCE_SUCCESS, ""))
            CHECK(user.scalar.i64 == lowest);
        clReleaseMemObject(buffer);
    }
    /* Empty: the identity. */
    if (CHECK_STATUS(clreduce_transform_reduce(reducer, CLREDUCE_FLOAT32, NULL, 0, "x", "a * b", "2.5", NULL, &user),
                     CLREDUCE_SUCCESS, ""))
        CHECK(user.type == CLREDUCE_FLOAT64 && user.scalar.f64 == 2.5);
    CHECK_STATUS(clreduce_transform_reduce(reducer, CLREDUCE_INT32, data, 10, "x", "a - b", "0", NULL, &user),
                 CLREDUCE_INVALID_ARGUMENT, "not symmetric in a and b");
    CHECK_STATUS(clreduce_transform_reduce(reducer, CLREDUCE_INT32, data, 10, "x", "a + c", "0", NULL, &user),
                 CLREDUCE_INVALID_ARGUMENT, "unknown identifier 'c' at column 5");
    CHECK_STATUS(clreduce_transform_reduce(reducer, CLREDUCE_INT32, data, 10, "x", "a + b", "0.5", NULL, &user),
                 CLREDUCE_INVALID_ARGUMENT, "'0.5' at column 1 is a floating-point literal");
    CHECK_STATUS(clreduce_transform_reduce(reducer, CLREDUCE_INT32, data, 10, "x", "a + b", NULL, NULL, &user),
                 CLREDUCE_INVALID_ARGUMENT, "identity");
}
