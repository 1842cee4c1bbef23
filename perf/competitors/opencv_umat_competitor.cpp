// cv::sum on a cv::UMat: OpenCV's OpenCL sum, attached to the reducer's own context and device.
#include "competitors/competitor.hpp"

#ifdef CLREDUCE_HAVE_OPENCV
#include <climits>

#include <opencv2/core/ocl.hpp>

#include "competitors/opencv_context.hpp"
#include "competitors/opencv_types.hpp"

namespace clreduce::perf {
namespace {

class OpenCVUMatSum : public Competitor {
public:
    explicit OpenCVUMatSum(const CompareSetup& setup) : setup_(setup) {
        if (opencv_depth(setup.type) < 0) {
            why_ = "OpenCV has no " + std::string(type_name(setup.type)) + " matrices";
            return;
        }
        binding_ = bind_opencv_to(*setup.reducer);
        why_ = binding_.why_not;
        used_ = binding_.device;
    }
    std::string name() const override { return "cv::UMat"; }
    std::string unavailable() const override { return why_; }
    std::string detail() const override {
        return "OpenCV " CV_VERSION " cv::sum through OpenCL on '" + used_ + "' (OpenCV's own queue, same context)";
    }
    Measurement measure(const Workload& w) override {
        if (w.n > std::uint64_t(INT_MAX)) throw Unsupported("a cv::UMat row holds at most 2^31 - 1 elements");
        cv::UMat umat;
        cv::Mat(1, static_cast<int>(w.n), opencv_depth(w.type), const_cast<void*>(w.host)).copyTo(umat);
        Measurement m = time_calls(setup_.repeats, [&] { return static_cast<long double>(cv::sum(umat)[0]); });
        m.accumulator = opencv_accumulator(w.type);
        return m;
    }

private:
    const CompareSetup& setup_;
    std::string why_;
    std::string used_;
    OpenCVBinding binding_;
};

}  // namespace

std::unique_ptr<Competitor> make_opencv_umat_competitor(const CompareSetup& setup) {
    return std::make_unique<OpenCVUMatSum>(setup);
}

}  // namespace clreduce::perf

#else

namespace clreduce::perf {
std::unique_ptr<Competitor> make_opencv_umat_competitor(const CompareSetup&) {
    return make_unavailable("cv::UMat", "OpenCV core was not found when clreduce was configured");
}
}  // namespace clreduce::perf

#endif
