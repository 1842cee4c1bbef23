#include "kernels/kernel_spec.hpp"

#include "device/vendor.hpp"
#include "ops/exact_state.hpp"
#include "ops/state_value.hpp"
#include "transform/combine.hpp"
#include "transform/expression.hpp"

#include <algorithm>
#include <atomic>
#include <string>

namespace clreduce {
namespace {

// Identities of max and min in the accumulator (OpenCL C's limits; floats use NaN).
std::pair<const char*, const char*> integer_limits(ElementType type) {
    switch (type) {
        case ElementType::int8: return {"CHAR_MIN", "CHAR_MAX"};
        case ElementType::uint8: return {"0", "UCHAR_MAX"};
        case ElementType::int16: return {"SHRT_MIN", "SHRT_MAX"};
        case ElementType::uint16: return {"0", "USHRT_MAX"};
        case ElementType::int32: return {"INT_MIN", "INT_MAX"};
        case ElementType::uint32: return {"0", "UINT_MAX"};
        case ElementType::int64: return {"LONG_MIN", "LONG_MAX"};
        case ElementType::uint64: return {"0", "ULONG_MAX"};
        default: return {"0", "0"};
    }
}

// Whether a 32-bit lane holds the sum of `values` 8/16-bit integers of `bytes` bytes.
bool lanes32_hold(std::uint64_t values, std::size_t bytes) {
    return values * (bytes == 1 ? 255 : 65535) < (1ull << 31);
}

// Level 1 of an 8/16-bit integer sum may add in 32-bit lanes (then dp4a on NVIDIA for 8-bit
// data) where no lane can overflow: each lane takes `times` values of at most 255 (65535),
// or 4 * 255 per dp4a word.
void choose_lanes(KernelSpec& spec, const LaunchPlan& plan, const OpKernel& kernel, const DeviceInfo& device) {
    const std::size_t bytes = type_size(plan.element);
    if (kernel.op != KernelOp::add || is_floating(plan.element) || bytes > 2 || is_floating(plan.accumulator) ||
        type_size(plan.accumulator) < 4)
        return;
    if (kernel.map != ElementMap::identity && kernel.map != ElementMap::abs && kernel.map != ElementMap::nonzero)
        return;
    if (!lanes32_hold(plan.times, bytes)) return;
    spec.lanes32 = true;
    spec.dp4a = has_dp4a(device) && bytes == 1 && kernel.map == ElementMap::identity && plan.vector_width >= 4 &&
                std::uint64_t(plan.times) * 4 * 255 < (1ull << 31);
}

// argmin, argmax and argminmax keep each lane's index in 32 bits (ops/indexed.cl) where every
// index the launch passes is below 2^32: the groups' vectors, with room for a dense image's
// lane taking up to 7 pixels more than `times` (read_dense_image).
std::atomic<bool> forced_wide_lane_indices{false};

bool indices_fit_32_bits(const LaunchPlan& plan, KernelOp op) {
    const StateLayout layout = plugin_info(op).layout;
    if (layout != StateLayout::indexed && layout != StateLayout::indexed_pair) return false;
    if (forced_wide_lane_indices.load(std::memory_order_relaxed)) return false;
    constexpr std::uint64_t limit = 1ull << 32;
    std::uint64_t span = std::uint64_t(plan.times) + 7;
    for (const std::uint64_t factor :
         {std::uint64_t(plan.work_group_size), std::uint64_t(plan.vector_width), plan.groups}) {
        if (factor != 0 && span > limit / factor) return false;
        span *= factor;
    }
    return span < limit;
}

}  // namespace

void KernelSpec::result_of(const LaunchPlan& plan) {
    result_type = result_element_type(plan.operation, plan.element);
    result_kind = clreduce::result_kind(plan.operation);
    const DeviceResultCheck checked = device_result_check(plan);
    result_check = checked.check;
    result_modulo = checked.modulo;
}

std::string KernelSpec::build_options() const {
    // The correctly rounded sum's expansion route: doubles, and the term count the planner sizes.
    const bool expansions = op == KernelOp::add_exact && finish == Finish::exact_atomic;
    const bool fp64 =
        element == ElementType::float64 || accumulator == ElementType::float64 || expansions ||
        (device_result && (result_type == ElementType::float64 || result_computes_in_double(result_kind) ||
                           (result_check && is_floating(accumulator))));
    const auto [lowest, highest] = integer_limits(accumulator);
    std::string o = "-cl-std=CL1.2";
    o += " -DCLREDUCE_T=" + std::string(opencl_type_name(element));
    o += " -DCLREDUCE_T_FLOAT=" + std::string(is_floating(element) ? "1" : "0");
    o += " -DCLREDUCE_ACC=" + std::string(opencl_type_name(accumulator));
    o += " -DCLREDUCE_ACC_SIZE=" + std::to_string(type_size(accumulator));
    o += " -DCLREDUCE_ACC_FLOAT=" + std::string(is_floating(accumulator) ? "1" : "0");
    o += " -DCLREDUCE_ACC_LOWEST=" + std::string(lowest);
    o += " -DCLREDUCE_ACC_HIGHEST=" + std::string(highest);
    o += " -DCLREDUCE_FP64=" + std::string(fp64 ? "1" : "0");
    // half needs cl_khr_fp16 enabled where it is read, and where a device result is written as
    // half (a min_async or max_async of half data whose last pass reads float states).
    const bool fp16 = element == ElementType::float16 || (device_result && result_type == ElementType::float16);
    o += " -DCLREDUCE_FP16=" + std::string(fp16 ? "1" : "0");
    o += " -DCLREDUCE_VEC=" + std::to_string(vector_width);
    o += " -DCLREDUCE_TIMES=" + std::to_string(times);
    o += " -DCLREDUCE_WG=" + std::to_string(work_group_size);
    o += " -DCLREDUCE_STRIDE_LOCAL=" + std::string(stride == Stride::local ? "1" : "0");
    o += " -DCLREDUCE_FINISH=" + std::string(finish_macro(finish));
    o += " -DCLREDUCE_NV_SHUFFLE=" + std::string(wavefront > 1 ? "1" : "0");
    o += " -DCLREDUCE_WAVEFRONT=" + std::to_string(wavefront);
    o += " -DCLREDUCE_MAP=" + std::string(map_macro(map));
    o += " -DCLREDUCE_IS_MAX=" + std::string(plugin_info(op).is_max ? "1" : "0");
    if (const int bit_op = plugin_info(op).bit_op) o += " -DCLREDUCE_BIT_OP=" + std::to_string(bit_op);
    if (const int limbs = wide_limbs(plugin_info(op).layout)) o += " -DCLREDUCE_WIDE_LIMBS=" + std::to_string(limbs);
    if (float_atomic) o += " -DCLREDUCE_FLOAT_ATOMIC=1";
    if (int64_min_max) o += " -DCLREDUCE_INT64_MIN_MAX=1";
    if (states_in) o += " -DCLREDUCE_STATES_IN=1";
    if (pitched) o += " -DCLREDUCE_PITCHED=1";
    if (masked) o += " -DCLREDUCE_MASKED=1";
    if (all_channels) o += " -DCLREDUCE_ALL_CHANNELS=1";
    if (dense_pixels > 0) o += " -DCLREDUCE_DENSE=" + std::to_string(dense_pixels);
    if (channels > 0) o += " -DCLREDUCE_CHANNELS=" + std::to_string(channels);
    if (nvidia) o += " -DCLREDUCE_NVIDIA=1";
    if (lanes32) o += std::string(" -DCLREDUCE_LANE=") + (is_signed(element) ? "int" : "uint");
    if (index32) o += " -DCLREDUCE_INDEX32=1";
    // Statistics of 8/16-bit integers: level 1 in exact integer sums (ops/moments.cl), where a
    // lane takes fewer than 2^29 elements (a segment's lane may take a whole long segment);
    // each sum in 32 bits where a lane's cannot overflow them (|x| <= top, x^2 <= top^2).
    if (op == KernelOp::moments && !is_floating(element) && type_size(element) <= 2 && !segmented &&
        values_per_lane() < (1ull << 29)) {
        const std::uint64_t lane_values = values_per_lane();
        const std::uint64_t top = type_size(element) == 1 ? 0xff : 0xffff;
        o += " -DCLREDUCE_MOMENTS_INT=1";
        o += std::string(" -DCLREDUCE_MOMENTS_S1=") + (lanes32_hold(lane_values, type_size(element)) ? "int" : "long");
        o += std::string(" -DCLREDUCE_MOMENTS_S2=") + (lane_values * top * top < (1ull << 32) ? "uint" : "ulong");
    }
    // Statistics of integers in a float accumulator keep their extremes as 32-bit integers
    // (ops/moments.cl): a float would round them.
    if (op == KernelOp::moments && moments_extremes == ElementType::int32)
        o += " -DCLREDUCE_MOMENTS_X=int -DCLREDUCE_MOMENTS_X_LOWEST=INT_MIN -DCLREDUCE_MOMENTS_X_HIGHEST=INT_MAX";
    if (op == KernelOp::moments && moments_extremes == ElementType::uint32)
        o += " -DCLREDUCE_MOMENTS_X=uint -DCLREDUCE_MOMENTS_X_LOWEST=0 -DCLREDUCE_MOMENTS_X_HIGHEST=UINT_MAX";
    if (dp4a) o += std::string(" -DCLREDUCE_DP4A=1 -DCLREDUCE_DP4A_SIGNED=") + (is_signed(element) ? "1" : "0");
    if (device_result) {
        o += " -DCLREDUCE_DEVICE_RESULT=1 -DCLREDUCE_RESULT_T=" + std::string(opencl_type_name(result_type));
        o += " -DCLREDUCE_RESULT_KIND=" + std::to_string(static_cast<int>(result_kind));
        if (result_type == ElementType::float64) o += " -DCLREDUCE_RESULT_IS_DOUBLE=1";
        if (result_type == ElementType::float32) o += " -DCLREDUCE_RESULT_IS_FLOAT32=1";
        if (result_check) o += " -DCLREDUCE_RESULT_CHECK=1";
        if (result_modulo) o += " -DCLREDUCE_RESULT_MODULO=1";
    }
    if (finish == Finish::exact_atomic) o += " -DCLREDUCE_EXACT_COPIES=" + std::to_string(exact_copies);
    if (expansions) o += " -DCLREDUCE_FPE=" + std::to_string(kExactExpansionTerms);
    if (exact_passes != ExactLanePasses::tested)
        o += " -DCLREDUCE_EXACT_OPTIMISTIC=" + std::to_string(static_cast<int>(exact_passes));
    if (exact_bins) o += " -DCLREDUCE_EXACT_BINS=" + std::to_string(kExactBinWords);
    if (segmented)
        o += " -DCLREDUCE_TEAM=" + std::to_string(segment_team) +
             " -DCLREDUCE_SEGMENT_UNROLL=" + std::to_string(segment_loads) +
             " -DCLREDUCE_SEGMENT_LIST=" + std::string(segment_list ? "1" : "0") +
             " -DCLREDUCE_SEGMENT_COLUMNS=" + std::string(segment_columns ? "1" : "0") +
             " -DCLREDUCE_CHUNK=" + std::to_string(segment_chunk) +
             " -DCLREDUCE_SEGMENT_MEDIUM=" + std::to_string(segment_medium);
    if (by_key != 0 && by_key_marked)
        o += std::string(" -DCLREDUCE_KEY=") + run_key_type_name(by_key) +
             " -DCLREDUCE_BV_ALIGNED=" + (by_key_aligned ? "1" : "0");
    else if (by_key != 0)
        o += std::string(" -DCLREDUCE_KEY=") + run_key_type_name(by_key) +
             " -DCLREDUCE_BK_ROWS=" + std::to_string(kByKeyRows) +
             " -DCLREDUCE_BK_ALIGNED=" + (by_key_aligned ? "1" : "0");
    return o;
}

const char* run_key_type_name(std::uint32_t key_size) {
    switch (key_size) {
        case 1: return "uchar";
        case 2: return "ushort";
        case 4: return "uint";
        case 8: return "ulong";
        default: throw Error("internal: reduce_by_key's keys are 1, 2, 4 or 8 bytes, not " + std::to_string(key_size));
    }
}

std::string KernelSpec::source(const KernelSources& sources) const {
    std::string text = sources.get("prelude.cl") + sources.get("fixed_point.cl");
    const bool user_combine = op == KernelOp::user_combine;
    if (map == ElementMap::transform || user_combine) {
        // The expressions were parsed and printed back from their trees (src/transform/); the
        // parentheses keep them inside their slots. `x` is the element converted to the
        // expression's type, CLREDUCE_X (prelude.cl's clreduce_map): the accumulator named or
        // transform_type_t's, also where the sum is kept in a wider exact state, whose
        // accumulator takes the expression's value. A user's combine computes in the same type,
        // which is then the accumulator (a second pass's launch has no map but the combine).
        const std::string x(opencl_type_name(map == ElementMap::transform ? expression_type : accumulator));
        const std::string body = map == ElementMap::transform ? transform_kernel_text(transform, x) : "";
        const std::string combined = user_combine ? combine_kernel_text(combine, x) : "";
        text += "\n#define CLREDUCE_X " + x + "\n#define CLREDUCE_TO_X(v) convert_" + x +
                "(v)\n"
                "#if CLREDUCE_ACC_FLOAT\n#define CLREDUCE_WEAK_FLOAT(v) ((CLREDUCE_X)(v))\n#else\n"
                "#define CLREDUCE_WEAK_FLOAT(v) (v)\n#endif\n" +
                transform_kernel_helpers(body + combined);
        if (map == ElementMap::transform)
            text += "inline CLREDUCE_X clreduce_transform(CLREDUCE_X x) { return CLREDUCE_TO_X((" + body + ")); }\n";
        if (user_combine)
            text += "inline CLREDUCE_X clreduce_user_combine(CLREDUCE_X a, CLREDUCE_X b) { return CLREDUCE_TO_X((" +
                    combined + ")); }\n#define CLREDUCE_USER_IDENTITY " + combine_identity + "\n";
    }
    text += sources.get(plugin_info(op).file);
    text += sources.get("reduce.cl");
    if (segmented) text += sources.get("segments.cl");
    if (by_key != 0) text += sources.get(by_key_marked ? "by_key_values.cl" : "by_key.cl");
    return text;
}

std::string_view finish_macro(Finish finish) {
    switch (finish) {
        case Finish::second_pass: return "CLREDUCE_FINISH_SECOND_PASS";
        case Finish::atomic: return "CLREDUCE_FINISH_ATOMIC";
        case Finish::store: return "CLREDUCE_FINISH_STORE";
        case Finish::last_group: return "CLREDUCE_FINISH_LAST_GROUP";
        case Finish::exact_atomic: return "CLREDUCE_FINISH_EXACT_ATOMIC";
    }
    return "?";
}

std::string_view map_macro(ElementMap map) {
    switch (map) {
        case ElementMap::identity: return "CLREDUCE_MAP_IDENTITY";
        case ElementMap::square: return "CLREDUCE_MAP_SQUARE";
        case ElementMap::abs: return "CLREDUCE_MAP_ABS";
        case ElementMap::nonzero: return "CLREDUCE_MAP_NONZERO";
        case ElementMap::transform: return "CLREDUCE_MAP_TRANSFORM";
    }
    return "?";
}

Finish first_finish(InterGroup inter_group, std::uint64_t groups, KernelOp op) {
    // The correctly rounded sum's expansions reach the fixed-point result through the exact
    // atomic finish only, one group or many.
    const bool expansions = op == KernelOp::add_exact && inter_group == InterGroup::exact_atomic;
    if (groups == 1 && !expansions) return Finish::store;
    switch (inter_group) {
        case InterGroup::atomic: return Finish::atomic;
        case InterGroup::last_group: return Finish::last_group;
        case InterGroup::exact_atomic: return Finish::exact_atomic;
        case InterGroup::second_pass: return Finish::second_pass;
    }
    return Finish::second_pass;
}

std::uint32_t exact_copies_for(std::uint64_t groups, KernelOp op) {
    // The correctly rounded sum's groups each add several terms (and their sinks) to the same
    // few limbs: a copy per 32 groups keeps them from queueing there.
    const std::uint64_t groups_per_copy = op == KernelOp::add_exact ? 32 : 4096;
    std::uint32_t copies = 1;
    while (copies < 32 && std::uint64_t(copies) * groups_per_copy < groups) copies *= 2;
    return copies;
}

namespace {
std::atomic<int> forced_exact_lane_passes{-1};  // -1: each device's own

ExactLanePasses exact_passes_for(const DeviceInfo& device, ElementType accumulator) {
    const int forced = forced_exact_lane_passes.load(std::memory_order_relaxed);
    return forced < 0 ? exact_lane_passes(device, accumulator) : static_cast<ExactLanePasses>(forced);
}
// The bins (add_exact.cl) follow the untested passes where a work-item's values are few
// enough for them and their 16 words fit in local memory beside the group's tree of expansions
// and its sink; elsewhere the tested lanes follow the passes, as before the bins. Double data
// takes them (16-bit digits in words shared by 32 work-items, in the same memory) after the
// anchored route's group check only (a group takes them or not as a whole, with barriers).
bool exact_bins_fit(const KernelSpec& spec, const DeviceInfo& device) {
    const bool floats = type_size(spec.accumulator) == 4;
    if (spec.exact_passes == ExactLanePasses::tested || (!floats && spec.exact_passes != ExactLanePasses::anchored))
        return false;
    const std::uint64_t per_item = exact_expansion_size(spec.accumulator) + kExactBinWords * 8;
    return std::uint64_t(spec.times) * spec.vector_width <= exact_bin_terms(spec.accumulator) &&
           spec.work_group_size * per_item + exact_sink_size(spec.accumulator) <= device.local_mem_size;
}
}  // namespace

void force_wide_lane_indices(bool wide) { forced_wide_lane_indices.store(wide, std::memory_order_relaxed); }

void force_exact_lane_passes(std::optional<ExactLanePasses> passes) {
    forced_exact_lane_passes.store(passes ? static_cast<int>(*passes) : -1, std::memory_order_relaxed);
}

void read_dense_image(KernelSpec& spec, std::size_t element_size) {
    spec.dense_pixels =
        static_cast<std::uint32_t>(std::min<std::size_t>(8, std::max<std::size_t>(2, 16 / element_size)));
    spec.times = (spec.times + spec.dense_pixels - 1) / spec.dense_pixels;
    // A lane of an 8/16-bit sum may now take up to dense_pixels - 1 more values than the
    // plan's `times`, which choose_lanes sized its 32-bit lanes for.
    if (spec.lanes32 && !lanes32_hold(spec.values_per_lane(), element_size)) spec.lanes32 = spec.dp4a = false;
}

KernelSpec first_pass_spec(const LaunchPlan& plan, const OpKernel& kernel, const DeviceInfo& device) {
    KernelSpec spec;
    spec.op = kernel.op;
    spec.moments_extremes = moments_extreme_type(plan.element, plan.accumulator);
    spec.map = kernel.map;
    spec.element = plan.element;
    spec.accumulator = plan.accumulator;
    spec.vector_width = plan.vector_width;
    spec.times = plan.times;
    spec.work_group_size = plan.work_group_size;
    spec.stride = plan.stride;
    spec.finish = first_finish(plan.inter_group, plan.groups, kernel.op);
    spec.float_atomic = spec.finish == Finish::atomic && is_floating(plan.accumulator);
    spec.int64_min_max = spec.finish == Finish::atomic && plugin_info(kernel.op).atomic != AtomicKind::add &&
                         type_size(plan.accumulator) == 8;
    if (spec.finish == Finish::exact_atomic) spec.exact_copies = exact_copies_for(plan.groups, kernel.op);
    if (spec.finish == Finish::exact_atomic && kernel.op == KernelOp::add_exact)
        spec.exact_passes = exact_passes_for(device, plan.accumulator);
    spec.exact_bins = exact_bins_fit(spec, device);
    spec.wavefront = warp_shuffle_width(plan.work_group_size, device);
    spec.nvidia = takes_inline_ptx(device);
    choose_lanes(spec, plan, kernel, device);
    spec.index32 = indices_fit_32_bits(plan, kernel.op);
    return spec;
}

KernelSpec segment_spec(const LaunchPlan& plan, const OpKernel& kernel, const DeviceInfo& device, bool listed,
                        bool combine) {
    KernelSpec spec;
    spec.segmented = true;
    spec.op = kernel.op;
    spec.moments_extremes = moments_extreme_type(plan.element, plan.accumulator);
    spec.finish = Finish::store;
    spec.work_group_size = plan.work_group_size;
    spec.nvidia = takes_inline_ptx(device);
    if (combine) {  // regular segments of groups_per_segment partials, a group each
        spec.map = ElementMap::identity;
        spec.transform.clear();
        spec.states_in = true;
        spec.element = plan.accumulator;
        spec.accumulator = plan.accumulator;
        spec.vector_width = 1;
        spec.segment_team = plan.work_group_size;
    } else {
        spec.map = kernel.map;
        spec.element = plan.element;
        spec.accumulator = plan.accumulator;
        spec.vector_width = plan.vector_width;
        spec.segment_team = plan.segment_team;
        spec.segment_loads = plan.segment_loads;
        spec.segment_list = listed;
        spec.segment_columns = plan.segment_columns;
        spec.segment_chunk = listed ? plan.segment_chunk : 0;
        spec.segment_medium = listed ? plan.segment_medium : 0;
    }
    // The warp shuffle finishes each team's tree (segments.cl); no 32-bit lanes (a
    // work-item's count of elements is not bounded by `times` here).
    spec.wavefront = warp_shuffle_width(plan.work_group_size, device);
    return spec;
}

KernelSpec second_pass_spec(const LaunchPlan& plan, const KernelSpec& first, const DeviceInfo& device) {
    KernelSpec spec;
    spec.op = first.op;
    spec.combine = first.combine;
    spec.combine_identity = first.combine_identity;
    spec.moments_extremes = first.moments_extremes;
    // The partials are states: the map and the transform were applied in the first pass.
    spec.map = ElementMap::identity;
    spec.states_in = true;
    spec.element = plan.accumulator;
    spec.accumulator = plan.accumulator;
    spec.vector_width = 1;
    spec.work_group_size = plan.work_group_size;
    // A power of two keeps the number of distinct second-pass programs small.
    spec.times = 1;
    while (std::uint64_t(spec.times) * spec.work_group_size < plan.groups) spec.times *= 2;
    spec.stride = Stride::global;
    spec.finish = Finish::store;
    spec.wavefront = warp_shuffle_width(plan.work_group_size, device);
    spec.nvidia = takes_inline_ptx(device);
    spec.device_result = first.device_result;
    spec.result_type = first.result_type;
    spec.result_kind = first.result_kind;
    spec.result_check = first.result_check;
    spec.result_modulo = first.result_modulo;
    return spec;
}

}  // namespace clreduce
