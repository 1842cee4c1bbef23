#pragma once
// Each operation's result from its final state: a call's Outcome or one segment's StateView
// (reducer_state.hpp), so that single-range, image and segmented calls give the same values.
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include <clreduce/operation_result.hpp>
#include <clreduce/reducer.hpp>

#include "api/reducer_state.hpp"

namespace clreduce {

// The value of operation Op over elements of type T from a final state: the one place that
// turns each operation's state into its result (operation_result.hpp gives its type).
template <class T, class O>
Statistics<T> statistics_result(const O& o);

template <Operation Op, class T, class O>
result_t<Op, T> operation_value(const O& o) {
    using R = result_t<Op, T>;
    constexpr auto op = Op;
    if constexpr (op == Operation::sum || op == Operation::count_nonzero || op == Operation::sum_of_squares ||
                  op == Operation::norm_l1 || op == Operation::bit_or || op == Operation::bit_xor) {
        return o.count == 0 ? R(0) : o.template value<R>();  // the empty range's identity is 0
    } else if constexpr (op == Operation::norm_inf) {
        return o.count == 0 ? R(0) : quiet(o.template value<R>());
    } else if constexpr (op == Operation::product) {
        return o.count == 0 ? R(1) : o.template value<R>();
    } else if constexpr (op == Operation::bit_and) {
        if constexpr (std::is_integral_v<R>)  // (the planner refuses float data)
            if (o.count == 0) return static_cast<R>(~std::make_unsigned_t<R>(0));
        return o.template value<R>();
    } else if constexpr (op == Operation::all) {
        return o.count == 0 || o.template value<std::uint64_t>() == o.count;
    } else if constexpr (op == Operation::any) {
        return o.count != 0 && o.template value<std::uint64_t>() != 0;
    } else if constexpr (op == Operation::min || op == Operation::max) {
        o.require_elements();
        return quiet(o.template value<R>());
    } else if constexpr (op == Operation::minmax) {
        o.require_elements();
        return state_pair<T>(o.plan.accumulator, o.bits);
    } else if constexpr (op == Operation::argmin || op == Operation::argmax) {
        o.require_elements();
        return state_indexed<T>(o.plan.accumulator, o.bits);
    } else if constexpr (op == Operation::argminmax) {
        o.require_elements();
        return state_indexed_pair<T>(o.plan.accumulator, o.bits);
    } else if constexpr (op == Operation::mean) {
        o.require_elements();
        return o.finalized();
    } else if constexpr (op == Operation::norm_l2) {
        return o.count == 0 ? 0.0 : o.finalized();
    } else {
        static_assert(op == Operation::statistics, "an operation without its value here");
        return statistics_result<T>(o);
    }
}

template <class T, class O>
Statistics<T> statistics_result(const O& o) {
    o.require_elements();
    const MomentsState m = state_moments(o.plan.element, o.plan.accumulator, o.bits);
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
// ... with a combine of the user's own: an empty range gives its identity.
template <class T, class O>
transform_type_t<T> transform_result(const O& o, const CombineIdentity& identity) {
    using R = transform_type_t<T>;
    if (o.count != 0) return o.template value<R>();
    if (identity.floating) {
        if constexpr (std::is_floating_point_v<R>)
            return identity.real;
        else
            return integer_from_float<R>(identity.real, IntegerOverflow::check, Operation::product, o.plan.element);
    }
    if (is_signed(o.plan.accumulator)) return static_cast<R>(static_cast<std::int64_t>(identity.bits));
    return static_cast<R>(identity.bits);
}
// Either, as the job says.
template <class T, class O>
transform_type_t<T> transform_result(const O& o, const Job& job) {
    return job.combine ? transform_result<T>(o, *job.combine) : transform_result<T>(o, job.user_identity);
}

}  // namespace clreduce
