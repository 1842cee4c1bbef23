/* Partial bytes: made from host data and from a buffer, sized, merged (also in place), read as
 * the value of the whole; and refused where they do not fit or do not merge. */
#include <stdlib.h>
#include <string.h>

#include "c_api_tests.h"
#include "c_test_reference.h"

enum { kBytes = 4096 };

void test_partials(const clreduce_reducer* reducer) {
    enum { n = 1000, split = 377 };
    float data[n];
    unsigned char first[kBytes], later[kBytes], merged[kBytes], other[kBytes];
    size_t first_size = 0, later_size = 0, merged_size = 0, other_size = 0, size = 0;
    expected_value want;
    clreduce_value v;
    cl_mem buffer;

    c_fill(CLREDUCE_FLOAT32, CLREDUCE_ARGMAX, data, n);
    data[100] = 60, data[700] = 60; /* the largest value twice, one in each part: the first wins */
    want = c_reference(CLREDUCE_ARGMAX, CLREDUCE_FLOAT32, data, 0, n);
    CHECK(want.index == 100);
    buffer = c_buffer(reducer, data, sizeof data);

    /* The size alone, then the bytes: host data for the first part, the buffer for the later one. */
    CHECK_STATUS(clreduce_partial(reducer, CLREDUCE_ARGMAX, CLREDUCE_FLOAT32, data, split, NULL, NULL, 0, &size),
                 CLREDUCE_SUCCESS, "");
    CHECK_STATUS(clreduce_partial(reducer, CLREDUCE_ARGMAX, CLREDUCE_FLOAT32, data, split, NULL, first, kBytes,
                                  &first_size),
                 CLREDUCE_SUCCESS, "");
    CHECK(size == first_size && first_size > 0 && first_size < kBytes && memcmp(first, "CLRP", 4) == 0);
    CHECK_STATUS(clreduce_partial_buffer(reducer, CLREDUCE_ARGMAX, CLREDUCE_FLOAT32, buffer, split, n - split, NULL,
                                         later, kBytes, &later_size),
                 CLREDUCE_SUCCESS, "");
    CHECK(later_size == first_size);

    /* Each part's value, and the merge's: the whole's (index 100, not 700 - 377). */
    if (CHECK_STATUS(clreduce_partial_value(later, later_size, &v), CLREDUCE_SUCCESS, ""))
        CHECK(v.kind == CLREDUCE_VALUE_ARG && v.scalar.f32 == 60.0f && v.index == 700 - split);
    CHECK_STATUS(clreduce_partial_merge(first, first_size, later, later_size, merged, kBytes, &merged_size),
                 CLREDUCE_SUCCESS, "");
    if (CHECK_STATUS(clreduce_partial_value(merged, merged_size, &v), CLREDUCE_SUCCESS, ""))
        c_check_value(&v, &want, "argmax of merged partials");
    /* In place, into the first part's memory: the same bytes. */
    CHECK_STATUS(clreduce_partial_merge(first, first_size, later, later_size, first, kBytes, &size), CLREDUCE_SUCCESS,
                 "");
    CHECK(size == merged_size && memcmp(first, merged, size) == 0);

    /* An exact sum in two parts of int32 data gives the whole's. */
    {
        int32_t ints[n];
        c_fill(CLREDUCE_INT32, CLREDUCE_SUM, ints, n);
        want = c_reference(CLREDUCE_SUM, CLREDUCE_INT32, ints, 0, n);
        CHECK_STATUS(clreduce_partial(reducer, CLREDUCE_SUM, CLREDUCE_INT32, ints, split, NULL, other, kBytes,
                                      &other_size),
                     CLREDUCE_SUCCESS, "");
        CHECK_STATUS(clreduce_partial(reducer, CLREDUCE_SUM, CLREDUCE_INT32, ints + split, n - split, NULL, later,
                                      kBytes, &later_size),
                     CLREDUCE_SUCCESS, "");
        CHECK_STATUS(clreduce_partial_merge(other, other_size, later, later_size, later, kBytes, &later_size),
                     CLREDUCE_SUCCESS, "");
        if (CHECK_STATUS(clreduce_partial_value(later, later_size, &v), CLREDUCE_SUCCESS, ""))
            c_check_value(&v, &want, "sum of merged partials");
    }

    /* Refusals: too small a buffer (the size still given), partials that do not merge, bytes
     * that are not a partial, NULL pointers. */
    size = 0;
    CHECK_STATUS(clreduce_partial(reducer, CLREDUCE_ARGMAX, CLREDUCE_FLOAT32, data, split, NULL, first, first_size - 1,
                                  &size),
                 CLREDUCE_INVALID_ARGUMENT, "bytes (`capacity`)");
    CHECK(size == first_size);
    CHECK_STATUS(clreduce_partial_merge(merged, merged_size, other, other_size, first, kBytes, &size),
                 CLREDUCE_INVALID_ARGUMENT, "");
    CHECK_STATUS(clreduce_partial_merge(merged, merged_size, merged, merged_size, first, 8, &size),
                 CLREDUCE_INVALID_ARGUMENT, "capacity");
    merged[0] = 'X';
    CHECK_STATUS(clreduce_partial_value(merged, merged_size, &v), CLREDUCE_INVALID_ARGUMENT, "");
    CHECK_STATUS(clreduce_partial_value(NULL, 10, &v), CLREDUCE_INVALID_ARGUMENT, "`bytes` is NULL");
    CHECK_STATUS(clreduce_partial_value(other, other_size, NULL), CLREDUCE_INVALID_ARGUMENT, "`value` is NULL");
    CHECK_STATUS(clreduce_partial_merge(NULL, 0, other, other_size, first, kBytes, &size), CLREDUCE_INVALID_ARGUMENT,
                 "`first` is NULL");
    CHECK_STATUS(clreduce_partial_merge(other, other_size, NULL, 0, first, kBytes, &size), CLREDUCE_INVALID_ARGUMENT,
                 "`later` is NULL");
    CHECK_STATUS(clreduce_partial_merge(other, other_size, other, other_size, first, kBytes, NULL),
                 CLREDUCE_INVALID_ARGUMENT, "`size` is NULL");
    CHECK_STATUS(clreduce_partial(reducer, CLREDUCE_SUM, CLREDUCE_INT32, data, 1, NULL, first, kBytes, NULL),
                 CLREDUCE_INVALID_ARGUMENT, "`size` is NULL");
    CHECK_STATUS(clreduce_partial_buffer(reducer, CLREDUCE_SUM, CLREDUCE_INT32, NULL, 0, 1, NULL, first, kBytes, &size),
                 CLREDUCE_INVALID_ARGUMENT, "`buffer` is NULL");
    CHECK_STATUS(clreduce_partial(reducer, (clreduce_operation)77, CLREDUCE_INT32, data, 1, NULL, first, kBytes, &size),
                 CLREDUCE_INVALID_ARGUMENT, "operation 77");
    CHECK_STATUS(clreduce_partial(reducer, CLREDUCE_SUM, CLREDUCE_INT32, NULL, 5, NULL, first, kBytes, &size),
                 CLREDUCE_INVALID_ARGUMENT, "null");
    CHECK_STATUS(clreduce_partial(NULL, CLREDUCE_SUM, CLREDUCE_INT32, data, 1, NULL, first, kBytes, &size),
                 CLREDUCE_INVALID_ARGUMENT, "`reducer` is NULL");
    CHECK_STATUS(clreduce_partial_buffer(reducer, CLREDUCE_SUM, CLREDUCE_INT32, buffer, 0, 1, NULL, first, kBytes,
                                         NULL),
                 CLREDUCE_INVALID_ARGUMENT, "`size` is NULL");
    clReleaseMemObject(buffer);
}
