#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include <clreduce/opencl.hpp>

namespace clreduce {

// What clreduce needs to know about a device, queried once.
struct DeviceInfo {
    std::string platform_name;
    std::string name;
    std::string vendor;
    std::string driver_version;
    std::string version;  // CL_DEVICE_VERSION
    cl_device_type type = 0;
    std::uint32_t compute_units = 0;
    std::size_t max_work_group_size = 0;
    std::uint64_t local_mem_size = 0;
    std::uint64_t global_mem_size = 0;
    std::uint64_t max_alloc_size = 0;
    std::uint32_t base_address_alignment = 0;  // CL_DEVICE_MEM_BASE_ADDR_ALIGN, in bytes
    // Lanes that execute in lockstep: NVIDIA's warp, AMD's wavefront; 1 when unknown.
    std::uint32_t wavefront_width = 1;
    bool is_nvidia = false;
    std::uint32_t nvidia_compute_capability = 0;  // major * 10 + minor (NVIDIA only; 90 for Hopper)
    bool has_fp64 = false;
    bool has_int64_atomics = false;          // cl_khr_int64_base_atomics
    bool has_int64_min_max_atomics = false;  // cl_khr_int64_extended_atomics (atom_min/atom_max)
    bool has_fp16 = false;                   // cl_khr_fp16
    bool has_float_denormals = false;        // CL_FP_DENORM in CL_DEVICE_SINGLE_FP_CONFIG

    static DeviceInfo query(const cl::Device& device);
    bool is_gpu() const { return (type & CL_DEVICE_TYPE_GPU) != 0; }
};

}  // namespace clreduce
