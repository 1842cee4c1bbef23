#pragma once
// OpenCV's reductions beside clreduce's, on a cv::Mat and on a cv::UMat bound to the reducer's
// device: the median wall time of synchronous calls (results back on the host) and the last
// call's values. cv::reduce (REDUCE_SUM into CV_64F) of a row-major matrix's rows or columns, for
// clreduce-perf segments; cv::meanStdDev then cv::minMaxLoc of a range, for clreduce-perf
// statistics.
#include <cstdint>
#include <string>
#include <vector>

#include <clreduce/reducer.hpp>

namespace clreduce::perf {

struct OpenCVReduceRun {
    double wall_us = 0;        // 0: not run
    std::string note;          // why not run, or what ran
    std::vector<double> sums;  // one per row (or column)
};

struct OpenCVReduceTiming {
    OpenCVReduceRun mat, umat;
};

OpenCVReduceTiming time_opencv_reduce(const Reducer& reducer, const void* data, ElementType type, std::uint64_t rows,
                                      std::uint64_t cols, bool columns, int repeats);

// cv::meanStdDev and cv::minMaxLoc of `n` elements (a 1 x n matrix): sums = {mean, standard
// deviation, min, max}.
OpenCVReduceTiming time_opencv_statistics(const Reducer& reducer, const void* data, ElementType type, std::uint64_t n,
                                          int repeats);

}  // namespace clreduce::perf
