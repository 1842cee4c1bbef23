#pragma once
// The value each operation gives over elements of type T (result_t<Op, T>): what
// Reducer::reduce<Op, T>() and the named calls (sum, min, ...) return for one range, per image
// channel and per segment. Generated from the operation list (operation.hpp).
#include <cstdint>
#include <type_traits>

#include <clreduce/element_type.hpp>
#include <clreduce/operation.hpp>
#include <clreduce/results.hpp>

namespace clreduce {

template <Operation Op, class T>
struct operation_result;

#define CLREDUCE_OPERATION_RESULT(T, name, R)     \
    template <class T>                            \
    struct operation_result<Operation::name, T> { \
        using type = R;                           \
    };
CLREDUCE_OPERATIONS(CLREDUCE_OPERATION_RESULT, T)
#undef CLREDUCE_OPERATION_RESULT

template <Operation Op, class T>
using result_t = typename operation_result<Op, T>::type;

// Calls f(std::integral_constant<Operation, op>{}) with `op` as a compile-time constant: the
// one switch from a run-time Operation to the templates (bindings that take the operation as
// a value use it).
template <class F>
decltype(auto) visit_operation(Operation op, F&& f) {
    switch (op) {
#define CLREDUCE_OPERATION_CASE(T, name, R) \
    case Operation::name: return f(std::integral_constant<Operation, Operation::name>{});
        CLREDUCE_OPERATIONS(CLREDUCE_OPERATION_CASE, void)
#undef CLREDUCE_OPERATION_CASE
    }
    return f(std::integral_constant<Operation, Operation::sum>{});  // not reached: every value is a case
}

}  // namespace clreduce
