#include "program_cache.hpp"

#include <cstdlib>
#include <iostream>

#include <clreduce/error.hpp>

#include "string_util.hpp"

namespace clreduce {

ProgramCache::ProgramCache(cl::Context context, cl::Device device, std::atomic<std::uint64_t>& builds)
    : context_(std::move(context)), device_(std::move(device)), builds_(builds) {}

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
    cl_int err = CL_SUCCESS;
    cl::Program program(context_, source, false, &err);
    check(err, "clCreateProgramWithSource");
    const cl_int build_err = program.build(std::vector<cl::Device>{device_}, options.c_str());
    builds_.fetch_add(1, std::memory_order_relaxed);
    std::string log;
    program.getBuildInfo(device_, CL_PROGRAM_BUILD_LOG, &log);
    log = trim_nul(log);
    if (build_err != CL_SUCCESS) throw BuildError(build_err, options, log);
    if (const char* show = std::getenv("CLREDUCE_BUILD_LOG"); show != nullptr && *show != '\0' && *show != '0')
        std::cerr << "clreduce: built program with '" << options << "'" << (log.empty() ? "" : "\n") << log << "\n";
    return program;
}

}  // namespace clreduce
