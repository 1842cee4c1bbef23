#pragma once
// A device described rather than queried: what the planner and the tuning database see of a
// GPU, for the code that plans without one (host-only tests, the fuzz targets).
#include <cstdint>
#include <string>

#include <clreduce/device_info.hpp>

namespace clreduce {

// A GPU with work-groups up to 1024, 48 KiB of local memory, 8 GiB of memory (2 GiB per
// buffer), warps of 32, fp64 and 64-bit atomics.
inline DeviceInfo described_gpu(std::string platform, std::string name, std::uint32_t compute_units) {
    DeviceInfo d;
    d.platform_name = std::move(platform);
    d.name = std::move(name);
    d.driver_version = "1.0";
    d.version = "OpenCL 3.0";
    d.type = CL_DEVICE_TYPE_GPU;
    d.compute_units = compute_units;
    d.max_work_group_size = 1024;
    d.local_mem_size = 48 * 1024;
    d.global_mem_size = 8ull << 30;
    d.max_alloc_size = 2ull << 30;
    d.wavefront_width = 32;
    d.has_fp64 = true;
    d.has_int64_atomics = true;
    return d;
}

}  // namespace clreduce
