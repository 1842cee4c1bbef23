#pragma once
// Each operation's result from its final state: a call's Outcome or one segment's StateView
// (reducer_state.hpp), so that single-range, image and segmented calls give the same values.
#include <algorithm>
#include <cmath>
#include <limits>

#include <clreduce/reducer.hpp>

#include "api/reducer_state.hpp"

namespace clreduce {

template <class T, class O>
sum_type_t<T> sum_result(const O& o) {
    return o.count == 0 ? sum_type_t<T>(0) : o.template value<sum_type_t<T>>();
}
template <class T, class O>
sum_type_t<T> product_result(const O& o) {
    return o.count == 0 ? sum_type_t<T>(1) : o.template value<sum_type_t<T>>();
}
template <class T, class O>
T min_result(const O& o) {
    o.require_elements();
    return o.template value<T>();
}
template <class T, class O>
T max_result(const O& o) {
    o.require_elements();
    return o.template value<T>();
}
template <class T, class O>
MinMax<T> minmax_result(const O& o) {
    o.require_elements();
    return state_pair<T>(o.plan.accumulator, o.bits);
}
template <class T, class O>
ArgResult<T> arg_result(const O& o) {
    o.require_elements();
    return state_indexed<T>(o.plan.accumulator, o.bits);
}
// The names the segmented entry points' macro looks for (segment_operations.cpp).
template <class T, class O>
ArgResult<T> argmin_result(const O& o) {
    return arg_result<T>(o);
}
template <class T, class O>
ArgResult<T> argmax_result(const O& o) {
    return arg_result<T>(o);
}
template <class T, class O>
std::uint64_t count_nonzero_result(const O& o) {
    return o.count == 0 ? 0 : o.template value<std::uint64_t>();
}
template <class T, class O>
double mean_result(const O& o) {
    o.require_elements();
    return o.finalized();
}
template <class T, class O>
square_sum_t<T> sum_of_squares_result(const O& o) {
    return o.count == 0 ? square_sum_t<T>(0) : o.template value<square_sum_t<T>>();
}
template <class T, class O>
double norm_l1_result(const O& o) {
    return o.count == 0 ? 0.0 : o.template value<double>();
}
template <class T, class O>
double norm_l2_result(const O& o) {
    return o.count == 0 ? 0.0 : o.finalized();
}
template <class T, class O>
double norm_inf_result(const O& o) {
    return o.count == 0 ? 0.0 : o.template value<double>();
}
template <class T, class O>
Statistics<T> statistics_result(const O& o) {
    o.require_elements();
    const MomentsState m = state_moments(o.plan.accumulator, o.bits);
    const double n = static_cast<double>(m.count);
    Statistics<T> r;
    r.count = m.count;
    if constexpr (std::is_integral_v<T>) {  // always so but in a forged Partial (partial.hpp)
        const auto in_range = [](double v) {
            const double top = static_cast<double>(std::numeric_limits<T>::max());  // 2^64 for uint64
            return v >= static_cast<double>(std::numeric_limits<T>::lowest()) && (sizeof(T) < 8 ? v <= top : v < top);
        };
        if (!in_range(m.lo) || !in_range(m.hi))
            throw InvalidArgument("a statistics state whose extremes are not values of its element type");
    }
    r.min = static_cast<T>(m.lo);
    r.max = static_cast<T>(m.hi);
    r.sum = n * m.shift + m.s1;
    r.mean = m.shift + m.s1 / n;
    // The squared deviations about the mean: s2 - s1^2 / n, never below 0 (a rounding).
    const double m2 = m.s2 - m.s1 * (m.s1 / n);
    r.variance = std::isnan(m2) ? m2 : std::max(0.0, m2) / n;
    return r;
}
template <class T, class O>
transform_type_t<T> transform_result(const O& o, Combine combine) {
    if (o.count == 0) {
        if (combine == Combine::min || combine == Combine::max)
            throw InvalidArgument("transform_reduce with min or max of an empty range is undefined");
        return transform_type_t<T>(combine == Combine::product ? 1 : 0);
    }
    return o.template value<transform_type_t<T>>();
}

}  // namespace clreduce
