// transform_reduce with a combine of one's own (CombineExpression), in the host-data and buffer
// forms: every built-in combine is one such expression, so the C API offers this form only.
#include <clreduce/clreduce.h>
#include <clreduce/reducer.hpp>

#include "convert.hpp"
#include "guard.hpp"

using namespace clreduce::c_api;

namespace {

clreduce::CombineExpression combine_of(const char* combine, const char* identity) {
    require(combine, "combine");
    require(identity, "identity");
    return clreduce::CombineExpression{combine, identity};
}

}  // namespace

extern "C" {

clreduce_status clreduce_transform_reduce(const clreduce_reducer* reducer, clreduce_type type, const void* data,
                                          uint64_t count, const char* expression, const char* combine,
                                          const char* identity, const clreduce_options* options,
                                          clreduce_value* value) {
    return guarded("clreduce_transform_reduce", [&] {
        const clreduce::Reducer& r = reducer_of(reducer);
        require(value, "value");
        require(expression, "expression");
        const clreduce::CombineExpression c = combine_of(combine, identity);
        const clreduce::LaunchParams params = to_params(options);
        clreduce::visit_type(to_type(type), [&](auto t) {
            using T = decltype(t);
            *value = to_value(r.transform_reduce<T>(static_cast<const T*>(data), count, expression, c, params));
        });
    });
}

clreduce_status clreduce_transform_reduce_buffer(const clreduce_reducer* reducer, clreduce_type type, cl_mem buffer,
                                                 uint64_t offset, uint64_t count, const char* expression,
                                                 const char* combine, const char* identity,
                                                 const clreduce_options* options, clreduce_value* value) {
    return guarded("clreduce_transform_reduce_buffer", [&] {
        const clreduce::Reducer& r = reducer_of(reducer);
        require(value, "value");
        require(buffer, "buffer");
        require(expression, "expression");
        const clreduce::CombineExpression c = combine_of(combine, identity);
        const clreduce::LaunchParams params = to_params(options);
        const cl::Buffer b(buffer, true);  // retained for the call
        clreduce::visit_type(to_type(type), [&](auto t) {
            using T = decltype(t);
            *value = to_value(r.transform_reduce<T>(b, offset, count, expression, c, params));
        });
    });
}

}  // extern "C"
