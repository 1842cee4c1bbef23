#include "competitors/opencv_reduce.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <climits>
#include <string>
#include <type_traits>

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

// `call(m, values)` timed on `mat` and on a copy of it in a UMat bound to the reducer's device;
// `what` names the call in the notes. `call` takes either (a generic lambda): the UMat's results
// must be back on the host when it returns.
template <class Call>
OpenCVReduceTiming time_on_mat_and_umat(const Reducer& reducer, const cv::Mat& mat, int repeats,
                                        const std::string& what, Call call) {
    OpenCVReduceTiming t;
    t.mat = timed(repeats, [&](std::vector<double>& out) { call(mat, out); });
    if (t.mat.note.empty()) t.mat.note = "OpenCV " CV_VERSION " " + what + " on a cv::Mat";
    const OpenCVBinding binding = bind_opencv_to(reducer);
    if (!binding.why_not.empty()) {
        t.umat.note = binding.why_not;
        return t;
    }
    cv::UMat umat;
    mat.copyTo(umat);
    t.umat = timed(repeats, [&](std::vector<double>& out) { call(umat, out); });
    if (t.umat.note.empty())
        t.umat.note = "OpenCV " CV_VERSION " " + what + " on a cv::UMat through OpenCL on '" + binding.device + "'";
    return t;
}

}  // namespace

OpenCVReduceTiming time_opencv_reduce(const Reducer& reducer, const void* data, ElementType type, std::uint64_t rows,
                                      std::uint64_t cols, bool columns, int repeats) {
    const int depth = opencv_depth(type);
    if (depth < 0 || rows > std::uint64_t(INT_MAX) || cols > std::uint64_t(INT_MAX)) {
        OpenCVReduceTiming t;
        t.mat.note = t.umat.note = "OpenCV has no such matrix";
        return t;
    }
    const cv::Mat mat(static_cast<int>(rows), static_cast<int>(cols), depth, const_cast<void*>(data));
    const int dim = columns ? 0 : 1;  // cv::reduce's dim 0: one row of column sums
    return time_on_mat_and_umat(reducer, mat, repeats, "cv::reduce", [dim](const auto& m, std::vector<double>& out) {
        std::decay_t<decltype(m)> sums;
        cv::reduce(m, sums, dim, cv::REDUCE_SUM, CV_64F);
        if constexpr (std::is_same_v<std::decay_t<decltype(m)>, cv::UMat>)
            to_vector(sums.getMat(cv::ACCESS_READ), out);  // waits for OpenCV's queue
        else
            to_vector(sums, out);
    });
}

OpenCVReduceTiming time_opencv_statistics(const Reducer& reducer, const void* data, ElementType type, std::uint64_t n,
                                          int repeats) {
    const int depth = opencv_depth(type);
    if (depth < 0 || n > std::uint64_t(INT_MAX) || n == 0) {
        OpenCVReduceTiming t;
        t.mat.note = t.umat.note = "OpenCV has no such matrix";
        return t;
    }
    const cv::Mat mat(1, static_cast<int>(n), depth, const_cast<void*>(data));
    return time_on_mat_and_umat(reducer, mat, repeats, "cv::meanStdDev + cv::minMaxLoc",
                                [](const auto& m, std::vector<double>& out) {
        cv::Scalar mean, stddev;
        cv::meanStdDev(m, mean, stddev);  // the results come back as Scalars
        double lo = 0, hi = 0;
        cv::minMaxLoc(m, &lo, &hi);
        out = {mean[0], stddev[0], lo, hi};
    });
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
