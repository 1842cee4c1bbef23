#pragma once
// The CUDA comparators (perf/cub/) run as processes of their own, beside clreduce-perf: one
// run of one, its standard output read whole.
#include <string>

#include <nlohmann/json.hpp>

namespace clreduce::perf {

// `text` quoted for a POSIX shell.
std::string shell_quoted(const std::string& text);

struct ProcessOutput {
    std::string output;  // standard output
    int status = -1;     // pclose's status: 0 for a run that exited with 0
};
// Runs `command` through the shell and reads its standard output.
ProcessOutput run_process(const std::string& command);

// Runs `command`, a comparator that prints one JSON document, and parses it; where it cannot
// run, fails or prints no JSON: {"error": why}, naming `name`.
nlohmann::json run_comparator(const std::string& command, const std::string& name);

}  // namespace clreduce::perf
