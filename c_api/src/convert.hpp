#pragma once
// The C enumerations and structs to the C++ library's, and its results to clreduce_value.
#include <cstdint>
#include <type_traits>

#include <clreduce/clreduce.h>
#include <clreduce/element_type.hpp>
#include <clreduce/launch_params.hpp>
#include <clreduce/operation.hpp>
#include <clreduce/operation_result.hpp>
#include <clreduce/reducer.hpp>
#include <clreduce/results.hpp>

// The reducer handle of the C API.
struct clreduce_reducer {
    clreduce::Reducer reducer;
};

namespace clreduce::c_api {

// InvalidArgument naming the value for one outside its enumeration.
Operation to_operation(clreduce_operation op);
ElementType to_type(clreduce_type type);
clreduce_type from_type(ElementType type);
// The options' LaunchParams (nullptr: the defaults); InvalidArgument for a value outside its
// enumeration or a nonzero reserved field.
LaunchParams to_params(const clreduce_options* options);
// The reducer behind a handle; InvalidArgument for NULL.
const Reducer& reducer_of(const clreduce_reducer* handle);

// Calls f(std::integral_constant<Operation, op>{}, T{}) with the operation and the C++
// element type of the C values: visit_operation and visit_type, the one dispatch of every
// form of the C API.
template <class F>
void dispatch(clreduce_operation op, clreduce_type type, F&& f) {
    const Operation operation = to_operation(op);
    const ElementType element = to_type(type);
    visit_operation(operation, [&](auto op_constant) { visit_type(element, [&](auto t) { f(op_constant, t); }); });
}

template <class R>
void set_scalar(clreduce_scalar& s, const R& v) {
    if constexpr (std::is_same_v<R, half>)
        s.f16 = v.bits;
    else if constexpr (std::is_same_v<R, std::int8_t>)
        s.i8 = v;
    else if constexpr (std::is_same_v<R, std::uint8_t>)
        s.u8 = v;
    else if constexpr (std::is_same_v<R, std::int16_t>)
        s.i16 = v;
    else if constexpr (std::is_same_v<R, std::uint16_t>)
        s.u16 = v;
    else if constexpr (std::is_same_v<R, std::int32_t>)
        s.i32 = v;
    else if constexpr (std::is_same_v<R, std::uint32_t>)
        s.u32 = v;
    else if constexpr (std::is_same_v<R, std::int64_t>)
        s.i64 = v;
    else if constexpr (std::is_same_v<R, std::uint64_t>)
        s.u64 = v;
    else if constexpr (std::is_same_v<R, float>)
        s.f32 = v;
    else {
        static_assert(std::is_same_v<R, double>, "a result type the C API has no member for");
        s.f64 = v;
    }
}

// A result of the C++ library (result_t<Op, T> for elements of type T) as a clreduce_value.
template <class R>
clreduce_value to_value(const R& r) {
    clreduce_value v{};
    if constexpr (std::is_same_v<R, bool>) {
        v.kind = CLREDUCE_VALUE_BOOL;
        v.type = CLREDUCE_TYPE_DEFAULT;
        v.boolean = r ? 1 : 0;
    } else if constexpr (std::is_arithmetic_v<R> || std::is_same_v<R, half>) {
        v.kind = CLREDUCE_VALUE_SCALAR;
        v.type = from_type(element_traits<R>::type);
        set_scalar(v.scalar, r);
    } else {
        using T = std::remove_cv_t<decltype(r.min)>;
        v.type = from_type(element_traits<T>::type);
        if constexpr (std::is_same_v<R, MinMax<T>>) {
            v.kind = CLREDUCE_VALUE_MINMAX;
        } else {
            static_assert(std::is_same_v<R, Statistics<T>>, "a result type the C API has no kind for");
            v.kind = CLREDUCE_VALUE_STATISTICS;
            v.count = r.count;
            v.sum = r.sum;
            v.mean = r.mean;
            v.variance = r.variance;
        }
        set_scalar(v.min, r.min);
        set_scalar(v.max, r.max);
    }
    return v;
}

template <class T>
clreduce_value to_value(const ArgResult<T>& r) {
    clreduce_value v{};
    v.kind = CLREDUCE_VALUE_ARG;
    v.type = from_type(element_traits<T>::type);
    set_scalar(v.scalar, r.value);
    v.index = r.index;
    return v;
}

template <class T>
clreduce_value to_value(const ArgMinMax<T>& r) {
    clreduce_value v{};
    v.kind = CLREDUCE_VALUE_ARGMINMAX;
    v.type = from_type(element_traits<T>::type);
    set_scalar(v.min, r.min.value);
    set_scalar(v.max, r.max.value);
    v.min_index = r.min.index;
    v.max_index = r.max.index;
    return v;
}

}  // namespace clreduce::c_api
