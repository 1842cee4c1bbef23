// Exceptions to status codes, and the thread-local last-error message.
#include "guard.hpp"

#include <exception>
#include <new>
#include <string>

#include <clreduce/error.hpp>

namespace clreduce::c_api {
namespace {

// This thread's last error. `text` keeps its capacity from call to call; where storing a
// message itself runs out of memory, `view` points at a fixed text instead.
struct LastError {
    std::string text;
    const char* view = "";
    cl_int cl_code = CL_SUCCESS;
};
thread_local LastError last_error;

void store(const char* function, const char* message, const char* prefix = "") noexcept {
    try {
        last_error.text.assign(function);
        last_error.text.append(": ");
        last_error.text.append(prefix);
        last_error.text.append(message);
        last_error.view = last_error.text.c_str();
    } catch (...) {
        last_error.view = "out of memory (while storing an error message)";
    }
}

}  // namespace

void clear_last_error() noexcept {
    last_error.text.clear();
    last_error.view = "";
    last_error.cl_code = CL_SUCCESS;
}

clreduce_status status_of_current_exception(const char* function) noexcept {
    try {
        throw;
    } catch (const BuildError& e) {  // before OpenCLError, its base
        store(function, e.what());
        last_error.cl_code = e.code();
        return CLREDUCE_BUILD_ERROR;
    } catch (const OpenCLError& e) {
        store(function, e.what());
        last_error.cl_code = e.code();
        return CLREDUCE_OPENCL_ERROR;
    } catch (const InvalidArgument& e) {
        store(function, e.what());
        return CLREDUCE_INVALID_ARGUMENT;
    } catch (const Unsupported& e) {
        store(function, e.what());
        return CLREDUCE_UNSUPPORTED;
    } catch (const Overflow& e) {
        store(function, e.what());
        return CLREDUCE_OVERFLOW;
    } catch (const Error& e) {
        store(function, e.what());
        return CLREDUCE_ERROR;
    } catch (const std::bad_alloc& e) {
        store(function, "out of memory (std::bad_alloc)");
        return CLREDUCE_OUT_OF_MEMORY;
    } catch (const std::exception& e) {
        store(function, e.what(), "internal error: ");
        return CLREDUCE_INTERNAL;
    } catch (...) {
        store(function, "internal error: an exception that is not a std::exception");
        return CLREDUCE_INTERNAL;
    }
}

void require(const void* pointer, const char* name) {
    if (pointer == nullptr) throw InvalidArgument(std::string("`") + name + "` is NULL");
}

}  // namespace clreduce::c_api

extern "C" {

const char* clreduce_last_error(void) { return clreduce::c_api::last_error.view; }
cl_int clreduce_last_cl_error(void) { return clreduce::c_api::last_error.cl_code; }

}  // extern "C"
