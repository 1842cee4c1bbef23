#pragma once
#include <cstdint>
#include <vector>

#include <clreduce/opencl.hpp>
#include <clreduce/operation.hpp>

namespace clreduce {

// Whether an asynchronous call returns an event. `none` spares the driver creating one, for
// chains that the reducer's in-order queue orders by itself; on an out-of-order queue the
// call returns one anyway.
enum class AsyncEvent { returned, none };

// Where an asynchronous call (Reducer::reduce_async of any operation, or sum_async, min_async,
// max_async) leaves its value, and what it waits for. Written as {result}, {result, 3} or {result, 0, {upload}}.
struct AsyncTarget {
    // The value goes into element `result_offset` of `result` read as an array of the call's
    // result type (bytes [result_offset * sizeof(R), (result_offset + 1) * sizeof(R))); a
    // segmented call writes one value per segment from there on.
    cl::Buffer result;
    std::uint64_t result_offset = 0;
    // Commands the reduction waits for first (say, the upload of its input).
    std::vector<cl::Event> wait = {};
    AsyncEvent event = AsyncEvent::returned;
};

}  // namespace clreduce
