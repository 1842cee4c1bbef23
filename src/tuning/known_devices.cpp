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

// `clreduce-perf tune` on the lent GPUs (NVIDIA OpenCL driver 580.159.04), the additive family,
// sizes 2^12 .. 2^30 by powers of 4; the comment is the tuned kernel time.
// NVIDIA H200 (132 CUs): float32 and float64 on 2026-11-22 with the exact atomic finish
// (docs/h200-2026-11-22b/tuning.json), int32 and int8 earlier that day
// (docs/h200-2026-11-22/tuning-known-devices.json), uint32 on 2026-11-21. Rows marked * took
// the times that was within 2% of the best in both of two exhaustive `tune --check` runs
// (docs/h200-2026-11-22d/tune-check*.json), where the tuned one was not.
// NVIDIA H100 80GB HBM3 (132 CUs): float32 and int32 on 2026-11-22 (docs/h100-2026-11-22/
// tuning.json), float64 later that day on the tuner's float data (docs/h100-2026-11-22e/
// tuning.json; the first session's float64 rows, tuned on small integers, were left out).
constexpr KnownEntry kKnown[] = {
    {"NVIDIA H200", ElementType::float32, 1ull << 12, 4, 256, Stride::global, 4, InterGroup::exact_atomic},  // 6.5 us
    {"NVIDIA H200", ElementType::float32, 1ull << 14, 1, 128, Stride::global, 4, InterGroup::exact_atomic},  // 5.8 us
    {"NVIDIA H200", ElementType::float32, 1ull << 16, 4, 32, Stride::global, 4, InterGroup::exact_atomic},  // 5.5 us *
    {"NVIDIA H200", ElementType::float32, 1ull << 18, 4, 256, Stride::global, 4, InterGroup::exact_atomic},  // 6.1 us
    {"NVIDIA H200", ElementType::float32, 1ull << 20, 8, 128, Stride::global, 4, InterGroup::exact_atomic},  // 6.4 us
    {"NVIDIA H200", ElementType::float32, 1ull << 22, 8, 256, Stride::global, 4, InterGroup::exact_atomic},  // 7.8 us
    {"NVIDIA H200", ElementType::float32, 1ull << 24, 16, 256, Stride::global, 4, InterGroup::exact_atomic},  // 20.9 us
    {"NVIDIA H200", ElementType::float32, 1ull << 26, 64, 256, Stride::global, 4, InterGroup::exact_atomic},  // 65.0 us
    {"NVIDIA H200", ElementType::float32, 1ull << 28, 8, 256, Stride::local, 4, InterGroup::exact_atomic},  // 234.0 us
    {"NVIDIA H200", ElementType::float32, 1ull << 30, 4, 256, Stride::global, 4, InterGroup::exact_atomic},  // 915.5 us
    {"NVIDIA H200", ElementType::float64, 1ull << 12, 1, 256, Stride::global, 2, InterGroup::exact_atomic},  // 6.1 us
    {"NVIDIA H200", ElementType::float64, 1ull << 14, 1, 256, Stride::global, 2, InterGroup::exact_atomic},  // 5.6 us *
    {"NVIDIA H200", ElementType::float64, 1ull << 16, 4, 256, Stride::global, 2, InterGroup::exact_atomic},  // 5.6 us
    {"NVIDIA H200", ElementType::float64, 1ull << 18, 4, 256, Stride::global, 2, InterGroup::exact_atomic},  // 5.6 us
    {"NVIDIA H200", ElementType::float64, 1ull << 20, 8, 256, Stride::global, 2, InterGroup::exact_atomic},  // 6.7 us
    {"NVIDIA H200", ElementType::float64, 1ull << 22, 16, 256, Stride::global, 2, InterGroup::exact_atomic},  // 9.9 us *
    {"NVIDIA H200", ElementType::float64, 1ull << 24, 16, 256, Stride::global, 2, InterGroup::exact_atomic},  // 35.7 us
    {"NVIDIA H200", ElementType::float64, 1ull << 26, 4, 1024, Stride::global, 2, InterGroup::exact_atomic},  // 120.4 us
    {"NVIDIA H200", ElementType::float64, 1ull << 28, 4, 256, Stride::global, 2, InterGroup::exact_atomic},  // 461.0 us
    {"NVIDIA H200", ElementType::float64, 1ull << 30, 16, 128, Stride::local, 2, InterGroup::exact_atomic},  // 1824.0 us
    {"NVIDIA H200", ElementType::int32, 1ull << 12, 8, 128, Stride::global, 1, InterGroup::atomic},  // 5.2 us *
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
    {"NVIDIA H100 80GB HBM3", ElementType::float32, 1ull << 12, 4, 256, Stride::global, 4, InterGroup::exact_atomic},  // 6.2 us
    {"NVIDIA H100 80GB HBM3", ElementType::float32, 1ull << 14, 4, 256, Stride::global, 1, InterGroup::exact_atomic},  // 5.9 us
    {"NVIDIA H100 80GB HBM3", ElementType::float32, 1ull << 16, 1, 256, Stride::global, 4, InterGroup::exact_atomic},  // 6.1 us
    {"NVIDIA H100 80GB HBM3", ElementType::float32, 1ull << 18, 1, 256, Stride::global, 4, InterGroup::exact_atomic},  // 5.9 us
    {"NVIDIA H100 80GB HBM3", ElementType::float32, 1ull << 20, 1, 256, Stride::global, 4, InterGroup::exact_atomic},  // 6.9 us
    {"NVIDIA H100 80GB HBM3", ElementType::float32, 1ull << 22, 16, 256, Stride::local, 4, InterGroup::exact_atomic},  // 8.8 us
    {"NVIDIA H100 80GB HBM3", ElementType::float32, 1ull << 24, 16, 256, Stride::global, 4, InterGroup::exact_atomic},  // 25.6 us
    {"NVIDIA H100 80GB HBM3", ElementType::float32, 1ull << 26, 2, 128, Stride::global, 4, InterGroup::exact_atomic},  // 89.2 us
    {"NVIDIA H100 80GB HBM3", ElementType::float32, 1ull << 28, 2, 256, Stride::global, 4, InterGroup::exact_atomic},  // 339.6 us
    {"NVIDIA H100 80GB HBM3", ElementType::float32, 1ull << 30, 2, 512, Stride::global, 4, InterGroup::exact_atomic},  // 1336.1 us
    {"NVIDIA H100 80GB HBM3", ElementType::float64, 1ull << 12, 4, 256, Stride::global, 1, InterGroup::exact_atomic},  // 5.8 us
    {"NVIDIA H100 80GB HBM3", ElementType::float64, 1ull << 14, 2, 256, Stride::global, 2, InterGroup::exact_atomic},  // 5.7 us
    {"NVIDIA H100 80GB HBM3", ElementType::float64, 1ull << 16, 2, 256, Stride::global, 2, InterGroup::exact_atomic},  // 5.5 us
    {"NVIDIA H100 80GB HBM3", ElementType::float64, 1ull << 18, 4, 256, Stride::global, 2, InterGroup::exact_atomic},  // 5.8 us
    {"NVIDIA H100 80GB HBM3", ElementType::float64, 1ull << 20, 16, 256, Stride::global, 2, InterGroup::exact_atomic},  // 6.6 us
    {"NVIDIA H100 80GB HBM3", ElementType::float64, 1ull << 22, 16, 256, Stride::global, 2, InterGroup::exact_atomic},  // 10.4 us
    {"NVIDIA H100 80GB HBM3", ElementType::float64, 1ull << 24, 2, 256, Stride::global, 2, InterGroup::exact_atomic},  // 47.6 us
    {"NVIDIA H100 80GB HBM3", ElementType::float64, 1ull << 26, 2, 128, Stride::global, 2, InterGroup::exact_atomic},  // 172.6 us
    {"NVIDIA H100 80GB HBM3", ElementType::float64, 1ull << 28, 2, 256, Stride::global, 2, InterGroup::exact_atomic},  // 670.9 us
    {"NVIDIA H100 80GB HBM3", ElementType::float64, 1ull << 30, 2, 512, Stride::global, 2, InterGroup::exact_atomic},  // 2664.7 us
    {"NVIDIA H100 80GB HBM3", ElementType::int32, 1ull << 12, 1, 256, Stride::global, 4, InterGroup::atomic},  // 5.7 us
    {"NVIDIA H100 80GB HBM3", ElementType::int32, 1ull << 14, 2, 256, Stride::global, 4, InterGroup::atomic},  // 6.1 us
    {"NVIDIA H100 80GB HBM3", ElementType::int32, 1ull << 16, 2, 256, Stride::global, 4, InterGroup::atomic},  // 6.7 us
    {"NVIDIA H100 80GB HBM3", ElementType::int32, 1ull << 18, 1, 256, Stride::global, 4, InterGroup::atomic},  // 6.0 us
    {"NVIDIA H100 80GB HBM3", ElementType::int32, 1ull << 20, 8, 64, Stride::global, 4, InterGroup::atomic},  // 6.8 us
    {"NVIDIA H100 80GB HBM3", ElementType::int32, 1ull << 22, 16, 256, Stride::global, 4, InterGroup::atomic},  // 8.3 us
    {"NVIDIA H100 80GB HBM3", ElementType::int32, 1ull << 24, 4, 256, Stride::global, 4, InterGroup::atomic},  // 24.2 us
    {"NVIDIA H100 80GB HBM3", ElementType::int32, 1ull << 26, 2, 256, Stride::local, 4, InterGroup::atomic},  // 88.4 us
    {"NVIDIA H100 80GB HBM3", ElementType::int32, 1ull << 28, 4, 1024, Stride::local, 4, InterGroup::atomic},  // 341.3 us
    {"NVIDIA H100 80GB HBM3", ElementType::int32, 1ull << 30, 2, 512, Stride::global, 4, InterGroup::atomic},  // 1335.8 us
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
