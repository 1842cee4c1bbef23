// Stages 3 and 4 of the planner (plan_stages.hpp): the launch shape and the level 3, each
// value the caller's, else the checked tuned entry's, else the device default.
#include <algorithm>
#include <string>

#include <clreduce/error.hpp>

#include "device/vendor.hpp"
#include "exec/host_reduction.hpp"
#include "plan/plan_stages.hpp"
#include "plan/segment_plan.hpp"

namespace clreduce::plan_stages {
namespace {

bool is_power_of_two(std::uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return a / b + (a % b != 0); }

std::uint32_t floor_power_of_two(std::uint64_t v) {
    std::uint32_t p = 1;
    while (p <= v / 2) p *= 2;
    return p;
}

constexpr std::uint32_t kMaxTimes = 1u << 20;

// Defaults, before any tuning: the vendor's work-group size and load width (device/vendor.hpp),
// and the smallest power-of-two `times` that keeps the launch at about 8 groups per compute
// unit, the paper's advice for hiding latency, up to the vendor's cap. Large states (the
// correctly rounded sum's limbs) shrink the group to fit local memory.
// On a CPU device a work-group's private states live on one worker thread's stack. Measured on
// PoCL 3.1: the correctly rounded double sum (544-byte states) runs with 512 work-items
// (278 KiB of states) and crashes the process with 1024 (557 KiB); the budget sits between.
constexpr std::uint64_t kCpuStateBytesPerGroup = 320 * 1024;

std::uint64_t state_room(const DeviceInfo& device) {
    const bool cpu = (device.type & CL_DEVICE_TYPE_CPU) != 0;
    return cpu ? std::min<std::uint64_t>(device.local_mem_size, kCpuStateBytesPerGroup) : device.local_mem_size;
}

std::uint32_t default_work_group_size(const DeviceInfo& device, std::size_t state_bytes) {
    const std::uint64_t wanted = preferred_work_group_size(device);
    const std::uint64_t fits = std::max<std::uint64_t>(1, state_room(device) / std::max<std::size_t>(state_bytes, 1));
    return floor_power_of_two(
        std::min({wanted, std::uint64_t(std::max<std::size_t>(device.max_work_group_size, 1)), fits}));
}

// The paper's advice for hiding latency: about 8 work-groups per compute unit.
std::uint64_t filling_groups(const DeviceInfo& device) { return std::max<std::uint64_t>(1, device.compute_units) * 8; }

// A tuned `times` serves sizes below its bucket with as many work-groups as it had there
// (down to times 1, rounded down to a power of two so that few programs are built) where the
// same times would leave the device short of filling_groups: the same times over fewer
// elements would leave a few groups looping where the bucket had many in parallel (int32 at
// 2^10 with the 2^12 entry would run one group). A launch that fills the device keeps the
// tuned times: halving it there only adds groups, which costs time and saves none
// (docs/performance.md, "Tuning").
std::uint32_t scaled_down_times(std::uint32_t times, std::uint64_t bucket_n, std::uint64_t n,
                                std::uint32_t vector_width, std::uint32_t work_group_size, std::uint64_t fill_groups) {
    const std::uint64_t per_group = std::uint64_t(work_group_size) * times;
    if (ceil_div(n / vector_width, per_group) >= fill_groups) return times;
    const std::uint64_t bucket_groups = std::max<std::uint64_t>(1, ceil_div(bucket_n / vector_width, per_group));
    const std::uint64_t wanted = ceil_div(n / vector_width, std::uint64_t(work_group_size) * bucket_groups);
    return std::min(times, floor_power_of_two(std::max<std::uint64_t>(1, wanted)));
}

// Sizes a CPU device's host path serves by default (exec/host_reduction.hpp) default to the
// shape the host runs fastest in the kernels' order, whatever form the data comes in (so a
// buffer and host data give the same bits): a few work-items (each of its lanes is a host
// register), local stride (each group's vectors side by side) and long work-items: one
// `times` for all these sizes (one program; the loops stop at the range's end), 1024 vectors,
// which gives 1 to 64 groups: on PoCL 3.1 the fastest of the shapes measured for the host path
// (docs/performance.md, "CPU devices").
constexpr std::uint32_t kCpuSmallWorkGroup = 4;
constexpr std::uint32_t kCpuSmallTimes = 1024;
bool cpu_small(const DeviceInfo& device, std::uint64_t n, ElementType element) {
    return (device.type & CL_DEVICE_TYPE_CPU) != 0 && n <= cpu_small_shape_bytes(device) / type_size(element);
}

// States that cost a work-item more than its reads at a sum's shape take the correctly rounded
// sum's default (vendor.hpp, max_expansion_times): its expansions, and on GPUs images of the
// fused statistics (a shift, two sums, two extremes per channel, combined in doubles: long
// work-items, `times` up to 512, pay for them; docs/performance.md, "Float modes and fused
// statistics") and of argmin/argmax, and argmin/argmax ranges (planner.cpp, state_footprint).
// `long_group_share`: with long_items, the groups per compute unit aimed at (0: the expansions').
std::uint32_t default_times(std::uint64_t vectors, std::uint32_t work_group_size, const DeviceInfo& device,
                            bool small_on_cpu, bool long_items, std::uint32_t long_group_share) {
    if (small_on_cpu) return kCpuSmallTimes;
    const std::uint32_t share = long_group_share != 0 ? long_group_share : expansion_groups_per_compute_unit(device);
    const std::uint64_t target_groups =
        long_items ? std::max<std::uint64_t>(1, device.compute_units) * share : filling_groups(device);
    const std::uint32_t max_times = long_items ? max_expansion_times(device) : max_default_times(device);
    std::uint32_t times = 1;
    while (times < max_times && ceil_div(vectors, std::uint64_t(work_group_size) * times) > target_groups) times *= 2;
    return times;
}

// Each value: the caller's override, else the tuned one, else the device default.
template <class T, class Default>
T pick(const std::optional<T>& override, const std::optional<T>* tuned, ParamSource tuned_source, ParamSource& source,
       Default make_default) {
    if (override) {
        source = ParamSource::override;
        return *override;
    }
    if (tuned != nullptr && *tuned) {
        source = tuned_source;
        return **tuned;
    }
    source = ParamSource::device_default;
    return make_default();
}

}  // namespace

// A value the call would refuse (a work-group size whose states pass the local memory, a times
// out of range, a segment team that is no power of two) is left out. (The entry's level 3 is
// checked against the plan in plan_level3; its segment team against the work-group size in
// segment_plan.cpp.)
LaunchParams usable_tuned(LaunchParams t, const DeviceInfo& device, const StateFootprint& state) {
    if (t.vector_width && (!is_power_of_two(*t.vector_width) || *t.vector_width > 16)) t.vector_width.reset();
    if (t.work_group_size) {
        const std::uint64_t wg = *t.work_group_size;
        if (!is_power_of_two(wg) || wg > device.max_work_group_size ||
            wg * state.state_bytes + state.group_bytes > device.local_mem_size ||
            wg * state.state_bytes > state_room(device))
            t.work_group_size.reset();
    }
    if (t.times && (*t.times < 1 || *t.times > kMaxTimes)) t.times.reset();
    if (t.segment_team && !is_power_of_two(*t.segment_team)) t.segment_team.reset();
    return t;
}

bool plan_launch_shape(LaunchPlan& plan, const PlanRequest& request, const DeviceInfo& device,
                       const LaunchParams& params, const StateFootprint& state, const TunedChoice& tuned) {
    const ElementType element = plan.element;
    const std::uint64_t n = request.n;
    const std::size_t state_bytes = state.state_bytes;
    const LaunchParams* t = tuned.values();
    const ParamSource from = tuned.source();
    plan.tuned_n = tuned.entry != nullptr ? tuned.entry->n : 0;

    plan.vector_width = pick(params.vector_width, t ? &t->vector_width : nullptr, from, plan.sources.vector_width, [&] {
        return static_cast<std::uint32_t>(std::clamp<std::size_t>(
            (state.load_bytes != 0 ? state.load_bytes : default_load_bytes(device)) / type_size(element), 1, 16));
    });
    if (!is_power_of_two(plan.vector_width) || plan.vector_width > 16)
        throw InvalidArgument("vector_width must be 1, 2, 4, 8 or 16, got " + std::to_string(plan.vector_width));
    // Column reductions: a work-item reads vector_width adjacent columns, each with its own
    // state (segments.cl), so at most 4 of them, and one where a state is large.
    if (request.columns) {
        const std::uint32_t most = state_bytes <= 16 ? 4 : 1;
        if (params.vector_width && *params.vector_width > most)
            throw InvalidArgument("column reductions read at most " + std::to_string(most) +
                                  " adjacent columns per work-item (vector_width) for this operation, got " +
                                  std::to_string(*params.vector_width));
        plan.vector_width = std::min(plan.vector_width, most);
    }

    const bool small = cpu_small(device, n, element);
    plan.work_group_size =
        pick(params.work_group_size, t ? &t->work_group_size : nullptr, from, plan.sources.work_group_size, [&] {
            const std::uint32_t wg = default_work_group_size(device, state_bytes);
            return small ? std::min(wg, kCpuSmallWorkGroup) : wg;
        });
    if (!is_power_of_two(plan.work_group_size) || plan.work_group_size > device.max_work_group_size)
        throw InvalidArgument("work_group_size must be a power of two no larger than the device's maximum (" +
                              std::to_string(device.max_work_group_size) + "), got " +
                              std::to_string(plan.work_group_size));
    if (std::uint64_t(plan.work_group_size) * state_bytes + state.group_bytes > device.local_mem_size)
        throw InvalidArgument("work_group_size " + std::to_string(plan.work_group_size) +
                              " needs more local memory than the device has");
    if (std::uint64_t(plan.work_group_size) * state_bytes > state_room(device))
        throw InvalidArgument("work_group_size " + std::to_string(plan.work_group_size) + " needs " +
                              std::to_string(state_bytes) + " x " + std::to_string(plan.work_group_size) +
                              " bytes of private states, more than the " + std::to_string(kCpuStateBytesPerGroup) +
                              " a CPU device's worker thread holds; use " +
                              std::to_string(floor_power_of_two(state_room(device) / state_bytes)) + " or less");

    if (request.form == CallForm::segments) {  // no times, no level 3 choice: the segment mapping
        if (request.columns)
            plan_column_mapping(plan, request.segments, request.column_rows, device, params);
        else
            plan_segment_mapping(plan,
                                 {request.segments, n, request.listed, t != nullptr ? t->segment_team : std::nullopt,
                                  from},
                                 device, params);
        return true;
    }
    const std::uint64_t vectors = n / plan.vector_width;
    plan.times = pick(params.times, t ? &t->times : nullptr, from, plan.sources.times, [&] {
        return default_times(vectors, plan.work_group_size, device, small, state.expansions || state.long_items,
                             state.groups_per_compute_unit);
    });
    if (plan.times < 1 || plan.times > kMaxTimes)
        throw InvalidArgument("times must be in [1, " + std::to_string(kMaxTimes) + "], got " +
                              std::to_string(plan.times));
    if (plan.sources.times == from && t != nullptr && n < tuned.entry->n)
        plan.times = scaled_down_times(plan.times, tuned.entry->n, n, plan.vector_width, plan.work_group_size,
                                       filling_groups(device));
    plan.stride = pick(params.stride, t ? &t->stride : nullptr, from, plan.sources.stride, [&] {
        return small ? Stride::local : state.expansions ? expansion_stride(device) : Stride::global;
    });

    plan.groups = std::max<std::uint64_t>(1, ceil_div(vectors, std::uint64_t(plan.work_group_size) * plan.times));
    if (plan.groups > kMaxGroups && t != nullptr &&
        (plan.sources.times == from || plan.sources.work_group_size == from || plan.sources.vector_width == from))
        return false;
    if (plan.groups > kMaxGroups)
        throw InvalidArgument("n = " + std::to_string(n) + " needs " + std::to_string(plan.groups) +
                              " work-groups with times=" + std::to_string(plan.times) +
                              "; raise times or work_group_size");
    return true;
}

void plan_level3(LaunchPlan& plan, const OpKernel& kernel, const PlanRequest& request, const DeviceInfo& device,
                 const LaunchParams& params, const StateFootprint& state, const TunedChoice& tuned) {
    const bool async = request.form == CallForm::async;
    const bool exact_fits = state.exact_fits;
    const LaunchParams* t = tuned.values();
    const bool integer_accumulator = !is_floating(plan.accumulator);
    const bool atomics_fit = !async && has_atomic_finish(kernel.op, plan.accumulator, plan.float_mode, device);
    const auto available = [&](InterGroup level3) {
        switch (level3) {
            case InterGroup::atomic: return atomics_fit;
            case InterGroup::exact_atomic: return exact_fits;
            case InterGroup::last_group: return has_last_group_finish(device);
            case InterGroup::second_pass: return true;
        }
        return false;
    };
    // A tuned level 3 carries over where this plan can run it; with a floating-point
    // accumulator only in FloatMode::deterministic, the mode tuning measures (the other modes
    // decide their own level 3).
    const bool tuned_level3 = t != nullptr && t->inter_group && available(*t->inter_group) &&
                              (!is_floating(plan.accumulator) || plan.float_mode == FloatMode::deterministic);
    plan.inter_group = pick(params.inter_group, tuned_level3 ? &t->inter_group : nullptr, tuned.source(),
                            plan.sources.inter_group, [&] {
                                const bool last_group_first =
                                    exact_fits && kernel.op != KernelOp::add_exact && prefers_last_group_finish(device);
                                return atomics_fit                     ? InterGroup::atomic
                                       : last_group_first              ? InterGroup::last_group
                                       : exact_fits                    ? InterGroup::exact_atomic
                                       : has_last_group_finish(device) ? InterGroup::last_group
                                                                       : InterGroup::second_pass;
                            });
    const std::string op(operation_name(plan.operation));
    if (plan.inter_group == InterGroup::exact_atomic && !exact_fits) {
        const char* why = kernel.op == KernelOp::add_exact ? (async ? "asynchronous calls do not offer it"
                                                                    : "the device lacks cl_khr_int64_base_atomics, "
                                                                      "cl_khr_int64_extended_atomics or cl_khr_fp64")
                          : !is_floating(plan.accumulator) ? "integer accumulators finish with InterGroup::atomic"
                          : plan.float_mode != FloatMode::deterministic
                              ? "it is a level 3 of FloatMode::deterministic only"
                          : kernel.op != KernelOp::add ? "it adds plain floating-point sums only"
                                                       : "the device has no cl_khr_int64_base_atomics";
        throw Unsupported("InterGroup::exact_atomic is not available for " + op + " with " +
                          std::string(type_name(plan.accumulator)) +
                          " accumulators in FloatMode::" + std::string(to_string(plan.float_mode)) + " on '" +
                          device.name + "': " + why + "; use InterGroup::second_pass");
    }
    if (plan.inter_group == InterGroup::last_group && !has_last_group_finish(device))
        throw Unsupported(
            "InterGroup::last_group needs a device-wide memory fence clreduce knows (NVIDIA or a CPU "
            "device), not on '" +
            device.name + "'; use InterGroup::second_pass");
    if (plan.inter_group == InterGroup::atomic && !atomics_fit) {
        const bool extremum = kernel.op == KernelOp::min || kernel.op == KernelOp::max;
        const char* why = extremum ? "' (min/max finish atomically only with integer accumulators; 64-bit ones "
                                     "need cl_khr_int64_extended_atomics)"
                          : kernel.op != KernelOp::add ? "' (only additive operations, min and max finish atomically)"
                          : integer_accumulator        ? "' (no cl_khr_int64_base_atomics)"
                          : plan.float_mode != FloatMode::atomic
                              ? "' (no float atomics outside FloatMode::atomic)"
                              : "' (no cl_khr_int64_base_atomics for the compare-and-swap)";
        throw Unsupported("atomic inter-group combine is not available for " + op + " with " +
                          std::string(type_name(plan.accumulator)) + " accumulators on '" + device.name + why +
                          "; use InterGroup::second_pass");
    }
}

}  // namespace clreduce::plan_stages
