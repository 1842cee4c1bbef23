/* clreduce from C (docs/c-api.md): a reducer on the default device, a sum, an argmax, row sums
 * of a matrix, and an error with its message. */
#include <stdio.h>

#include <clreduce/clreduce.h>

int main(void) {
    clreduce_reducer* reducer = NULL;
    clreduce_value value, rows[3];
    clreduce_segments segments = {0};
    int32_t numbers[1000];
    const float matrix[3][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}};
    int i;

    if (clreduce_reducer_create(NULL, &reducer) != CLREDUCE_SUCCESS) {
        fprintf(stderr, "no reducer: %s\n", clreduce_last_error());
        return 1;
    }
    for (i = 0; i < 1000; ++i) numbers[i] = i;

    /* The core call, by name: the sum of int32 data is an exact int64. */
    if (clreduce_sum(reducer, CLREDUCE_INT32, numbers, 1000, NULL, &value) != CLREDUCE_SUCCESS) return 1;
    printf("sum %lld\n", (long long)value.scalar.i64);

    /* The same call with the operation as a value: argmax gives the value and its index. */
    if (clreduce_reduce(reducer, CLREDUCE_ARGMAX, CLREDUCE_FLOAT32, matrix, 12, NULL, &value) != CLREDUCE_SUCCESS)
        return 1;
    printf("argmax %g at %llu\n", value.scalar.f32, (unsigned long long)value.index);

    /* One sum per row of the 3 x 4 matrix, in one call. */
    segments.kind = CLREDUCE_SEGMENTS_ROWS;
    segments.rows = 3;
    segments.cols = 4;
    if (clreduce_reduce_segments(reducer, CLREDUCE_SUM, CLREDUCE_FLOAT32, matrix, &segments, NULL, rows, 3) !=
        CLREDUCE_SUCCESS)
        return 1;
    printf("row sums %g %g %g\n", rows[0].scalar.f64, rows[1].scalar.f64, rows[2].scalar.f64);

    /* Errors are statuses with a message: min of nothing has no value. */
    if (clreduce_min(reducer, CLREDUCE_INT32, numbers, 0, NULL, &value) == CLREDUCE_INVALID_ARGUMENT)
        printf("error: %s\n", clreduce_last_error());

    clreduce_reducer_release(reducer);
    return 0;
}
