#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>

#include <clreduce/device_info.hpp>
#include <clreduce/launch_params.hpp>

#include "device/vendor.hpp"
#include "kernels/kernel_source.hpp"
#include "ops/operation_table.hpp"
#include "ops/result_kind.hpp"

namespace clreduce {

// How one launch of cl_kernels/reduce.cl ends its level 3 (CLREDUCE_FINISH there, passed by
// the name in finish_macro(); prelude.cl defines the names). A plan's InterGroup picks it:
// the first launch of a second_pass plan stores partials (second_pass), the one-group
// launch that combines them, or any one-group launch, stores the result (store).
enum class Finish { second_pass, atomic, store, last_group, exact_atomic };

std::string_view finish_macro(Finish finish);  // "CLREDUCE_FINISH_SECOND_PASS", ...
std::string_view map_macro(ElementMap map);    // "CLREDUCE_MAP_SQUARE", ...
// The first launch's finish of a plan with `groups` work-groups running plug-in `op`.
Finish first_finish(InterGroup inter_group, std::uint64_t groups, KernelOp op);

// The OpenCL type reduce_by_key's kernels compare keys of `key_size` bytes as (CLREDUCE_KEY of
// run_heads.cl and by_key.cl): uchar, ushort, uint or ulong; Error for any other size.
const char* run_key_type_name(std::uint32_t key_size);

// reduce_by_key's one launch (cl_kernels/by_key.cl): rows of a work-group's vectors of four
// elements a tile (CLREDUCE_BK_ROWS), so a tile is 4 * kByKeyRows * work-group size elements.
inline constexpr std::uint32_t kByKeyRows = 8;

// Everything one compiled specialisation of the kernel depends on.
struct KernelSpec {
    KernelOp op = KernelOp::add;
    ElementMap map = ElementMap::identity;
    std::string transform;  // the user's expression, ElementMap::transform only
    // The type the expression computes in (LaunchPlan::expression_type), ElementMap::transform only.
    ElementType expression_type = ElementType::int64;
    // KernelOp::user_combine only: the user's combine in a and b (transform/combine.hpp's
    // combine_source) and its identity as the kernel's constant (CombineIdentity::kernel_text).
    // Every launch of the plan carries them (a second pass combines with them too).
    std::string combine;
    std::string combine_identity;
    bool float_atomic = false;   // CAS finish of a float add
    bool int64_min_max = false;  // atom_min/max/and/or/xor finish (cl_khr_int64_extended_atomics)
    bool states_in = false;      // the second pass: the input is the first pass's states
    bool pitched = false;        // one channel of a pitched image
    bool masked = false;         // pitched, with the image's mask (CLREDUCE_MASKED)
    bool all_channels = false;   // pitched: every channel in this launch (LaunchPlan::channels_at_once)
    // pitched, a dense image (rows and mask rows back to back): level 1 reads dense_pixels
    // pixels per vector (CLREDUCE_DENSE), else 0 (a load per element).
    std::uint32_t dense_pixels = 0;
    // The image's channels where the kernel must know them: dense or all_channels, else 0.
    std::uint32_t channels = 0;
    ElementType element = ElementType::int32;
    ElementType accumulator = ElementType::int64;
    // Statistics (ops/moments.cl): the type the state keeps its extremes in, int32 or uint32
    // for integer data in a float accumulator, else the accumulator (state_value.hpp's
    // moments_extreme_type); every launch of a plan keeps the first's, also where its element
    // type is the accumulator (a second pass, the combine of segments' partials).
    ElementType moments_extremes = ElementType::float64;
    std::uint32_t vector_width = 1;
    std::uint32_t times = 1;
    std::uint32_t work_group_size = 1;
    Stride stride = Stride::global;
    Finish finish = Finish::store;
    std::uint32_t wavefront = 1;  // > 1 only when the NVIDIA warp shuffle finishes the tree
    bool nvidia = false;          // NVIDIA's OpenCL: inline PTX (the last group's fence)
    // 8/16-bit integer sums: level 1 adds in 32-bit lanes (CLREDUCE_LANE), or, for 8-bit
    // data on NVIDIA, four bytes at a time with dp4a.
    bool lanes32 = false;
    bool dp4a = false;
    // argmin, argmax, argminmax: level 1's lanes keep their indices in 32 bits (CLREDUCE_INDEX32),
    // every index of the launch being below 2^32.
    bool index32 = false;
    // Asynchronous calls: the store or last-group finish writes the result's value as
    // `result_type` into the caller's buffer instead of the result word.
    bool device_result = false;
    ElementType result_type = ElementType::int64;
    ResultKind result_kind = ResultKind::value;  // how the result is made of the state (ops/result_kind.hpp)
    // ... checked against its 64-bit integer type, a failure set in the caller's status word
    // (result_check), or a float accumulator's sum taken modulo 2^64 (result_modulo):
    // ops/result_kind.hpp's device_result_check.
    bool result_check = false;
    bool result_modulo = false;
    // The four fields above as `plan`'s operation and element type give them (device_result
    // says whether this launch writes it).
    void result_of(const LaunchPlan& plan);
    // The exact atomic finish: how many fixed-point numbers the groups spread over.
    std::uint32_t exact_copies = 1;
    // The correctly rounded sum's expansion route: how level 1 takes the vectors
    // (device/vendor.hpp, exact_lane_passes).
    ExactLanePasses exact_passes = ExactLanePasses::tested;
    // ... and data the untested passes did not hold goes through bins in local memory first
    // (exact_bins_fit in kernel_spec.cpp).
    bool exact_bins = false;
    // A segmented launch (cl_kernels/segments.cl): segment_team work-items per segment;
    // segment_list: the segments are listed (begin and end arrays), else regular.
    bool segmented = false;
    std::uint32_t segment_team = 0;
    std::uint32_t segment_loads = 1;  // LaunchPlan::segment_loads
    bool segment_list = false;
    bool segment_columns = false;      // the segments are a matrix's columns
    std::uint64_t segment_chunk = 0;   // elements per chunk of a long listed segment
    std::uint64_t segment_medium = 0;  // LaunchPlan::segment_medium
    // Which kernel: the segments, the long segments' chunks, or their finish
    // (the same program: only the kernel object differs).
    enum class SegmentKernel { segments, medium, chunks, finish_long } segment_kernel = SegmentKernel::segments;
    // reduce_by_key in one launch (cl_kernels/by_key.cl, exec/fused_by_key.hpp): the keys'
    // size in bytes (0: not that kernel), and whether both ranges start at a multiple of four
    // elements (a vector is then one aligned load).
    std::uint32_t by_key = 0;
    bool by_key_aligned = false;
    // ... or the pass over the values after run_heads.cl's mark pass (cl_kernels/by_key_values.cl,
    // exec/marked_by_key.hpp), with the values aligned for vectors of four where by_key_aligned.
    bool by_key_marked = false;

