#pragma once
// OpenCV's depth for a clreduce element type; -1 where OpenCV has none (uint32, 64-bit
// integers, float16: cv::sum does not take CV_16F).
#include <opencv2/core.hpp>

#include <clreduce/element_type.hpp>

namespace clreduce::perf {

inline int opencv_depth(ElementType type) {
    switch (type) {
        case ElementType::int8: return CV_8S;
        case ElementType::uint8: return CV_8U;
        case ElementType::int16: return CV_16S;
        case ElementType::uint16: return CV_16U;
        case ElementType::int32: return CV_32S;
        case ElementType::float32: return CV_32F;
        case ElementType::float64: return CV_64F;
        default: return -1;
    }
}

// cv::sum keeps float32 partial sums in float (seen with OpenCV 4.6, CPU and OpenCL paths).
inline ElementType opencv_accumulator(ElementType type) {
    return type == ElementType::float32 ? ElementType::float32 : ElementType::float64;
}

}  // namespace clreduce::perf
