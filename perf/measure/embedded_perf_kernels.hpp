#pragma once
// The perf tools' own OpenCL files, embedded at build time like the library's: each executable
// embeds those it builds (perf/CMakeLists.txt, clreduce_perf_embed_kernels), by file name.
#include <string>
#include <string_view>
#include <vector>

#include <clreduce/error.hpp>
#include <clreduce/opencl.hpp>

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

// One of them built for `device`; BuildError (with the log) when it does not build.
inline cl::Program build_perf_program(const cl::Context& context, const cl::Device& device, std::string_view file_name,
                                      const std::string& options = {}) {
    cl::Program program(context, std::string(embedded_perf_kernel(file_name)));
    const cl_int built = program.build({device}, options.c_str());
    if (built != CL_SUCCESS) throw BuildError(built, options, program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device));
    return program;
}

}  // namespace clreduce::perf
