// clreduce::opencv::sum on the same cv::UMat as the cv::UMat row: the OpenCV adapter, on
// OpenCV's own context and queue (attached to the reducer's context and device).
#include "competitors/competitor.hpp"

#ifdef CLREDUCE_HAVE_OPENCV_ADAPTER
#include <clreduce/opencv.hpp>

#include "competitors/umat_sum.hpp"

namespace clreduce::perf {

std::unique_ptr<Competitor> make_opencv_adapter_competitor(const CompareSetup& setup) {
    return std::make_unique<UMatSum>(
        setup, "clreduce (OpenCV adapter)", "clreduce::opencv::sum of the cv::UMat row's data",
        [](const cv::UMat& u) { return clreduce::opencv::sum(u); }, false);
}

}  // namespace clreduce::perf

#else

namespace clreduce::perf {
std::unique_ptr<Competitor> make_opencv_adapter_competitor(const CompareSetup&) {
    return make_unavailable("clreduce (OpenCV adapter)", "clreduce::opencv was not built (no OpenCV core)");
}
}  // namespace clreduce::perf

#endif
