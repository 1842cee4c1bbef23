/* The segmented forms: batches, rows, columns, host and device CSR offsets, over host values
 * and a buffer at an offset, against the C references. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_api_tests.h"
#include "c_test_reference.h"

enum { kRows = 5, kCols = 7, kStep = 9 }; /* a 5 x 7 int32 matrix with rows 9 elements apart */

/* Checks results[s] against the reference of `op` over data[begin[s], begin[s] + length[s])
 * read every `stride` elements (columns); the reference reads a gathered copy. */
static void check_segments(clreduce_operation op, clreduce_type type, const int32_t* data, const uint64_t* begin,
                           const uint64_t* length, uint64_t stride, uint64_t segments, const clreduce_value* results,
                           const char* what) {
    int32_t gathered[64];
    uint64_t s, i;
    char label[160];
    for (s = 0; s < segments; ++s) {
        expected_value want;
        for (i = 0; i < length[s]; ++i) gathered[i] = data[begin[s] + i * stride];
        want = c_reference(op, type, gathered, 0, (size_t)length[s]);
        snprintf(label, sizeof label, "%s, segment %llu", what, (unsigned long long)s);
        c_check_value(&results[s], &want, label);
    }
}

void test_segments(const clreduce_reducer* reducer) {
    int32_t data[kRows * kStep + 4];
    uint64_t begin[kStep], length[kStep];
    const uint64_t offsets[5] = {0, 4, 4, 20, 31}; /* an empty segment among them */
    clreduce_value results[kStep + 1];
    clreduce_segments seg;
    cl_mem buffer, device_offsets;
    uint64_t s;

    c_fill(CLREDUCE_INT32, CLREDUCE_SUM, data, sizeof data / sizeof data[0]);
    buffer = c_buffer(reducer, data, sizeof data);

    memset(&seg, 0, sizeof seg); /* rows of a padded matrix, host values */
    seg.kind = CLREDUCE_SEGMENTS_ROWS, seg.rows = kRows, seg.cols = kCols, seg.step_bytes = kStep * sizeof(int32_t);
    for (s = 0; s < kRows; ++s) begin[s] = s * kStep, length[s] = kCols;
    if (CHECK_STATUS(clreduce_reduce_segments(reducer, CLREDUCE_SUM, CLREDUCE_INT32, data, &seg, NULL, results, kStep),
                     CLREDUCE_SUCCESS, ""))
        check_segments(CLREDUCE_SUM, CLREDUCE_INT32, data, begin, length, 1, kRows, results, "row sums");

    seg.kind = CLREDUCE_SEGMENTS_COLUMNS; /* its columns, from a buffer at element 2 */
    for (s = 0; s < kCols; ++s) begin[s] = 2 + s, length[s] = kRows;
    if (CHECK_STATUS(clreduce_reduce_segments_buffer(reducer, CLREDUCE_SUM, CLREDUCE_INT32, buffer, 2, &seg, NULL,
                                                     results, kCols),
                     CLREDUCE_SUCCESS, ""))
        check_segments(CLREDUCE_SUM, CLREDUCE_INT32, data, begin, length, kStep, kCols, results, "column sums");

    memset(&seg, 0, sizeof seg); /* batches of 6, from a buffer at element 3 */
    seg.kind = CLREDUCE_SEGMENTS_BATCH, seg.count = 4, seg.length = 6;
    for (s = 0; s < 4; ++s) begin[s] = 3 + 6 * s, length[s] = 6;
    if (CHECK_STATUS(clreduce_reduce_segments_buffer(reducer, CLREDUCE_SUM, CLREDUCE_INT32, buffer, 3, &seg, NULL,
                                                     results, 4),
                     CLREDUCE_SUCCESS, ""))
        check_segments(CLREDUCE_SUM, CLREDUCE_INT32, data, begin, length, 1, 4, results, "batch sums");

    memset(&seg, 0, sizeof seg); /* host CSR offsets with an empty segment: argmax gives the index in the segment */
    seg.kind = CLREDUCE_SEGMENTS_OFFSETS, seg.count = 4, seg.offsets = offsets;
    for (s = 0; s < 4; ++s) begin[s] = offsets[s], length[s] = offsets[s + 1] - offsets[s];
    if (CHECK_STATUS(clreduce_reduce_segments(reducer, CLREDUCE_COUNT_NONZERO, CLREDUCE_INT32, data, &seg, NULL,
                                              results, kStep),
                     CLREDUCE_SUCCESS, ""))
        check_segments(CLREDUCE_COUNT_NONZERO, CLREDUCE_INT32, data, begin, length, 1, 4, results, "CSR nonzeros");
    CHECK_STATUS(clreduce_reduce_segments(reducer, CLREDUCE_ARGMAX, CLREDUCE_INT32, data, &seg, NULL, results, kStep),
                 CLREDUCE_INVALID_ARGUMENT, "segment 1");
    seg.offsets = offsets + 2, seg.count = 2; /* [4, 20), [20, 31) */
    if (CHECK_STATUS(clreduce_reduce_segments(reducer, CLREDUCE_ARGMAX, CLREDUCE_INT32, data, &seg, NULL, results,
                                              kStep),
                     CLREDUCE_SUCCESS, ""))
        check_segments(CLREDUCE_ARGMAX, CLREDUCE_INT32, data, begin + 2, length + 2, 1, 2, results, "CSR argmax");

    /* The same offsets in a device buffer, over the values' buffer at element 1. */
    device_offsets = c_buffer(reducer, offsets, sizeof offsets);
    memset(&seg, 0, sizeof seg);
    seg.kind = CLREDUCE_SEGMENTS_DEVICE_OFFSETS, seg.count = 3, seg.first = 1, seg.extent = 40;
    seg.device_offsets = device_offsets;
    for (s = 0; s < 3; ++s) begin[s] = 1 + offsets[s + 1], length[s] = offsets[s + 2] - offsets[s + 1];
    if (CHECK_STATUS(clreduce_reduce_segments_buffer(reducer, CLREDUCE_COUNT_NONZERO, CLREDUCE_INT32, buffer, 1, &seg,
                                                     NULL, results, 3),
                     CLREDUCE_SUCCESS, ""))
        check_segments(CLREDUCE_COUNT_NONZERO, CLREDUCE_INT32, data, begin, length, 1, 3, results,
                       "device CSR nonzeros");

    /* Too little room, a NULL list, a kind outside the enumeration. */
    CHECK_STATUS(clreduce_reduce_segments_buffer(reducer, CLREDUCE_COUNT_NONZERO, CLREDUCE_INT32, buffer, 1, &seg, NULL,
                                                 results, 2),
                 CLREDUCE_INVALID_ARGUMENT, "room for 2 results");
    CHECK_STATUS(clreduce_reduce_segments(reducer, CLREDUCE_SUM, CLREDUCE_INT32, data, NULL, NULL, results, kStep),
                 CLREDUCE_INVALID_ARGUMENT, "`segments` is NULL");
    CHECK_STATUS(clreduce_reduce_segments(reducer, CLREDUCE_SUM, CLREDUCE_INT32, data, &seg, NULL, NULL, kStep),
                 CLREDUCE_INVALID_ARGUMENT, "`results` is NULL");
    seg.kind = (clreduce_segments_kind)9;
    CHECK_STATUS(clreduce_reduce_segments(reducer, CLREDUCE_SUM, CLREDUCE_INT32, data, &seg, NULL, results, kStep),
                 CLREDUCE_INVALID_ARGUMENT, "not a clreduce_segments_kind");
    seg.kind = CLREDUCE_SEGMENTS_OFFSETS, seg.offsets = NULL;
    CHECK_STATUS(clreduce_reduce_segments(reducer, CLREDUCE_SUM, CLREDUCE_INT32, data, &seg, NULL, results, kStep),
                 CLREDUCE_INVALID_ARGUMENT, "`segments->offsets` is NULL");
    seg.kind = CLREDUCE_SEGMENTS_BATCH, seg.count = 2, seg.length = 3;
    CHECK_STATUS(clreduce_reduce_segments(reducer, CLREDUCE_SUM, CLREDUCE_INT32, NULL, &seg, NULL, results, kStep),
                 CLREDUCE_INVALID_ARGUMENT, "null");
    CHECK_STATUS(clreduce_reduce_segments_buffer(reducer, CLREDUCE_SUM, CLREDUCE_INT32, NULL, 0, &seg, NULL, results,
                                                 kStep),
                 CLREDUCE_INVALID_ARGUMENT, "`values` is NULL");
    CHECK_STATUS(clreduce_reduce_segments(NULL, CLREDUCE_SUM, CLREDUCE_INT32, data, &seg, NULL, results, kStep),
                 CLREDUCE_INVALID_ARGUMENT, "`reducer` is NULL");
    CHECK_STATUS(clreduce_reduce_segments_buffer(reducer, (clreduce_operation)25, CLREDUCE_INT32, buffer, 0, &seg, NULL,
                                                 results, kStep),
                 CLREDUCE_INVALID_ARGUMENT, "operation 25");
    clReleaseMemObject(device_offsets);
    clReleaseMemObject(buffer);
}
