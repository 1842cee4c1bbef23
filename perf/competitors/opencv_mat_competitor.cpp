// cv::sum on a cv::Mat: OpenCV's CPU sum (all its threads), the paper's CPU reference.
#include "competitors/competitor.hpp"

#ifdef CLREDUCE_HAVE_OPENCV
#include <climits>

#include "competitors/opencv_types.hpp"

namespace clreduce::perf {
namespace {

class OpenCVMatSum : public Competitor {
public:
    explicit OpenCVMatSum(const CompareSetup& setup) : setup_(setup) {}
    std::string name() const override { return "cv::Mat"; }
    std::string unavailable() const override {
        if (opencv_depth(setup_.type) < 0) return "OpenCV has no " + std::string(type_name(setup_.type)) + " matrices";
        return {};
    }
    std::string detail() const override {
        return "OpenCV " CV_VERSION " cv::sum on the CPU, " + std::to_string(cv::getNumThreads()) +
               " threads (listed for scale: 3 timed calls from 2^26 elements on)";
    }
    Measurement measure(const Workload& w) override {
        if (w.n > std::uint64_t(INT_MAX)) throw Unsupported("a cv::Mat row holds at most 2^31 - 1 elements");
        const cv::Mat mat(1, static_cast<int>(w.n), opencv_depth(w.type), const_cast<void*>(w.host));
        // Each call takes tens of milliseconds to seconds at large n; three give its scale.
        const int repeats = w.n >= (1ull << 26) ? std::min(setup_.repeats, 3) : setup_.repeats;
        Measurement m = time_calls(repeats, [&] { return static_cast<long double>(cv::sum(mat)[0]); });
        m.accumulator = opencv_accumulator(w.type);
        return m;
    }

private:
    const CompareSetup& setup_;
};

}  // namespace

std::unique_ptr<Competitor> make_opencv_mat_competitor(const CompareSetup& setup) {
    return std::make_unique<OpenCVMatSum>(setup);
}

}  // namespace clreduce::perf

#else

namespace clreduce::perf {
std::unique_ptr<Competitor> make_opencv_mat_competitor(const CompareSetup&) {
    return make_unavailable("cv::Mat", "OpenCV core was not found when clreduce was configured");
}
}  // namespace clreduce::perf

#endif
