// The one planner: resolve() runs the stages of plan_stages.hpp in order, so that each rule
// has one place and Reducer::plan() returns exactly what a call launches or refuses.
#include <clreduce/launch_params.hpp>

#include <string>

#include <clreduce/error.hpp>

#include "device/vendor.hpp"
#include "exec/host_reduction.hpp"
#include "kernels/kernel_spec.hpp"
#include "ops/exact_state.hpp"
#include "ops/integer_range.hpp"
#include "ops/operation_table.hpp"
#include "plan/plan_stages.hpp"
#include "plan/planner.hpp"
#include "plan/segment_plan.hpp"

namespace clreduce {
using namespace plan_stages;
namespace {

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

// What the plan promises about the result's bits (Reproducibility in launch_params.hpp).
// Float min/max are left at same_plan: fmin/fmax may return either zero of -0.0 and +0.0.
Reproducibility reproducibility_of(const LaunchPlan& plan, const OpKernel& kernel) {
    const bool floating = is_floating(plan.accumulator) || is_floating(plan.element);
    // A user's combine: its order is the plan's, and only the user knows whether another order
    // gives the same bits.
    if (kernel.op == KernelOp::user_combine) return Reproducibility::same_plan;
    if (!floating || kernel.op == KernelOp::add_exact) return Reproducibility::everywhere;
    if (plan.float_mode == FloatMode::atomic && plan.inter_group == InterGroup::atomic) return Reproducibility::none;
    return Reproducibility::same_plan;
}

// Asynchronous calls write the value on the device: no atomic level 3 (its result word is
// read and rounded on the host).
void check_async(const LaunchParams& params) {
    if (params.inter_group == InterGroup::atomic || params.inter_group == InterGroup::exact_atomic)
        throw Unsupported("asynchronous calls finish with InterGroup::last_group or second_pass, not " +
                          std::string(to_string(*params.inter_group)));
}

// A user's combine (docs/expression-language.md, "A combine of one's own"): an atomic cannot run
// an expression, and the float modes are the sums' (the combine is the user's expression).
void check_user_combine(const LaunchParams& params) {
    if (params.inter_group == InterGroup::atomic || params.inter_group == InterGroup::exact_atomic)
        throw InvalidArgument(
            "a combine expression of the user's own finishes with InterGroup::last_group or "
            "second_pass, not " +
            std::string(to_string(*params.inter_group)) +
            ": an atomic cannot run the expression (and would need a commutative one too)");
    if (params.float_mode && *params.float_mode != FloatMode::deterministic)
        throw InvalidArgument("FloatMode::" + std::string(to_string(*params.float_mode)) +
                              " is a way of summing; a combine expression of the user's own computes what it says, "
                              "in the plan's fixed order (FloatMode::deterministic)");
}

// Stage 1, semantics: what the form and the operation allow, and the parameters the later
// stages read (`overrides` as the form and the operation imply them); the float mode.
LaunchParams semantics(LaunchPlan& plan, const PlanRequest& request, const DeviceInfo& device,
                       const LaunchParams& overrides) {
    const Operation op = request.op;
    const ElementType element = request.element;
    const bool async = request.form == CallForm::async;
    const bool segmented = request.form == CallForm::segments;
    if (request.user_combine) check_user_combine(overrides);
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
    plan.operation = op;
    plan.element = element;
    plan.form = request.form;
    plan.transform = request.transform;
    plan.user_combine = request.user_combine;
    plan.float_mode = params.float_mode.value_or(FloatMode::deterministic);
    return params;
}

// Stage 2: the accumulator, the correctly rounded sum's range, the exact integer state.
void accumulator_and_exactness(LaunchPlan& plan, const PlanRequest& request, const DeviceInfo& device,
                               const LaunchParams& params) {
    const Operation op = request.op;
    const ElementType element = request.element;
    plan.accumulator =
        resolve_accumulator(request.transform ? Operation::sum : op, element, device, params, request.transform);
    // Refused wherever it is not offered (the error table says so), also where the data would
    // make it moot (integers, extremes).
    if (plan.float_mode == FloatMode::correctly_rounded)
        plan.accumulator = resolve_exact(op, element, plan.accumulator, params);
    plan.overflow = params.overflow.value_or(IntegerOverflow::check);
    plan.expression_type = plan.accumulator;  // before a wider exact state replaces it
    if (!is_floating(plan.accumulator)) {
        const ElementMap map = request.transform ? ElementMap::transform : operation_info(op).map;
        const IntegerState integer = plan_integer_state(op, map, element, plan.accumulator, request.n, plan.overflow,
                                                        params.accumulator.has_value());
        plan.accumulator = integer.accumulator;
        plan.exact_integer_bits = integer.exact_bits;
    }
}

// Whether an operation's result is a double the device rounds from the state itself (a mean,
// a norm, the statistics: cl_kernels/result.cl): computed in double, with no overflow to check.
bool result_is_rounded_double(Operation op) {
    return op == Operation::mean || op == Operation::norm_l1 || op == Operation::norm_l2 || op == Operation::norm_inf ||
           op == Operation::statistics;
}

// Whether a result left on the device needs doubles there: the rounded ones above, and the
// sums and products of floats (whose result type is double).
// (and the sums and products of floats, whose result type is double, and the range check of a
// floating-point accumulator's value over integer data).
bool device_result_needs_fp64(const LaunchPlan& plan) {
    const Operation op = plan.operation;
    const bool float_sum = op == Operation::sum || op == Operation::product || op == Operation::sum_of_squares;
    return result_is_rounded_double(op) || (float_sum && is_floating(plan.element)) ||
           (device_result_check(plan).check && is_floating(plan.accumulator));
}

void check_device_result_fp64(const LaunchPlan& plan, const DeviceInfo& device) {
    if (!device.has_fp64 && device_result_needs_fp64(plan))
        throw Unsupported("an asynchronous " + std::string(operation_name(plan.operation)) + " of " +
                          std::string(type_name(plan.element)) +
                          " data computes its result in double on the device, and this device has no cl_khr_fp64");
}

// The refusals stage 2 implies for an asynchronous call's result, and whether it reports an
// overflow in the caller's status word. (The correctly rounded sum's fixed-point state is
// rounded by its last kernel: ops/add_exact_round.cl.)
void check_async_result(LaunchPlan& plan, const PlanRequest& request, const DeviceInfo& device) {
    if (request.form != CallForm::async) return;
    check_device_result_fp64(plan, device);
    plan.result_status = device_result_check(plan).check;
}

// What a work-group's states take in local memory (stage 3 checks the work-group size
// against it). The correctly rounded sum's exact atomic finish (its default where the device
// has it) keeps expansions of a few doubles in its work-group tree, not the fixed-point state,
// and a fixed-point sink per group.
StateFootprint state_footprint(const LaunchPlan& plan, const OpKernel& kernel, const PlanRequest& request,
                               const DeviceInfo& device, const LaunchParams& params) {
    StateFootprint s;
    s.exact_fits = request.form != CallForm::async &&
                   has_exact_atomic_finish(kernel.op, plan.accumulator, plan.float_mode, device);
    s.expansions = kernel.op == KernelOp::add_exact && s.exact_fits && request.form != CallForm::segments &&
                   params.inter_group.value_or(InterGroup::exact_atomic) == InterGroup::exact_atomic;
    s.state_bytes = s.expansions ? exact_expansion_size(plan.accumulator) : state_size(kernel.op, plan.accumulator);
    // Long work-items on GPUs for images (which read a pixel per vector, so that a sum's 64
    // vectors are 64 pixels) of the fused statistics and of argmin/argmax/argminmax, whose
    // states cost each work-item and group more than a sum's; ranges of argmin/argmax of 2- and
    // 4-byte elements too, since their lanes take a vector in one select per lane and extreme
    // (ops/indexed.cl). Multi-channel statistics images aim at half the groups: their channels'
    // double states fill a work-item's registers, so fewer groups are resident; single-channel
    // ones are slower at half. (docs/performance.md, "Float modes and fused statistics", and
    // the commits that set these have the figures.)
    const StateLayout layout = plugin_info(kernel.op).layout;
    const bool indexed = layout == StateLayout::indexed || layout == StateLayout::indexed_pair;
    const bool range = request.form != CallForm::image && request.form != CallForm::segments;
    const std::size_t element_bytes = type_size(plan.element);
    s.long_items =
        device.is_gpu() && ((request.form == CallForm::image && (kernel.op == KernelOp::moments || indexed)) ||
                            (range && indexed && (element_bytes == 2 || element_bytes == 4)));
    if (device.is_gpu() && request.form == CallForm::image && kernel.op == KernelOp::moments && request.channels > 1)
        s.groups_per_compute_unit = std::max<std::uint32_t>(1, expansion_groups_per_compute_unit(device) / 2);
    // Float32 ranges of argmin/argmax load 32-byte vectors on GPUs (faster than 16 or 64 at the
    // long work-items above).
    if (device.is_gpu() && range && indexed && plan.element == ElementType::float32) s.load_bytes = 32;
    // The statistics of 8/16-bit integers (exact integer lanes, ops/moments.cl) load 8 bytes per
    // vector on GPUs: a lane's sums take 3-4 registers, and 16-byte vectors' 16 lanes of 8-bit
    // data crowd the work-items out.
    if (kernel.op == KernelOp::moments && device.is_gpu() && !is_floating(plan.element) && element_bytes <= 2)
        s.load_bytes = 8;
    s.group_bytes = s.expansions ? exact_sink_size(plan.accumulator) : 0;
    return s;
}

// The tuned entry where it applies to this plan, with the values of it this plan can take.
TunedChoice applicable_tuned(const LaunchPlan& plan, const OpKernel& kernel, const PlanRequest& request,
                             const DeviceInfo& device, const StateFootprint& state, const TunedParams* tuned) {
    const bool applies = tuned != nullptr &&
                         // FloatMode::atomic finishes with a compare-and-swap loop on one word, which slows down
                         // with every group that queues on it: tuned shapes, measured with the deterministic
                         // finishes (up to tens of thousands of groups), do not carry over, and the defaults keep
                         // the groups few.
                         !(is_floating(plan.accumulator) && plan.float_mode == FloatMode::atomic) &&
                         // The correctly rounded sum pays a fixed cost per work-item and group (its expansions'
                         // merge, its sink) that the deterministic shapes tuning measures do not: its own defaults.
                         plan.float_mode != FloatMode::correctly_rounded &&
                         // So do the fused statistics' state (a shift, two sums, two extremes; its combine
                         // divides) and the compensated sum's (a sum and an error per vector lane, combined by
                         // TwoSums): a sum's tuned shape has many short work-items and groups, whose per-item and
                         // per-group work outweighs the reads for them; their defaults (times up to 64, a few
                         // groups per compute unit) take a fraction of that time (docs/performance.md, "Float
                         // modes and fused statistics").
                         kernel.op != KernelOp::moments && kernel.op != KernelOp::add_compensated &&
                         // Columns keep their own rule: their lanes split rows, which no segment entry measures.
                         !request.columns;
    TunedChoice choice;
    if (!applies) return choice;
    choice.entry = tuned;
    choice.usable = usable_tuned(tuned->params, device, state);
    return choice;
}

// Stage 5, form rules and promises: whether the plan used its tuned entry, what it promises
// about the result's bits, the host path of small host data on a CPU device, whether an
// image's channels share a launch, and the refusals of segmented results left on the device.
void form_rules(LaunchPlan& plan, const OpKernel& kernel, const PlanRequest& request, const DeviceInfo& device,
                const LaunchParams& params, const TunedChoice& tuned) {
    const ParamSource from = tuned.source();
    const auto& f = plan.sources;
    const bool used = request.form == CallForm::segments
                          ? f.segment_team == from || f.work_group_size == from || f.vector_width == from
                          : f.times == from || f.work_group_size == from || f.stride == from ||
                                f.vector_width == from || f.inter_group == from;
    if (tuned.entry == nullptr || !used) plan.tuned_n = 0;
    plan.reproducibility = reproducibility_of(plan, kernel);
    // Host data: the host's threads run this very plan (the same bits) where they reproduce it,
    // up to the caller's limit, else where the tuned entry this plan takes found the host
    // faster at its size (tuning/tuner_host_path.hpp), else up to the device's default.
    if (request.form == CallForm::host_data) {
        const std::optional<std::uint64_t> tuned_limit =
            tuned.entry != nullptr ? tuned.entry->params.host_path_bytes : std::nullopt;
        const std::uint64_t limit =
            params.host_path_bytes.value_or(tuned_limit.value_or(default_host_path_bytes(device)));
        plan.on_host = request.n <= limit / type_size(plan.element) && host_path_reproduces(plan, kernel);
    }
    if (request.form == CallForm::image) {
        const Finish finish = first_finish(plan.inter_group, plan.groups, kernel.op);
        // (Not the correctly rounded sum: its level 1, several times over, is too big a kernel.)
        plan.channels_at_once = (finish == Finish::atomic || finish == Finish::store || finish == Finish::last_group) &&
                                kernel.op != KernelOp::add_exact;
    }
    if (request.form == CallForm::segments && request.device_results) {
        check_device_result_fp64(plan, device);
        plan.result_status = device_result_check(plan).check;
    }
}

LaunchPlan resolve(const PlanRequest& request, const DeviceInfo& device, const LaunchParams& overrides,
                   const TunedParams* tuned) {
    LaunchPlan plan;
    const LaunchParams params = semantics(plan, request, device, overrides);
    accumulator_and_exactness(plan, request, device, params);
    const OpKernel kernel = plan_kernel(plan);
    check_async_result(plan, request, device);
    const StateFootprint state = state_footprint(plan, kernel, request, device, params);
    TunedChoice chosen = applicable_tuned(plan, kernel, request, device, state, tuned);
    if (!plan_launch_shape(plan, request, device, params, state, chosen)) {
        chosen = TunedChoice{};  // a tuned shape too small for n gives way to the defaults, whole
        plan_launch_shape(plan, request, device, params, state, chosen);
    }
    if (request.form != CallForm::segments) plan_level3(plan, kernel, request, device, params, state, chosen);
    form_rules(plan, kernel, request, device, params, chosen);
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
    if (plan.user_combine) kernel.op = KernelOp::user_combine;
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
