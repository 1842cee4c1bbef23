#pragma once
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include <clreduce/opencl.hpp>

#include "kernels/program_binary_cache.hpp"

namespace clreduce {

// Programs built for one device, keyed by their source and build options. Thread-safe; each
// pair is built once, also when several threads ask for it at the same time.
// With a cache folder, a program is first looked for among the binaries on disk (counted in
// `loaded`), and one compiled from source (counted in `built`) is saved there.
class ProgramCache {
public:
    ProgramCache(cl::Context context, cl::Device device, std::optional<std::filesystem::path> cache_folder,
                 std::atomic<std::uint64_t>& built, std::atomic<std::uint64_t>& loaded);

    // Throws BuildError (with the build log) when the source does not compile.
    cl::Program get(const std::string& source, const std::string& options);

private:
    struct Entry {
        std::once_flag built;
        cl::Program program;
    };
    cl::Program build(const std::string& source, const std::string& options);
    std::optional<cl::Program> from_binary(const std::string& binary, const std::string& options, std::string& why_not);
    cl::Program from_source(const std::string& source, const std::string& options);
    std::string binary_of(const cl::Program& program);

    cl::Context context_;
    cl::Device device_;
    ProgramBinaryCache binaries_;
    std::atomic<std::uint64_t>& built_;
    std::atomic<std::uint64_t>& loaded_;
    std::mutex mutex_;
    std::map<std::string, std::shared_ptr<Entry>> entries_;
};

}  // namespace clreduce
