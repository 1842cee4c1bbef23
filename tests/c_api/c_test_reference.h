/* Exact references of the operations over the tests' data, computed in C, and their
 * comparison with a clreduce_value. */
#ifndef CLREDUCE_C_TEST_REFERENCE_H
#define CLREDUCE_C_TEST_REFERENCE_H

#include "c_test_support.h"

/* What a call should give; the numbers are exact doubles of the tests' small values, but for
 * statistics' mean and variance (one pass about a shift: within 1e-12 relative). */
typedef struct expected_value {
    clreduce_value_kind kind;
    clreduce_type type;
    double scalar, min, max, sum, mean, variance;
    uint64_t index, count, min_index, max_index;
    int boolean;
} expected_value;

/* `op` over elements [first, first + n) of `data` of `type`. */
expected_value c_reference(clreduce_operation op, clreduce_type type, const void* data, size_t first, size_t n);

/* Checks `got` against `want` field by field (and that the fields its kind does not use are 0);
 * prints `what` with each difference. Returns whether all agree. */
int c_check_value(const clreduce_value* got, const expected_value* want, const char* what);

#endif
