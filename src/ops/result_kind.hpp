#pragma once
// How a result left on the device (asynchronous calls) is made from an operation's final
// state: cl_kernels/result.cl's CLREDUCE_RESULT_KIND, the same value the host makes of that
// state (api/operation_results.hpp).
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <clreduce/element_type.hpp>
#include <clreduce/launch_params.hpp>
#include <clreduce/operation.hpp>
#include <clreduce/operation_result.hpp>

namespace clreduce {

// The values of result.cl's CLREDUCE_RESULT_* kinds.
enum class ResultKind : std::uint8_t {
    value = 0,         // the state's value converted (sums, products, counts, norm_l1, bitwise)
    quiet = 1,         // the value, NaN as the quiet NaN (min, max)
    all = 2,           // bool
    any = 3,           // bool
    pair = 4,          // MinMax<T>
    indexed = 5,       // ArgResult<T>
    indexed_pair = 6,  // ArgMinMax<T>
    mean = 7,          // double
    root = 8,          // double (norm_l2)
    statistics = 9,    // Statistics<T>
    norm_inf = 10,     // double: quiet, 0 for no element
    rounded = 11,      // double: the exact value rounded (norm_l1)
};

constexpr ResultKind result_kind(Operation op) {
    switch (op) {
        case Operation::min:
        case Operation::max: return ResultKind::quiet;
        case Operation::all: return ResultKind::all;
        case Operation::any: return ResultKind::any;
        case Operation::minmax: return ResultKind::pair;
        case Operation::argmin:
        case Operation::argmax: return ResultKind::indexed;
        case Operation::argminmax: return ResultKind::indexed_pair;
        case Operation::mean: return ResultKind::mean;
        case Operation::norm_l2: return ResultKind::root;
        case Operation::statistics: return ResultKind::statistics;
        case Operation::norm_inf: return ResultKind::norm_inf;
        case Operation::norm_l1: return ResultKind::rounded;
        default: return ResultKind::value;
    }
}

// Whether the device needs doubles to finish the result (it computes in double).
constexpr bool result_computes_in_double(ResultKind kind) {
    return kind == ResultKind::mean || kind == ResultKind::root || kind == ResultKind::statistics ||
           kind == ResultKind::rounded;
}

// The type result.cl writes (CLREDUCE_RESULT_T): the value's own type, a byte for bool, and
// the element type for the structures.
template <Operation Op, class T>
constexpr ElementType result_element_type() {
    using R = result_t<Op, T>;
    if constexpr (std::is_same_v<R, bool>)
        return ElementType::uint8;
    else if constexpr (std::is_arithmetic_v<R>)
        return element_traits<R>::type;
    else
        return element_traits<T>::type;
}

// result_element_type<Op, T>() for an operation and element type known at run time.
inline ElementType result_element_type(Operation op, ElementType element) {
    return visit_operation(op, [&](auto op_constant) {
        return visit_type(element, [&](auto value) {
            return result_element_type<decltype(op_constant)::value, decltype(value)>();
        });
    });
}

// How a result finished on the device is checked against its type (KernelSpec::result_check
// and result_modulo; cl_kernels/result.cl), as the host checks it (src/ops/integer_result.hpp,
// api/reducer_state.hpp). Only 64-bit integer results can fail: an exact wide sum under
// IntegerOverflow::check, and any value of a floating-point accumulator over integer data
// (whose finite sums IntegerOverflow::wrap takes modulo 2^64 instead; its products and
// extremes, and a NaN or infinity, have no such value). A checked call reports a result that
// does not fit in the caller's status word (AsyncTarget::status).
struct DeviceResultCheck {
    bool check = false;
    bool modulo = false;
};
inline DeviceResultCheck device_result_check(const LaunchPlan& plan) {
    const ElementType result = result_element_type(plan.operation, plan.element);
    const ResultKind kind = result_kind(plan.operation);
    if ((result != ElementType::int64 && result != ElementType::uint64) ||
        (kind != ResultKind::value && kind != ResultKind::quiet))
        return {};
    if (!is_floating(plan.element) && is_floating(plan.accumulator))
        return {true, kind == ResultKind::value && operation_family(plan.operation) == OperationFamily::additive &&
                          plan.overflow == IntegerOverflow::wrap};
    return {plan.exact_integer_bits != 0 && plan.overflow == IntegerOverflow::check, false};
}

// The structures' layouts that result.cl writes by hand.
static_assert(offsetof(ArgResult<double>, index) == 8 && sizeof(ArgResult<std::int8_t>) == 16 &&
                  offsetof(ArgMinMax<std::int8_t>, max) == 16,
              "result.cl writes ArgResult as its value, then its index at byte 8");
static_assert(offsetof(Statistics<std::int16_t>, min) == 8 && offsetof(Statistics<std::int16_t>, sum) == 16 &&
                  offsetof(Statistics<double>, sum) == 24 && offsetof(Statistics<double>, variance) == 40,
              "result.cl writes Statistics as count, min, max, then three doubles from the next multiple of 8");

}  // namespace clreduce
