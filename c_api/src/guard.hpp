#pragma once
// The boundary between the C API and the C++ library: every C function runs its body through
// guarded(), which turns whatever the body throws into a clreduce_status and this thread's
// last-error message, so that nothing throws across the boundary.
#include <clreduce/clreduce.h>

namespace clreduce::c_api {

// The status of the exception being handled (call only inside a catch block), after storing
// its message, prefixed with `function`, as this thread's last error: BuildError, OpenCLError
// (with its code for clreduce_last_cl_error), InvalidArgument, Unsupported, Overflow, any other
// clreduce::Error, std::bad_alloc, any other exception (CLREDUCE_INTERNAL).
clreduce_status status_of_current_exception(const char* function) noexcept;

// Empties this thread's last error (the start of every call).
void clear_last_error() noexcept;

// Runs body(); CLREDUCE_SUCCESS, or the status of what it threw.
template <class Body>
clreduce_status guarded(const char* function, Body&& body) noexcept {
    clear_last_error();
    try {
        body();
        return CLREDUCE_SUCCESS;
    } catch (...) {
        return status_of_current_exception(function);
    }
}

// Throws InvalidArgument "`name` is NULL" when pointer is null.
void require(const void* pointer, const char* name);

}  // namespace clreduce::c_api
