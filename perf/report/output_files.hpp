#pragma once
// Where a command writes its result besides the table on stdout; empty: not written.
#include <fstream>
#include <string>

#include <clreduce/tuning.hpp>

#include <nlohmann/json.hpp>

#include <clreduce/device_info.hpp>
#include <clreduce/error.hpp>

namespace clreduce::perf {

struct OutputFiles {
    std::string csv;
    std::string json;
    std::string svg;
};

inline std::ofstream open_output(const std::string& path) {
    std::ofstream out(path, std::ios::binary);
    if (!out) throw Error("cannot write " + path);
    return out;
}

inline nlohmann::json device_json(const DeviceInfo& d) {
    return {{"platform", d.platform_name},
            {"name", d.name},
            {"vendor", d.vendor},
            {"driver", d.driver_version},
            {"version", d.version},
            {"compute_units", d.compute_units},
            {"global_mem_bytes", d.global_mem_size},
            {"max_alloc_bytes", d.max_alloc_size}};
}

// Sizes are named as the library names them: "2^k" for powers of two, else the number.
inline std::string size_label(std::uint64_t n) { return size_name(n); }

}  // namespace clreduce::perf
