#include <clreduce/device_selection.hpp>

#include <cstdlib>
#include <mutex>
#include <string>

#include <clreduce/error.hpp>

#include "device/device_spec.hpp"
#include "device/string_util.hpp"

namespace clreduce {
namespace {

struct Candidate {
    std::size_t platform_index;
    std::size_t device_index;
    std::string label;  // "platform name / device name"
    cl::Device device;
};

std::vector<Candidate> candidates() {
    // The ICD loader's first platform query is not thread-safe (threads that were first to
    // ask at the same time crashed or saw no platforms); one enumeration at a time.
    static std::mutex enumeration;
    std::lock_guard<std::mutex> lock(enumeration);
    std::vector<cl::Platform> platforms;
    const cl_int err = cl::Platform::get(&platforms);
    // The ICD loader reports "no platforms" as an error code; that just means none.
    if (err == CL_PLATFORM_NOT_FOUND_KHR || platforms.empty()) return {};
    check(err, "clGetPlatformIDs");
    std::vector<Candidate> out;
    for (std::size_t p = 0; p < platforms.size(); ++p) {
        std::string platform_name;
        check(platforms[p].getInfo(CL_PLATFORM_NAME, &platform_name), "clGetPlatformInfo");
        std::vector<cl::Device> devices;
        const cl_int derr = platforms[p].getDevices(CL_DEVICE_TYPE_ALL, &devices);
        if (derr == CL_DEVICE_NOT_FOUND) continue;
        check(derr, "clGetDeviceIDs");
        for (std::size_t d = 0; d < devices.size(); ++d) {
            std::string device_name;
            check(devices[d].getInfo(CL_DEVICE_NAME, &device_name), "clGetDeviceInfo");
            out.push_back({p, d, trim_nul(platform_name) + " / " + trim_nul(device_name), devices[d]});
        }
    }
    return out;
}

std::string listing(const std::vector<Candidate>& all) {
    if (all.empty()) return "no OpenCL devices found (is an ICD such as pocl-opencl-icd installed?)";
    std::string out = "available devices:";
    for (std::size_t i = 0; i < all.size(); ++i) {
        out += "\n  [" + std::to_string(i) + "] " + std::to_string(all[i].platform_index) + ":" +
               std::to_string(all[i].device_index) + "  " + all[i].label;
    }
    return out;
}

}  // namespace

std::vector<cl::Device> all_devices() {
    std::vector<cl::Device> out;
    for (auto& c : candidates()) out.push_back(c.device);
    return out;
}

cl::Device select_device(std::string_view spec) {
    const auto all = candidates();
    std::vector<DeviceLabel> labels;
    for (auto& c : all) labels.push_back({c.platform_index, c.device_index, c.label});
    if (const auto found = match_device_spec(spec, labels)) return all[*found].device;
    throw InvalidArgument("no OpenCL device matches '" + std::string(spec) + "'; " + listing(all));
}

cl::Device default_device() {
    if (const char* spec = std::getenv("CLREDUCE_DEVICE"); spec != nullptr && *spec != '\0') return select_device(spec);
    const auto all = candidates();
    if (all.empty()) throw Error(listing(all));
    for (auto& c : all) {
        cl_device_type type = 0;
        check(c.device.getInfo(CL_DEVICE_TYPE, &type), "clGetDeviceInfo");
        if (type & CL_DEVICE_TYPE_GPU) return c.device;
    }
    return all.front().device;
}

}  // namespace clreduce
