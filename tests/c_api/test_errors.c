/* Every error path of the calls on a reducer: NULL pointers, values outside the enumerations,
 * bad options, bad ranges, refusals of the library (unsupported, empty), with the message. */
#include <string.h>

#include "c_api_tests.h"

void test_errors(const clreduce_reducer* reducer) {
    const int32_t data[4] = {1, 2, 3, 4};
    const float floats[2] = {1.5f, 2.5f};
    clreduce_options options;
    clreduce_value v;
    cl_mem buffer = c_buffer(reducer, data, sizeof data);
    cl_context context = NULL;
    cl_command_queue queue = NULL;
    cl_device_id device = NULL;

    CHECK_STATUS(clreduce_reduce(NULL, CLREDUCE_SUM, CLREDUCE_INT32, data, 4, NULL, &v), CLREDUCE_INVALID_ARGUMENT,
                 "clreduce_reduce: `reducer` is NULL");
    CHECK_STATUS(clreduce_reduce(reducer, CLREDUCE_SUM, CLREDUCE_INT32, data, 4, NULL, NULL), CLREDUCE_INVALID_ARGUMENT,
                 "`value` is NULL");
    CHECK_STATUS(clreduce_reduce(reducer, CLREDUCE_SUM, CLREDUCE_INT32, NULL, 4, NULL, &v), CLREDUCE_INVALID_ARGUMENT,
                 "null");
    CHECK_STATUS(clreduce_reduce(reducer, (clreduce_operation)CLREDUCE_OPERATION_COUNT, CLREDUCE_INT32, data, 4, NULL,
                                 &v),
                 CLREDUCE_INVALID_ARGUMENT, "operation 20 is not a clreduce_operation");
    CHECK_STATUS(clreduce_reduce(reducer, (clreduce_operation)-1, CLREDUCE_INT32, data, 4, NULL, &v),
                 CLREDUCE_INVALID_ARGUMENT, "operation -1");
    CHECK_STATUS(clreduce_reduce(reducer, CLREDUCE_SUM, CLREDUCE_TYPE_DEFAULT, data, 4, NULL, &v),
                 CLREDUCE_INVALID_ARGUMENT, "element type 0 is not a clreduce_type");
    CHECK_STATUS(clreduce_sum(reducer, (clreduce_type)(CLREDUCE_TYPE_COUNT + 1), data, 4, NULL, &v),
                 CLREDUCE_INVALID_ARGUMENT, "element type 12");

    memset(&options, 0, sizeof options);
    options.float_mode = (clreduce_float_mode)5;
    CHECK_STATUS(clreduce_sum(reducer, CLREDUCE_INT32, data, 4, &options, &v), CLREDUCE_INVALID_ARGUMENT,
                 "options.float_mode 5");
    memset(&options, 0, sizeof options);
    options.overflow = (clreduce_overflow_rule)3;
    CHECK_STATUS(clreduce_sum(reducer, CLREDUCE_INT32, data, 4, &options, &v), CLREDUCE_INVALID_ARGUMENT,
                 "options.overflow 3");
    memset(&options, 0, sizeof options);
    options.accumulator = (clreduce_type)40;
    CHECK_STATUS(clreduce_sum(reducer, CLREDUCE_INT32, data, 4, &options, &v), CLREDUCE_INVALID_ARGUMENT,
                 "element type 40");
    options.accumulator = CLREDUCE_UINT8; /* a type the library refuses as an accumulator */
    CHECK_STATUS(clreduce_sum(reducer, CLREDUCE_INT32, data, 4, &options, &v), CLREDUCE_INVALID_ARGUMENT,
                 "accumulator");
    memset(&options, 0, sizeof options);
    options.reserved[4] = 1;
    CHECK_STATUS(clreduce_sum(reducer, CLREDUCE_INT32, data, 4, &options, &v), CLREDUCE_INVALID_ARGUMENT,
                 "options.reserved");

    /* The library's own refusals, with its messages. */
    CHECK_STATUS(clreduce_bit_and(reducer, CLREDUCE_FLOAT32, floats, 2, NULL, &v), CLREDUCE_UNSUPPORTED, "bit_and");
    CHECK_STATUS(clreduce_reduce_buffer(reducer, CLREDUCE_SUM, CLREDUCE_INT32, buffer, 1, 4, NULL, &v),
                 CLREDUCE_INVALID_ARGUMENT, "past");
    CHECK_STATUS(clreduce_reduce_buffer(reducer, CLREDUCE_SUM, CLREDUCE_INT32, NULL, 0, 4, NULL, &v),
                 CLREDUCE_INVALID_ARGUMENT, "`buffer` is NULL");
    CHECK_STATUS(clreduce_reduce_buffer(reducer, CLREDUCE_SUM, CLREDUCE_INT32, buffer, 0, 4, NULL, NULL),
                 CLREDUCE_INVALID_ARGUMENT, "`value` is NULL");
    CHECK_STATUS(clreduce_reduce_buffer(NULL, CLREDUCE_SUM, CLREDUCE_INT32, buffer, 0, 4, NULL, &v),
                 CLREDUCE_INVALID_ARGUMENT, "`reducer` is NULL");
    /* A success clears the last error. */
    if (CHECK_STATUS(clreduce_reduce_buffer(reducer, CLREDUCE_SUM, CLREDUCE_INT32, buffer, 1, 3, NULL, &v),
                     CLREDUCE_SUCCESS, ""))
        CHECK(v.scalar.i64 == 9);
    CHECK(clreduce_last_cl_error() == CL_SUCCESS);

    /* The accessors. */
    CHECK_STATUS(clreduce_reducer_context(reducer, NULL), CLREDUCE_INVALID_ARGUMENT, "`context` is NULL");
    CHECK_STATUS(clreduce_reducer_queue(reducer, NULL), CLREDUCE_INVALID_ARGUMENT, "`queue` is NULL");
    CHECK_STATUS(clreduce_reducer_device(reducer, NULL), CLREDUCE_INVALID_ARGUMENT, "`device` is NULL");
    CHECK_STATUS(clreduce_reducer_context(NULL, &context), CLREDUCE_INVALID_ARGUMENT, "`reducer` is NULL");
    CHECK_STATUS(clreduce_reducer_queue(NULL, &queue), CLREDUCE_INVALID_ARGUMENT, "`reducer` is NULL");
    CHECK_STATUS(clreduce_reducer_device(NULL, &device), CLREDUCE_INVALID_ARGUMENT, "`reducer` is NULL");
    if (CHECK_STATUS(clreduce_reducer_queue(reducer, &queue), CLREDUCE_SUCCESS, "") &&
        CHECK_STATUS(clreduce_reducer_context(reducer, &context), CLREDUCE_SUCCESS, "") &&
        CHECK_STATUS(clreduce_reducer_device(reducer, &device), CLREDUCE_SUCCESS, "")) {
        cl_context queue_context = NULL;
        cl_device_id queue_device = NULL;
        CHECK(clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof queue_context, &queue_context, NULL) ==
                  CL_SUCCESS &&
              queue_context == context);
        CHECK(clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof queue_device, &queue_device, NULL) == CL_SUCCESS &&
              queue_device == device);
    }
    clReleaseMemObject(buffer);
}
