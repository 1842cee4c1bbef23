// The library's version, the status names and the reducer handle.
#include <memory>
#include <string_view>

#include <clreduce/clreduce.h>
#include <clreduce/device_selection.hpp>
#include <clreduce/error.hpp>
#include <clreduce/reducer.hpp>

#include "convert.hpp"
#include "guard.hpp"

#ifndef CLREDUCE_VERSION_STRING
#error "CLREDUCE_VERSION_STRING is set by CMake"
#endif

using clreduce::c_api::guarded;
using clreduce::c_api::reducer_of;
using clreduce::c_api::require;

namespace {

// The new handle into *out (NULL on failure).
template <class Make>
clreduce_status create(const char* function, clreduce_reducer** out, Make&& make) {
    if (out != nullptr) *out = nullptr;
    return guarded(function, [&] {
        require(out, "reducer");
        *out = std::make_unique<clreduce_reducer>(clreduce_reducer{make()}).release();
    });
}

}  // namespace

extern "C" {

const char* clreduce_version(void) { return CLREDUCE_VERSION_STRING; }

const char* clreduce_status_name(clreduce_status status) {
    switch (status) {
        case CLREDUCE_SUCCESS: return "CLREDUCE_SUCCESS";
        case CLREDUCE_INVALID_ARGUMENT: return "CLREDUCE_INVALID_ARGUMENT";
        case CLREDUCE_UNSUPPORTED: return "CLREDUCE_UNSUPPORTED";
        case CLREDUCE_OVERFLOW: return "CLREDUCE_OVERFLOW";
        case CLREDUCE_OPENCL_ERROR: return "CLREDUCE_OPENCL_ERROR";
        case CLREDUCE_BUILD_ERROR: return "CLREDUCE_BUILD_ERROR";
        case CLREDUCE_OUT_OF_MEMORY: return "CLREDUCE_OUT_OF_MEMORY";
        case CLREDUCE_ERROR: return "CLREDUCE_ERROR";
        case CLREDUCE_INTERNAL: return "CLREDUCE_INTERNAL";
    }
    return nullptr;
}

clreduce_status clreduce_reducer_create(const char* device_spec, clreduce_reducer** reducer) {
    return create("clreduce_reducer_create", reducer, [&] {
        return device_spec == nullptr ? clreduce::Reducer(clreduce::default_device())
                                      : clreduce::Reducer(std::string_view(device_spec));
    });
}

clreduce_status clreduce_reducer_create_from_queue(cl_context context, cl_command_queue queue,
                                                   clreduce_reducer** reducer) {
    return create("clreduce_reducer_create_from_queue", reducer, [&] {
        require(context, "context");
        require(queue, "queue");
        // retainObject: the reducer holds its own references, released with it.
        return clreduce::Reducer(cl::Context(context, true), cl::CommandQueue(queue, true));
    });
}

void clreduce_reducer_release(clreduce_reducer* reducer) {
    clreduce::c_api::clear_last_error();
    delete reducer;  // ~Reducer does not throw
}

clreduce_status clreduce_reducer_context(const clreduce_reducer* reducer, cl_context* context) {
    return guarded("clreduce_reducer_context", [&] {
        require(context, "context");
        *context = reducer_of(reducer).context()();
    });
}

clreduce_status clreduce_reducer_queue(const clreduce_reducer* reducer, cl_command_queue* queue) {
    return guarded("clreduce_reducer_queue", [&] {
        require(queue, "queue");
        *queue = reducer_of(reducer).queue()();
    });
}

clreduce_status clreduce_reducer_device(const clreduce_reducer* reducer, cl_device_id* device) {
    return guarded("clreduce_reducer_device", [&] {
        require(device, "device");
        cl::Device queue_device;
        clreduce::check(reducer_of(reducer).queue().getInfo(CL_QUEUE_DEVICE, &queue_device), "clGetCommandQueueInfo");
        *device = queue_device();  // a root device: not reference counted
    });
}

}  // extern "C"
