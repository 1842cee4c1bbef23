// The core call, in its host-data and buffer forms, and the named calls over it.
#include <clreduce/clreduce.h>
#include <clreduce/reducer.hpp>

#include "convert.hpp"
#include "guard.hpp"
#include "lists.hpp"

using namespace clreduce::c_api;

extern "C" {

clreduce_status clreduce_reduce(const clreduce_reducer* reducer, clreduce_operation op, clreduce_type type,
                                const void* data, uint64_t count, const clreduce_options* options,
                                clreduce_value* value) {
    return guarded("clreduce_reduce", [&] {
        const clreduce::Reducer& r = reducer_of(reducer);
        require(value, "value");
        const clreduce::LaunchParams params = to_params(options);
        dispatch(op, type, [&](auto op_constant, auto t) {
            using T = decltype(t);
            *value = to_value(r.reduce<decltype(op_constant)::value, T>(static_cast<const T*>(data), count, params));
        });
    });
}

clreduce_status clreduce_reduce_buffer(const clreduce_reducer* reducer, clreduce_operation op, clreduce_type type,
                                       cl_mem buffer, uint64_t offset, uint64_t count, const clreduce_options* options,
                                       clreduce_value* value) {
    return guarded("clreduce_reduce_buffer", [&] {
        const clreduce::Reducer& r = reducer_of(reducer);
        require(value, "value");
        require(buffer, "buffer");
        const clreduce::LaunchParams params = to_params(options);
        const cl::Buffer b(buffer, true);  // retained for the call
        dispatch(op, type, [&](auto op_constant, auto t) {
            using T = decltype(t);
            *value = to_value(r.reduce<decltype(op_constant)::value, T>(b, offset, count, params));
        });
    });
}

// clreduce_NAME: the core call with CLREDUCE_<NAME>.
#define CLREDUCE_C_NAMED(C, NAME)                                                                             \
    clreduce_status clreduce_##NAME(const clreduce_reducer* reducer, clreduce_type type, const void* data,    \
                                    uint64_t count, const clreduce_options* options, clreduce_value* value) { \
        return clreduce_reduce(reducer, C, type, data, count, options, value);                                \
    }
CLREDUCE_C_OPERATIONS(CLREDUCE_C_NAMED)
#undef CLREDUCE_C_NAMED

}  // extern "C"
