/* What the C API's tests share: checks that count failures, the run's seed and random numbers,
 * element data of every type, and the reading of clreduce_value. C99. */
#ifndef CLREDUCE_C_TEST_SUPPORT_H
#define CLREDUCE_C_TEST_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

#include <clreduce/clreduce.h>

/* Failures so far; main returns nonzero when any. */
extern int c_test_failures;

/* Counts and prints a failure (file:line, the condition) when `condition` is false. */
#define CHECK(condition) c_test_check((condition) != 0, #condition, __FILE__, __LINE__)
int c_test_check(int ok, const char* text, const char* file, int line);

/* Checks that `status` is `expected` and, when `message_part` is not NULL, that
 * clreduce_last_error() contains it (and is empty for CLREDUCE_SUCCESS); prints both otherwise. */
#define CHECK_STATUS(status, expected, message_part) \
    c_test_check_status((status), (expected), (message_part), #status, __FILE__, __LINE__)
int c_test_check_status(clreduce_status status, clreduce_status expected, const char* message_part, const char* text,
                        const char* file, int line);

/* $CLREDUCE_TEST_SEED, else one from the clock; printed so that a run can be repeated. */
uint64_t c_test_seed(void);
/* The next of a xorshift64* stream seeded by c_test_seed(). */
uint64_t c_test_random(void);
/* A random integer in [lo, hi]. */
int64_t c_test_uniform(int64_t lo, int64_t hi);

size_t c_type_size(clreduce_type type);
int c_type_is_float(clreduce_type type);
int c_type_is_signed(clreduce_type type);
/* Writes the small integer `v` as element `i` of `data`, of `type` (float16: binary16 bits). */
void c_store(clreduce_type type, void* data, size_t i, int64_t v);
/* Element `i` of `data` as a double (exact for the tests' small integers). */
double c_load(clreduce_type type, const void* data, size_t i);
/* A scalar of `type` as a double. */
double c_scalar(clreduce_type type, clreduce_scalar s);

/* Whether the reducer's device has the OpenCL extension (cl_khr_fp16, cl_khr_fp64). */
int c_device_has(const clreduce_reducer* reducer, const char* extension);

#endif
