#pragma once
// The numbers a Partial's bytes give its enumerations (partial.cpp): one table per enumeration,
// each value's number fixed for good, so that the enumerations may be reordered and grown
// without changing what a stored partial means. A new value takes the next unused number; a
// number is never reused. Version 1 of the format wrote the enumerations' positions of that
// release, which are the numbers below of the values it had (`since` 1); version 2 added the
// state layout to the header and the values marked `since` 2; version 3 the values marked 3.
#include <cstdint>
#include <optional>

#include <clreduce/element_type.hpp>
#include <clreduce/launch_params.hpp>
#include <clreduce/operation.hpp>

#include "ops/operation_table.hpp"

namespace clreduce::partial_ids {

// The version Partial::to_bytes writes; from_bytes reads it and every one before it.
inline constexpr std::uint16_t kFormatVersion = 4;

template <class E>
struct Id {
    E value;
    std::uint16_t number;
    std::uint16_t since;  // the first format version that has the value
};

using O = Operation;
inline constexpr Id<Operation> kOperations[] = {
    {O::sum, 0, 1},       {O::product, 1, 1},        {O::min, 2, 1},      {O::max, 3, 1},
    {O::minmax, 4, 1},    {O::argmin, 5, 1},         {O::argmax, 6, 1},   {O::count_nonzero, 7, 1},
    {O::mean, 8, 1},      {O::sum_of_squares, 9, 1}, {O::norm_l1, 10, 1}, {O::norm_l2, 11, 1},
    {O::norm_inf, 12, 1}, {O::statistics, 13, 1},    {O::bit_and, 14, 2}, {O::bit_or, 15, 2},
    {O::bit_xor, 16, 2},  {O::all, 17, 2},           {O::any, 18, 2},     {O::argminmax, 19, 3},
};

using E = ElementType;
inline constexpr Id<ElementType> kElementTypes[] = {
    {E::int32, 0, 1}, {E::uint32, 1, 1}, {E::int64, 2, 1}, {E::uint64, 3, 1}, {E::float32, 4, 1},  {E::float64, 5, 1},
    {E::int8, 6, 1},  {E::uint8, 7, 1},  {E::int16, 8, 1}, {E::uint16, 9, 1}, {E::float16, 10, 1},
};

inline constexpr Id<FloatMode> kFloatModes[] = {
    {FloatMode::deterministic, 0, 1},
    {FloatMode::atomic, 1, 1},
    {FloatMode::compensated, 2, 1},
    {FloatMode::correctly_rounded, 3, 1},
};

inline constexpr Id<IntegerOverflow> kOverflowRules[] = {{IntegerOverflow::check, 0, 1}, {IntegerOverflow::wrap, 1, 1}};

using K = KernelOp;
inline constexpr Id<KernelOp> kPlugins[] = {
    {K::add, 0, 1},       {K::add_compensated, 1, 1}, {K::multiply, 2, 1},    {K::min, 3, 1},
    {K::max, 4, 1},       {K::minmax, 5, 1},          {K::argmin, 6, 1},      {K::argmax, 7, 1},
    {K::add_exact, 8, 1}, {K::add_int128, 9, 1},      {K::add_int192, 10, 1}, {K::moments, 11, 1},
    {K::bit_and, 12, 2},  {K::bit_or, 13, 2},         {K::bit_xor, 14, 2},    {K::argminmax, 15, 3},
};

using M = ElementMap;
inline constexpr Id<ElementMap> kMaps[] = {
    {M::identity, 0, 1}, {M::square, 1, 1}, {M::abs, 2, 1}, {M::nonzero, 3, 1}, {M::transform, 4, 1},
};

using L = StateLayout;
inline constexpr Id<StateLayout> kLayouts[] = {
    {L::value, 0, 2},  {L::compensated, 1, 2}, {L::pair, 2, 2},    {L::indexed, 3, 2},      {L::exact, 4, 2},
    {L::int128, 5, 2}, {L::int192, 6, 2},      {L::moments, 7, 2}, {L::indexed_pair, 8, 3},
};

// The number of `value` (every value has one: a missing row is a bug, which the unit test of
// these tables finds).
template <class E, std::size_t N>
std::uint16_t number_of(const Id<E> (&table)[N], E value) {
    for (const Id<E>& row : table)
        if (row.value == value) return row.number;
    return 0xffff;
}

// The value numbered `number` in format `version`, or nothing.
template <class E, std::size_t N>
std::optional<E> value_of(const Id<E> (&table)[N], std::uint16_t number, std::uint16_t version) {
    for (const Id<E>& row : table)
        if (row.number == number && row.since <= version) return row.value;
    return std::nullopt;
}

}  // namespace clreduce::partial_ids
