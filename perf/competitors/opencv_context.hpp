#pragma once
// Binds OpenCV's OpenCL (cv::UMat calls) to a reducer's own context and device, so that OpenCV
// runs where clreduce runs. Only with CLREDUCE_HAVE_OPENCV.
#include <string>

#include <opencv2/core/ocl.hpp>

#include <clreduce/reducer.hpp>

namespace clreduce::perf {

struct OpenCVBinding {
    cv::ocl::OpenCLExecutionContext context;  // keep while OpenCV's calls run
    std::string device;                       // the device OpenCV uses
    std::string why_not;                      // empty: bound
};

OpenCVBinding bind_opencv_to(const Reducer& reducer);

}  // namespace clreduce::perf
