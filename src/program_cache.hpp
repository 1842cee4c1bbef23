#pragma once
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include <clreduce/opencl.hpp>

namespace clreduce {

// Programs built for one device, keyed by their source and build options. Thread-safe; each
// pair is built once, also when several threads ask for it at the same time.
class ProgramCache {
public:
    ProgramCache(cl::Context context, cl::Device device, std::atomic<std::uint64_t>& builds);

    // Throws BuildError (with the build log) when the source does not compile.
    cl::Program get(const std::string& source, const std::string& options);

private:
    struct Entry {
        std::once_flag built;
        cl::Program program;
    };
    cl::Program build(const std::string& source, const std::string& options);

    cl::Context context_;
    cl::Device device_;
    std::atomic<std::uint64_t>& builds_;
    std::mutex mutex_;
    std::map<std::string, std::shared_ptr<Entry>> entries_;
};

}  // namespace clreduce
