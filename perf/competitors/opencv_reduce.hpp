#pragma once
// cv::reduce (REDUCE_SUM into CV_64F) of a row-major matrix's rows or columns, on a cv::Mat and
// on a cv::UMat bound to the reducer's device: the median wall time of synchronous calls (the
// UMat's sums copied back to the host) and the last call's sums, for clreduce-perf segments.
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

}  // namespace clreduce::perf
