#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace clreduce {

struct EmbeddedKernel {
    std::string_view file_name;  // e.g. "reduce.cl"
    std::string_view source;
};

// The cl_kernels/ files compiled into the library (generated at build time).
const std::vector<EmbeddedKernel>& embedded_kernels();

// Source of a cl_kernels/ file. With $CLREDUCE_KERNEL_DIR set it is read from that folder
// instead, so kernels can be edited without rebuilding the library. Throws Error if missing.
std::string kernel_source(std::string_view file_name);

}  // namespace clreduce
