// The C API's boundary (c_api/src/guard.cpp): each exception a call may throw becomes its
// status, with the message (and an OpenCL error's code) kept for clreduce_last_error(); the
// classes the C test program cannot reach on a working device (an OpenCL error, running out of
// memory, an exception that is no clreduce error) are thrown here directly.
#include <catch2/catch.hpp>
#include <new>
#include <stdexcept>
#include <string>

#include <clreduce/clreduce.h>
#include <clreduce/error.hpp>

#include "guard.hpp"

using clreduce::c_api::guarded;

namespace {

template <class Throw>
clreduce_status status_of(Throw&& throw_it) {
    return guarded("clreduce_test", [&] { throw_it(); });
}

std::string last_error() { return clreduce_last_error(); }

}  // namespace

TEST_CASE("C API: each exception class becomes its status and message", "[c_api]") {
    CHECK(status_of([] { throw clreduce::InvalidArgument("bad thing"); }) == CLREDUCE_INVALID_ARGUMENT);
    CHECK(last_error() == "clreduce_test: bad thing");
    CHECK(clreduce_last_cl_error() == CL_SUCCESS);
    CHECK(status_of([] { throw clreduce::Unsupported("no fp64"); }) == CLREDUCE_UNSUPPORTED);
    CHECK(last_error() == "clreduce_test: no fp64");
    CHECK(status_of([] { throw clreduce::Overflow("too big"); }) == CLREDUCE_OVERFLOW);
    CHECK(last_error() == "clreduce_test: too big");

    CHECK(status_of([] { clreduce::check(CL_OUT_OF_RESOURCES, "clEnqueueNDRangeKernel"); }) == CLREDUCE_OPENCL_ERROR);
    CHECK(last_error().find("clEnqueueNDRangeKernel") != std::string::npos);
    CHECK(last_error().find("CL_OUT_OF_RESOURCES") != std::string::npos);
    CHECK(clreduce_last_cl_error() == CL_OUT_OF_RESOURCES);

    CHECK(status_of([] { throw clreduce::BuildError(CL_BUILD_PROGRAM_FAILURE, "-DX=1", "line 3: error"); }) ==
          CLREDUCE_BUILD_ERROR);
    CHECK(last_error().find("line 3: error") != std::string::npos);
    CHECK(clreduce_last_cl_error() == CL_BUILD_PROGRAM_FAILURE);

    CHECK(status_of([] { throw clreduce::Error("no OpenCL device"); }) == CLREDUCE_ERROR);
    CHECK(last_error() == "clreduce_test: no OpenCL device");
    CHECK(clreduce_last_cl_error() == CL_SUCCESS);  // each call starts afresh

    CHECK(status_of([] { throw std::bad_alloc(); }) == CLREDUCE_OUT_OF_MEMORY);
    CHECK(last_error() == "clreduce_test: out of memory (std::bad_alloc)");
    CHECK(status_of([] { throw std::length_error("vector::reserve"); }) == CLREDUCE_INTERNAL);
    CHECK(last_error() == "clreduce_test: internal error: vector::reserve");
    CHECK(status_of([] { throw 42; }) == CLREDUCE_INTERNAL);
    CHECK(last_error().find("not a std::exception") != std::string::npos);

    CHECK(guarded("clreduce_test", [] {}) == CLREDUCE_SUCCESS);
    CHECK(last_error().empty());
}
