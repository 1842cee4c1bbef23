// Launch parameters measured on real devices (README, "Measured"), for devices nobody has
// tuned yet. Only measured figures belong here; fields not measured stay at the defaults.
#include <clreduce/tuning.hpp>

namespace clreduce {
namespace {

struct KnownEntry {
    const char* device_name;  // CL_DEVICE_NAME, exactly
    ElementType type;
    std::uint64_t n;
    std::uint32_t times;
    std::uint32_t work_group_size;
    Stride stride;
};

// NVIDIA H200, clreduce-perf sweep, work-group 256, global stride (2026-11-21): uint32 2^24
// fastest at times 8-32 (16 in the table run); int32 2^30 at 32; float32 2^24 at 4-8;
// float64 2^28 at 32-128.
constexpr KnownEntry kKnown[] = {
    {"NVIDIA H200", ElementType::uint32, 1ull << 24, 16, 256, Stride::global},
    {"NVIDIA H200", ElementType::int32, 1ull << 30, 32, 256, Stride::global},
    {"NVIDIA H200", ElementType::float32, 1ull << 24, 8, 256, Stride::global},
    {"NVIDIA H200", ElementType::float64, 1ull << 28, 64, 256, Stride::global},
};

}  // namespace

std::vector<TunedEntry> known_device_entries(const DeviceInfo& device) {
    std::vector<TunedEntry> out;
    for (const KnownEntry& k : kKnown) {
        if (device.name != k.device_name) continue;
        TunedEntry e;
        e.type = k.type;
        e.family = OperationFamily::additive;
        e.n = k.n;
        e.params.times = k.times;
        e.params.work_group_size = k.work_group_size;
        e.params.stride = k.stride;
        out.push_back(e);
    }
    return out;
}

}  // namespace clreduce
