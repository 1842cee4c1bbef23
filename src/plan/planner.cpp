#include <clreduce/launch_params.hpp>

#include <algorithm>
#include <limits>
#include <string>

#include <clreduce/error.hpp>

#include "op_kernel.hpp"

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

// Defaults, before any tuning: 256 work-items a group on GPUs (the paper's setting), 64 on
// CPUs, 16-byte loads, and the smallest power-of-two `times` that keeps the launch at about
// 8 groups per compute unit, the paper's advice for hiding latency. `times` is capped at 64
// on GPUs and 16 on CPUs, where larger values were measured slower (README, sweeps).
// Large states (the correctly rounded sum's limbs) shrink the group to fit local memory.
std::uint32_t default_work_group_size(const DeviceInfo& device, std::size_t state_bytes) {
    const std::uint64_t wanted = device.is_gpu() ? 256 : 64;
    const std::uint64_t fits = std::max<std::uint64_t>(1, device.local_mem_size / std::max<std::size_t>(state_bytes, 1));
    return floor_power_of_two(
        std::min({wanted, std::uint64_t(std::max<std::size_t>(device.max_work_group_size, 1)), fits}));
}

ElementType resolve_accumulator(Operation op, ElementType element, const DeviceInfo& device,
                                const LaunchParams& params) {
    const OperationFamily family = operation_family(op);
    if (!params.accumulator || family == OperationFamily::extremum) return accumulator_for(op, element, device);
    const ElementType chosen = *params.accumulator;
    const bool allowed = chosen == ElementType::int32 || chosen == ElementType::uint32 ||
                         chosen == ElementType::int64 || chosen == ElementType::uint64 ||
                         chosen == ElementType::float32 || chosen == ElementType::float64;
    if (!allowed)
        throw InvalidArgument("accumulator must be int32, uint32, int64, uint64, float32 or float64, got " +
                              std::string(type_name(chosen)));
    if (op == Operation::count_nonzero && is_floating(chosen))
        throw InvalidArgument("count_nonzero counts in an integer accumulator, got " + std::string(type_name(chosen)));
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
    if (operation_family(op) == OperationFamily::extremum) return accumulator;  // exact already
    if (op != Operation::sum && op != Operation::mean && op != Operation::norm_l1)
        throw Unsupported("FloatMode::correctly_rounded is offered for sum, mean, norm_l1 and transform_reduce "
                          "with Combine::sum, not " + std::string(operation_name(op)));
    if (element == ElementType::float64 && accumulator == ElementType::float32)
        throw InvalidArgument("FloatMode::correctly_rounded of float64 data needs the float64 range, not float32");
    return params.accumulator ? accumulator : element == ElementType::float64 ? ElementType::float64 : ElementType::float32;
}

// A tuned `times` serves sizes below its bucket with as many work-groups as it had there
// (down to times 1, rounded down to a power of two so that few programs are built): the same
// times over fewer elements would leave a few groups looping where the bucket had many in
// parallel (int32 at 2^10 with the 2^12 entry: one group, 7.5 µs instead of 6).
std::uint32_t scaled_down_times(std::uint32_t times, std::uint64_t bucket_n, std::uint64_t n, std::uint32_t vector_width,
                                std::uint32_t work_group_size) {
    const std::uint64_t per_group = std::uint64_t(work_group_size) * times;
    const std::uint64_t bucket_groups = std::max<std::uint64_t>(1, ceil_div(bucket_n / vector_width, per_group));
    const std::uint64_t wanted = ceil_div(n / vector_width, std::uint64_t(work_group_size) * bucket_groups);
    return std::min(times, floor_power_of_two(std::max<std::uint64_t>(1, wanted)));
}

std::uint32_t default_times(std::uint64_t vectors, std::uint32_t work_group_size, const DeviceInfo& device) {
    const std::uint64_t target_groups = std::max<std::uint64_t>(1, device.compute_units) * 8;
    const std::uint32_t max_times = device.is_gpu() ? 64 : 16;
    std::uint32_t times = 1;
    while (times < max_times && ceil_div(vectors, std::uint64_t(work_group_size) * times) > target_groups) times *= 2;
    return times;
}

}  // namespace

