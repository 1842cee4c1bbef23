#include "ops/operation_table.hpp"

#include <array>
#include <limits>
#include <string>
#include <utility>

#include <clreduce/error.hpp>

#include "ops/exact_state.hpp"

namespace clreduce {
namespace {

using A = AccumulatorRule;
using F = Finalize;
using M = ElementMap;
using O = Operation;
using Fam = OperationFamily;

// One row per operation: name, summary (one line: what its value is), family, plug-in, element map, accumulator rule,
// whether the plug-in follows the float mode, correctly rounded offered, empty range's identity, finalize, real result,
// integers only, identity state is the empty result.
constexpr std::array<OperationInfo, operation_count> kOperations{{
    {O::sum, "sum",
     "Sum of the elements: exact for integers (int64, uint64), float64 for floats (float_mode: how it is rounded).",
     Fam::additive, KernelOp::add, M::identity, A::sum, true, true, true, F::none, false, false, true},
    {O::product, "product", "Product of the elements, in the sum's type (integers modulo 2^64).", Fam::product,
     KernelOp::multiply, M::identity, A::sum, false, false, true, F::none, false, false, true},
    {O::min, "min", "Smallest element, in the element type; NaN ignored (all NaN: NaN).", Fam::extremum, KernelOp::min,
     M::identity, A::compare, false, false, false, F::none},
    {O::max, "max", "Largest element, in the element type; NaN ignored (all NaN: NaN).", Fam::extremum, KernelOp::max,
     M::identity, A::compare, false, false, false, F::none},
    {O::minmax, "minmax", "(min, max) of one pass, in the element type; NaN ignored.", Fam::extremum, KernelOp::minmax,
     M::identity, A::compare, false, false, false, F::none},
    {O::argmin, "argmin", "Index of the first smallest element; NaN ignored.", Fam::extremum, KernelOp::argmin,
     M::identity, A::compare, false, false, false, F::none},
    {O::argmax, "argmax", "Index of the first largest element; NaN ignored.", Fam::extremum, KernelOp::argmax,
     M::identity, A::compare, false, false, false, F::none},
    {O::argminmax, "argminmax", "(argmin, argmax) of one pass: both indices; NaN ignored.", Fam::extremum,
     KernelOp::argminmax, M::identity, A::compare, false, false, false, F::none},
    {O::count_nonzero, "count_nonzero", "How many elements are nonzero (NaN counts, -0.0 does not).", Fam::additive,
     KernelOp::add, M::nonzero, A::count, false, false, true, F::none, false, false, true},
    {O::mean, "mean", "Mean, float64 (integers: the correctly rounded mean of the exact sum).", Fam::additive,
     KernelOp::add, M::identity, A::sum, true, true, false, F::divide_by_count, true},
    {O::sum_of_squares, "sum_of_squares", "Sum of x*x: exact for integers (uint64), float64 for floats.", Fam::additive,
     KernelOp::add, M::square, A::non_negative, true, false, true, F::none, false, false, true},
    {O::norm_l1, "norm_l1", "Sum of |x|, float64.", Fam::additive, KernelOp::add, M::abs, A::non_negative, true, true,
     true, F::none, true, false, true},
    {O::norm_l2, "norm_l2", "Square root of the sum of x*x, float64.", Fam::additive, KernelOp::add, M::square,
     A::non_negative, true, false, true, F::square_root, true, false, true},
    {O::norm_inf, "norm_inf", "Largest |x|, float64; NaN ignored.", Fam::extremum, KernelOp::max, M::abs, A::magnitude,
     false, false, true, F::none},
    {O::statistics, "statistics", "Count, min, max, sum, mean and population variance of one pass.", Fam::additive,
     KernelOp::moments, M::identity, A::real, false, false, false, F::none, true},
    {O::bit_and, "bit_and", "Bitwise and of integer elements, in the element type (no element: every bit set).",
     Fam::extremum, KernelOp::bit_and, M::identity, A::compare, false, false, true, F::none, false, true, true},
    {O::bit_or, "bit_or", "Bitwise or of integer elements, in the element type (no element: 0).", Fam::extremum,
     KernelOp::bit_or, M::identity, A::compare, false, false, true, F::none, false, true, true},
    {O::bit_xor, "bit_xor", "Bitwise xor of integer elements, in the element type (no element: 0).", Fam::extremum,
     KernelOp::bit_xor, M::identity, A::compare, false, false, true, F::none, false, true, true},
    {O::all, "all", "Whether every element is nonzero (no element: true).", Fam::additive, KernelOp::add, M::nonzero,
     A::count, false, false, true, F::none},
    {O::any, "any", "Whether some element is nonzero (no element: false).", Fam::additive, KernelOp::add, M::nonzero,
     A::count, false, false, true, F::none},
}};

// Row k is Operation k, so that the list's order (operation.hpp) and the table's agree.
constexpr bool rows_in_list_order() {
    for (std::size_t k = 0; k < kOperations.size(); ++k)
        if (static_cast<std::size_t>(kOperations[k].op) != k) return false;
    return true;
}
static_assert(rows_in_list_order(), "kOperations' rows must follow CLREDUCE_OPERATIONS' order");

// One row per plug-in: its file, its state's layout, its atomic finish.
constexpr std::array<PluginInfo, 17> kPlugins{{
    {KernelOp::add, "ops/add.cl", StateLayout::value, AtomicKind::add, false},
    {KernelOp::add_compensated, "ops/add_compensated.cl", StateLayout::compensated, AtomicKind::none, false},
    {KernelOp::add_exact, "ops/add_exact.cl", StateLayout::exact, AtomicKind::none, false},
    {KernelOp::add_int128, "ops/add_wide.cl", StateLayout::int128, AtomicKind::add, false},
    {KernelOp::add_int192, "ops/add_wide.cl", StateLayout::int192, AtomicKind::add, false},
    {KernelOp::multiply, "ops/multiply.cl", StateLayout::value, AtomicKind::none, false},
    {KernelOp::min, "ops/extremum.cl", StateLayout::value, AtomicKind::min, false},
    {KernelOp::max, "ops/extremum.cl", StateLayout::value, AtomicKind::max, true},
    {KernelOp::minmax, "ops/minmax.cl", StateLayout::pair, AtomicKind::none, false},
    {KernelOp::argmin, "ops/argext.cl", StateLayout::indexed, AtomicKind::none, false},
    {KernelOp::argmax, "ops/argext.cl", StateLayout::indexed, AtomicKind::none, true},
    {KernelOp::argminmax, "ops/argminmax.cl", StateLayout::indexed_pair, AtomicKind::none, false},
    {KernelOp::moments, "ops/moments.cl", StateLayout::moments, AtomicKind::none, false},
    {KernelOp::bit_and, "ops/bitwise.cl", StateLayout::value, AtomicKind::bitwise, false, 1},
    {KernelOp::bit_or, "ops/bitwise.cl", StateLayout::value, AtomicKind::bitwise, false, 2},
    {KernelOp::bit_xor, "ops/bitwise.cl", StateLayout::value, AtomicKind::bitwise, false, 3},
    // No atomic finish: an atomic cannot run the user's expression.
    {KernelOp::user_combine, "ops/user_combine.cl", StateLayout::value, AtomicKind::none, false},
}};

constexpr std::array<std::pair<OperationFamily, std::string_view>, 3> kFamilies{{
    {OperationFamily::additive, "additive"},
    {OperationFamily::extremum, "extremum"},
    {OperationFamily::product, "product"},
}};

// The additive plug-in of a float mode: exact, compensated or plain.
KernelOp additive(FloatMode mode, ElementType accumulator) {
    if (!is_floating(accumulator)) return KernelOp::add;
    if (mode == FloatMode::correctly_rounded) return KernelOp::add_exact;
    return mode == FloatMode::compensated ? KernelOp::add_compensated : KernelOp::add;
}

ElementType sum_accumulator(ElementType element, const DeviceInfo& device) {
    if (is_floating(element))
        return element == ElementType::float64 || device.has_fp64 ? ElementType::float64 : ElementType::float32;
    return is_signed(element) ? ElementType::int64 : ElementType::uint64;
}

}  // namespace

const OperationInfo& operation_info(Operation op) {
    const auto k = static_cast<std::size_t>(op);
    if (k < kOperations.size()) return kOperations[k];
    throw InvalidArgument("unknown Operation " + std::to_string(static_cast<int>(op)));
}

const PluginInfo& plugin_info(KernelOp op) {
    for (const auto& row : kPlugins)
        if (row.op == op) return row;
    throw InvalidArgument("unknown KernelOp " + std::to_string(static_cast<int>(op)));
}

std::vector<std::string_view> plugin_files() {
    std::vector<std::string_view> files;
    for (const auto& row : kPlugins) files.push_back(row.file);
    return files;
}

std::string_view operation_name(Operation op) { return operation_info(op).name; }

std::string_view operation_summary(Operation op) { return operation_info(op).summary; }

Operation parse_operation(std::string_view name) {
    for (const auto& row : kOperations)
        if (row.name == name) return row.op;
    throw InvalidArgument("unknown operation '" + std::string(name) + "'");
}

OperationFamily operation_family(Operation op) { return operation_info(op).family; }

std::string_view family_name(OperationFamily family) {
    for (const auto& [value, name] : kFamilies)
        if (value == family) return name;
    return "?";
}

OperationFamily parse_family(std::string_view name) {
    for (const auto& [value, spelling] : kFamilies)
        if (spelling == name) return value;
    throw InvalidArgument("unknown operation family '" + std::string(name) + "'");
}

OpKernel op_kernel(Operation op, FloatMode mode, ElementType accumulator) {
    const OperationInfo& row = operation_info(op);
    return {row.follows_float_mode ? additive(mode, accumulator) : row.plugin, row.map};
}

Operation combine_operation(Combine combine) {
    switch (combine) {
        case Combine::sum: return Operation::sum;
        case Combine::product: return Operation::product;
        case Combine::min: return Operation::min;
        case Combine::max: return Operation::max;
    }
    throw InvalidArgument("unknown Combine");
}

OpKernel transform_kernel(Combine combine, FloatMode mode, ElementType accumulator) {
    return {op_kernel(combine_operation(combine), mode, accumulator).op, ElementMap::transform};
}

ElementType default_accumulator(Operation op, ElementType element, const DeviceInfo& device) {
    const ElementType compared = element == ElementType::float16 ? ElementType::float32 : element;
    switch (operation_info(op).accumulator) {
        case AccumulatorRule::sum: return sum_accumulator(element, device);
        case AccumulatorRule::non_negative:
            return is_floating(element) ? sum_accumulator(element, device) : ElementType::uint64;
        case AccumulatorRule::count: return ElementType::uint64;
        case AccumulatorRule::compare: return compared;
        case AccumulatorRule::magnitude: return is_floating(element) ? compared : ElementType::uint64;
        case AccumulatorRule::real: return device.has_fp64 ? ElementType::float64 : ElementType::float32;
    }
    throw InvalidArgument("unknown AccumulatorRule");
}

int wide_limbs(StateLayout layout) { return layout == StateLayout::int128 ? 2 : layout == StateLayout::int192 ? 3 : 0; }

ElementType transform_accumulator(ElementType element, const DeviceInfo& device) {
    if (is_floating(element)) return sum_accumulator(element, device);
    return element == ElementType::uint64 ? ElementType::uint64 : ElementType::int64;
}

std::size_t state_size(KernelOp op, ElementType accumulator) {
    const std::size_t a = type_size(accumulator);
    switch (plugin_info(op).layout) {
        case StateLayout::value: return a;
        case StateLayout::compensated:
        case StateLayout::pair: return 2 * a;
        case StateLayout::indexed: return 16;
        case StateLayout::indexed_pair: return 32;
        case StateLayout::moments: return (8 + 5 * a + 7) / 8 * 8;
        case StateLayout::exact: return exact_state_size(accumulator);
        case StateLayout::int128:
        case StateLayout::int192: return 8 * static_cast<std::size_t>(wide_limbs(plugin_info(op).layout));
    }
    throw InvalidArgument("unknown StateLayout");
}

bool has_atomic_finish(KernelOp op, ElementType accumulator, FloatMode mode, const DeviceInfo& device) {
    const std::size_t size = type_size(accumulator);
    switch (plugin_info(op).atomic) {
        case AtomicKind::none: return false;
        case AtomicKind::min:
        case AtomicKind::max:
        case AtomicKind::bitwise:
            return !is_floating(accumulator) && (size == 4 || (size == 8 && device.has_int64_min_max_atomics));
        case AtomicKind::add:
            if (is_floating(accumulator) && mode != FloatMode::atomic) return false;
            return size == 4 || (size == 8 && device.has_int64_atomics);
    }
    return false;
}

bool has_exact_atomic_finish(KernelOp op, ElementType accumulator, FloatMode mode, const DeviceInfo& device) {
    // The correctly rounded sum's expansion path keeps its expansions in doubles and ors its
    // flags as 64-bit words.
    if (op == KernelOp::add_exact)
        return device.has_int64_atomics && device.has_int64_min_max_atomics && device.has_fp64;
    return op == KernelOp::add && is_floating(accumulator) && mode == FloatMode::deterministic &&
           device.has_int64_atomics;
}

std::uint64_t atomic_identity(KernelOp op, ElementType accumulator) {
    const AtomicKind kind = plugin_info(op).atomic;
    if (kind == AtomicKind::add) return 0;  // 0 and 0.0 alike
    if (kind == AtomicKind::bitwise) {      // and: all bits of the accumulator set; or, xor: 0
        if (plugin_info(op).bit_op != 1) return 0;
        return type_size(accumulator) == 4 ? 0xffffffffu : ~std::uint64_t(0);
    }
    const bool is_min = kind == AtomicKind::min;
    switch (accumulator) {
        case ElementType::int32:
            return static_cast<std::uint32_t>(is_min ? std::numeric_limits<std::int32_t>::max()
                                                     : std::numeric_limits<std::int32_t>::min());
        case ElementType::uint32: return is_min ? std::numeric_limits<std::uint32_t>::max() : 0;
        case ElementType::int64:
            return static_cast<std::uint64_t>(is_min ? std::numeric_limits<std::int64_t>::max()
                                                     : std::numeric_limits<std::int64_t>::min());
        case ElementType::uint64: return is_min ? std::numeric_limits<std::uint64_t>::max() : 0;
        default: break;
    }
    throw Error("internal: no atomic finish for " + std::string(type_name(accumulator)));
}

}  // namespace clreduce
