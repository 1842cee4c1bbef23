// The segmented forms: one value per segment into the caller's array.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <clreduce/clreduce.h>
#include <clreduce/error.hpp>
#include <clreduce/reducer.hpp>
#include <clreduce/segments.hpp>

#include "convert.hpp"
#include "guard.hpp"

using namespace clreduce::c_api;
using clreduce::InvalidArgument;

namespace {

clreduce::Segments to_segments(const clreduce_segments* s) {
    require(s, "segments");
    switch (s->kind) {
        case CLREDUCE_SEGMENTS_BATCH: return clreduce::Segments::batch(s->count, s->length);
        case CLREDUCE_SEGMENTS_ROWS: return clreduce::Segments::rows(s->rows, s->cols, s->step_bytes);
        case CLREDUCE_SEGMENTS_COLUMNS: return clreduce::Segments::columns(s->rows, s->cols, s->step_bytes);
        case CLREDUCE_SEGMENTS_OFFSETS:
            require(s->offsets, "segments->offsets");
            if (s->count == std::numeric_limits<std::uint64_t>::max())
                throw InvalidArgument("segments->count: 2^64 - 1 segments need 2^64 offsets");
            return clreduce::Segments::offsets(std::vector<std::uint64_t>(s->offsets, s->offsets + s->count + 1));
        case CLREDUCE_SEGMENTS_DEVICE_OFFSETS:
            require(s->device_offsets, "segments->device_offsets");
            return clreduce::Segments::offsets(cl::Buffer(s->device_offsets, true), s->count, s->extent, s->first);
    }
    throw InvalidArgument("segments->kind " + std::to_string(static_cast<int>(s->kind)) +
                          " is not a clreduce_segments_kind (0 ... 4)");
}

// The segments' results of `call(results_vector)` into the caller's array. The vector is this
// thread's, one per result type, kept from call to call: a repeated call allocates no host
// memory (the thread keeps the most results it was asked for).
template <class R, class Call>
void into_array(const clreduce::Segments& segments, clreduce_value* results, std::uint64_t capacity, Call&& call) {
    if (capacity < segments.count())
        throw InvalidArgument("room for " + std::to_string(capacity) + " results (`capacity`) where there are " +
                              std::to_string(segments.count()) + " segments");
    if (segments.count() > 0) require(results, "results");
    thread_local std::vector<R> values;
    call(values);
    for (std::size_t s = 0; s < values.size(); ++s)
        results[s] = to_value(static_cast<R>(values[s]));  // R: std::vector<bool> gives proxies
}

}  // namespace

extern "C" {

clreduce_status clreduce_reduce_segments(const clreduce_reducer* reducer, clreduce_operation op, clreduce_type type,
                                         const void* values, const clreduce_segments* segments,
                                         const clreduce_options* options, clreduce_value* results, uint64_t capacity) {
    return guarded("clreduce_reduce_segments", [&] {
        const clreduce::Reducer& r = reducer_of(reducer);
        const clreduce::LaunchParams params = to_params(options);
        const clreduce::Segments list = to_segments(segments);
        dispatch(op, type, [&](auto op_constant, auto t) {
            using T = decltype(t);
            constexpr clreduce::Operation Op = decltype(op_constant)::value;
            into_array<clreduce::result_t<Op, T>>(list, results, capacity, [&](auto& out) {
                r.reduce<Op, T>(static_cast<const T*>(values), list, out, params);
            });
        });
    });
}

clreduce_status clreduce_reduce_segments_buffer(const clreduce_reducer* reducer, clreduce_operation op,
                                                clreduce_type type, cl_mem values, uint64_t offset,
                                                const clreduce_segments* segments, const clreduce_options* options,
                                                clreduce_value* results, uint64_t capacity) {
    return guarded("clreduce_reduce_segments_buffer", [&] {
        const clreduce::Reducer& r = reducer_of(reducer);
        require(values, "values");
        const clreduce::LaunchParams params = to_params(options);
        const clreduce::Segments list = to_segments(segments);
        const cl::Buffer buffer(values, true);
        dispatch(op, type, [&](auto op_constant, auto t) {
            using T = decltype(t);
            constexpr clreduce::Operation Op = decltype(op_constant)::value;
            into_array<clreduce::result_t<Op, T>>(list, results, capacity, [&](auto& out) {
                r.reduce<Op, T>(buffer, offset, list, out, params);
            });
        });
    });
}

}  // extern "C"
