#include "exec/host_reduction.hpp"

#include <algorithm>
#include <array>
#include <cstring>

#include <clreduce/error.hpp>

#include "device/vendor.hpp"
#include "exec/unaligned.hpp"
#include "ops/exact_state.hpp"

namespace clreduce {
namespace {

// Work-items a group the host path emulates at most, and their lanes (on the stack).
constexpr std::uint32_t kMaxHostGroupSize = 1024;
constexpr std::size_t kMaxHostLanes = 4096;
// Groups whose values the host keeps for a last-group finish.
constexpr std::uint64_t kMaxHostGroups = 1024;

// The host's copy of the exact atomic finish's fixed-point number (cl_kernels/fixed_point.cl,
// double accumulator): 67 carry-saved limbs of 2^(32k) units of 2^-1074, then the flags.
class ExactDoubleSum {
public:
    static constexpr int kLimbs = 67;
    void add(double x) {
        std::uint64_t bits = 0;
        std::memcpy(&bits, &x, sizeof bits);
        const auto biased = static_cast<std::uint32_t>(bits >> 52) & 0x7ffu;
        std::uint64_t m = bits & 0xfffffffffffffull;
        const bool negative = (bits >> 63) != 0;
        if (biased == 0x7ffu) {  // NaN 1, +inf 2, -inf 4, as the kernel's flags
            words_[kLimbs] |= m != 0 ? 1 : negative ? 4 : 2;
            return;
        }
        std::uint32_t p = 0;  // the significand's lowest bit, in units of 2^-1074
        if (biased != 0) {
            m |= 0x10000000000000ull;
            p = biased - 1;
        }
        const std::uint32_t shift = p & 31u;
        const std::uint64_t low = m << shift;
        const std::int64_t sign = negative ? -1 : 1;
        const std::uint32_t k = p >> 5;
        words_[k] += sign * static_cast<std::int64_t>(low & 0xffffffffull);
        words_[k + 1] += sign * static_cast<std::int64_t>(low >> 32);
        words_[k + 2] += sign * static_cast<std::int64_t>(shift != 0 ? m >> (64 - shift) : 0);
    }
    double rounded() const {
        unsigned char bytes[sizeof words_];
        std::memcpy(bytes, words_.data(), sizeof bytes);
        return round_exact_state(bytes, ElementType::float64);
    }

private:
    std::array<std::int64_t, kLimbs + 1> words_{};
};

// Level 1 of `items` neighbouring work-items (at most kBlockLanes / V), the first reading
// vector `first` at its step 0: their lanes in registers through every step, each lane adding
// its work-item's vectors in the kernel's order; then stored to `lanes`.
constexpr std::uint32_t kBlockLanes = 64;
template <class T, std::uint32_t V>
__attribute__((always_inline)) inline void block_level1(const unsigned char* in, std::uint64_t vectors,
                                                        std::uint64_t first, std::uint64_t step, std::uint32_t times,
                                                        std::uint32_t items, double* lanes) {
    constexpr std::uint32_t kFull = kBlockLanes / V * V;
    double acc[kFull] = {};
    for (std::uint32_t t = 0; t < times && first < vectors; ++t, first += step) {
        const std::uint64_t here = std::min<std::uint64_t>(items, vectors - first);
        const unsigned char* v = in + first * V * sizeof(T);
        if (here * V == kFull)
            for (std::uint32_t k = 0; k < kFull; ++k) acc[k] += static_cast<double>(load_at<T>(v, k));
        else
            for (std::uint64_t k = 0; k < here * V; ++k) acc[k] += static_cast<double>(load_at<T>(v, k));
    }
    std::copy_n(acc, std::size_t(items) * V, lanes);
}

// Level 2: reduce.cl's tree in local memory, sequential addressing; the group's value.
inline double level2_tree(double* scratch, std::uint32_t wg) {
    for (std::uint32_t s = wg / 2; s >= 1; s >>= 1)
        for (std::uint32_t lid = 0; lid < s; ++lid) scratch[lid] = scratch[lid] + scratch[lid + s];
    return scratch[0];
}

// ops/add.cl's vector path, one group at a time: level 1 (each work-item's `times` vectors
// added lane by lane, in its order), the lanes as a tree, the scalar tail
// (group 0), level 2's tree, and level 3's exact sum of the groups' values, rounded once.
// (The host steps a few neighbouring work-items together, so each step reads their vectors
// where they lie side by side.)
template <class T, std::uint32_t V>
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__) && \
    !defined(__SANITIZE_THREAD__)
// The lane loops at the host's vector width (the kernels' lanes are independent, so wider
// registers change no bits).
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
double
float_sum(const LaunchPlan& plan, const unsigned char* in, std::uint64_t count) {
    const std::uint32_t wg = plan.work_group_size;
    const std::uint64_t groups = plan.groups;
    const bool local = plan.stride == Stride::local;
    const std::uint64_t vectors = count / V;
    const std::uint64_t step = local ? wg : groups * wg;
    const bool exact = plan.inter_group == InterGroup::exact_atomic;
    ExactDoubleSum level3;
    std::array<double, kMaxHostGroups> partials;  // InterGroup::last_group
    alignas(64) std::array<double, kMaxHostLanes> lanes;
    alignas(64) std::array<double, kMaxHostLanes / 2> halves;
    std::array<double, kMaxHostGroupSize> scratch;
    constexpr std::uint32_t kBlock = kBlockLanes / V;
    for (std::uint64_t g = 0; g < groups; ++g) {
        const std::uint64_t base = local ? g * wg * plan.times : g * wg;
        for (std::uint32_t lid = 0; lid < wg; lid += kBlock) {
            const std::uint32_t items = std::min<std::uint32_t>(kBlock, wg - lid);
            block_level1<T, V>(in, vectors, base + lid, step, plan.times, items, lanes.data() + std::size_t(lid) * V);
        }
        // Each work-item's lanes as ops/add.cl's tree of halves, (s0 + s1) + (s2 + s3) ...: the
        // tree's levels add neighbours, for all work-items at once.
        double* from = lanes.data();
        double* to = halves.data();
        for (std::size_t width = std::size_t(wg) * V; width > wg; width /= 2) {
            for (std::size_t j = 0; j < width / 2; ++j) to[j] = from[2 * j] + from[2 * j + 1];
            std::swap(from, to);
        }
        for (std::uint32_t lid = 0; lid < wg; ++lid) {
            double acc = from[lid];
            if (g == 0)
                for (std::uint64_t j = vectors * V + lid; j < count; j += wg)
                    acc += static_cast<double>(load_at<T>(in, j));
            scratch[lid] = acc;
        }
        const double group_value = level2_tree(scratch.data(), wg);
        if (exact)
            level3.add(group_value);
        else
            partials[g] = group_value;
    }
    if (exact) return level3.rounded();
    // reduce.cl's last group: work-item lid adds partials lid, lid + wg, ... in order, from the
    // identity; then level 2's tree.
    for (std::uint32_t lid = 0; lid < wg; ++lid) {
        double s = 0.0;
        for (std::uint64_t j = lid; j < groups; j += wg) s = s + partials[j];
        scratch[lid] = s;
    }
    return level2_tree(scratch.data(), wg);
}

template <class T>
double float_sum_by_width(const LaunchPlan& plan, const unsigned char* in, std::uint64_t count) {
    switch (plan.vector_width) {
        case 1: return float_sum<T, 1>(plan, in, count);
        case 2: return float_sum<T, 2>(plan, in, count);
        case 4: return float_sum<T, 4>(plan, in, count);
        case 8: return float_sum<T, 8>(plan, in, count);
        case 16: return float_sum<T, 16>(plan, in, count);
    }
    throw Error("internal: host path with vector width " + std::to_string(plan.vector_width));
}

// Integer sums are exact (or modulo 2^64, as the kernels' 64-bit lanes wrap): any order gives
// the kernels' value, so one plain pass does.
template <class T>
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__) && \
    !defined(__SANITIZE_THREAD__)
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
std::uint64_t
integer_sum(const unsigned char* in, std::uint64_t count) {
    std::uint64_t acc = 0;
    for (std::uint64_t i = 0; i < count; ++i)
        acc += static_cast<std::uint64_t>(static_cast<std::int64_t>(load_at<T>(in, i)));
    return acc;
}

