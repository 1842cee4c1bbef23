#include "kernels/program_cache.hpp"

#include <cstdlib>
#include <iostream>
#include <mutex>
#include <vector>

#include <clreduce/error.hpp>

#include "device/string_util.hpp"

namespace clreduce {
namespace {

bool show_build_log() {
    const char* show = std::getenv("CLREDUCE_BUILD_LOG");
    return show != nullptr && *show != '\0' && *show != '0';
}

}  // namespace

// The binary cache's key names the device once; each program's source goes with its options.
ProgramCache::ProgramCache(cl::Context context, cl::Device device, std::optional<std::filesystem::path> cache_folder,
                           std::atomic<std::uint64_t>& built, std::atomic<std::uint64_t>& loaded)
    : context_(std::move(context)),
      device_(std::move(device)),
      binaries_(std::move(cache_folder), device_, ""),
      built_(built),
      loaded_(loaded) {}

cl::Program ProgramCache::get(const std::string& source, const std::string& options) {
    std::shared_ptr<Entry> entry;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        auto& slot = entries_[options + '\n' + source];
        if (!slot) slot = std::make_shared<Entry>();
        entry = slot;
    }
    // A build that throws leaves the flag unset, so a later call tries again.
    std::call_once(entry->built, [&] { entry->program = build(source, options); });
    return entry->program;
}

cl::Program ProgramCache::build(const std::string& source, const std::string& options) {
    if (!binaries_.enabled()) return from_source(source, options);
    // What the binary on disk must have been made from: these options and this source.
    const std::string key = options + "\nsource bytes: " + std::to_string(source.size()) + "\n" + source;
    std::string why_not;
    if (auto binary = binaries_.load(key, &why_not)) {
        if (auto program = from_binary(*binary, options, why_not)) {
            loaded_.fetch_add(1, std::memory_order_relaxed);
            if (show_build_log())
                std::cerr << "clreduce: loaded program with '" << options << "' from " << binaries_.path(key).string()
                          << "\n";
            return *program;
        }
    }
    if (show_build_log())
        std::cerr << "clreduce: no usable binary at " << binaries_.path(key).string() << " (" << why_not
                  << "); building from source\n";
    cl::Program program = from_source(source, options);
    // A file that was there but unusable is replaced by the fresh build.
    const std::string binary = binary_of(program);
    std::string why_not_saved;
    const bool saved = binaries_.save(key, binary, &why_not_saved);
    // A folder that refuses writes (read-only, full, not a folder) never fails a reduction:
    // one line says so, once per process, and programs are compiled again in each process.
    if (!saved && !binary.empty()) {
        static std::once_flag warned;
        std::call_once(warned, [&] {
            std::cerr << "clreduce: warning: the program cache cannot be written (" << why_not_saved
                      << "); programs will be compiled in every process (CLREDUCE_CACHE_DIR chooses another "
                         "folder, 'off' none)\n";
        });
    }
    if (show_build_log())
        std::cerr << "clreduce: " << (saved ? "saved" : "could not save") << " its binary (" << binary.size()
                  << " bytes) to " << binaries_.path(key).string() << "\n";
    return program;
}

std::optional<cl::Program> ProgramCache::from_binary(const std::string& binary, const std::string& options,
                                                     std::string& why_not) {
    const cl_device_id device = device_();
    const size_t size = binary.size();
    const auto* bytes = reinterpret_cast<const unsigned char*>(binary.data());
    cl_int status = CL_SUCCESS, err = CL_SUCCESS;
    cl_program raw = clCreateProgramWithBinary(context_(), 1, &device, &size, &bytes, &status, &err);
    if (err != CL_SUCCESS || status != CL_SUCCESS || raw == nullptr) {
        if (raw != nullptr) clReleaseProgram(raw);
        why_not = "clCreateProgramWithBinary refused it: " + std::string(error_name(err != CL_SUCCESS ? err : status));
        return std::nullopt;
    }
    cl::Program program(raw);  // takes ownership
    const cl_int build_err = program.build(std::vector<cl::Device>{device_}, options.c_str());
    if (build_err != CL_SUCCESS) {
        why_not = "clBuildProgram failed on it: " + std::string(error_name(build_err));
        return std::nullopt;
    }
    return program;
}

cl::Program ProgramCache::from_source(const std::string& source, const std::string& options) {
    cl_int err = CL_SUCCESS;
    cl::Program program(context_, source, false, &err);
    check(err, "clCreateProgramWithSource");
    const cl_int build_err = program.build(std::vector<cl::Device>{device_}, options.c_str());
    built_.fetch_add(1, std::memory_order_relaxed);
    std::string log;
    program.getBuildInfo(device_, CL_PROGRAM_BUILD_LOG, &log);
    log = trim_nul(log);
    if (build_err != CL_SUCCESS) throw BuildError(build_err, options, log);
    if (show_build_log())
        std::cerr << "clreduce: built program with '" << options << "'" << (log.empty() ? "" : "\n") << log << "\n";
    return program;
}

// The program's binary for our device (the context may hold several); empty when the driver
// gives none.
std::string ProgramCache::binary_of(const cl::Program& program) {
    cl_uint count = 0;
    if (clGetProgramInfo(program(), CL_PROGRAM_NUM_DEVICES, sizeof count, &count, nullptr) != CL_SUCCESS || count == 0)
        return {};
    std::vector<cl_device_id> devices(count);
    std::vector<size_t> sizes(count);
    if (clGetProgramInfo(program(), CL_PROGRAM_DEVICES, count * sizeof(cl_device_id), devices.data(), nullptr) !=
            CL_SUCCESS ||
        clGetProgramInfo(program(), CL_PROGRAM_BINARY_SIZES, count * sizeof(size_t), sizes.data(), nullptr) !=
            CL_SUCCESS)
        return {};
    std::vector<std::string> binaries(count);
    std::vector<unsigned char*> pointers(count);
    for (cl_uint i = 0; i < count; ++i) {
        binaries[i].resize(sizes[i]);
        pointers[i] = sizes[i] ? reinterpret_cast<unsigned char*>(binaries[i].data()) : nullptr;
    }
    if (clGetProgramInfo(program(), CL_PROGRAM_BINARIES, count * sizeof(unsigned char*), pointers.data(), nullptr) !=
        CL_SUCCESS)
        return {};
    for (cl_uint i = 0; i < count; ++i)
        if (devices[i] == device_()) return std::move(binaries[i]);
    return {};
}

}  // namespace clreduce
