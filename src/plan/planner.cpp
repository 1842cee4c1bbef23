#include <clreduce/launch_params.hpp>

#include <algorithm>
#include <limits>
#include <string>

#include <clreduce/error.hpp>

#include "device/vendor.hpp"
#include "exec/host_reduction.hpp"
#include "ops/exact_state.hpp"
#include "ops/integer_range.hpp"
#include "ops/operation_table.hpp"
#include "plan/planner.hpp"
#include "plan/segment_plan.hpp"

namespace clreduce {
namespace {

bool is_power_of_two(std::uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return a / b + (a % b != 0); }

std::uint32_t floor_power_of_two(std::uint64_t v) {
    std::uint32_t p = 1;
    while (p <= v / 2) p *= 2;
    return p;
}

// Largest work-group count one launch may use (NVIDIA's grid x limit is 2^31 - 1).
constexpr std::uint64_t kMaxGroups = (1ull << 31) - 1;
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

ElementType resolve_accumulator(Operation op, ElementType element, const DeviceInfo& device, const LaunchParams& params,
                                bool transform) {
    const OperationFamily family = operation_family(op);
    if (!params.accumulator || family == OperationFamily::extremum) return accumulator_for(op, element, device);
    const ElementType chosen = *params.accumulator;
    const bool allowed = chosen == ElementType::int32 || chosen == ElementType::uint32 ||
                         chosen == ElementType::int64 || chosen == ElementType::uint64 ||
                         chosen == ElementType::float32 || chosen == ElementType::float64;
    if (!allowed)
        throw InvalidArgument("accumulator must be int32, uint32, int64, uint64, float32 or float64, got " +
                              std::string(type_name(chosen)));
    // (A transform's expression computes the values: "(int)x" may well sum in an integer.)
    if (is_floating(element) && !is_floating(chosen) && !transform)
        throw InvalidArgument("a " + std::string(type_name(chosen)) + " accumulator for " +
                              std::string(type_name(element)) +
                              " data would cut every value to an integer; name float32 or float64");
    if (operation_info(op).accumulator == AccumulatorRule::real && !is_floating(chosen))
        throw InvalidArgument(std::string(operation_name(op)) + " accumulates in float32 or float64, got " +
                              std::string(type_name(chosen)));
    if (operation_info(op).accumulator == AccumulatorRule::count && is_floating(chosen))
        throw InvalidArgument(std::string(operation_name(op)) + " counts in an integer accumulator, got " +
                              std::string(type_name(chosen)));
    require_support(chosen, device);
    return chosen;
}

FloatMode resolve_float_mode(ElementType, const LaunchParams& params) {
    return params.float_mode.value_or(FloatMode::deterministic);
}

// The correctly rounded sum is exact for values of the accumulator type (ops/add_exact.cl),
// whose range its fixed-point state covers: float32 for half and float data unless the
// caller asks for float64, float64 for double. It sums the values themselves or their
// magnitudes; squares would first be rounded, so sum_of_squares and norm_l2 do not offer it.
ElementType resolve_exact(Operation op, ElementType element, ElementType accumulator, const LaunchParams& params) {
    if (!operation_info(op).correctly_rounded)
        throw Unsupported(
            "FloatMode::correctly_rounded is offered for sum, mean, norm_l1 and transform_reduce "
            "with Combine::sum, not " +
            std::string(operation_name(op)));
    if (element == ElementType::float64 && accumulator == ElementType::float32)
        throw InvalidArgument("FloatMode::correctly_rounded of float64 data needs the float64 range, not float32");
    if (!is_floating(accumulator)) return accumulator;  // integer sums are exact already
    return params.accumulator                ? accumulator
           : element == ElementType::float64 ? ElementType::float64
                                             : ElementType::float32;
}

// A tuned `times` serves sizes below its bucket with as many work-groups as it had there
// (down to times 1, rounded down to a power of two so that few programs are built): the same
// times over fewer elements would leave a few groups looping where the bucket had many in
// parallel (int32 at 2^10 with the 2^12 entry would run one group).
std::uint32_t scaled_down_times(std::uint32_t times, std::uint64_t bucket_n, std::uint64_t n,
                                std::uint32_t vector_width, std::uint32_t work_group_size) {
    const std::uint64_t per_group = std::uint64_t(work_group_size) * times;
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
    return (device.type & CL_DEVICE_TYPE_CPU) != 0 && n <= host_path_crossover_bytes(device) / type_size(element);
}

std::uint32_t default_times(std::uint64_t vectors, std::uint32_t work_group_size, const DeviceInfo& device,
                            bool small_on_cpu, bool expansions) {
    if (small_on_cpu) return kCpuSmallTimes;
    const std::uint64_t target_groups =
        std::max<std::uint64_t>(1, device.compute_units) * (expansions ? expansion_groups_per_compute_unit(device) : 8);
    const std::uint32_t max_times = expansions ? max_expansion_times(device) : max_default_times(device);
    std::uint32_t times = 1;
    while (times < max_times && ceil_div(vectors, std::uint64_t(work_group_size) * times) > target_groups) times *= 2;
    return times;
}

}  // namespace

LaunchParams launch_shape(const LaunchPlan& plan) {
    LaunchParams p;
    p.times = plan.times;
    p.work_group_size = plan.work_group_size;
    p.stride = plan.stride;
    p.vector_width = plan.vector_width;
    p.inter_group = plan.inter_group;
    return p;
}

ElementType accumulator_for(ElementType element, const DeviceInfo& device) {
    return default_accumulator(Operation::sum, element, device);
}

ElementType accumulator_for(Operation op, ElementType element, const DeviceInfo& device) {
    return default_accumulator(op, element, device);
}

void require_support(ElementType element, const DeviceInfo& device) {
    if (element == ElementType::float64 && !device.has_fp64)
        throw Unsupported("float64 needs cl_khr_fp64, which device '" + device.name + "' does not have");
    if (element == ElementType::float16 && !device.has_fp16)
        throw Unsupported("float16 (half) needs cl_khr_fp16, which device '" + device.name + "' does not have");
}

namespace {

// The tuned entry's values a call can take, each checked as an override is: a value the call
// would refuse (a work-group size whose states pass the local memory, a times out of range, a
// segment team that is no power of two) is left out and the default takes its place, so that a
// tuned entry never makes a call fail. (Its level 3 is checked against the plan where it is
// picked; its segment team against the work-group size in segment_plan.cpp.)
LaunchParams usable_tuned(LaunchParams t, const DeviceInfo& device, std::size_t state_bytes, std::size_t group_bytes) {
    if (t.vector_width && (!is_power_of_two(*t.vector_width) || *t.vector_width > 16)) t.vector_width.reset();
    if (t.work_group_size) {
        const std::uint64_t wg = *t.work_group_size;
        if (!is_power_of_two(wg) || wg > device.max_work_group_size ||
            wg * state_bytes + group_bytes > device.local_mem_size || wg * state_bytes > state_room(device))
            t.work_group_size.reset();
    }
    if (t.times && (*t.times < 1 || *t.times > kMaxTimes)) t.times.reset();
    if (t.segment_team && !is_power_of_two(*t.segment_team)) t.segment_team.reset();
    return t;
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

// What the plan promises about the result's bits (Reproducibility in launch_params.hpp).
// Float min/max are left at same_plan: fmin/fmax may return either zero of -0.0 and +0.0.
Reproducibility reproducibility_of(const LaunchPlan& plan, const OpKernel& kernel) {
    const bool floating = is_floating(plan.accumulator) || is_floating(plan.element);
    if (!floating || kernel.op == KernelOp::add_exact) return Reproducibility::everywhere;
    if (plan.float_mode == FloatMode::atomic && plan.inter_group == InterGroup::atomic) return Reproducibility::none;
    return Reproducibility::same_plan;
}

// Asynchronous calls write the value on the device: no atomic level 3 (its result word is
// read and rounded on the host), and no correctly rounded sum (rounded on the host too).
void check_async(const LaunchParams& params) {
    if (params.inter_group == InterGroup::atomic || params.inter_group == InterGroup::exact_atomic)
        throw Unsupported("asynchronous calls finish with InterGroup::last_group or second_pass, not " +
                          std::string(to_string(*params.inter_group)));
}

LaunchPlan resolve(const PlanRequest& request, const DeviceInfo& device, const LaunchParams& overrides,
                   const TunedParams* tuned) {
    const Operation op = request.op;
    const ElementType element = request.element;
    const std::uint64_t n = request.n;
    const bool async = request.form == CallForm::async;
    const bool segmented = request.form == CallForm::segments;
    if (async) check_async(overrides);
    if (segmented) check_segment_level3(overrides);
    require_support(element, device);
    if (operation_info(op).integer_only && is_floating(element))
        throw Unsupported(std::string(operation_name(op)) + " takes integer elements, not " +
                          std::string(type_name(element)));
    if (operation_info(op).accumulator == AccumulatorRule::real && !is_floating(element) && type_size(element) == 8)
        throw Unsupported(std::string(operation_name(op)) + " of " + std::string(type_name(element)) +
                          " data: its double accumulator would round the extremes; use minmax, sum and "
                          "sum_of_squares, which are exact for 64-bit integers");
    LaunchParams params = overrides;
    // transform_reduce evaluates and accumulates in its own accumulator whatever its combine,
    // as if the caller had named it (so the correctly rounded state is the accumulator's too).
    if (request.transform && !params.accumulator) params.accumulator = transform_accumulator(element, device);
    // FloatMode::atomic finishes atomically on the host's result word; asynchronously it runs
    // as deterministic.
    if ((async || segmented) && params.float_mode == FloatMode::atomic) params.float_mode = FloatMode::deterministic;
    // Pixels are read one element at a time.
    if (request.form == CallForm::image) params.vector_width = 1;
    LaunchPlan plan;
    plan.operation = op;
    plan.element = element;
    plan.form = request.form;
    plan.transform = request.transform;
    plan.accumulator =
        resolve_accumulator(request.transform ? Operation::sum : op, element, device, params, request.transform);
    plan.float_mode = resolve_float_mode(plan.accumulator, params);
    // Refused wherever it is not offered (the error table says so), also where the data would
    // make it moot (integers, extremes).
    if (plan.float_mode == FloatMode::correctly_rounded)
        plan.accumulator = resolve_exact(op, element, plan.accumulator, params);
    plan.overflow = params.overflow.value_or(IntegerOverflow::check);
    plan.expression_type = plan.accumulator;  // before a wider exact state replaces it
    if (!is_floating(plan.accumulator)) {
        const ElementMap map = request.transform ? ElementMap::transform : operation_info(op).map;
        const IntegerState integer =
            plan_integer_state(op, map, element, plan.accumulator, n, plan.overflow, params.accumulator.has_value());
        plan.accumulator = integer.accumulator;
        plan.exact_integer_bits = integer.exact_bits;
    }
    if (async && plan.overflow == IntegerOverflow::check &&
        (plan.exact_integer_bits != 0 || (!is_floating(element) && is_floating(plan.accumulator))))
        throw Unsupported("an asynchronous " + std::string(operation_name(op)) + " of " +
                          std::string(type_name(element)) + " data leaves its result on the device, where an " +
                          "overflow cannot be reported: set LaunchParams::overflow = IntegerOverflow::wrap for the "
                          "result modulo 2^64");
    // FloatMode::atomic finishes with a compare-and-swap loop on one word, which slows down
    // with every group that queues on it: tuned shapes, measured with the deterministic
    // finishes (up to tens of thousands of groups), do not carry over, and the defaults keep
    // the groups few.
    if (is_floating(plan.accumulator) && plan.float_mode == FloatMode::atomic) tuned = nullptr;
    // The correctly rounded sum pays a fixed cost per work-item and group (its expansions'
    // merge, its sink) that the deterministic shapes tuning measures do not: its own defaults.
    if (plan.float_mode == FloatMode::correctly_rounded) tuned = nullptr;
    const OpKernel kernel = plan_kernel(plan);
    // So do the fused statistics' state (a shift, two sums, two extremes; its combine divides)
    // and the compensated sum's (a sum and an error per vector lane, combined by TwoSums): a
    // sum's tuned shape has many short work-items and groups (on large GPUs, times 2 and over
    // 100,000 groups), whose per-item and per-group work outweighs the reads for them; their
    // defaults (times up to 64, a few groups per compute unit) take a fraction of that time
    // (docs/performance.md, "Float modes and fused statistics").
    if (kernel.op == KernelOp::moments || kernel.op == KernelOp::add_compensated) tuned = nullptr;
    // Columns keep their own rule: their lanes split rows, which no segment entry measures.
    if (request.columns) tuned = nullptr;
    if (async && kernel.op == KernelOp::add_exact)
        throw Unsupported("FloatMode::correctly_rounded rounds on the host; asynchronous calls do not offer it");
    // The correctly rounded sum's exact atomic finish (its default where the device has it)
    // keeps expansions of a few doubles in its work-group tree, not the fixed-point state.
    const bool exact_fits = !async && has_exact_atomic_finish(kernel.op, plan.accumulator, plan.float_mode, device);
    const bool expansions = kernel.op == KernelOp::add_exact && exact_fits && !segmented &&
                            params.inter_group.value_or(InterGroup::exact_atomic) == InterGroup::exact_atomic;
    const std::size_t state_bytes =
        expansions ? exact_expansion_size(plan.accumulator) : state_size(kernel.op, plan.accumulator);
    const ParamSource from = tuned != nullptr ? tuned->source : ParamSource::tuned;
    // (The expansion path's work-group also holds its fixed-point sink.)
    const std::size_t group_bytes = expansions ? exact_sink_size(plan.accumulator) : 0;
    const LaunchParams usable =
        tuned != nullptr ? usable_tuned(tuned->params, device, state_bytes, group_bytes) : LaunchParams{};
    const LaunchParams* t = tuned != nullptr ? &usable : nullptr;
    if (tuned != nullptr) plan.tuned_n = tuned->n;

    plan.vector_width = pick(params.vector_width, t ? &t->vector_width : nullptr, from, plan.sources.vector_width, [&] {
        return static_cast<std::uint32_t>(
            std::clamp<std::size_t>(default_load_bytes(device) / type_size(element), 1, 16));
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
    if (std::uint64_t(plan.work_group_size) * state_bytes + group_bytes > device.local_mem_size)
        throw InvalidArgument("work_group_size " + std::to_string(plan.work_group_size) +
                              " needs more local memory than the device has");
    if (std::uint64_t(plan.work_group_size) * state_bytes > state_room(device))
        throw InvalidArgument("work_group_size " + std::to_string(plan.work_group_size) + " needs " +
                              std::to_string(state_bytes) + " x " + std::to_string(plan.work_group_size) +
                              " bytes of private states, more than the " + std::to_string(kCpuStateBytesPerGroup) +
                              " a CPU device's worker thread holds; use " +
                              std::to_string(floor_power_of_two(state_room(device) / state_bytes)) + " or less");

    if (segmented) {  // no times, no level 3 choice: the segment mapping (segment_plan.hpp)
        if (request.columns)
            plan_column_mapping(plan, request.segments, request.column_rows, device, params);
        else
            plan_segment_mapping(plan,
                                 {request.segments, n, request.listed, t != nullptr ? t->segment_team : std::nullopt,
                                  from},
                                 device, params);
        const auto& f = plan.sources;
        if (tuned == nullptr || (f.segment_team != from && f.work_group_size != from && f.vector_width != from))
            plan.tuned_n = 0;
        plan.reproducibility = reproducibility_of(plan, kernel);
        return plan;
    }
    const std::uint64_t vectors = n / plan.vector_width;
    plan.times = pick(params.times, t ? &t->times : nullptr, from, plan.sources.times,
                      [&] { return default_times(vectors, plan.work_group_size, device, small, expansions); });
    if (plan.times < 1 || plan.times > kMaxTimes)
        throw InvalidArgument("times must be in [1, " + std::to_string(kMaxTimes) + "], got " +
                              std::to_string(plan.times));
    if (plan.sources.times == from && tuned != nullptr && n < tuned->n)
        plan.times = scaled_down_times(plan.times, tuned->n, n, plan.vector_width, plan.work_group_size);
    plan.stride = pick(params.stride, t ? &t->stride : nullptr, from, plan.sources.stride, [&] {
        return small ? Stride::local : expansions ? expansion_stride(device) : Stride::global;
    });

    plan.groups = std::max<std::uint64_t>(1, ceil_div(vectors, std::uint64_t(plan.work_group_size) * plan.times));
    // A tuned shape too small for n (from a bucket far below it) gives way to the defaults, whole:
    // the entry's values were measured together.
    if (plan.groups > kMaxGroups && tuned != nullptr &&
        (plan.sources.times == from || plan.sources.work_group_size == from || plan.sources.vector_width == from))
        return resolve(request, device, overrides, nullptr);
    if (plan.groups > kMaxGroups)
        throw InvalidArgument("n = " + std::to_string(n) + " needs " + std::to_string(plan.groups) +
                              " work-groups with times=" + std::to_string(plan.times) +
                              "; raise times or work_group_size");

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
    plan.inter_group =
        pick(params.inter_group, tuned_level3 ? &t->inter_group : nullptr, from, plan.sources.inter_group, [&] {
            const bool last_group_first =
                exact_fits && kernel.op != KernelOp::add_exact && prefers_last_group_finish(device);
            return atomics_fit                     ? InterGroup::atomic
                   : last_group_first              ? InterGroup::last_group
                   : exact_fits                    ? InterGroup::exact_atomic
                   : has_last_group_finish(device) ? InterGroup::last_group
                                                   : InterGroup::second_pass;
        });
    if (plan.inter_group == InterGroup::exact_atomic && !exact_fits) {
        const char* why = kernel.op == KernelOp::add_exact ? (async ? "asynchronous calls do not offer it"
                                                                    : "the device lacks cl_khr_int64_base_atomics, "
                                                                      "cl_khr_int64_extended_atomics or cl_khr_fp64")
                          : !is_floating(plan.accumulator) ? "integer accumulators finish with InterGroup::atomic"
                          : plan.float_mode != FloatMode::deterministic
                              ? "it is a level 3 of FloatMode::deterministic only"
                          : kernel.op != KernelOp::add ? "it adds plain floating-point sums only"
                                                       : "the device has no cl_khr_int64_base_atomics";
        throw Unsupported("InterGroup::exact_atomic is not available for " + std::string(operation_name(op)) +
                          " with " + std::string(type_name(plan.accumulator)) +
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
        throw Unsupported(std::string("atomic inter-group combine is not available for ") +
                          std::string(operation_name(op)) + " with " + std::string(type_name(plan.accumulator)) +
                          " accumulators on '" + device.name + why + "; use InterGroup::second_pass");
    }
    const auto& f = plan.sources;
    const bool used = f.times == from || f.work_group_size == from || f.stride == from || f.vector_width == from ||
                      f.inter_group == from;
    if (tuned == nullptr || !used) plan.tuned_n = 0;
    plan.reproducibility = reproducibility_of(plan, kernel);
    // Small host data on a CPU device: the calling thread runs this very plan (the same bits).
    if (request.form == CallForm::host_data && (device.type & CL_DEVICE_TYPE_CPU) != 0) {
        const std::uint64_t limit = params.host_path_bytes.value_or(default_host_path_bytes(device));
        plan.on_host = n <= limit / type_size(element) && host_path_reproduces(plan, kernel);
    }
    return plan;
}

bool is_empty(const LaunchParams& p) {
    return !p.times && !p.work_group_size && !p.stride && !p.vector_width && !p.inter_group && !p.segment_team;
}

}  // namespace

OpKernel plan_kernel(const LaunchPlan& plan) {
    OpKernel kernel = op_kernel(plan.operation, plan.float_mode, plan.accumulator);
    if (plan.transform) kernel.map = ElementMap::transform;
    if (plan.exact_integer_bits != 0) kernel.op = exact_integer_plugin(plan.exact_integer_bits);
    return kernel;
}

LaunchPlan make_plan(const PlanRequest& request, const DeviceInfo& device, const LaunchParams& overrides,
                     const TunedParams* tuned) {
    return resolve(request, device, overrides, tuned == nullptr || is_empty(tuned->params) ? nullptr : tuned);
}

LaunchPlan make_plan(Operation op, ElementType element, std::uint64_t n, const DeviceInfo& device,
                     const LaunchParams& overrides) {
    return make_plan(PlanRequest{op, element, n}, device, overrides);
}

LaunchPlan make_plan(Operation op, ElementType element, std::uint64_t n, const DeviceInfo& device,
                     const LaunchParams& overrides, const TunedParams& tuned) {
    return make_plan(PlanRequest{op, element, n}, device, overrides, &tuned);
}

LaunchPlan make_plan(ElementType element, std::uint64_t n, const DeviceInfo& device, const LaunchParams& overrides) {
    return make_plan(Operation::sum, element, n, device, overrides);
}

LaunchPlan make_plan(ElementType element, std::uint64_t n, const DeviceInfo& device, const LaunchParams& overrides,
                     const TunedParams& tuned) {
    return make_plan(Operation::sum, element, n, device, overrides, tuned);
}

}  // namespace clreduce
