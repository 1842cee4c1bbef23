#include <iostream>

#include <clreduce/clreduce.hpp>

#include "commands/commands.hpp"

namespace clreduce::perf {

int run_devices() {
    const auto devices = all_devices();
    if (devices.empty()) {
        std::cout << "no OpenCL devices found\n";
        return 1;
    }
    for (std::size_t i = 0; i < devices.size(); ++i) {
        const DeviceInfo d = DeviceInfo::query(devices[i]);
        std::cout << "[" << i << "] " << d.platform_name << " / " << d.name << "\n"
                  << "    type "
                  << (d.is_gpu()                      ? "GPU"
                      : (d.type & CL_DEVICE_TYPE_CPU) ? "CPU"
                                                      : "other")
                  << ", " << d.version << ", driver " << d.driver_version << "\n"
                  << "    compute units " << d.compute_units << ", max work-group " << d.max_work_group_size
                  << ", wavefront " << (d.wavefront_width > 1 ? std::to_string(d.wavefront_width) : "unknown")
                  << ", local memory " << d.local_mem_size / 1024 << " KiB, global memory "
                  << d.global_mem_size / (1024 * 1024) << " MiB\n"
                  << "    fp64 " << (d.has_fp64 ? "yes" : "no") << ", fp16 " << (d.has_fp16 ? "yes" : "no")
                  << ", 32-bit atomics yes, 64-bit atomics " << (d.has_int64_atomics ? "yes" : "no")
                  << ", 64-bit atomic min/max " << (d.has_int64_min_max_atomics ? "yes" : "no") << "\n";
    }
    return 0;
}

}  // namespace clreduce::perf
