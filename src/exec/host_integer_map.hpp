#pragma once
// How the host path's integer folds see an element (host_order_free.cpp and its columns,
// host_order_free_columns.cpp).
#include <cstdint>
#include <type_traits>

#include "ops/operation_table.hpp"

namespace clreduce {

template <class T>
using Wide = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;

// The element as the kernels' 64-bit integer accumulator sees it after the map, modulo 2^64
// (prelude.cl's clreduce_map: identity, x * x, abs(x), x != 0).
template <class T, ElementMap M>
inline std::uint64_t integer_mapped(T x) {
    if constexpr (M == ElementMap::nonzero) {
        return x != T(0) ? 1 : 0;
    } else {
        const auto w = static_cast<std::uint64_t>(static_cast<Wide<T>>(x));
        if constexpr (M == ElementMap::square) return w * w;
        if constexpr (M == ElementMap::abs)
            return std::is_signed_v<T> && static_cast<Wide<T>>(x) < 0 ? std::uint64_t(0) - w : w;
        return w;
    }
}

}  // namespace clreduce
