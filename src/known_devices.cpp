// Launch parameters measured on real devices by `clreduce-perf tune`, for devices nobody has
// tuned on this machine yet. Only measured figures belong here.
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
    std::uint32_t vector_width;
    InterGroup inter_group;
};

// NVIDIA H200 (132 CUs, NVIDIA OpenCL driver 580.159.04), `clreduce-perf tune`: float32, float64,
// int32 and int8 on 2026-11-22 (docs/h200-2026-11-22/tuning-known-devices.json), uint32 on 2026-11-21; the
// additive family, sizes 2^12 .. 2^30 by powers of 4; the comment is the tuned kernel time.
constexpr KnownEntry kKnown[] = {
    {"NVIDIA H200", ElementType::float32, 1ull << 12, 8, 128, Stride::global, 4, InterGroup::last_group},  // 6.2 us
    {"NVIDIA H200", ElementType::float32, 1ull << 14, 4, 1024, Stride::global, 4, InterGroup::last_group},  // 7.0 us
    {"NVIDIA H200", ElementType::float32, 1ull << 16, 8, 128, Stride::global, 4, InterGroup::last_group},  // 7.1 us
    {"NVIDIA H200", ElementType::float32, 1ull << 18, 1, 512, Stride::global, 4, InterGroup::last_group},  // 9.2 us
    {"NVIDIA H200", ElementType::float32, 1ull << 20, 2, 256, Stride::global, 4, InterGroup::last_group},  // 8.4 us
    {"NVIDIA H200", ElementType::float32, 1ull << 22, 32, 128, Stride::global, 4, InterGroup::last_group},  // 10.1 us
    {"NVIDIA H200", ElementType::float32, 1ull << 24, 8, 256, Stride::global, 4, InterGroup::last_group},  // 25.0 us
    {"NVIDIA H200", ElementType::float32, 1ull << 26, 128, 128, Stride::global, 4, InterGroup::last_group},  // 70.5 us
    {"NVIDIA H200", ElementType::float32, 1ull << 28, 32, 512, Stride::global, 4, InterGroup::last_group},  // 243.5 us
    {"NVIDIA H200", ElementType::float32, 1ull << 30, 16, 1024, Stride::global, 4, InterGroup::last_group},  // 939.6 us
    {"NVIDIA H200", ElementType::float64, 1ull << 12, 2, 1024, Stride::global, 2, InterGroup::last_group},  // 5.8 us
    {"NVIDIA H200", ElementType::float64, 1ull << 14, 4, 256, Stride::global, 2, InterGroup::last_group},  // 7.0 us
    {"NVIDIA H200", ElementType::float64, 1ull << 16, 8, 256, Stride::global, 2, InterGroup::last_group},  // 6.4 us
    {"NVIDIA H200", ElementType::float64, 1ull << 18, 4, 256, Stride::global, 2, InterGroup::last_group},  // 6.7 us
    {"NVIDIA H200", ElementType::float64, 1ull << 20, 32, 256, Stride::local, 2, InterGroup::last_group},  // 8.4 us
    {"NVIDIA H200", ElementType::float64, 1ull << 22, 8, 256, Stride::global, 2, InterGroup::last_group},  // 11.6 us
    {"NVIDIA H200", ElementType::float64, 1ull << 24, 64, 256, Stride::local, 2, InterGroup::last_group},  // 36.4 us
    {"NVIDIA H200", ElementType::float64, 1ull << 26, 128, 256, Stride::local, 1, InterGroup::last_group},  // 126.9 us
    {"NVIDIA H200", ElementType::float64, 1ull << 28, 16, 512, Stride::global, 2, InterGroup::last_group},  // 476.8 us
    {"NVIDIA H200", ElementType::float64, 1ull << 30, 32, 512, Stride::global, 2, InterGroup::second_pass},  // 1871.6 us
    {"NVIDIA H200", ElementType::int32, 1ull << 12, 16, 128, Stride::global, 1, InterGroup::atomic},  // 6.6 us
    {"NVIDIA H200", ElementType::int32, 1ull << 14, 2, 256, Stride::global, 4, InterGroup::atomic},  // 6.0 us
    {"NVIDIA H200", ElementType::int32, 1ull << 16, 1, 256, Stride::global, 4, InterGroup::atomic},  // 7.9 us
    {"NVIDIA H200", ElementType::int32, 1ull << 18, 4, 256, Stride::local, 4, InterGroup::atomic},  // 6.7 us
    {"NVIDIA H200", ElementType::int32, 1ull << 20, 8, 256, Stride::global, 4, InterGroup::atomic},  // 7.9 us
    {"NVIDIA H200", ElementType::int32, 1ull << 22, 8, 256, Stride::global, 4, InterGroup::atomic},  // 7.9 us
    {"NVIDIA H200", ElementType::int32, 1ull << 24, 8, 256, Stride::global, 4, InterGroup::atomic},  // 20.3 us
    {"NVIDIA H200", ElementType::int32, 1ull << 26, 16, 256, Stride::local, 4, InterGroup::atomic},  // 64.6 us
    {"NVIDIA H200", ElementType::int32, 1ull << 28, 8, 256, Stride::global, 4, InterGroup::atomic},  // 239.7 us
    {"NVIDIA H200", ElementType::int32, 1ull << 30, 8, 256, Stride::global, 4, InterGroup::atomic},  // 938.3 us
    {"NVIDIA H200", ElementType::int8, 1ull << 12, 1, 256, Stride::global, 16, InterGroup::atomic},  // 5.2 us
    {"NVIDIA H200", ElementType::int8, 1ull << 14, 1, 256, Stride::global, 4, InterGroup::atomic},  // 5.6 us
    {"NVIDIA H200", ElementType::int8, 1ull << 16, 1, 256, Stride::global, 16, InterGroup::atomic},  // 5.0 us
    {"NVIDIA H200", ElementType::int8, 1ull << 18, 1, 256, Stride::local, 16, InterGroup::atomic},  // 6.3 us
    {"NVIDIA H200", ElementType::int8, 1ull << 20, 4, 256, Stride::global, 16, InterGroup::atomic},  // 6.5 us
    {"NVIDIA H200", ElementType::int8, 1ull << 22, 4, 256, Stride::local, 16, InterGroup::atomic},  // 6.0 us
    {"NVIDIA H200", ElementType::int8, 1ull << 24, 16, 256, Stride::global, 16, InterGroup::atomic},  // 7.6 us
    {"NVIDIA H200", ElementType::int8, 1ull << 26, 8, 256, Stride::global, 16, InterGroup::atomic},  // 19.7 us
    {"NVIDIA H200", ElementType::int8, 1ull << 28, 8, 256, Stride::global, 16, InterGroup::atomic},  // 64.4 us
    {"NVIDIA H200", ElementType::int8, 1ull << 30, 8, 256, Stride::global, 16, InterGroup::atomic},  // 237.8 us
    {"NVIDIA H200", ElementType::uint32, 1ull << 12, 1, 256, Stride::local, 4, InterGroup::atomic},  // 5.4 us
    {"NVIDIA H200", ElementType::uint32, 1ull << 14, 1, 256, Stride::global, 4, InterGroup::atomic},  // 5.4 us
    {"NVIDIA H200", ElementType::uint32, 1ull << 16, 1, 256, Stride::local, 4, InterGroup::atomic},  // 5.4 us
    {"NVIDIA H200", ElementType::uint32, 1ull << 18, 1, 256, Stride::global, 4, InterGroup::atomic},  // 5.2 us
    {"NVIDIA H200", ElementType::uint32, 1ull << 20, 16, 256, Stride::global, 4, InterGroup::atomic},  // 6.0 us
    {"NVIDIA H200", ElementType::uint32, 1ull << 22, 32, 64, Stride::global, 4, InterGroup::atomic},  // 7.7 us
    {"NVIDIA H200", ElementType::uint32, 1ull << 24, 32, 256, Stride::global, 4, InterGroup::atomic},  // 20.8 us
    {"NVIDIA H200", ElementType::uint32, 1ull << 26, 16, 128, Stride::global, 4, InterGroup::atomic},  // 64.0 us
    {"NVIDIA H200", ElementType::uint32, 1ull << 28, 16, 256, Stride::global, 4, InterGroup::atomic},  // 238.0 us
    {"NVIDIA H200", ElementType::uint32, 1ull << 30, 16, 256, Stride::global, 2, InterGroup::atomic},  // 934.0 us
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
        e.params.vector_width = k.vector_width;
        e.params.inter_group = k.inter_group;
        out.push_back(e);
    }
    return out;
}

}  // namespace clreduce
