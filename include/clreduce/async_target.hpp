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
    // Where a result may not fit its 64-bit integer type (LaunchPlan::result_status: an integer
    // sum, product or sum of squares under IntegerOverflow::check that could overflow, or a
    // floating-point accumulator over integer data), the call needs a status word: the first
    // 4 bytes of this buffer, a cl_uint. A result that does not fit is not written; the
    // kernel sets bit 0 (kAsyncOverflow) of the word instead, where the synchronous call would
    // throw Overflow. The bit is only ever set: zero the word before (one word can serve a
    // whole pipeline of calls) and read it once their events have completed.
    cl::Buffer status = {};
};

// The status word's bit for a result that did not fit its type (AsyncTarget::status).
inline constexpr std::uint32_t kAsyncOverflow = 1;

}  // namespace clreduce
