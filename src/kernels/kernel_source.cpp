#include "kernels/kernel_source.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <clreduce/error.hpp>

#include "ops/operation_table.hpp"

namespace clreduce {

std::string kernel_source(std::string_view file_name) {
    if (const char* dir = std::getenv("CLREDUCE_KERNEL_DIR"); dir != nullptr && *dir != '\0') {
        const std::string path = std::string(dir) + "/" + std::string(file_name);
        std::ifstream file(path, std::ios::binary);
        if (!file) throw Error("cannot read kernel source '" + path + "' (from $CLREDUCE_KERNEL_DIR)");
        std::ostringstream text;
        text << file.rdbuf();
        return text.str();
    }
    for (const auto& kernel : embedded_kernels())
        if (kernel.file_name == file_name) return std::string(kernel.source);
    throw Error("no embedded kernel source named '" + std::string(file_name) + "'");
}

}  // namespace clreduce

namespace clreduce {

KernelSources KernelSources::load() {
    KernelSources sources;
    for (const char* name : {"prelude.cl", "fixed_point.cl", "reduce.cl", "segments.cl"})
        sources.files.emplace(name, kernel_source(name));
    for (std::string_view plugin : plugin_files())  // the operation table's plug-ins
        if (sources.files.find(plugin) == sources.files.end())
            sources.files.emplace(std::string(plugin), kernel_source(plugin));
    return sources;
}

const std::string& KernelSources::get(std::string_view file_name) const {
    auto found = files.find(file_name);
    if (found == files.end()) throw Error("internal: kernel source '" + std::string(file_name) + "' was not loaded");
    return found->second;
}

}  // namespace clreduce
