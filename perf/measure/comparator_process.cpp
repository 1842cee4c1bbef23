#include "measure/comparator_process.hpp"

#include <array>
#include <cstdio>

namespace clreduce::perf {

std::string shell_quoted(const std::string& text) {
    std::string out = "'";
    for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

ProcessOutput run_process(const std::string& command) {
    ProcessOutput result;
    if (FILE* pipe = ::popen(command.c_str(), "r")) {
        std::array<char, 4096> buffer;
        std::size_t got;
        while ((got = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) result.output.append(buffer.data(), got);
        result.status = ::pclose(pipe);
    }
    return result;
}

nlohmann::json run_comparator(const std::string& command, const std::string& name) {
    const ProcessOutput run = run_process(command);
    if (run.status != 0) return {{"error", name + " exited with status " + std::to_string(run.status)}};
    try {
        return nlohmann::json::parse(run.output);
    } catch (const nlohmann::json::exception& e) {
        return {{"error", name + "'s output: " + e.what()}};
    }
}

}  // namespace clreduce::perf
