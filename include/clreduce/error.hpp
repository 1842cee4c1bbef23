#pragma once
#include <stdexcept>
#include <string>

#include <clreduce/opencl.hpp>

namespace clreduce {

// Base of every exception clreduce throws.
class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A caller's argument is wrong: null or foreign buffer, range past the end, bad launch parameter.
class InvalidArgument : public Error {
public:
    using Error::Error;
};

// The device cannot do what was asked (e.g. double without cl_khr_fp64).
class Unsupported : public Error {
public:
    using Error::Error;
};

// An integer result's exact value does not fit its type (IntegerOverflow::check in
// launch_params.hpp). what() names the operation, the value's magnitude and the type.
class Overflow : public Error {
public:
    using Error::Error;
};

// An OpenCL call returned an error code. what() names the call and the code.
class OpenCLError : public Error {
public:
    OpenCLError(cl_int code, const std::string& call, const std::string& detail = {});
    cl_int code() const noexcept { return code_; }
    const std::string& call() const noexcept { return call_; }

private:
    cl_int code_;
    std::string call_;
};

// A kernel failed to compile. what() includes the build log.
class BuildError : public OpenCLError {
public:
    BuildError(cl_int code, std::string options, std::string log);
    const std::string& options() const noexcept { return options_; }
    const std::string& log() const noexcept { return log_; }

private:
    std::string options_;
    std::string log_;
};

// "CL_OUT_OF_RESOURCES" for -5; "unknown OpenCL error -1234" for codes it does not know.
std::string error_name(cl_int code);

// Throws OpenCLError when code is not CL_SUCCESS.
void check(cl_int code, const char* call);

}  // namespace clreduce
