#pragma once
// Seeded random test data for sums, the same for the same type, n and seed everywhere (the
// tests, clreduce-perf and clreduce-cub-sum draw from it).
#include <cstdint>
#include <string>
#include <vector>

#include <clreduce/element_type.hpp>

#include "reference/with_element_type.hpp"

namespace clreduce::testing {

// Random values with a fixed seed. `narrow` keeps integer magnitudes small enough
// (|x| < 2^20) that a sum of up to 2^33 of them is exact in a double, so cv::sum can be
// compared bit for bit; otherwise integers span their whole range. 8- and 16-bit integers
// span their whole range either way. Floats are uniform in [-1000, 1000) with a few values
// scaled up to 1e6.
template <class T>
std::vector<T> random_values(std::uint64_t n, std::uint64_t seed, bool narrow = true);
// What random_values<T>(n, seed, narrow) draws, for the perf tools' headers.
template <class T>
std::string random_values_description(bool narrow = true);

inline std::string random_values_description(ElementType type, bool narrow = true) {
    return with_element_type(type, [&](auto tag) { return random_values_description<decltype(tag)>(narrow); });
}

}  // namespace clreduce::testing
