#include "kernels/kernel_source.hpp"

#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>

#include <clreduce/error.hpp>

#include "ops/operation_table.hpp"

namespace clreduce {

namespace {
std::string raw_kernel_source(std::string_view file_name) {
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

// A line `#include "path"` (path under cl_kernels/), as a plug-in of several files has.
std::optional<std::string_view> included_file(std::string_view line) {
    constexpr std::string_view directive = "#include \"";
    if (line.substr(0, directive.size()) != directive) return std::nullopt;
    const std::size_t close = line.find('"', directive.size());
    if (close == std::string_view::npos) return std::nullopt;
    return line.substr(directive.size(), close - directive.size());
}

// file_name's text with its #include lines replaced by the files they name, recursively.
// Embedded sources have no folder for the OpenCL compiler's own #include to search, so the
// host expands them; `depth` stops a file that includes itself.
std::string expanded_source(std::string_view file_name, int depth) {
    if (depth > 8) throw Error("kernel source '" + std::string(file_name) + "': #include nested too deep");
    const std::string text = raw_kernel_source(file_name);
    std::string out;
    out.reserve(text.size());
    std::size_t begin = 0;
    while (begin < text.size()) {
        std::size_t end = text.find('\n', begin);
        end = end == std::string::npos ? text.size() : end + 1;
        const std::string_view line(text.data() + begin, end - begin);
        if (auto included = included_file(line))
            out += expanded_source(*included, depth + 1);
        else
            out += line;
        begin = end;
    }
    return out;
}
}  // namespace

std::string kernel_source(std::string_view file_name) { return expanded_source(file_name, 0); }

}  // namespace clreduce

namespace clreduce {

KernelSources KernelSources::load() {
    KernelSources sources;
    for (const char* name :
         {"prelude.cl", "fixed_point.cl", "reduce.cl", "segments.cl", "run_heads.cl", "by_key.cl", "by_key_values.cl"})
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
