// sum, mean, meanStdDev, countNonZero and norm: each one image form of the core call.
#include <algorithm>
#include <cmath>
#include <string>

#include <clreduce/opencv.hpp>

#include "source.hpp"
#include "values.hpp"

namespace clreduce::opencv {

void write_channels(cv::OutputArray out, const cv::Scalar& values, int cn) {
    if (!out.needed()) return;
    if (out.empty()) out.create(cn, 1, CV_64F, -1, true);
    cv::Mat dst = out.getMat();
    CV_Assert(dst.type() == CV_64F && dst.isContinuous() && (dst.cols == 1 || dst.rows == 1) &&
              dst.total() >= static_cast<std::size_t>(cn));
    auto* p = dst.ptr<double>();
    for (std::size_t k = 0; k < dst.total(); ++k)
        p[k] = k < static_cast<std::size_t>(cn) ? values[static_cast<int>(k)] : 0.0;
}

cv::Scalar sum(cv::InputArray src) {
    const Source s = source_of(src, "sum");
    cv::Scalar out;
    if (s.empty()) return out;
    reduce_image<Operation::sum>(s, nullptr, [&](const auto& r, auto) {
        for (std::uint32_t c = 0; c < s.image.channels; ++c) out[static_cast<int>(c)] = to_double(r[c]);
    });
    return out;
}

cv::Scalar mean(cv::InputArray src, cv::InputArray mask) {
    const Source s = source_of(src, "mean");
    const Mask m = mask_of(mask, s, "mean");
    cv::Scalar out;
    if (s.empty()) return out;
    const std::uint64_t n = selected_pixels(s, m);
    if (n == 0) return out;
    reduce_image<Operation::sum>(s, m.get(), [&](const auto& r, auto) {
        for (std::uint32_t c = 0; c < s.image.channels; ++c)
            out[static_cast<int>(c)] = to_double(r[c]) / static_cast<double>(n);
    });
    return out;
}

void meanStdDev(cv::InputArray src, cv::OutputArray mean, cv::OutputArray stddev, cv::InputArray mask) {
    const Source s = source_of(src, "meanStdDev");
    const Mask m = mask_of(mask, s, "meanStdDev");
    if (s.empty()) CV_Error(cv::Error::StsBadArg, "clreduce::opencv::meanStdDev: the array is empty");
    cv::Scalar means, deviations;
    // OpenCV gives 0 and 0 where the mask selects no pixel; the statistics state of no pixel
    // is an error.
    reduce_unless_mask_empty(s, m, [&] {
        reduce_image<Operation::statistics>(s, m.get(), [&](const auto& r, auto) {
            for (std::uint32_t c = 0; c < s.image.channels; ++c) {
                means[static_cast<int>(c)] = r[c].mean;
                deviations[static_cast<int>(c)] = r[c].stddev();
            }
        });
    });
    const int cn = static_cast<int>(s.image.channels);
    write_channels(mean, means, cn);
    write_channels(stddev, deviations, cn);
}

int countNonZero(cv::InputArray src) {
    const Source s = source_of(src, "countNonZero");
    if (s.image.channels != 1)
        CV_Error(cv::Error::StsBadArg, "clreduce::opencv::countNonZero: the array must have one channel, it has " +
                                           std::to_string(s.image.channels));
    if (s.empty()) return 0;
    std::uint64_t n = 0;
    reduce_image<Operation::count_nonzero>(s, nullptr, [&](const auto& r, auto) { n = r[0]; });
    return static_cast<int>(n);
}

double norm(cv::InputArray src, int normType, cv::InputArray mask) {
    const int type = normType & cv::NORM_TYPE_MASK;
    if (type != cv::NORM_L1 && type != cv::NORM_L2 && type != cv::NORM_L2SQR && type != cv::NORM_INF)
        CV_Error(cv::Error::StsBadArg,
                 "clreduce::opencv::norm: normType must be NORM_L1, NORM_L2, NORM_L2SQR or NORM_INF, got " +
                     std::to_string(normType));
    const Source s = source_of(src, "norm");
    const Mask m = mask_of(mask, s, "norm");
    if (s.empty()) return 0;
    double total = 0;
    const auto add = [&](const auto& r, auto) {
        for (std::uint32_t c = 0; c < s.image.channels; ++c) {
            const double v = to_double(r[c]);
            total = type == cv::NORM_INF ? std::max(total, v) : total + v;
        }
    };
    if (type == cv::NORM_INF) {
        reduce_image<Operation::norm_inf>(s, m.get(), add);
    } else if (type == cv::NORM_L1) {
        reduce_image<Operation::norm_l1>(s, m.get(), add);
    } else if (s.element == ElementType::int32) {
        // Squares of int32 overflow the exact uint64 sum of squares after four elements: each
        // channel's L2 norm (the correctly rounded root of its exact sum), squared back.
        double l2 = 0;
        reduce_image<Operation::norm_l2>(s, m.get(), [&](const auto& r, auto) {
            for (std::uint32_t c = 0; c < s.image.channels; ++c) total += r[c] * r[c];
            l2 = s.image.channels == 1 ? r[0] : std::sqrt(total);
        });
        return type == cv::NORM_L2 ? l2 : total;
    } else {
        reduce_image<Operation::sum_of_squares>(s, m.get(), add);
    }
    return type == cv::NORM_L2 ? std::sqrt(total) : total;
}

}  // namespace clreduce::opencv
