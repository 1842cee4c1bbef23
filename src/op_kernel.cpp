#include "op_kernel.hpp"

#include <limits>
#include <string>

#include <clreduce/error.hpp>

#include "exact_state.hpp"

namespace clreduce {
namespace {

KernelOp additive(FloatMode mode, ElementType accumulator) {
    if (is_floating(accumulator) && mode == FloatMode::correctly_rounded) return KernelOp::add_exact;
    return is_floating(accumulator) && mode == FloatMode::compensated ? KernelOp::add_compensated : KernelOp::add;
}

}  // namespace

OpKernel op_kernel(Operation op, FloatMode mode, ElementType accumulator) {
    switch (op) {
        case Operation::sum:
        case Operation::mean: return {additive(mode, accumulator), ElementMap::identity};
        case Operation::count_nonzero: return {KernelOp::add, ElementMap::nonzero};
        case Operation::sum_of_squares:
        case Operation::norm_l2: return {additive(mode, accumulator), ElementMap::square};
        case Operation::norm_l1: return {additive(mode, accumulator), ElementMap::abs};
        case Operation::product: return {KernelOp::multiply, ElementMap::identity};
        case Operation::min: return {KernelOp::min, ElementMap::identity};
        case Operation::max: return {KernelOp::max, ElementMap::identity};
        case Operation::norm_inf: return {KernelOp::max, ElementMap::abs};
        case Operation::minmax: return {KernelOp::minmax, ElementMap::identity};
        case Operation::argmin: return {KernelOp::argmin, ElementMap::identity};
        case Operation::argmax: return {KernelOp::argmax, ElementMap::identity};
    }
    throw InvalidArgument("unknown Operation");
}

OpKernel transform_kernel(Combine combine, FloatMode mode, ElementType accumulator) {
    switch (combine) {
        case Combine::sum: return {additive(mode, accumulator), ElementMap::transform};
        case Combine::product: return {KernelOp::multiply, ElementMap::transform};
        case Combine::min: return {KernelOp::min, ElementMap::transform};
        case Combine::max: return {KernelOp::max, ElementMap::transform};
    }
    throw InvalidArgument("unknown Combine");
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

std::string_view op_file(KernelOp op) {
    switch (op) {
        case KernelOp::add: return "ops/add.cl";
        case KernelOp::add_compensated: return "ops/add_compensated.cl";
        case KernelOp::add_exact: return "ops/add_exact.cl";
        case KernelOp::multiply: return "ops/multiply.cl";
        case KernelOp::min:
        case KernelOp::max: return "ops/extremum.cl";
        case KernelOp::minmax: return "ops/minmax.cl";
        case KernelOp::argmin:
        case KernelOp::argmax: return "ops/argext.cl";
    }
    throw InvalidArgument("unknown KernelOp");
}

std::size_t state_size(KernelOp op, ElementType accumulator) {
    const std::size_t a = type_size(accumulator);
    switch (op) {
        case KernelOp::add:
        case KernelOp::multiply:
        case KernelOp::min:
        case KernelOp::max: return a;
        case KernelOp::add_compensated:
        case KernelOp::minmax: return 2 * a;
        case KernelOp::argmin:
        case KernelOp::argmax: return 16;  // struct { ulong index; ACC value; }, 8-byte aligned
        case KernelOp::add_exact: return exact_state_size(accumulator);
    }
    throw InvalidArgument("unknown KernelOp");
}

bool has_atomic_finish(KernelOp op, ElementType accumulator, FloatMode mode, const DeviceInfo& device) {
    const std::size_t size = type_size(accumulator);
    if (op == KernelOp::min || op == KernelOp::max)
        return !is_floating(accumulator) && (size == 4 || (size == 8 && device.has_int64_min_max_atomics));
    if (op != KernelOp::add) return false;
    if (is_floating(accumulator) && mode != FloatMode::atomic) return false;
    return size == 4 || (size == 8 && device.has_int64_atomics);
}

bool has_exact_atomic_finish(KernelOp op, ElementType accumulator, FloatMode mode, const DeviceInfo& device) {
    return op == KernelOp::add && is_floating(accumulator) && mode == FloatMode::deterministic &&
           device.has_int64_atomics;
}

std::uint64_t atomic_identity(KernelOp op, ElementType accumulator) {
    if (op == KernelOp::add) return 0;  // 0 and 0.0 alike
    const bool is_min = op == KernelOp::min;
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