    auto key() const {
        return std::tie(op, map, transform, expression_type, combine, combine_identity, float_atomic, int64_min_max,
                        states_in, pitched, masked, all_channels, dense_pixels, channels, element, accumulator,
                        moments_extremes, vector_width, times, work_group_size, stride, finish, wavefront, nvidia,
                        lanes32, dp4a, index32, device_result, result_type, result_kind, result_check, result_modulo,
                        exact_copies, exact_passes, exact_bins, segmented, segment_team, segment_loads, segment_list,
                        segment_columns, segment_chunk, segment_medium, segment_kernel, by_key, by_key_aligned,
                        by_key_marked);
    }
    bool operator<(const KernelSpec& other) const { return key() < other.key(); }
    bool operator==(const KernelSpec& other) const { return key() == other.key(); }

    // The most elements one lane of level 1 takes: `times`, or times * dense_pixels for a
    // dense image's vectors of pixels.
    std::uint64_t values_per_lane() const { return std::uint64_t(times) * std::max<std::uint32_t>(1, dense_pixels); }

    std::string build_options() const;
    // prelude.cl, fixed_point.cl, the transform, the plug-in and reduce.cl, in that order
    // (then segments.cl for a segmented launch, by_key.cl for reduce_by_key's one launch,
    // by_key_values.cl for its pass over the values).
    std::string source(const KernelSources& sources) const;
    const char* kernel_name() const {
        if (by_key != 0) return by_key_marked ? "clreduce_by_key_values" : "clreduce_reduce_by_key";
        if (!segmented) return "clreduce_reduce";
        switch (segment_kernel) {
            case SegmentKernel::medium: return "clreduce_reduce_medium";
            case SegmentKernel::chunks: return "clreduce_reduce_chunks";
            case SegmentKernel::finish_long: return "clreduce_finish_long";
            case SegmentKernel::segments: break;
        }
        return segment_columns ? "clreduce_reduce_columns" : "clreduce_reduce_segments";
    }
};

// Copies of the exact atomic finish's number for `groups` work-groups: one up to 4096
// groups, then one per 4096 groups up to 32. Atomics on one word queue at one L2 slice, so a
// large sum's 100,000 groups adding into one number would take half again the kernel's time.
// The correctly rounded sum (op add_exact), whose groups add several terms each: one per 32
// groups.
std::uint32_t exact_copies_for(std::uint64_t groups, KernelOp op = KernelOp::add);

// For the tests and experiments: puts every device on one of the correctly rounded sum's level
// 1 paths, so that one device checks them all; std::nullopt (the default) gives each device its own
// (exact_lane_passes). Every thread, from the next plan on. Not a user setting.
void force_exact_lane_passes(std::optional<ExactLanePasses> passes);

// For the tests: argmin, argmax and argminmax keep 64-bit lane indices in level 1 (as a launch
// over 2^32 elements or more does) while `wide` is true. Every thread, from the next plan on.
void force_wide_lane_indices(bool wide);

// The first launch of a plan: finishes with a store when one group does it all, else with
// the plan's inter-group strategy.
KernelSpec first_pass_spec(const LaunchPlan& plan, const OpKernel& kernel, const DeviceInfo& device);

// The first launch over a dense image (rows and mask rows back to back) of `element_size`-byte
// elements: its vectors hold 8 pixels or 16 bytes of each channel, whichever is fewer (so that a
// work-item's elements stay few), and `times`, which the plan counts in pixels, in those vectors.
void read_dense_image(KernelSpec& spec, std::size_t element_size);

// A segmented plan's launches: the first over the values (partials when
// plan.groups_per_segment > 1, else each segment's state or value), and the one that combines
// the partials (combine = true).
KernelSpec segment_spec(const LaunchPlan& plan, const OpKernel& kernel, const DeviceInfo& device, bool listed,
                        bool combine);
// The single-group launch that combines the first pass's partials (second_pass plans).
KernelSpec second_pass_spec(const LaunchPlan& plan, const KernelSpec& first, const DeviceInfo& device);

}  // namespace clreduce
