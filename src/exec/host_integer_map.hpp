#pragma once
// How the host path's integer folds see an element, and which plans are such a fold
// (host_order_free.cpp, its columns and images: host_order_free_columns.cpp,
// host_order_free_image.cpp).
#include <cstdint>
#include <type_traits>

#include <clreduce/element_type.hpp>

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

template <ElementMap M>
using MapConstant = std::integral_constant<ElementMap, M>;

// For a plan whose state is one 64-bit sum, count or product (host_order_free.cpp's
// `additive`: integer sums of any map, integer products, counts of floats), make(T{},
// MapConstant<map>{}, std::bool_constant<product>{}); R{} for any other plan.
template <class R, class F>
R with_fold(ElementType element, const OpKernel& kernel, F make) {
    if (kernel.op != KernelOp::add && kernel.op != KernelOp::multiply) return R{};
    const bool product = kernel.op == KernelOp::multiply;
    return visit_type(element, [&](auto tag) -> R {
        using T = decltype(tag);
        if constexpr (std::is_integral_v<T>) {
            if (product)  // (products take no map: ops/operation_table.cpp)
                return kernel.map == ElementMap::identity
                           ? make(tag, MapConstant<ElementMap::identity>{}, std::true_type{})
                           : R{};
            switch (kernel.map) {
                case ElementMap::identity: return make(tag, MapConstant<ElementMap::identity>{}, std::false_type{});
                case ElementMap::square: return make(tag, MapConstant<ElementMap::square>{}, std::false_type{});
                case ElementMap::abs: return make(tag, MapConstant<ElementMap::abs>{}, std::false_type{});
                case ElementMap::nonzero: return make(tag, MapConstant<ElementMap::nonzero>{}, std::false_type{});
                default: return R{};
            }
        } else if constexpr (std::is_floating_point_v<T>) {
            if (!product && kernel.map == ElementMap::nonzero)
                return make(tag, MapConstant<ElementMap::nonzero>{}, std::false_type{});
            return R{};
        } else {
            return R{};
        }
    });
}

}  // namespace clreduce
