#pragma once
// Runs this very program again in a child process, for what one process cannot show: that a
// second process finds the first one's disk caches (Linux: /proc/self/exe). Used by the tests
// and by `clreduce-perf first-result`, which times fresh processes.
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clreduce::testing {

struct ChildResult {
    int exit_code = -1;  // -1: did not start or did not exit normally
    std::string output;  // stdout and stderr together
};

// `env`: variables to set in the child (nullopt: unset), over this process's environment.
ChildResult run_self(const std::vector<std::string>& args,
                     const std::vector<std::pair<std::string, std::optional<std::string>>>& env);

}  // namespace clreduce::testing
