/* The C API's test program, compiled as C99: every function of include/clreduce/clreduce.h
 * and every error path, against references computed here. Exit status 0 when all pass. */
#include <stdio.h>

#include "c_api_tests.h"

int main(void) {
    clreduce_reducer* reducer = NULL;
    c_test_seed();
    test_handles();
    if (!CHECK_STATUS(clreduce_reducer_create(NULL, &reducer), CLREDUCE_SUCCESS, "")) return 1;
    test_operations(reducer);
    test_options_and_empty(reducer);
    test_segments(reducer);
    test_by_key(reducer);
    test_partials(reducer);
    test_transform(reducer);
    test_errors(reducer);
    clreduce_reducer_release(reducer);
    if (c_test_failures > 0) {
        fprintf(stderr, "clreduce C API tests: %d failed checks\n", c_test_failures);
        return 1;
    }
    printf("clreduce C API tests: all checks passed\n");
    return 0;
}
