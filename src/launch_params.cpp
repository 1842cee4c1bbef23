#include <clreduce/launch_params.hpp>

#include <algorithm>
#include <limits>
#include <string>

#include <clreduce/error.hpp>

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
std::uint32_t default_work_group_size(const DeviceInfo& device) {
    const std::uint64_t wanted = device.is_gpu() ? 256 : 64;
    return floor_power_of_two(std::min<std::uint64_t>(wanted, std::max<std::size_t>(device.max_work_group_size, 1)));
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
    return inter_group == InterGroup::atomic ? "atomic" : "second_pass";
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

std::string LaunchPlan::describe() const {
    return std::string(type_name(element)) + "->" + std::string(type_name(accumulator)) +
           " times=" + std::to_string(times) + " wg=" + std::to_string(work_group_size) +
           " stride=" + std::string(to_string(stride)) + " vec=" + std::to_string(vector_width) +
           " level3=" + std::string(to_string(inter_group)) + " groups=" + std::to_string(groups);
}

ElementType accumulator_for(ElementType element, const DeviceInfo& device) {
    switch (element) {
        case ElementType::int32:
        case ElementType::int64: return ElementType::int64;
        case ElementType::uint32:
        case ElementType::uint64: return ElementType::uint64;
        case ElementType::float32: return device.has_fp64 ? ElementType::float64 : ElementType::float32;
        case ElementType::float64: return ElementType::float64;
    }
    throw InvalidArgument("unknown ElementType");
}

void require_support(ElementType element, const DeviceInfo& device) {
    if (element == ElementType::float64 && !device.has_fp64)
        throw Unsupported("float64 needs cl_khr_fp64, which device '" + device.name + "' does not have");
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

LaunchPlan resolve(ElementType element, std::uint64_t n, const DeviceInfo& device, const LaunchParams& params,
                   const TunedParams* tuned) {
    require_support(element, device);
    LaunchPlan plan;
    plan.element = element;
    plan.accumulator = accumulator_for(element, device);
    const ParamSource from = tuned != nullptr ? tuned->source : ParamSource::tuned;
    const LaunchParams* t = tuned != nullptr ? &tuned->params : nullptr;
    if (tuned != nullptr) plan.tuned_n = tuned->n;

    plan.vector_width = pick(params.vector_width, t ? &t->vector_width : nullptr, from, plan.sources.vector_width,
                             [&] { return static_cast<std::uint32_t>(std::max<std::size_t>(1, 16 / type_size(element))); });
    if (!is_power_of_two(plan.vector_width) || plan.vector_width > 16)
        throw InvalidArgument("vector_width must be 1, 2, 4, 8 or 16, got " + std::to_string(plan.vector_width));

    plan.work_group_size = pick(params.work_group_size, t ? &t->work_group_size : nullptr, from,
                                plan.sources.work_group_size, [&] { return default_work_group_size(device); });
    if (!is_power_of_two(plan.work_group_size) || plan.work_group_size > device.max_work_group_size)
        throw InvalidArgument("work_group_size must be a power of two no larger than the device's maximum (" +
                              std::to_string(device.max_work_group_size) + "), got " +
                              std::to_string(plan.work_group_size));
    if (std::uint64_t(plan.work_group_size) * type_size(plan.accumulator) > device.local_mem_size)
        throw InvalidArgument("work_group_size " + std::to_string(plan.work_group_size) +
                              " needs more local memory than the device has");

    const std::uint64_t vectors = n / plan.vector_width;
    plan.times = pick(params.times, t ? &t->times : nullptr, from, plan.sources.times,
                      [&] { return default_times(vectors, plan.work_group_size, device); });
    if (plan.times < 1 || plan.times > kMaxTimes)
        throw InvalidArgument("times must be in [1, " + std::to_string(kMaxTimes) + "], got " +
                              std::to_string(plan.times));
    plan.stride = pick(params.stride, t ? &t->stride : nullptr, from, plan.sources.stride,
                       [] { return Stride::global; });

    plan.groups = std::max<std::uint64_t>(1, ceil_div(vectors, std::uint64_t(plan.work_group_size) * plan.times));
    if (plan.groups > kMaxGroups)
        throw InvalidArgument("n = " + std::to_string(n) + " needs " + std::to_string(plan.groups) +
                              " work-groups with times=" + std::to_string(plan.times) +
                              "; raise times or work_group_size");

    const bool integer_accumulator = !is_floating(plan.accumulator);
    const bool atomics_fit = integer_accumulator && (type_size(plan.accumulator) == 4 || device.has_int64_atomics);
    plan.inter_group = pick(params.inter_group, t ? &t->inter_group : nullptr, from, plan.sources.inter_group,
                            [&] { return atomics_fit ? InterGroup::atomic : InterGroup::second_pass; });
    if (plan.inter_group == InterGroup::atomic && !atomics_fit) {
        throw Unsupported(std::string("atomic inter-group combine is not available for ") +
                          std::string(type_name(plan.accumulator)) + " accumulators on '" + device.name +
                          (integer_accumulator ? "' (no cl_khr_int64_base_atomics)" : "' (no float atomics)") +
                          "; use InterGroup::second_pass");
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
    return resolve(element, n, device, params, nullptr);
}

LaunchPlan make_plan(ElementType element, std::uint64_t n, const DeviceInfo& device, const LaunchParams& params,
                     const TunedParams& tuned) {
    if (is_empty(tuned.params)) return resolve(element, n, device, params, nullptr);
    try {
        return resolve(element, n, device, params, &tuned);
    } catch (const Error&) {
        // The tuned values do not fit this call; the overrides alone decide what is thrown.
        return resolve(element, n, device, params, nullptr);
    }
}

}  // namespace clreduce
