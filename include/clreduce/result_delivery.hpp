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
// Every way gives the same bits; they differ in latency. (Polled reads, which spin on memory
// OpenCL leaves undefined until the read completes, are an experiment: experimental.hpp.)
enum class ResultDelivery { automatic, blocking, paced };

std::string_view to_string(ResultDelivery delivery);
ResultDelivery parse_result_delivery(std::string_view name);  // to_string's spelling; throws InvalidArgument

}  // namespace clreduce