std::string_view to_string(Stride stride) { return stride == Stride::global ? "global" : "local"; }

std::string_view to_string(InterGroup inter_group) {
    switch (inter_group) {
        case InterGroup::atomic: return "atomic";
        case InterGroup::second_pass: return "second_pass";
        case InterGroup::last_group: return "last_group";
        case InterGroup::exact_atomic: return "exact_atomic";
    }
    return "?";
}

LaunchParams launch_shape(const LaunchPlan& plan) {
    LaunchParams p;
    p.times = plan.times;
    p.work_group_size = plan.work_group_size;
    p.stride = plan.stride;
    p.vector_width = plan.vector_width;
    p.inter_group = plan.inter_group;
    return p;
}

bool has_last_group_finish(const DeviceInfo& device) {
    return device.is_nvidia || (device.type & CL_DEVICE_TYPE_CPU) != 0;
}

std::string_view to_string(ParamSource source) {
    switch (source) {
        case ParamSource::override: return "override";
        case ParamSource::tuned: return "tuned";
        case ParamSource::known_device: return "known device";
        case ParamSource::device_default: return "default";
    }
    return "?";
}

std::string LaunchPlan::describe_sources() const {
    const auto one = [&](const char* name, ParamSource source) {
        std::string s = std::string(name) + "=" + std::string(to_string(source));
        if ((source == ParamSource::tuned || source == ParamSource::known_device) && tuned_n != 0)
            s += "(n=" + std::to_string(tuned_n) + ")";
        return s;
    };
    return one("times", sources.times) + " " + one("wg", sources.work_group_size) + " " +
           one("stride", sources.stride) + " " + one("vec", sources.vector_width) + " " +
           one("level3", sources.inter_group);
}

std::string_view to_string(FloatMode mode) {
    switch (mode) {
        case FloatMode::deterministic: return "deterministic";
        case FloatMode::atomic: return "atomic";
        case FloatMode::compensated: return "compensated";
        case FloatMode::correctly_rounded: return "correctly_rounded";
    }
    return "?";
}

FloatMode parse_float_mode(std::string_view name) {
    for (auto mode : {FloatMode::deterministic, FloatMode::atomic, FloatMode::compensated, FloatMode::correctly_rounded})
        if (name == to_string(mode)) return mode;
    throw InvalidArgument("unknown float mode '" + std::string(name) +
                          "' (expected deterministic, atomic, compensated or correctly_rounded)");
}

std::string LaunchPlan::describe() const {
    // The operation and float mode only where they are not the sum's defaults.
    const std::string prefix = operation == Operation::sum ? "" : std::string(operation_name(operation)) + " ";
    const std::string mode =
        float_mode == FloatMode::deterministic ? "" : " mode=" + std::string(to_string(float_mode));
    return prefix + std::string(type_name(element)) + "->" + std::string(type_name(accumulator)) +
           " times=" + std::to_string(times) + " wg=" + std::to_string(work_group_size) +
           " stride=" + std::string(to_string(stride)) + " vec=" + std::to_string(vector_width) +
           " level3=" + std::string(to_string(inter_group)) + " groups=" + std::to_string(groups) + mode;
}

ElementType accumulator_for(ElementType element, const DeviceInfo& device) {
    if (is_floating(element))
        return element == ElementType::float64 || device.has_fp64 ? ElementType::float64 : ElementType::float32;
    return is_signed(element) ? ElementType::int64 : ElementType::uint64;
}

