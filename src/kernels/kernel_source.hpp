#pragma once
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace clreduce {

struct EmbeddedKernel {
    std::string_view file_name;  // path under cl_kernels/, e.g. "reduce.cl", "ops/add.cl"
    std::string_view source;
};

// The cl_kernels/ files compiled into the library (generated at build time).
const std::vector<EmbeddedKernel>& embedded_kernels();
// The library's data files (src/tuning/known_devices.json), compiled in likewise.
const std::vector<EmbeddedKernel>& embedded_data();

// Source of a cl_kernels/ file. With $CLREDUCE_KERNEL_DIR set it is read from that folder
// instead, so kernels can be edited without rebuilding the library. Throws Error if missing.
std::string kernel_source(std::string_view file_name);

// Every kernel file a reducer compiles from, read once (at the reducer's construction).
struct KernelSources {
    std::map<std::string, std::string, std::less<>> files;
    static KernelSources load();
    const std::string& get(std::string_view file_name) const;
};

}  // namespace clreduce
