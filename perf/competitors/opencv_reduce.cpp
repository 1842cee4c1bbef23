#include "competitors/opencv_reduce.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <climits>

#ifdef CLREDUCE_HAVE_OPENCV
#include <opencv2/core.hpp>
#include <opencv2/core/ocl.hpp>

#include "competitors/opencv_context.hpp"
#include "competitors/opencv_types.hpp"
#endif

namespace clreduce::perf {

#ifdef CLREDUCE_HAVE_OPENCV
namespace {

// Median wall time of `repeats` calls after one warm-up; the sums of the last.
template <class Call>
OpenCVReduceRun timed(int repeats, Call call) {
    OpenCVReduceRun run;
    try {
        call(run.sums);
        std::vector<double> times;
        for (int i = 0; i < repeats; ++i) {
            const auto start = std::chrono::steady_clock::now();
            call(run.sums);
            times.push_back(
                std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
        }
        std::sort(times.begin(), times.end());
        run.wall_us = times[times.size() / 2];
    } catch (const cv::Exception& e) {
        run.note = std::string("OpenCV refused: ") + e.what();
        while (!run.note.empty() && std::isspace(static_cast<unsigned char>(run.note.back()))) run.note.pop_back();
        run.sums.clear();
    }
    return run;
}

void to_vector(const cv::Mat& sums, std::vector<double>& out) {
    const cv::Mat flat = sums.reshape(1, 1);
    out.assign(flat.ptr<double>(0), flat.ptr<double>(0) + flat.total());
}

}  // namespace

OpenCVReduceTiming time_opencv_reduce(const Reducer& reducer, const void* data, ElementType type, std::uint64_t rows,
                                      std::uint64_t cols, bool columns, int repeats) {
    OpenCVReduceTiming t;
    const int depth = opencv_depth(type);
    if (depth < 0 || rows > std::uint64_t(INT_MAX) || cols > std::uint64_t(INT_MAX)) {
        t.mat.note = t.umat.note = "OpenCV has no such matrix";
        return t;
    }
    const cv::Mat mat(static_cast<int>(rows), static_cast<int>(cols), depth, const_cast<void*>(data));
    const int dim = columns ? 0 : 1;  // cv::reduce's dim 0: one row of column sums
    t.mat = timed(repeats, [&](std::vector<double>& out) {
        cv::Mat sums;
        cv::reduce(mat, sums, dim, cv::REDUCE_SUM, CV_64F);
        to_vector(sums, out);
    });
    if (t.mat.note.empty()) t.mat.note = "OpenCV " CV_VERSION " cv::reduce on a cv::Mat";
    const OpenCVBinding binding = bind_opencv_to(reducer);
    if (!binding.why_not.empty()) {
        t.umat.note = binding.why_not;
        return t;
    }
    cv::UMat umat;
    mat.copyTo(umat);
    t.umat = timed(repeats, [&](std::vector<double>& out) {
        cv::UMat sums;
        cv::reduce(umat, sums, dim, cv::REDUCE_SUM, CV_64F);
        to_vector(sums.getMat(cv::ACCESS_READ), out);  // waits for OpenCV's queue
    });
    if (t.umat.note.empty())
        t.umat.note = "OpenCV " CV_VERSION " cv::reduce on a cv::UMat through OpenCL on '" + binding.device + "'";
    return t;
}

OpenCVReduceTiming time_opencv_statistics(const Reducer& reducer, const void* data, ElementType type, std::uint64_t n,
                                          int repeats) {
    OpenCVReduceTiming t;
    const int depth = opencv_depth(type);
    if (depth < 0 || n > std::uint64_t(INT_MAX) || n == 0) {
        t.mat.note = t.umat.note = "OpenCV has no such matrix";
        return t;
    }
    const cv::Mat mat(1, static_cast<int>(n), depth, const_cast<void*>(data));
    const auto statistics = [](const auto& m, std::vector<double>& out) {
        cv::Scalar mean, stddev;
        cv::meanStdDev(m, mean, stddev);
        double lo = 0, hi = 0;
        cv::minMaxLoc(m, &lo, &hi);
        out = {mean[0], stddev[0], lo, hi};
    };
    t.mat = timed(repeats, [&](std::vector<double>& out) { statistics(mat, out); });
    if (t.mat.note.empty()) t.mat.note = "OpenCV " CV_VERSION " cv::meanStdDev + cv::minMaxLoc on a cv::Mat";
    const OpenCVBinding binding = bind_opencv_to(reducer);
    if (!binding.why_not.empty()) {
        t.umat.note = binding.why_not;
        return t;
    }
    cv::UMat umat;
    mat.copyTo(umat);
    t.umat = timed(repeats, [&](std::vector<double>& out) { statistics(umat, out); });
    if (t.umat.note.empty())
        t.umat.note = "OpenCV " CV_VERSION " cv::meanStdDev + cv::minMaxLoc on a cv::UMat through OpenCL on '" +
                      binding.device + "'";
    return t;
}

#else

OpenCVReduceTiming time_opencv_reduce(const Reducer&, const void*, ElementType, std::uint64_t, std::uint64_t, bool,
                                      int) {
    OpenCVReduceTiming t;
    t.mat.note = t.umat.note = "OpenCV core was not found when clreduce was configured";
    return t;
}
OpenCVReduceTiming time_opencv_statistics(const Reducer&, const void*, ElementType, std::uint64_t, int) {
    OpenCVReduceTiming t;
    t.mat.note = t.umat.note = "OpenCV core was not found when clreduce was configured";
    return t;
}

#endif

}  // namespace clreduce::perf
