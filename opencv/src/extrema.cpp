// minMaxIdx and minMaxLoc: minmax (values only) or argminmax (locations), image forms of the
// core call.
#include <cmath>
#include <limits>
#include <string>

#include <clreduce/opencv.hpp>

#include "source.hpp"
#include "values.hpp"

namespace clreduce::opencv {
namespace {

struct Extremes {
    double min = 0, max = 0;
    std::int64_t min_index = -1, max_index = -1;  // pixels in row-major order; -1: none
};

Extremes extremes(cv::InputArray src, cv::InputArray mask, bool want_indices, const char* function) {
    Source s = source_of(src, function, NoArray::refused);
    const Mask m = mask_of(mask, s, function);
    if (s.image.channels > 1) {
        // As OpenCV: several channels only without mask and indices, read as one channel.
        if (m.given || want_indices)
            CV_Error(cv::Error::StsBadArg, std::string("clreduce::opencv::") + function +
                                               ": a multi-channel array takes neither a mask nor locations");
        s.image.cols *= s.image.channels;
        s.image.channels = 1;
    }
    Extremes e;
    if (s.empty()) return e;
    // The extremes of no pixel (a mask that selects none) are refused; OpenCV's are e's: 0 at
    // (-1, -1).
    reduce_unless_mask_empty(s, m, [&] {
        if (!want_indices) {  // the values only: one minmax pass
            reduce_image<Operation::minmax>(s, m.get(), [&](const auto& r, auto) {
                e.min = to_double(r[0].min);
                e.max = to_double(r[0].max);
            });
            return;
        }
        reduce_image<Operation::argminmax>(s, m.get(), [&](const auto& r, auto) {  // both locations: one pass
            e.min = to_double(r[0].min.value);
            e.min_index = static_cast<std::int64_t>(r[0].min.index);
            e.max = to_double(r[0].max.value);
            e.max_index = static_cast<std::int64_t>(r[0].max.index);
        });
    });
    // The extremes skip NaN; they are NaN only where every pixel that takes part is NaN. OpenCV
    // 4.6's CPU code then keeps its starting values: +inf and -inf at pixel 0 without a mask,
    // 0 and 0 at no pixel with one.
    if (std::isnan(e.min) || std::isnan(e.max)) {
        e = Extremes{};
        if (!m.given) {
            e.min = std::numeric_limits<double>::infinity();
            e.max = -std::numeric_limits<double>::infinity();
            e.min_index = e.max_index = 0;
        }
    }
    return e;
}

void to_row_column(std::int64_t index, std::int64_t cols, int* out) {
    out[0] = index < 0 ? -1 : static_cast<int>(index / cols);
    out[1] = index < 0 ? -1 : static_cast<int>(index % cols);
}

}  // namespace

void minMaxIdx(cv::InputArray src, double* minVal, double* maxVal, int* minIdx, int* maxIdx, cv::InputArray mask) {
    const Extremes e = extremes(src, mask, minIdx != nullptr || maxIdx != nullptr, "minMaxIdx");
    if (minVal != nullptr) *minVal = e.min;
    if (maxVal != nullptr) *maxVal = e.max;
    const std::int64_t cols = src.empty() ? 1 : src.size().width;
    if (minIdx != nullptr) to_row_column(e.min_index, cols, minIdx);
    if (maxIdx != nullptr) to_row_column(e.max_index, cols, maxIdx);
}

void minMaxLoc(cv::InputArray src, double* minVal, double* maxVal, cv::Point* minLoc, cv::Point* maxLoc,
               cv::InputArray mask) {
    int min_idx[2] = {-1, -1};
    int max_idx[2] = {-1, -1};
    opencv::minMaxIdx(src, minVal, maxVal, minLoc != nullptr ? min_idx : nullptr, maxLoc != nullptr ? max_idx : nullptr,
                      mask);
    if (minLoc != nullptr) *minLoc = cv::Point(min_idx[1], min_idx[0]);
    if (maxLoc != nullptr) *maxLoc = cv::Point(max_idx[1], max_idx[0]);
}

}  // namespace clreduce::opencv
