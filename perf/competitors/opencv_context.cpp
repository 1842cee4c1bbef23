#ifdef CLREDUCE_HAVE_OPENCV
#include "competitors/opencv_context.hpp"

namespace clreduce::perf {

OpenCVBinding bind_opencv_to(const Reducer& reducer) {
    OpenCVBinding b;
    if (!cv::ocl::haveOpenCL()) {
        b.why_not = "OpenCV finds no OpenCL runtime (or was built without OpenCL)";
        return b;
    }
    const cl::Device device = reducer.queue().getInfo<CL_QUEUE_DEVICE>();
    const cl_platform_id platform = device.getInfo<CL_DEVICE_PLATFORM>();
    const std::string platform_name = cl::Platform(platform, true).getInfo<CL_PLATFORM_NAME>();
    try {
        b.context = cv::ocl::OpenCLExecutionContext::create(platform_name, platform, reducer.context()(), device());
        b.context.bind();
        cv::ocl::setUseOpenCL(true);
    } catch (const cv::Exception& e) {
        b.why_not = std::string("OpenCV cannot use the device: ") + e.what();
        return b;
    }
    const cv::ocl::Device& used = cv::ocl::Device::getDefault();
    b.device = used.name();
    if (!cv::ocl::useOpenCL() || used.ptr() != device())
        b.why_not = "OpenCV's OpenCL does not run on the reducer's device (it uses '" + b.device + "')";
    return b;
}

}  // namespace clreduce::perf

#endif
