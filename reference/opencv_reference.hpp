#pragma once
// OpenCV's answers for the cases it has: cv::sum, cv::mean, cv::minMaxLoc,
// cv::countNonZero, cv::norm on a cv::Mat, and cv::sum on a cv::UMat (OpenCV's OpenCL).
// The library never links OpenCV; only the tests and the perf tool do, through this file and
// opencv_sum.hpp.
//
// Element types: OpenCV's Mat depths are CV_8U (uint8_t), CV_8S (int8_t), CV_16U
// (uint16_t), CV_16S (int16_t), CV_32S (int32_t), CV_32F (float), CV_64F (double). There is
// no uint32, int64 or uint64 Mat, and cv::sum / minMaxLoc / norm do not take CV_16F, so
// those types (and half) are not comparable: every function returns std::nullopt for them,
// and also when OpenCV is not built in (have_opencv() is false), or when rows or cols
// exceed INT_MAX. Images: rows x cols elements of `channels` interleaved channels (1-4),
// rows starting step_bytes apart (a row pitch, like cv::Mat::step).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>

namespace clreduce::testing {

template <class T>
constexpr bool opencv_has_type_v =
    std::is_same_v<T, std::uint8_t> || std::is_same_v<T, std::int8_t> || std::is_same_v<T, std::uint16_t> ||
    std::is_same_v<T, std::int16_t> || std::is_same_v<T, std::int32_t> || std::is_same_v<T, float> ||
    std::is_same_v<T, double>;

struct ImageShape {
    std::uint64_t rows = 1, cols = 0;
    int channels = 1;
    std::uint64_t step_bytes = 0;  // 0: packed rows (cols * channels * sizeof(T))
};
// A packed 1 x n single-channel image.
inline ImageShape row_of(std::uint64_t n) { return {1, n, 1, 0}; }

// cv::sum: per-channel sums (unused channels 0). OpenCV sums integers exactly into
// doubles (int32 sums in blocks of int accumulators), and float32 Mats in float blocks
// then double, so its float32 results carry float rounding.
template <class T>
std::optional<std::array<double, 4>> cv_sum(const T* data, ImageShape shape);
// cv::mean: per-channel means.
template <class T>
std::optional<std::array<double, 4>> cv_mean(const T* data, ImageShape shape);
// cv::meanStdDev on a single-channel image: mean and population standard deviation (OpenCV
// sums x and x^2 in doubles, so its deviation loses digits when the mean is large).
struct CvMeanStdDev {
    double mean = 0, stddev = 0;
};
template <class T>
std::optional<CvMeanStdDev> cv_mean_std_dev(const T* data, ImageShape shape);
// cv::minMaxLoc on a single-channel image: values and the indices row * cols + col of the
// first minimum and first maximum in row-major order.
struct CvMinMax {
    double min = 0, max = 0;
    std::uint64_t min_index = 0, max_index = 0;
};
template <class T>
std::optional<CvMinMax> cv_min_max_loc(const T* data, ImageShape shape);
// cv::countNonZero (single channel).
template <class T>
std::optional<std::uint64_t> cv_count_nonzero(const T* data, ImageShape shape);
// cv::norm with NORM_L1, NORM_L2 or NORM_INF over all channels.
enum class CvNorm { l1, l2, inf };
template <class T>
std::optional<double> cv_norm(const T* data, ImageShape shape, CvNorm kind);

// cv::sum of a 1 x n single-channel image on a cv::Mat (CPU) or on a cv::UMat (OpenCV's
// OpenCL on its default device: OPENCV_OPENCL_DEVICE chooses), timed: the data is copied
// into the UMat once, then cv::sum runs `repeats` times. `why_not` says why there is no
// value (type not in OpenCV, OpenCV without OpenCL, ...).
struct CvTimedSum {
    std::optional<double> value;
    double median_seconds = 0;
    std::string device;  // "CPU" or the OpenCL device's name
    std::string why_not;
};
template <class T>
CvTimedSum cv_sum_timed(const T* data, std::uint64_t n, bool on_umat, int repeats);

}  // namespace clreduce::testing
