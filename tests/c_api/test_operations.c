/* Every operation and every element type through the core call, its buffer form and the named
 * calls, against the C references: each operation once, the types spread over them (a
 * diagonal, not the product: every (operation, type) pair is a kernel the device compiles). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_api_tests.h"
#include "c_test_reference.h"

typedef clreduce_status (*named_call)(const clreduce_reducer*, clreduce_type, const void*, uint64_t,
                                      const clreduce_options*, clreduce_value*);

typedef struct operation_case {
    clreduce_operation op;
    named_call named;
    clreduce_type type;
    int buffer; /* the core call on a buffer (else on host data) */
} operation_case;

static const operation_case cases[] = {
    {CLREDUCE_SUM, clreduce_sum, CLREDUCE_INT32, 0},
    {CLREDUCE_PRODUCT, clreduce_product, CLREDUCE_FLOAT64, 1},
    {CLREDUCE_MIN, clreduce_min, CLREDUCE_INT8, 1},
    {CLREDUCE_MAX, clreduce_max, CLREDUCE_UINT16, 0},
    {CLREDUCE_MINMAX, clreduce_minmax, CLREDUCE_FLOAT32, 0},
    {CLREDUCE_ARGMIN, clreduce_argmin, CLREDUCE_UINT8, 1},
    {CLREDUCE_ARGMAX, clreduce_argmax, CLREDUCE_FLOAT16, 0},
    {CLREDUCE_COUNT_NONZERO, clreduce_count_nonzero, CLREDUCE_UINT64, 1},
    {CLREDUCE_MEAN, clreduce_mean, CLREDUCE_INT16, 0},
    {CLREDUCE_SUM_OF_SQUARES, clreduce_sum_of_squares, CLREDUCE_UINT32, 1},
    {CLREDUCE_NORM_L1, clreduce_norm_l1, CLREDUCE_INT64, 0},
    {CLREDUCE_NORM_L2, clreduce_norm_l2, CLREDUCE_FLOAT32, 1},
    {CLREDUCE_NORM_INF, clreduce_norm_inf, CLREDUCE_INT16, 1},
    {CLREDUCE_STATISTICS, clreduce_statistics, CLREDUCE_UINT8, 0},
    {CLREDUCE_BIT_AND, clreduce_bit_and, CLREDUCE_INT64, 1},
    {CLREDUCE_BIT_OR, clreduce_bit_or, CLREDUCE_UINT32, 0},
    {CLREDUCE_BIT_XOR, clreduce_bit_xor, CLREDUCE_INT8, 0},
    {CLREDUCE_ALL, clreduce_all, CLREDUCE_FLOAT64, 0},
    {CLREDUCE_ANY, clreduce_any, CLREDUCE_UINT16, 1},
    {CLREDUCE_ARGMINMAX, clreduce_argminmax, CLREDUCE_INT32, 1},
};

/* Elements of the buffers before and after the range: values outside the data's range, so
 * that a call reading them gives another result. */
enum { kHead = 3, kTail = 2 };

void c_fill(clreduce_type type, clreduce_operation op, void* data, size_t n) {
    size_t i;
    for (i = 0; i < n; ++i) {
        int64_t v;
        if (op == CLREDUCE_PRODUCT) /* +-1, some 2s: the product stays exact in every accumulator */
            v = i % 97 == 5 ? 2 : c_type_is_signed(type) && c_test_random() % 2 ? -1 : 1;
        else if (i % 37 == 11)
            v = 0;
        else
            v = c_type_is_signed(type) ? c_test_uniform(-50, 50) : c_test_uniform(0, 100);
        c_store(type, data, i, v);
    }
}

cl_mem c_buffer(const clreduce_reducer* reducer, const void* data, size_t bytes) {
    cl_context context = NULL;
    cl_int error = CL_SUCCESS;
    cl_mem buffer;
    if (!CHECK_STATUS(clreduce_reducer_context(reducer, &context), CLREDUCE_SUCCESS, "")) return NULL;
    buffer = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, (void*)data, &error);
    CHECK(error == CL_SUCCESS && buffer != NULL);
    return buffer;
}

/* One case: n elements at an offset of kHead in a buffer (or host data), the named call on
 * the same values; float16 where the device lacks cl_khr_fp16 must be refused naming it. */
static void run_case(const clreduce_reducer* reducer, const operation_case* c, size_t n) {
    const size_t size = c_type_size(c->type);
    unsigned char* all = (unsigned char*)malloc((kHead + n + kTail) * size);
    const unsigned char* data = all + kHead * size;
    const int signed_type = c_type_is_signed(c->type);
    const int refused = c->type == CLREDUCE_FLOAT16 && !c_device_has(reducer, "cl_khr_fp16");
    expected_value want;
    clreduce_value got;
    clreduce_status status;
    char what[160];
    CHECK(all != NULL);
    if (all == NULL) return;
    c_fill(c->type, c->op, all + kHead * size, n);
    c_store(c->type, all, 0, signed_type ? -100 : 0); /* below and above every value */
    c_store(c->type, all, 1, signed_type ? 100 : 120);
    c_store(c->type, all, 2, 0);
    c_store(c->type, all, kHead + n, signed_type ? -100 : 0);
    c_store(c->type, all, kHead + n + 1, signed_type ? 100 : 120);
    want = c_reference(c->op, c->type, data, 0, n);
    snprintf(what, sizeof what, "%s of %zu %s (%s)", clreduce_operation_name(c->op), n, clreduce_type_name(c->type),
             c->buffer ? "buffer, offset 3" : "host data");

    if (c->buffer) {
        cl_mem buffer = c_buffer(reducer, all, (kHead + n + kTail) * size);
        status = clreduce_reduce_buffer(reducer, c->op, c->type, buffer, kHead, n, NULL, &got);
        clReleaseMemObject(buffer);
    } else {
        status = clreduce_reduce(reducer, c->op, c->type, data, n, NULL, &got);
    }
    if (refused) {
        printf("  %s: refused, the device has no cl_khr_fp16 (checked: CLREDUCE_UNSUPPORTED naming it)\n", what);
        CHECK_STATUS(status, CLREDUCE_UNSUPPORTED, "cl_khr_fp16");
        CHECK_STATUS(c->named(reducer, c->type, data, n, NULL, &got), CLREDUCE_UNSUPPORTED, "cl_khr_fp16");
    } else if (CHECK_STATUS(status, CLREDUCE_SUCCESS, "")) {
        c_check_value(&got, &want, what);
        memset(&got, 0xff, sizeof got); /* the call writes every field */
        if (CHECK_STATUS(c->named(reducer, c->type, data, n, NULL, &got), CLREDUCE_SUCCESS, "")) {
            strcat(what, ", named call");
            c_check_value(&got, &want, what);
        }
    }
    free(all);
}

void test_operations(const clreduce_reducer* reducer) {
    size_t i;
    CHECK(sizeof cases / sizeof cases[0] == CLREDUCE_OPERATION_COUNT);
    for (i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        CHECK(cases[i].op == (clreduce_operation)i); /* every operation, in order */
        run_case(reducer, &cases[i], (size_t)c_test_uniform(1, 3000));
    }
}
