/* The C API test program's parts (test_c_api.c runs them in order). */
#ifndef CLREDUCE_C_API_TESTS_H
#define CLREDUCE_C_API_TESTS_H

#include "c_test_support.h"

/* Random small integers of `type` (with zeros; for product +-1 and a few 2s). */
void c_fill(clreduce_type type, clreduce_operation op, void* data, size_t n);
/* A read-only buffer on the reducer's context holding `bytes` bytes of `data`. */
cl_mem c_buffer(const clreduce_reducer* reducer, const void* data, size_t bytes);

void test_operations(const clreduce_reducer* reducer);        /* test_operations.c */
void test_options_and_empty(const clreduce_reducer* reducer); /* test_options.c */
void test_segments(const clreduce_reducer* reducer);          /* test_segments.c */
void test_by_key(const clreduce_reducer* reducer);            /* test_by_key.c */
void test_partials(const clreduce_reducer* reducer);          /* test_partials.c */
void test_errors(const clreduce_reducer* reducer);            /* test_errors.c */
void test_transform(const clreduce_reducer* reducer);         /* test_transform.c */
void test_handles(void);                                      /* test_handles.c */

#endif