ElementType accumulator_for(Operation op, ElementType element, const DeviceInfo& device) {
    switch (op) {
        case Operation::count_nonzero: return ElementType::uint64;
        case Operation::norm_l1:
        case Operation::sum_of_squares:
        case Operation::norm_l2:
            // |x| and x*x are never negative: twice the range of int64.
            return is_floating(element) ? accumulator_for(element, device) : ElementType::uint64;
        case Operation::norm_inf:
            if (!is_floating(element)) return ElementType::uint64;
            return element == ElementType::float16 ? ElementType::float32 : element;
        case Operation::min:
        case Operation::max:
        case Operation::minmax:
        case Operation::argmin:
        case Operation::argmax: return element == ElementType::float16 ? ElementType::float32 : element;
        default: return accumulator_for(element, device);
    }
}

void require_support(ElementType element, const DeviceInfo& device) {
    if (element == ElementType::float64 && !device.has_fp64)
        throw Unsupported("float64 needs cl_khr_fp64, which device '" + device.name + "' does not have");
    if (element == ElementType::float16 && !device.has_fp16)
        throw Unsupported("float16 (half) needs cl_khr_fp16, which device '" + device.name + "' does not have");
}

namespace {

// Each value: the caller's override, else the tuned one, else the device default.
template <class T, class Default>
T pick(const std::optional<T>& override, const std::optional<T>* tuned, ParamSource tuned_source,
       ParamSource& source, Default make_default) {
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

LaunchPlan resolve(Operation op, ElementType element, std::uint64_t n, const DeviceInfo& device,
                   const LaunchParams& params, const TunedParams* tuned) {
    require_support(element, device);
    LaunchPlan plan;
    plan.operation = op;
    plan.element = element;
    plan.accumulator = resolve_accumulator(op, element, device, params);
    plan.float_mode = resolve_float_mode(plan.accumulator, params);
    if (plan.float_mode == FloatMode::correctly_rounded && is_floating(plan.accumulator))
        plan.accumulator = resolve_exact(op, element, plan.accumulator, params);
    // FloatMode::atomic finishes with a compare-and-swap loop on one word, which slows down
    // with every group that queues on it: tuned shapes, measured with the deterministic
    // finishes (on the H200 up to 32,768 groups at 2^28, 140x slower with the loop), do not
    // carry over, and the defaults keep the groups few.
    if (is_floating(plan.accumulator) && plan.float_mode == FloatMode::atomic) tuned = nullptr;
    const OpKernel kernel = op_kernel(op, plan.float_mode, plan.accumulator);
    const std::size_t state_bytes = state_size(kernel.op, plan.accumulator);
    const ParamSource from = tuned != nullptr ? tuned->source : ParamSource::tuned;
    const LaunchParams* t = tuned != nullptr ? &tuned->params : nullptr;
    if (tuned != nullptr) plan.tuned_n = tuned->n;

    plan.vector_width = pick(params.vector_width, t ? &t->vector_width : nullptr, from, plan.sources.vector_width,
                             [&] { return static_cast<std::uint32_t>(std::max<std::size_t>(1, 16 / type_size(element))); });
    if (!is_power_of_two(plan.vector_width) || plan.vector_width > 16)
        throw InvalidArgument("vector_width must be 1, 2, 4, 8 or 16, got " + std::to_string(plan.vector_width));

    plan.work_group_size = pick(params.work_group_size, t ? &t->work_group_size : nullptr, from,
                                plan.sources.work_group_size, [&] { return default_work_group_size(device, state_bytes); });
    if (!is_power_of_two(plan.work_group_size) || plan.work_group_size > device.max_work_group_size)
        throw InvalidArgument("work_group_size must be a power of two no larger than the device's maximum (" +
                              std::to_string(device.max_work_group_size) + "), got " +
                              std::to_string(plan.work_group_size));
    if (std::uint64_t(plan.work_group_size) * state_bytes > device.local_mem_size)
        throw InvalidArgument("work_group_size " + std::to_string(plan.work_group_size) +
                              " needs more local memory than the device has");

    const std::uint64_t vectors = n / plan.vector_width;
    plan.times = pick(params.times, t ? &t->times : nullptr, from, plan.sources.times,
                      [&] { return default_times(vectors, plan.work_group_size, device); });
    if (plan.times < 1 || plan.times > kMaxTimes)
        throw InvalidArgument("times must be in [1, " + std::to_string(kMaxTimes) + "], got " +
                              std::to_string(plan.times));
    if (plan.sources.times == from && tuned != nullptr && n < tuned->n)
        plan.times = scaled_down_times(plan.times, tuned->n, n, plan.vector_width, plan.work_group_size);
    plan.stride = pick(params.stride, t ? &t->stride : nullptr, from, plan.sources.stride,
                       [] { return Stride::global; });

    plan.groups = std::max<std::uint64_t>(1, ceil_div(vectors, std::uint64_t(plan.work_group_size) * plan.times));
    if (plan.groups > kMaxGroups)
        throw InvalidArgument("n = " + std::to_string(n) + " needs " + std::to_string(plan.groups) +
                              " work-groups with times=" + std::to_string(plan.times) +
                              "; raise times or work_group_size");

    const bool integer_accumulator = !is_floating(plan.accumulator);
    const bool atomics_fit = has_atomic_finish(kernel.op, plan.accumulator, plan.float_mode, device);
    const bool exact_fits = has_exact_atomic_finish(kernel.op, plan.accumulator, plan.float_mode, device);
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
    plan.inter_group = pick(params.inter_group, tuned_level3 ? &t->inter_group : nullptr, from,
                            plan.sources.inter_group,
                            [&] {
                                return atomics_fit                    ? InterGroup::atomic
                                       : exact_fits                    ? InterGroup::exact_atomic
                                       : has_last_group_finish(device) ? InterGroup::last_group
                                                                       : InterGroup::second_pass;
                            });
    if (plan.inter_group == InterGroup::exact_atomic && !exact_fits) {
        const char* why = !is_floating(plan.accumulator) ? "integer accumulators finish with InterGroup::atomic"
                          : plan.float_mode != FloatMode::deterministic
                              ? "it is a level 3 of FloatMode::deterministic only"
                          : kernel.op != KernelOp::add ? "it adds plain floating-point sums only"
                                                       : "the device has no cl_khr_int64_base_atomics";
        throw Unsupported("InterGroup::exact_atomic is not available for " + std::string(operation_name(op)) +
                          " with " + std::string(type_name(plan.accumulator)) + " accumulators in FloatMode::" +
                          std::string(to_string(plan.float_mode)) + " on '" + device.name + "': " + why +
                          "; use InterGroup::second_pass");
    }
    if (plan.inter_group == InterGroup::last_group && !has_last_group_finish(device))
        throw Unsupported("InterGroup::last_group needs a device-wide memory fence clreduce knows (NVIDIA or a CPU "
                          "device), not on '" + device.name + "'; use InterGroup::second_pass");
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
    return plan;
}

bool is_empty(const LaunchParams& p) {
    return !p.times && !p.work_group_size && !p.stride && !p.vector_width && !p.inter_group;
}

}  // namespace

LaunchPlan make_plan(ElementType element, std::uint64_t n, const DeviceInfo& device, const LaunchParams& params) {
    return resolve(Operation::sum, element, n, device, params, nullptr);
}

LaunchPlan make_plan(ElementType element, std::uint64_t n, const DeviceInfo& device, const LaunchParams& params,
                     const TunedParams& tuned) {
    return make_plan(Operation::sum, element, n, device, params, tuned);
}

LaunchPlan make_plan(Operation op, ElementType element, std::uint64_t n, const DeviceInfo& device,
                     const LaunchParams& params) {
    return resolve(op, element, n, device, params, nullptr);
}

LaunchPlan make_plan(Operation op, ElementType element, std::uint64_t n, const DeviceInfo& device,
                     const LaunchParams& params, const TunedParams& tuned) {
    if (is_empty(tuned.params)) return resolve(op, element, n, device, params, nullptr);
    try {
        return resolve(op, element, n, device, params, &tuned);
    } catch (const Error&) {
        // The tuned values do not fit this call (e.g. an atomic finish the operation lacks);
        // the overrides alone decide what is thrown.
        return resolve(op, element, n, device, params, nullptr);
    }
}

}  // namespace clreduce
