#pragma once
// Fault injection for the tests: the N-th OpenCL result that check() (error.hpp) sees from now
// on, in any thread, is replaced by an error code, as if that call had failed. Every OpenCL
// call of the library goes through check(), so a test can sweep N over every call of a sum,
// an asynchronous sum or a tuning step and see each reported by name, with nothing leaked and
// the reducer working again afterwards. Inert unless armed: check() pays one relaxed atomic
// load. Not a public header.
#include <cstdint>

#include <clreduce/opencl.hpp>

namespace clreduce {

// Arms the fault: the `nth` (1-based) checked call from now on fails with `code`. 0 disarms.
void inject_opencl_fault(std::uint64_t nth, cl_int code);
// Whether the armed fault has not fired yet (the calls ran out before the N-th).
bool opencl_fault_pending();

// check()'s hook: `code`, or the injected one when this is the N-th call.
cl_int apply_opencl_fault(cl_int code);

}  // namespace clreduce
