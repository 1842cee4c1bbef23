#pragma once
// A sum over a cv::UMat row holding the workload, on OpenCV's own queue attached to the
// reducer's context and device: cv::sum (opencv_umat_competitor.cpp) and clreduce::opencv::sum
// (opencv_adapter_competitor.cpp) are timed the same way, on the same kind of UMat.
#include <climits>
#include <functional>
#include <string>
#include <utility>

#include <opencv2/core/ocl.hpp>

#include "competitors/competitor.hpp"
#include "competitors/opencv_context.hpp"
#include "competitors/opencv_types.hpp"

namespace clreduce::perf {

class UMatSum : public Competitor {
public:
    using Sum = std::function<cv::Scalar(const cv::UMat&)>;
    // `what` starts the detail line, which goes on with the device; with `opencv_accumulator`
    // the measurement names OpenCV's accumulator type (cv::sum's), else the reference's.
    UMatSum(const CompareSetup& setup, std::string name, std::string what, Sum sum, bool opencv_accumulator)
        : setup_(setup),
          name_(std::move(name)),
          what_(std::move(what)),
          sum_(std::move(sum)),
          opencv_accumulator_(opencv_accumulator) {
        if (opencv_depth(setup.type) < 0) {
            why_ = "OpenCV has no " + std::string(type_name(setup.type)) + " matrices";
            return;
        }
        binding_ = bind_opencv_to(*setup.reducer);
        why_ = binding_.why_not;
        used_ = binding_.device;
    }
    std::string name() const override { return name_; }
    std::string unavailable() const override { return why_; }
    std::string detail() const override { return what_ + " on '" + used_ + "' (OpenCV's own queue, same context)"; }
    Measurement measure(const Workload& w) override {
        if (w.n > std::uint64_t(INT_MAX)) throw Unsupported("a cv::UMat row holds at most 2^31 - 1 elements");
        cv::UMat umat;
        cv::Mat(1, static_cast<int>(w.n), opencv_depth(w.type), const_cast<void*>(w.host)).copyTo(umat);
        Measurement m = time_calls(setup_.repeats, [&] { return static_cast<long double>(sum_(umat)[0]); });
        if (opencv_accumulator_) m.accumulator = opencv_accumulator(w.type);
        return m;
    }

private:
    const CompareSetup& setup_;
    std::string name_, what_;
    Sum sum_;
    bool opencv_accumulator_;
    std::string why_;
    std::string used_;
    OpenCVBinding binding_;
};

}  // namespace clreduce::perf
