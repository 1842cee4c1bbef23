#include "device/vendor.hpp"

#include <limits>

#include <clreduce/launch_params.hpp>

namespace clreduce {

std::uint32_t preferred_work_group_size(const DeviceInfo& device) { return device.is_gpu() ? 256 : 64; }

std::uint32_t max_default_times(const DeviceInfo& device) { return device.is_gpu() ? 64 : 16; }

std::uint32_t max_expansion_times(const DeviceInfo& device) { return device.is_gpu() ? 512 : 64; }

std::uint32_t expansion_groups_per_compute_unit(const DeviceInfo& device) { return device.is_gpu() ? 4 : 8; }

Stride expansion_stride(const DeviceInfo& device) { return device.is_gpu() ? Stride::local : Stride::global; }

std::uint32_t default_load_bytes(const DeviceInfo& device) { return device.is_gpu() ? 16 : 64; }

std::uint64_t host_path_crossover_bytes(const DeviceInfo&) { return std::numeric_limits<std::uint64_t>::max(); }

std::uint64_t cpu_small_shape_bytes(const DeviceInfo& device) {
    return (device.type & CL_DEVICE_TYPE_CPU) != 0 ? std::uint64_t(4) << 20 : 0;
}

bool prefers_last_group_finish(const DeviceInfo& device) { return (device.type & CL_DEVICE_TYPE_CPU) != 0; }

ExactLanePasses exact_lane_passes(const DeviceInfo& device, ElementType accumulator) {
    // Float data's untested passes hold a float's subnormals in doubles: a device that flushes
    // them takes the tested lanes, which test every vector.
    if (accumulator == ElementType::float32 && !device.has_float_denormals) return ExactLanePasses::tested;
    return (device.type & CL_DEVICE_TYPE_CPU) != 0 ? ExactLanePasses::untested_first : ExactLanePasses::anchored;
}

const char* to_string(ExactLanePasses passes) {
    switch (passes) {
        case ExactLanePasses::tested: return "tested";
        case ExactLanePasses::untested_first: return "untested first";
        case ExactLanePasses::anchored: return "anchored";
    }
    return "?";
}

std::uint32_t warp_shuffle_width(std::uint32_t work_group_size, const DeviceInfo& device) {
    const std::uint32_t warp = device.wavefront_width;
    const bool usable = device.is_nvidia && warp > 1 && (warp & (warp - 1)) == 0 && work_group_size >= warp;
    return usable ? warp : 1;
}

bool takes_inline_ptx(const DeviceInfo& device) { return device.is_nvidia; }

bool has_dp4a(const DeviceInfo& device) { return device.is_nvidia && device.nvidia_compute_capability >= 61; }

bool paces_reads_by_default(const DeviceInfo& device) { return device.is_nvidia; }

bool devices_take_turns(const DeviceInfo& device) {
    return (device.type & CL_DEVICE_TYPE_CPU) != 0 &&
           device.platform_name.find("Portable Computing Language") != std::string::npos;
}

// The last-group finish needs a device-wide memory fence clreduce knows: NVIDIA's
// membar.gl, and CPU devices, whose stores are ordered (cl_kernels/reduce.cl).
bool has_last_group_finish(const DeviceInfo& device) {
    return takes_inline_ptx(device) || (device.type & CL_DEVICE_TYPE_CPU) != 0;
}

}  // namespace clreduce
