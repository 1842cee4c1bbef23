/* Reducer handles: from a device spec (good, bad, empty), from the caller's context and queue
 * (retained: usable after the caller releases its own references, released with the reducer),
 * kernels that do not compile or cannot be read (CLREDUCE_BUILD_ERROR, CLREDUCE_ERROR), the
 * names and the version, and the last error per thread. */
#define _POSIX_C_SOURCE 200809L /* setenv, pthreads */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "c_api_tests.h"

#ifndef CLREDUCE_C_TEST_BROKEN_KERNELS
#error "CLREDUCE_C_TEST_BROKEN_KERNELS names a copy of cl_kernels/ whose reduce.cl does not compile (CMake)"
#endif

static cl_uint reference_count(cl_context context) {
    cl_uint count = 0;
    CHECK(clGetContextInfo(context, CL_CONTEXT_REFERENCE_COUNT, sizeof count, &count, NULL) == CL_SUCCESS);
    return count;
}

static void test_from_queue(const clreduce_reducer* base) {
    const int32_t data[3] = {5, -7, 11};
    cl_device_id device = NULL;
    cl_int error = CL_SUCCESS;
    cl_context context, other;
    cl_command_queue queue, other_queue;
    clreduce_reducer* reducer = (clreduce_reducer*)base; /* overwritten below: must become NULL on failure */
    clreduce_value v;
    cl_uint before;

    if (!CHECK_STATUS(clreduce_reducer_device(base, &device), CLREDUCE_SUCCESS, "")) return;
    context = clCreateContext(NULL, 1, &device, NULL, NULL, &error);
    queue = clCreateCommandQueue(context, device, 0, &error);
    other = clCreateContext(NULL, 1, &device, NULL, NULL, &error);
    other_queue = clCreateCommandQueue(other, device, 0, &error);
    CHECK(error == CL_SUCCESS);

    CHECK_STATUS(clreduce_reducer_create_from_queue(context, other_queue, &reducer), CLREDUCE_INVALID_ARGUMENT,
                 "another context");
    CHECK(reducer == NULL);
    CHECK_STATUS(clreduce_reducer_create_from_queue(NULL, queue, &reducer), CLREDUCE_INVALID_ARGUMENT,
                 "`context` is NULL");
    CHECK_STATUS(clreduce_reducer_create_from_queue(context, NULL, &reducer), CLREDUCE_INVALID_ARGUMENT,
                 "`queue` is NULL");
    CHECK_STATUS(clreduce_reducer_create_from_queue(context, queue, NULL), CLREDUCE_INVALID_ARGUMENT,
                 "`reducer` is NULL");

    before = reference_count(context);
    if (CHECK_STATUS(clreduce_reducer_create_from_queue(context, queue, &reducer), CLREDUCE_SUCCESS, "")) {
        cl_command_queue used = NULL;
        CHECK(reference_count(context) > before);
        CHECK_STATUS(clreduce_reducer_queue(reducer, &used), CLREDUCE_SUCCESS, "");
        CHECK(used == queue);
        clRetainContext(context); /* kept only to read its count at the end */
        clReleaseCommandQueue(queue);
        clReleaseContext(context);
        if (CHECK_STATUS(clreduce_reduce(reducer, CLREDUCE_SUM, CLREDUCE_INT32, data, 3, NULL, &v), CLREDUCE_SUCCESS,
                         ""))
            CHECK(v.scalar.i64 == 9);
        clreduce_reducer_release(reducer);
        CHECK(reference_count(context) == 1); /* only the reference kept above */
        clReleaseContext(context);
    }
    clReleaseCommandQueue(other_queue);
    clReleaseContext(other);
}

static void test_kernel_folders(void) {
    const int32_t data[3] = {1, 2, 3};
    clreduce_reducer* broken = NULL;
    clreduce_value v;
    cl_context context = NULL;
    cl_int error = CL_SUCCESS;
    cl_mem buffer;

    setenv("CLREDUCE_KERNEL_DIR", CLREDUCE_C_TEST_BROKEN_KERNELS, 1);
    if (CHECK_STATUS(clreduce_reducer_create(NULL, &broken), CLREDUCE_SUCCESS, "")) {
        /* A buffer: host data may be reduced on the host, which compiles nothing. */
        clreduce_reducer_context(broken, &context);
        buffer = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof data, (void*)data, &error);
        CHECK_STATUS(clreduce_reduce_buffer(broken, CLREDUCE_MAX, CLREDUCE_INT32, buffer, 0, 3, NULL, &v),
                     CLREDUCE_BUILD_ERROR, "build log");
        CHECK(strstr(clreduce_last_error(), "clreduce_c_test_does_not_compile") != NULL);
        CHECK(clreduce_last_cl_error() == CL_BUILD_PROGRAM_FAILURE);
        clReleaseMemObject(buffer);
        clreduce_reducer_release(broken);
    }
    setenv("CLREDUCE_KERNEL_DIR", CLREDUCE_C_TEST_BROKEN_KERNELS "/no-such-folder", 1);
    broken = (clreduce_reducer*)&error;
    CHECK_STATUS(clreduce_reducer_create(NULL, &broken), CLREDUCE_ERROR, "cannot read kernel source");
    CHECK(broken == NULL);
    unsetenv("CLREDUCE_KERNEL_DIR");
}

