#pragma once
// The source tree the tests read files from (the docs, the fuzz corpora): $CLREDUCE_SOURCE_DIR
// where set (a bundle run on another machine, scripts/gpu-run.sh), else the tree the tests were
// built from.
#include <cstdlib>
#include <string>

namespace clreduce::test {

inline std::string source_dir() {
    const char* set = std::getenv("CLREDUCE_SOURCE_DIR");
    return set != nullptr && *set != '\0' ? std::string(set) : std::string(CLREDUCE_SOURCE_DIR);
}

}  // namespace clreduce::test
