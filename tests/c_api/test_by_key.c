/* reduce_by_key: runs of random lengths, keys of 1, 2, 4 and 8 bytes (signed ones, compared as
 * bits), over host arrays and buffers at offsets, against the C references; too little room,
 * no keys and bad arguments. */
#include <stdio.h>
#include <string.h>

#include "c_api_tests.h"
#include "c_test_reference.h"

enum { kCount = 3001, kMaxRuns = kCount, kKeyOffset = 3, kValueOffset = 5 };

/* Random runs (1 to 40 keys, a few of 400) of `key_size`-byte keys into keys[0, n): consecutive
 * runs differ by a key whose bits differ only in the top byte for 2 of 3 runs. Run r's first
 * element goes to begin[r]; returns the runs. */
static uint64_t make_runs(void* keys, size_t key_size, size_t n, uint64_t* begin) {
    uint64_t runs = 0, key = 0;
    size_t i = 0, k;
    while (i < n) {
        size_t length = (size_t)(c_test_uniform(0, 9) == 0 ? c_test_uniform(100, 400) : c_test_uniform(1, 40));
        key += (runs % 3 != 0) ? (uint64_t)1 << (8 * key_size - 1) : (uint64_t)c_test_uniform(1, 100);
        begin[runs++] = i;
        for (k = 0; k < length && i < n; ++k, ++i)
            memcpy((char*)keys + i * key_size, &key, key_size); /* little-endian low bytes */
    }
    return runs;
}

/* Checks the call's runs against the made ones: keys bit for bit, results against the reference. */
static void check_runs(clreduce_operation op, const int32_t* values, const void* keys, size_t key_size,
                       const uint64_t* begin, uint64_t runs, size_t n, const void* run_keys,
                       const clreduce_value* results, uint64_t got_runs, const char* what) {
    uint64_t r;
    char label[160];
    if (!CHECK(got_runs == runs)) {
        fprintf(stderr, "%s: %llu runs, expected %llu\n", what, (unsigned long long)got_runs, (unsigned long long)runs);
        return;
    }
    for (r = 0; r < runs; ++r) {
        const size_t end = r + 1 < runs ? (size_t)begin[r + 1] : n;
        expected_value want = c_reference(op, CLREDUCE_INT32, values, (size_t)begin[r], end - (size_t)begin[r]);
        snprintf(label, sizeof label, "%s, key size %u, run %llu", what, (unsigned)key_size, (unsigned long long)r);
        CHECK(memcmp((const char*)run_keys + r * key_size, (const char*)keys + begin[r] * key_size, key_size) == 0);
        c_check_value(&results[r], &want, label);
    }
}

void test_by_key(const clreduce_reducer* reducer) {
    static int32_t values[kCount + kValueOffset];
    static uint64_t keys[kCount + kKeyOffset], run_keys[kMaxRuns];
    static uint64_t begin[kMaxRuns];
    static clreduce_value results[kMaxRuns];
    const size_t key_sizes[4] = {1, 2, 4, 8};
    uint64_t runs, got = 0;
    size_t s;

    c_fill(CLREDUCE_INT32, CLREDUCE_SUM, values, kCount + kValueOffset);
    for (s = 0; s < 4; ++s) {
        const size_t key_size = key_sizes[s];
        cl_mem key_buffer, value_buffer;
        unsigned char* shifted = (unsigned char*)keys + kKeyOffset * key_size;
        runs = make_runs(keys, key_size, kCount, begin);
        if (CHECK_STATUS(clreduce_reduce_by_key(reducer, CLREDUCE_SUM, CLREDUCE_INT32, keys, key_size, values, kCount,
                                                NULL, run_keys, results, kMaxRuns, &got),
                         CLREDUCE_SUCCESS, ""))
            check_runs(CLREDUCE_SUM, values, keys, key_size, begin, runs, kCount, run_keys, results, got,
                       "host sums by key");
        /* The same keys from element kKeyOffset of a buffer, values from kValueOffset. */
        memmove(shifted, keys, kCount * key_size);
        key_buffer = c_buffer(reducer, keys, (kCount + kKeyOffset) * key_size);
        value_buffer = c_buffer(reducer, values, sizeof values);
        if (CHECK_STATUS(clreduce_reduce_by_key_buffer(reducer, CLREDUCE_ARGMAX, CLREDUCE_INT32, key_buffer, kKeyOffset,
                                                       key_size, value_buffer, kValueOffset, kCount, NULL, run_keys,
                                                       results, kMaxRuns, &got),
                         CLREDUCE_SUCCESS, ""))
            check_runs(CLREDUCE_ARGMAX, values + kValueOffset, shifted, key_size, begin, runs, kCount, run_keys,
                       results, got, "buffer argmax by key");
        if (CHECK_STATUS(clreduce_reduce_by_key_buffer(reducer, CLREDUCE_MIN, CLREDUCE_INT32, key_buffer, kKeyOffset,
                                                       key_size, value_buffer, kValueOffset, kCount, NULL, run_keys,
                                                       results, kMaxRuns, &got),
                         CLREDUCE_SUCCESS, ""))
            check_runs(CLREDUCE_MIN, values + kValueOffset, shifted, key_size, begin, runs, kCount, run_keys, results,
                       got, "buffer min by key");
        clReleaseMemObject(key_buffer);
        clReleaseMemObject(value_buffer);
    }

    /* Too little room: the number of runs, nothing written, and the message. */
    runs = make_runs(keys, 4, kCount, begin);
    memset(run_keys, 0xAB, sizeof run_keys);
    CHECK_STATUS(clreduce_reduce_by_key(reducer, CLREDUCE_SUM, CLREDUCE_INT32, keys, 4, values, kCount, NULL, run_keys,
                                        results, runs - 1, &got),
                 CLREDUCE_INVALID_ARGUMENT, "where there are");
    CHECK(got == runs);
    CHECK(run_keys[0] == 0xABABABABABABABABull);
    /* No keys: no runs. */
    got = 7;
    CHECK_STATUS(clreduce_reduce_by_key(reducer, CLREDUCE_MIN, CLREDUCE_INT32, NULL, 4, NULL, 0, NULL, NULL, NULL, 0,
                                        &got),
                 CLREDUCE_SUCCESS, "");
    CHECK(got == 0);
    /* Bad arguments, each named. */
    CHECK_STATUS(clreduce_reduce_by_key(reducer, CLREDUCE_SUM, CLREDUCE_INT32, keys, 3, values, kCount, NULL, run_keys,
                                        results, kMaxRuns, &got),
                 CLREDUCE_INVALID_ARGUMENT, "key_size 3");
    CHECK_STATUS(clreduce_reduce_by_key(reducer, CLREDUCE_SUM, CLREDUCE_INT32, NULL, 4, values, kCount, NULL, run_keys,
                                        results, kMaxRuns, &got),
                 CLREDUCE_INVALID_ARGUMENT, "keys");
    CHECK_STATUS(clreduce_reduce_by_key(reducer, CLREDUCE_SUM, CLREDUCE_INT32, keys, 4, values, kCount, NULL, run_keys,
                                        results, kMaxRuns, NULL),
                 CLREDUCE_INVALID_ARGUMENT, "runs");
    CHECK_STATUS(clreduce_reduce_by_key_buffer(reducer, CLREDUCE_SUM, CLREDUCE_INT32, NULL, 0, 4, NULL, 0, kCount, NULL,
                                               run_keys, results, kMaxRuns, &got),
                 CLREDUCE_INVALID_ARGUMENT, "keys");
}
