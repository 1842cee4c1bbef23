// cv::reduce's counterpart: a matrix's rows or columns reduced on the segments engine (one
// segment per column of each channel, or per row), the core call's segmented form.
#include <algorithm>
#include <climits>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include <clreduce/opencv.hpp>

#include "source.hpp"
#include "values.hpp"

namespace clreduce::opencv {
namespace {

Operation operation_of(int rtype) {
    switch (rtype) {
        case cv::REDUCE_SUM:
        case cv::REDUCE_AVG: return Operation::sum;
        case cv::REDUCE_MAX: return Operation::max;
        case cv::REDUCE_MIN: return Operation::min;
#if CV_VERSION_MAJOR > 4 || (CV_VERSION_MAJOR == 4 && CV_VERSION_MINOR >= 7)
        case cv::REDUCE_SUM2: return Operation::sum_of_squares;
#endif
        default: break;
    }
    CV_Error(cv::Error::StsBadArg, "clreduce::opencv::reduce: unknown reduction type " + std::to_string(rtype));
}

// The segments of one call: per column of each channel (dim 0), per row (dim 1, one
// channel), or the channels of one row (dim 1, several channels: one call per row).
template <Operation Op, class T>
void reduce_segments(const Source& s, const Segments& segments, std::uint64_t offset_elements,
                     std::vector<result_t<Op, T>>& results) {
    if (s.on_device())
        s.reducer->template reduce<Op, T>(s.buffer, s.image.offset / sizeof(T) + offset_elements, segments, results);
    else
        s.reducer->template reduce<Op, T>(reinterpret_cast<const T*>(s.mat.data) + offset_elements, segments, results);
}

// What saturate_cast does within int's range, for every value: integer depths take the value
// clamped to their range (convertTo then rounds to nearest, ties to even, as cvRound), NaN 0.
// (cv::saturate_cast<int>(double) itself is cvRound, which gives INT_MIN beyond int's range: 1e10
// would become 0 in CV_8U and INT_MIN in CV_32S.) Float depths round as convertTo does (beyond
// CV_32F's range: +-inf).
void saturate_to(cv::Mat& values, int depth) {
    double low = 0, high = 0;
    switch (depth) {
        case CV_8U: low = 0, high = 255; break;
        case CV_8S: low = -128, high = 127; break;
        case CV_16U: low = 0, high = 65535; break;
        case CV_16S: low = -32768, high = 32767; break;
        case CV_32S: low = INT_MIN, high = INT_MAX; break;
        default: return;
    }
    auto* v = values.ptr<double>();  // continuous: made here
    for (std::size_t k = 0; k < values.total() * values.channels(); ++k)
        v[k] = std::isnan(v[k]) ? 0.0 : std::clamp(v[k], low, high);
}

}  // namespace

void reduce(cv::InputArray src, cv::OutputArray dst, int dim, int rtype, int dtype) {
    const Source s = source_of(src, "reduce", NoArray::refused);
    if (dim != 0 && dim != 1)
        CV_Error(cv::Error::StsBadArg, "clreduce::opencv::reduce: dim must be 0 or 1, got " + std::to_string(dim));
    const Operation op = operation_of(rtype);
    const int cn = static_cast<int>(s.image.channels);
    if (dtype < 0) dtype = dst.fixedType() ? dst.type() : src.type();
    dtype = CV_MAKETYPE(CV_MAT_DEPTH(dtype), cn);
    element_type_of(CV_MAT_DEPTH(dtype));  // refuses what is no OpenCV depth
    const int rows = static_cast<int>(s.image.rows), cols = static_cast<int>(s.image.cols);
    const int out_rows = dim == 0 ? 1 : rows, out_cols = dim == 0 ? cols : 1;
    if (s.empty()) {
        // OpenCV's shape (1 x cols or rows x 1). Where that is not empty (7 x 0 along dim 1),
        // OpenCV 4.6 crashes (SIGSEGV); here the reduction of no element is 0, as cv::sum's and
        // cv::mean's.
        dst.create(out_rows, out_cols, dtype);
        dst.setTo(cv::Scalar::all(0));
        return;
    }
    // The results in double (integers exact up to 2^53), then saturated into dtype.
    cv::Mat values(out_rows, out_cols, CV_MAKETYPE(CV_64F, cn));
    auto* out = values.ptr<double>();
    const double per = dim == 0 ? static_cast<double>(rows) : static_cast<double>(cols);
    const bool average = rtype == cv::REDUCE_AVG;
    visit_operation(op, [&](auto op_constant) {
        constexpr Operation Op = decltype(op_constant)::value;
        if constexpr (Op == Operation::sum || Op == Operation::max || Op == Operation::min ||
                      Op == Operation::sum_of_squares) {
            s.visit([&](auto element) {
                using T = decltype(element);
                const std::uint64_t step = s.image.step == 0 ? s.image.cols * cn * sizeof(T) : s.image.step;
                thread_local std::vector<result_t<Op, T>> results;
                const auto take = [&](std::size_t at) {
                    for (std::size_t k = 0; k < results.size(); ++k)
                        out[at + k] = average ? to_double(results[k]) / per : to_double(results[k]);
                };
                if (dim == 0) {
                    reduce_segments<Op, T>(s, Segments::columns(s.image.rows, s.image.cols * cn, step), 0, results);
                    take(0);
                } else if (cn == 1) {
                    reduce_segments<Op, T>(s, Segments::rows(s.image.rows, s.image.cols, step), 0, results);
                    take(0);
                } else {
                    // A row's channels are columns of a cols x cn matrix.
                    const Segments row = Segments::columns(s.image.cols, cn, cn * sizeof(T));
                    for (std::uint64_t r = 0; r < s.image.rows; ++r) {
                        reduce_segments<Op, T>(s, row, r * (step / sizeof(T)), results);
                        take(r * cn);
                    }
                }
            });
        }
    });
    saturate_to(values, CV_MAT_DEPTH(dtype));
    values.convertTo(dst, dtype);
}

}  // namespace clreduce::opencv
