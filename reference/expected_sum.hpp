#pragma once
// Everything a sum of one data set is checked against: the exact or long double reference
// and cv::sum.
#include <cstdint>
#include <string>

#include <clreduce/element_type.hpp>

#include "reference/opencv_sum.hpp"
#include "reference/sum_reference.hpp"

namespace clreduce::testing {

// Everything a sum of one data set is checked against, computed once.
template <class T>
struct Expected {
    std::uint64_t n = 0;
    sum_type_t<T> exact{};  // integers: the exact sum modulo 2^64; floats: unused
    FloatReference floats;  // floats only
    OpenCVSum opencv;

    static Expected compute(const T* data, std::uint64_t n);
    // Empty when `got` is right, else what is wrong. Integers must equal the exact sum and
    // cv::sum bit for bit; floats must lie within the stated bound of the long double
    // reference, and within that bound plus cv::sum's own bound of cv::sum.
    std::string mismatch(sum_type_t<T> got, ElementType accumulator) const;
};

}  // namespace clreduce::testing
