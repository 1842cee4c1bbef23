#pragma once
// The perf tool's own OpenCL files (perf/*.cl), embedded at build time like the library's.
#include <string>
#include <string_view>
#include <vector>

#include <clreduce/error.hpp>

namespace clreduce::perf {

struct EmbeddedKernel {
    std::string_view file_name;
    std::string_view source;
};

const std::vector<EmbeddedKernel>& embedded_kernels();  // generated

inline std::string_view embedded_perf_kernel(std::string_view file_name) {
    for (const EmbeddedKernel& k : embedded_kernels())
        if (k.file_name == file_name) return k.source;
    throw Error("no embedded perf kernel " + std::string(file_name));
}

}  // namespace clreduce::perf
