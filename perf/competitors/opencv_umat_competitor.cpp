// cv::sum on a cv::UMat: OpenCV's OpenCL sum, attached to the reducer's own context and device.
#include "competitors/competitor.hpp"

#ifdef CLREDUCE_HAVE_OPENCV
#include "competitors/umat_sum.hpp"

namespace clreduce::perf {

std::unique_ptr<Competitor> make_opencv_umat_competitor(const CompareSetup& setup) {
    return std::make_unique<UMatSum>(
        setup, "cv::UMat", "OpenCV " CV_VERSION " cv::sum through OpenCL", [](const cv::UMat& u) { return cv::sum(u); },
        true);
}

}  // namespace clreduce::perf

#else

namespace clreduce::perf {
std::unique_ptr<Competitor> make_opencv_umat_competitor(const CompareSetup&) {
    return make_unavailable("cv::UMat", "OpenCV core was not found when clreduce was configured");
}
}  // namespace clreduce::perf

#endif
