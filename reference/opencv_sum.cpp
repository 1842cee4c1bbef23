#include <climits>

#include "reference/opencv_sum.hpp"

#ifdef CLREDUCE_HAVE_OPENCV
#include <opencv2/core.hpp>
#endif

namespace clreduce::testing {

bool have_opencv() {
#ifdef CLREDUCE_HAVE_OPENCV
    return true;
#else
    return false;
#endif
}

template <class T>
OpenCVSum opencv_sum([[maybe_unused]] const T* data, [[maybe_unused]] std::uint64_t n) {
#ifdef CLREDUCE_HAVE_OPENCV
    int type = -1;
    if constexpr (std::is_same_v<T, std::int8_t>) type = CV_8S;
    if constexpr (std::is_same_v<T, std::uint8_t>) type = CV_8U;
    if constexpr (std::is_same_v<T, std::int16_t>) type = CV_16S;
    if constexpr (std::is_same_v<T, std::uint16_t>) type = CV_16U;
    if constexpr (std::is_same_v<T, std::int32_t>) type = CV_32S;
    if constexpr (std::is_same_v<T, float>) type = CV_32F;
    if constexpr (std::is_same_v<T, double>) type = CV_64F;
    if constexpr (std::is_same_v<T, std::uint32_t>) {
        bool fits = true;
        for (std::uint64_t i = 0; i < n && fits; ++i) fits = data[i] < 0x80000000u;
        if (fits) type = CV_32S;
    }
    if (type < 0 || n == 0 || n > std::uint64_t(INT_MAX)) return {};
    const cv::Mat mat(1, static_cast<int>(n), type, const_cast<T*>(data));
    return {true, cv::sum(mat)[0]};
#else
    return {};
#endif
}

template OpenCVSum opencv_sum(const std::int8_t*, std::uint64_t);
template OpenCVSum opencv_sum(const std::uint8_t*, std::uint64_t);
template OpenCVSum opencv_sum(const std::int16_t*, std::uint64_t);
template OpenCVSum opencv_sum(const std::uint16_t*, std::uint64_t);
template OpenCVSum opencv_sum(const std::int32_t*, std::uint64_t);
template OpenCVSum opencv_sum(const std::uint32_t*, std::uint64_t);
template OpenCVSum opencv_sum(const std::int64_t*, std::uint64_t);
template OpenCVSum opencv_sum(const std::uint64_t*, std::uint64_t);
template OpenCVSum opencv_sum(const float*, std::uint64_t);
template OpenCVSum opencv_sum(const double*, std::uint64_t);

}  // namespace clreduce::testing
