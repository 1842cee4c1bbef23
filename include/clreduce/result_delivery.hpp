#pragma once
#include <string_view>

namespace clreduce {

// How a synchronous call brings its result from the device to the host
// (Reducer::set_result_delivery; docs/design.md, "Result delivery").
//   automatic     paced on NVIDIA, where it was measured to pay; blocking elsewhere.
//   blocking      a blocking clEnqueueReadBuffer right after the kernels are enqueued.
//   paced         a blocking read issued after a wait learned per kernel: NVIDIA's blocking
//                 read sleeps when issued long before the kernel ends, and returns sooner
//                 when issued near its end.
//   polled        opt-in: the read is enqueued without blocking into pinned memory, and the
//                 caller's thread spins on that memory until the result's words have all
//                 changed (then a bounded wait more before it falls back to clFinish).
//                 OpenCL does not define that memory's contents before the read's event
//                 completes; NVIDIA's driver writes the words once, a few microseconds before
//                 a blocking read returns. It keeps a host core busy until the result arrives.
//   polled_paced  polled, with the paced wait before the read is enqueued.
// Every way gives the same bits; they differ in latency and in the host core they use.
enum class ResultDelivery { automatic, blocking, paced, polled, polled_paced };

std::string_view to_string(ResultDelivery delivery);
ResultDelivery parse_result_delivery(std::string_view name);  // to_string's spelling; throws InvalidArgument

}  // namespace clreduce