template <class T>
void integer_result(const void* data, std::uint64_t count, unsigned char* bits) {
    const std::uint64_t sum = integer_sum<T>(static_cast<const unsigned char*>(data), count);
    std::memcpy(bits, &sum, sizeof sum);
}

}  // namespace

bool host_path_reproduces(const LaunchPlan& plan, const OpKernel& kernel) {
    if (kernel.op != KernelOp::add || kernel.map != ElementMap::identity || plan.transform) return false;
    if (plan.operation != Operation::sum && plan.operation != Operation::mean) return false;
    if (plan.work_group_size > kMaxHostGroupSize ||
        std::size_t(plan.work_group_size) * plan.vector_width > kMaxHostLanes)
        return false;
    switch (plan.element) {
        case ElementType::int8:
        case ElementType::uint8:
        case ElementType::int16:
        case ElementType::uint16:
        case ElementType::int32:
        case ElementType::uint32:
            return (plan.accumulator == ElementType::int64 || plan.accumulator == ElementType::uint64) &&
                   plan.exact_integer_bits == 0;
        case ElementType::float32:
        case ElementType::float64:
            return plan.accumulator == ElementType::float64 && plan.float_mode == FloatMode::deterministic &&
                   (plan.inter_group == InterGroup::exact_atomic ||
                    (plan.inter_group == InterGroup::last_group && plan.groups <= kMaxHostGroups));
        default: return false;
    }
}

std::uint64_t default_host_path_bytes(const DeviceInfo& device) { return host_path_crossover_bytes(device); }

void reduce_on_host(const LaunchPlan& plan, const void* data, std::uint64_t count, unsigned char* result_bits) {
    switch (plan.element) {
        case ElementType::int8: return integer_result<std::int8_t>(data, count, result_bits);
        case ElementType::uint8: return integer_result<std::uint8_t>(data, count, result_bits);
        case ElementType::int16: return integer_result<std::int16_t>(data, count, result_bits);
        case ElementType::uint16: return integer_result<std::uint16_t>(data, count, result_bits);
        case ElementType::int32: return integer_result<std::int32_t>(data, count, result_bits);
        case ElementType::uint32: return integer_result<std::uint32_t>(data, count, result_bits);
        case ElementType::float32: {
            const double sum = float_sum_by_width<float>(plan, static_cast<const unsigned char*>(data), count);
            std::memcpy(result_bits, &sum, sizeof sum);
            return;
        }
        case ElementType::float64: {
            const double sum = float_sum_by_width<double>(plan, static_cast<const unsigned char*>(data), count);
            std::memcpy(result_bits, &sum, sizeof sum);
            return;
        }
        default: break;
    }
    throw Error("internal: the host path cannot run " + plan.describe());
}

}  // namespace clreduce
