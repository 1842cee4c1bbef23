#pragma once
// The adapter's results as OpenCV's doubles, and its per-channel outputs written as OpenCV's.
#include <type_traits>

#include <opencv2/core.hpp>

#include <clreduce/element_type.hpp>

namespace clreduce::opencv {

template <class V>
double to_double(V v) {
    if constexpr (std::is_same_v<V, half>)
        return static_cast<double>(static_cast<float>(v));
    else
        return static_cast<double>(v);
}

// `values` (cn of them) into `out` as cv::meanStdDev writes its outputs: a cn x 1 CV_64F
// array made where `out` is empty, else the caller's (a cv::Scalar, say), rest zero.
void write_channels(cv::OutputArray out, const cv::Scalar& values, int cn);

}  // namespace clreduce::opencv
