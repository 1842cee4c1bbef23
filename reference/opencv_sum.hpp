#pragma once
// cv::sum of a plain array, the cross-check of the sum tests and of `clreduce-perf sweep`.
// Compiled with or without OpenCV: without it, have_opencv() is false and there is no value.
#include <cstdint>

namespace clreduce::testing {

// cv::sum of the same data where OpenCV has the case (int8, uint8, int16, uint16, int32,
// float32, float64; uint32 when every value is below 2^31, viewed as int32). has_value is false where it has none or
// when clreduce was built without OpenCV.
struct OpenCVSum {
    bool has_value = false;
    double value = 0;
};
template <class T>
OpenCVSum opencv_sum(const T* data, std::uint64_t n);

bool have_opencv();

}  // namespace clreduce::testing
