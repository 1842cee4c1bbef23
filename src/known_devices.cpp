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

// NVIDIA H200 (132 CUs, NVIDIA OpenCL driver 580.159.04), `clreduce-perf tune` on 2026-11-21:
// the additive family, sizes 2^12 .. 2^30 by powers of 4; the comment is the tuned kernel time.
constexpr KnownEntry kKnown[] = {
    {"NVIDIA H200", ElementType::float32, 1ull << 12, 4, 512, Stride::global, 2, InterGroup::second_pass},  // 5.5 us
    {"NVIDIA H200", ElementType::float32, 1ull << 14, 16, 256, Stride::global, 4, InterGroup::second_pass},  // 6.7 us
    {"NVIDIA H200", ElementType::float32, 1ull << 16, 4, 256, Stride::global, 4, InterGroup::second_pass},  // 10.5 us
    {"NVIDIA H200", ElementType::float32, 1ull << 18, 2, 256, Stride::global, 2, InterGroup::second_pass},  // 10.8 us
    {"NVIDIA H200", ElementType::float32, 1ull << 20, 16, 256, Stride::global, 2, InterGroup::second_pass},  // 11.4 us
    {"NVIDIA H200", ElementType::float32, 1ull << 22, 8, 256, Stride::global, 4, InterGroup::second_pass},  // 13.5 us
    {"NVIDIA H200", ElementType::float32, 1ull << 24, 8, 256, Stride::global, 8, InterGroup::second_pass},  // 25.1 us
    {"NVIDIA H200", ElementType::float32, 1ull << 26, 64, 256, Stride::global, 4, InterGroup::second_pass},  // 68.7 us
    {"NVIDIA H200", ElementType::float32, 1ull << 28, 64, 512, Stride::local, 4, InterGroup::second_pass},  // 244.8 us
    {"NVIDIA H200", ElementType::float32, 1ull << 30, 128, 512, Stride::global, 4, InterGroup::second_pass},  // 946.0 us
    {"NVIDIA H200", ElementType::float64, 1ull << 12, 8, 1024, Stride::global, 2, InterGroup::second_pass},  // 6.4 us
    {"NVIDIA H200", ElementType::float64, 1ull << 14, 32, 256, Stride::local, 2, InterGroup::second_pass},  // 6.9 us
    {"NVIDIA H200", ElementType::float64, 1ull << 16, 1, 256, Stride::global, 2, InterGroup::second_pass},  // 10.9 us
    {"NVIDIA H200", ElementType::float64, 1ull << 18, 8, 128, Stride::global, 2, InterGroup::second_pass},  // 11.1 us
    {"NVIDIA H200", ElementType::float64, 1ull << 20, 16, 256, Stride::global, 2, InterGroup::second_pass},  // 13.1 us
    {"NVIDIA H200", ElementType::float64, 1ull << 22, 8, 256, Stride::local, 4, InterGroup::second_pass},  // 15.3 us
    {"NVIDIA H200", ElementType::float64, 1ull << 24, 32, 256, Stride::global, 2, InterGroup::second_pass},  // 40.2 us
    {"NVIDIA H200", ElementType::float64, 1ull << 26, 256, 64, Stride::global, 2, InterGroup::second_pass},  // 128.5 us
    {"NVIDIA H200", ElementType::float64, 1ull << 28, 64, 512, Stride::global, 2, InterGroup::second_pass},  // 476.6 us
    {"NVIDIA H200", ElementType::float64, 1ull << 30, 64, 1024, Stride::global, 4, InterGroup::second_pass},  // 1870.5 us
    {"NVIDIA H200", ElementType::int32, 1ull << 12, 8, 32, Stride::local, 1, InterGroup::atomic},  // 5.3 us
    {"NVIDIA H200", ElementType::int32, 1ull << 14, 1, 256, Stride::global, 4, InterGroup::atomic},  // 5.1 us
    {"NVIDIA H200", ElementType::int32, 1ull << 16, 1, 256, Stride::global, 2, InterGroup::atomic},  // 6.0 us
    {"NVIDIA H200", ElementType::int32, 1ull << 18, 1, 256, Stride::global, 2, InterGroup::atomic},  // 6.1 us
    {"NVIDIA H200", ElementType::int32, 1ull << 20, 4, 256, Stride::global, 4, InterGroup::atomic},  // 6.7 us
    {"NVIDIA H200", ElementType::int32, 1ull << 22, 8, 512, Stride::global, 4, InterGroup::atomic},  // 7.9 us
    {"NVIDIA H200", ElementType::int32, 1ull << 24, 8, 512, Stride::global, 4, InterGroup::atomic},  // 20.5 us
    {"NVIDIA H200", ElementType::int32, 1ull << 26, 8, 256, Stride::local, 4, InterGroup::atomic},  // 64.0 us
    {"NVIDIA H200", ElementType::int32, 1ull << 28, 64, 256, Stride::global, 4, InterGroup::atomic},  // 239.0 us
    {"NVIDIA H200", ElementType::int32, 1ull << 30, 16, 256, Stride::global, 4, InterGroup::atomic},  // 934.2 us
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
