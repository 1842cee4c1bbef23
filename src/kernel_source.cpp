#include "kernel_source.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <clreduce/error.hpp>

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
