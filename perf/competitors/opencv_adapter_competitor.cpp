// clreduce::opencv::sum on the same cv::UMat as the cv::UMat row: the OpenCV adapter, on
// OpenCV's own context and queue (attached to the reducer's context and device).
#include "competitors/competitor.hpp"

#ifdef CLREDUCE_HAVE_OPENCV_ADAPTER
#include <climits>

#include <opencv2/core/ocl.hpp>

#include <clreduce/opencv.hpp>

#include "competitors/opencv_context.hpp"
#include "competitors/opencv_types.hpp"

namespace clreduce::perf {
namespace {

class OpenCVAdapterSum : public Competitor {
public:
    explicit OpenCVAdapterSum(const CompareSetup& setup) : setup_(setup) {
        if (opencv_depth(setup.type) < 0) {
            why_ = "OpenCV has no " + std::string(type_name(setup.type)) + " matrices";
            return;
        }
        binding_ = bind_opencv_to(*setup.reducer);
        why_ = binding_.why_not;
        used_ = binding_.device;
    }
    std::string name() const override { return "clreduce (OpenCV adapter)"; }
    std::string unavailable() const override { return why_; }
    std::string detail() const override {
        return "clreduce::opencv::sum on the cv::UMat row's data, on OpenCV's context and queue on '" + used_ + "'";
    }
    Measurement measure(const Workload& w) override {
        if (w.n > std::uint64_t(INT_MAX)) throw Unsupported("a cv::UMat row holds at most 2^31 - 1 elements");
        cv::UMat umat;
        cv::Mat(1, static_cast<int>(w.n), opencv_depth(w.type), const_cast<void*>(w.host)).copyTo(umat);
        Measurement m =
            time_calls(setup_.repeats, [&] { return static_cast<long double>(clreduce::opencv::sum(umat)[0]); });
        return m;
    }

private:
    const CompareSetup& setup_;
    std::string why_;
    std::string used_;
    OpenCVBinding binding_;
};

}  // namespace

std::unique_ptr<Competitor> make_opencv_adapter_competitor(const CompareSetup& setup) {
    return std::make_unique<OpenCVAdapterSum>(setup);
}

}  // namespace clreduce::perf

#else

namespace clreduce::perf {
std::unique_ptr<Competitor> make_opencv_adapter_competitor(const CompareSetup&) {
    return make_unavailable("clreduce (OpenCV adapter)", "clreduce::opencv was not built (no OpenCV core)");
}
}  // namespace clreduce::perf

#endif
