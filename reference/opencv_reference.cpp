#include "reference/opencv_reference.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <vector>

#include <clreduce/element_type.hpp>

#ifdef CLREDUCE_HAVE_OPENCV
#include <opencv2/core.hpp>
#include <opencv2/core/ocl.hpp>
#endif

namespace clreduce::testing {

#ifdef CLREDUCE_HAVE_OPENCV
namespace {

template <class T>
constexpr int cv_depth() {
    if constexpr (std::is_same_v<T, std::uint8_t>) return CV_8U;
    if constexpr (std::is_same_v<T, std::int8_t>) return CV_8S;
    if constexpr (std::is_same_v<T, std::uint16_t>) return CV_16U;
    if constexpr (std::is_same_v<T, std::int16_t>) return CV_16S;
    if constexpr (std::is_same_v<T, std::int32_t>) return CV_32S;
    if constexpr (std::is_same_v<T, float>) return CV_32F;
    if constexpr (std::is_same_v<T, double>) return CV_64F;
    return -1;
}

// A Mat header over the caller's data (no copy), or nothing where OpenCV has no such Mat.
template <class T>
std::optional<cv::Mat> as_mat(const T* data, ImageShape s) {
    if constexpr (!opencv_has_type_v<T>) {
        return std::nullopt;
    } else {
        if (s.channels < 1 || s.channels > 4 || s.rows == 0 || s.cols == 0 || s.rows > INT_MAX || s.cols > INT_MAX)
            return std::nullopt;
        const std::uint64_t row_bytes = s.cols * s.channels * sizeof(T);
        const std::uint64_t step = s.step_bytes ? s.step_bytes : row_bytes;
        if (step < row_bytes || step % sizeof(T)) return std::nullopt;
        return cv::Mat(static_cast<int>(s.rows), static_cast<int>(s.cols), CV_MAKETYPE(cv_depth<T>(), s.channels),
                       const_cast<T*>(data), static_cast<std::size_t>(step));
    }
}

std::array<double, 4> to_array(const cv::Scalar& s) { return {s[0], s[1], s[2], s[3]}; }

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

}  // namespace
#endif

template <class T>
std::optional<std::array<double, 4>> cv_sum([[maybe_unused]] const T* data, [[maybe_unused]] ImageShape shape) {
#ifdef CLREDUCE_HAVE_OPENCV
    if (auto m = as_mat(data, shape)) return to_array(cv::sum(*m));
#endif
    return std::nullopt;
}

template <class T>
std::optional<std::array<double, 4>> cv_mean([[maybe_unused]] const T* data, [[maybe_unused]] ImageShape shape) {
#ifdef CLREDUCE_HAVE_OPENCV
    if (auto m = as_mat(data, shape)) return to_array(cv::mean(*m));
#endif
    return std::nullopt;
}

template <class T>
std::optional<CvMeanStdDev> cv_mean_std_dev([[maybe_unused]] const T* data, [[maybe_unused]] ImageShape shape) {
#ifdef CLREDUCE_HAVE_OPENCV
    if (shape.channels != 1) return std::nullopt;
    if (auto m = as_mat(data, shape)) {
        cv::Scalar mean, stddev;
        cv::meanStdDev(*m, mean, stddev);
        return CvMeanStdDev{mean[0], stddev[0]};
    }
#endif
    return std::nullopt;
}

template <class T>
std::optional<CvMinMax> cv_min_max_loc([[maybe_unused]] const T* data, [[maybe_unused]] ImageShape shape) {
#ifdef CLREDUCE_HAVE_OPENCV
    if (shape.channels != 1) return std::nullopt;
    if (auto m = as_mat(data, shape)) {
        CvMinMax r;
        cv::Point min_at, max_at;
        cv::minMaxLoc(*m, &r.min, &r.max, &min_at, &max_at);
        r.min_index = static_cast<std::uint64_t>(min_at.y) * shape.cols + min_at.x;
        r.max_index = static_cast<std::uint64_t>(max_at.y) * shape.cols + max_at.x;
        return r;
    }
#endif
    return std::nullopt;
}

template <class T>
std::optional<std::uint64_t> cv_count_nonzero([[maybe_unused]] const T* data, [[maybe_unused]] ImageShape shape) {
#ifdef CLREDUCE_HAVE_OPENCV
    if (shape.channels != 1) return std::nullopt;
    if (auto m = as_mat(data, shape)) return static_cast<std::uint64_t>(cv::countNonZero(*m));
#endif
    return std::nullopt;
}

template <class T>
std::optional<double> cv_norm([[maybe_unused]] const T* data, [[maybe_unused]] ImageShape shape,
                              [[maybe_unused]] CvNorm kind) {
#ifdef CLREDUCE_HAVE_OPENCV
    if (auto m = as_mat(data, shape)) {
        const int type = kind == CvNorm::l1 ? cv::NORM_L1 : kind == CvNorm::l2 ? cv::NORM_L2 : cv::NORM_INF;
        return cv::norm(*m, type);
    }
#endif
    return std::nullopt;
}

template <class T>
CvTimedSum cv_sum_timed([[maybe_unused]] const T* data, [[maybe_unused]] std::uint64_t n, [[maybe_unused]] bool on_umat,
                        [[maybe_unused]] int repeats) {
    CvTimedSum r;
#ifdef CLREDUCE_HAVE_OPENCV
    const auto mat = as_mat(data, row_of(n));
    if (!mat) {
        r.why_not = n > INT_MAX ? "n above INT_MAX" : n == 0 ? "no elements" : "no such OpenCV Mat type";
        return r;
    }
    using clock = std::chrono::steady_clock;
    std::vector<double> seconds;
    try {
        if (!on_umat) {
            r.device = "CPU";
            for (int i = 0; i < std::max(repeats, 1); ++i) {
                const auto t0 = clock::now();
                r.value = cv::sum(*mat)[0];
                seconds.push_back(std::chrono::duration<double>(clock::now() - t0).count());
            }
        } else {
            if (!cv::ocl::haveOpenCL()) {
                r.why_not = "OpenCV finds no OpenCL";
                return r;
            }
            cv::ocl::setUseOpenCL(true);
            if (!cv::ocl::useOpenCL()) {
                r.why_not = "OpenCV uses no OpenCL device (on a CPU-only machine: OPENCV_OPENCL_DEVICE=:CPU:)";
                return r;
            }
            r.device = cv::ocl::Device::getDefault().name();
            cv::UMat umat;
            mat->copyTo(umat);
            cv::sum(umat);  // warm-up: builds OpenCV's kernel
            for (int i = 0; i < std::max(repeats, 1); ++i) {
                const auto t0 = clock::now();
                r.value = cv::sum(umat)[0];
                seconds.push_back(std::chrono::duration<double>(clock::now() - t0).count());
            }
        }
    } catch (const cv::Exception& e) {
        r.value.reset();
        r.why_not = std::string("OpenCV: ") + e.what();
        return r;
    }
    r.median_seconds = median(seconds);
#else
    r.why_not = "built without OpenCV";
#endif
    return r;
}

#define CLREDUCE_CV_INSTANTIATE(T)                                                \
    template std::optional<std::array<double, 4>> cv_sum(const T*, ImageShape);   \
    template std::optional<std::array<double, 4>> cv_mean(const T*, ImageShape);  \
    template std::optional<CvMinMax> cv_min_max_loc(const T*, ImageShape);        \
    template std::optional<CvMeanStdDev> cv_mean_std_dev(const T*, ImageShape);   \
    template std::optional<std::uint64_t> cv_count_nonzero(const T*, ImageShape); \
    template std::optional<double> cv_norm(const T*, ImageShape, CvNorm);         \
    template CvTimedSum cv_sum_timed(const T*, std::uint64_t, bool, int);
CLREDUCE_CV_INSTANTIATE(std::int8_t)
CLREDUCE_CV_INSTANTIATE(std::uint8_t)
CLREDUCE_CV_INSTANTIATE(std::int16_t)
CLREDUCE_CV_INSTANTIATE(std::uint16_t)
CLREDUCE_CV_INSTANTIATE(std::int32_t)
CLREDUCE_CV_INSTANTIATE(std::uint32_t)
CLREDUCE_CV_INSTANTIATE(std::int64_t)
CLREDUCE_CV_INSTANTIATE(std::uint64_t)
CLREDUCE_CV_INSTANTIATE(float)
CLREDUCE_CV_INSTANTIATE(double)
CLREDUCE_CV_INSTANTIATE(clreduce::half)  // std::nullopt: OpenCV has no binary16 Mat this compares with
#undef CLREDUCE_CV_INSTANTIATE

}  // namespace clreduce::testing