/* Another thread's error is its own. */
static void* fail_in_thread(void* unused) {
    clreduce_value v;
    (void)unused;
    CHECK_STATUS(clreduce_reduce(NULL, CLREDUCE_SUM, CLREDUCE_INT32, NULL, 0, NULL, &v), CLREDUCE_INVALID_ARGUMENT,
                 "`reducer` is NULL");
    return NULL;
}

/* Threads sharing one reducer: each gets its own sums and its own errors. */
typedef struct shared_call {
    const clreduce_reducer* reducer;
    int32_t data[64];
    int failures;
} shared_call;

static void* call_in_thread(void* argument) {
    shared_call* call = (shared_call*)argument;
    const int64_t want = (int64_t)call->data[0] * 64;
    clreduce_value v;
    int i;
    for (i = 0; i < 50; ++i) {
        if (clreduce_sum(call->reducer, CLREDUCE_INT32, call->data, 64, NULL, &v) != CLREDUCE_SUCCESS ||
            v.scalar.i64 != want || clreduce_last_error()[0] != '\0')
            ++call->failures;
        if (clreduce_min(call->reducer, CLREDUCE_INT32, call->data, 0, NULL, &v) != CLREDUCE_INVALID_ARGUMENT ||
            strstr(clreduce_last_error(), "clreduce_reduce: min of an empty range") == NULL)
            ++call->failures;
    }
    return NULL;
}

static void test_threads(const clreduce_reducer* reducer) {
    shared_call calls[4];
    pthread_t threads[4];
    int t, i;
    for (t = 0; t < 4; ++t) {
        calls[t].reducer = reducer;
        calls[t].failures = 0;
        for (i = 0; i < 64; ++i) calls[t].data[i] = 1000 * (t + 1);
        CHECK(pthread_create(&threads[t], NULL, call_in_thread, &calls[t]) == 0);
    }
    for (t = 0; t < 4; ++t) {
        CHECK(pthread_join(threads[t], NULL) == 0);
        CHECK(calls[t].failures == 0);
    }
}

void test_handles(void) {
    clreduce_reducer* reducer = NULL;
    pthread_t thread;

    CHECK(strcmp(clreduce_version(), "0.1.0") >= 0 && clreduce_version()[0] != '\0');
    CHECK(strcmp(clreduce_status_name(CLREDUCE_OVERFLOW), "CLREDUCE_OVERFLOW") == 0);
    CHECK(strcmp(clreduce_status_name(CLREDUCE_INTERNAL), "CLREDUCE_INTERNAL") == 0);
    CHECK(clreduce_status_name((clreduce_status)42) == NULL);
    CHECK(strcmp(clreduce_operation_name(CLREDUCE_SUM_OF_SQUARES), "sum_of_squares") == 0);
    CHECK(strcmp(clreduce_operation_name(CLREDUCE_ANY), "any") == 0);
    CHECK(clreduce_operation_name((clreduce_operation)CLREDUCE_OPERATION_COUNT) == NULL);
    CHECK(strcmp(clreduce_type_name(CLREDUCE_FLOAT16), "float16") == 0);
    CHECK(strcmp(clreduce_type_name(CLREDUCE_UINT64), "uint64") == 0);
    CHECK(clreduce_type_name(CLREDUCE_TYPE_DEFAULT) == NULL);

    CHECK_STATUS(clreduce_reducer_create("no-such-device-anywhere", &reducer), CLREDUCE_INVALID_ARGUMENT,
                 "available devices");
    CHECK(reducer == NULL);
    CHECK_STATUS(clreduce_reducer_create("", &reducer), CLREDUCE_INVALID_ARGUMENT, "clreduce_reducer_create: ");
    CHECK_STATUS(clreduce_reducer_create(NULL, NULL), CLREDUCE_INVALID_ARGUMENT, "`reducer` is NULL");
    clreduce_reducer_release(NULL);
    CHECK(clreduce_last_error()[0] == '\0');

    if (CHECK_STATUS(clreduce_reducer_create("0", &reducer), CLREDUCE_SUCCESS, "")) {
        test_from_queue(reducer);
        test_threads(reducer);
        clreduce_reducer_release(reducer);
    }
    test_kernel_folders();

    CHECK_STATUS(clreduce_reducer_create("", &reducer), CLREDUCE_INVALID_ARGUMENT, "");
    CHECK(pthread_create(&thread, NULL, fail_in_thread, NULL) == 0 && pthread_join(thread, NULL) == 0);
    CHECK(strstr(clreduce_last_error(), "clreduce_reducer_create: ") == clreduce_last_error());
}
