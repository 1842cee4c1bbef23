#include <clreduce/device_info.hpp>

#include <clreduce/error.hpp>

#include "device/string_util.hpp"

namespace clreduce {
namespace {

// Vendor extensions (cl_nv_device_attribute_query, cl_amd_device_attribute_query).
constexpr cl_device_info kComputeCapabilityMajorNV = 0x4000;
constexpr cl_device_info kComputeCapabilityMinorNV = 0x4001;
constexpr cl_device_info kWarpSizeNV = 0x4003;
constexpr cl_device_info kWavefrontWidthAMD = 0x4043;

template <class T>
T device_value(const cl::Device& device, cl_device_info what, const char* call = "clGetDeviceInfo") {
    T value{};
    check(clGetDeviceInfo(device(), what, sizeof(T), &value, nullptr), call);
    return value;
}

std::string device_string(const cl::Device& device, cl_device_info what) {
    std::string value;
    check(device.getInfo(what, &value), "clGetDeviceInfo");
    return trim_nul(value);
}

bool has_extension(const std::string& extensions, const std::string& name) {
    return (" " + extensions + " ").find(" " + name + " ") != std::string::npos;
}

}  // namespace

DeviceInfo DeviceInfo::query(const cl::Device& device) {
    if (device() == nullptr) throw InvalidArgument("DeviceInfo::query: null device");
    DeviceInfo info;
    cl::Platform platform(device_value<cl_platform_id>(device, CL_DEVICE_PLATFORM), true);
    std::string platform_name;
    check(platform.getInfo(CL_PLATFORM_NAME, &platform_name), "clGetPlatformInfo");
    info.platform_name = trim_nul(platform_name);
    info.name = device_string(device, CL_DEVICE_NAME);
    info.vendor = device_string(device, CL_DEVICE_VENDOR);
    info.driver_version = device_string(device, CL_DRIVER_VERSION);
    info.version = device_string(device, CL_DEVICE_VERSION);
    info.type = device_value<cl_device_type>(device, CL_DEVICE_TYPE);
    info.compute_units = device_value<cl_uint>(device, CL_DEVICE_MAX_COMPUTE_UNITS);
    info.max_work_group_size = device_value<size_t>(device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
    info.local_mem_size = device_value<cl_ulong>(device, CL_DEVICE_LOCAL_MEM_SIZE);
    info.global_mem_size = device_value<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_SIZE);
    info.max_alloc_size = device_value<cl_ulong>(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    info.base_address_alignment = device_value<cl_uint>(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8;

    const std::string extensions = device_string(device, CL_DEVICE_EXTENSIONS);
    info.has_fp64 = has_extension(extensions, "cl_khr_fp64");
    info.has_int64_atomics = has_extension(extensions, "cl_khr_int64_base_atomics");
    info.has_fp16 = has_extension(extensions, "cl_khr_fp16");
    info.has_float_denormals =
        (device_value<cl_device_fp_config>(device, CL_DEVICE_SINGLE_FP_CONFIG) & CL_FP_DENORM) != 0;
    info.has_int64_min_max_atomics = has_extension(extensions, "cl_khr_int64_extended_atomics");
    info.is_nvidia = has_extension(extensions, "cl_nv_device_attribute_query");
    if (info.is_nvidia) {
        info.wavefront_width = device_value<cl_uint>(device, kWarpSizeNV);
        info.nvidia_compute_capability = device_value<cl_uint>(device, kComputeCapabilityMajorNV) * 10 +
                                         device_value<cl_uint>(device, kComputeCapabilityMinorNV);
    } else if (has_extension(extensions, "cl_amd_device_attribute_query")) {
        info.wavefront_width = device_value<cl_uint>(device, kWavefrontWidthAMD);
    }
    return info;
}

}  // namespace clreduce
