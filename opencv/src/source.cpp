#include "source.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include <opencv2/core/ocl.hpp>

namespace clreduce::opencv {

ElementType element_type_of(int depth) {
    switch (depth) {
        case CV_8U: return ElementType::uint8;
        case CV_8S: return ElementType::int8;
        case CV_16U: return ElementType::uint16;
        case CV_16S: return ElementType::int16;
        case CV_32S: return ElementType::int32;
        case CV_32F: return ElementType::float32;
        case CV_64F: return ElementType::float64;
        case CV_16F: return ElementType::float16;
        default: break;
    }
    CV_Error(cv::Error::StsUnsupportedFormat,
             "clreduce::opencv: unsupported depth " + std::to_string(depth) +
                 " (expected CV_8U, CV_8S, CV_16U, CV_16S, CV_32S, CV_32F, CV_64F or CV_16F)");
}

namespace {

std::string named(const char* function) { return std::string("clreduce::opencv::") + function + ": "; }

// Whether a UMat argument lives in OpenCV's OpenCL buffers (else OpenCV keeps it in host
// memory and it is read as a Mat).
bool in_opencl(cv::InputArray array) { return array.isUMat() && cv::ocl::useOpenCL(); }

// Whether a UMat has a live host mapping (a Mat from getMat()): then it cannot hand out its
// buffer (UMat::handle asserts) and is read through a mapping, as OpenCV's CPU path does.
bool mapped(const cv::UMat& u) { return u.u != nullptr && u.u->refcount > 0; }

}  // namespace

Source source_of(cv::InputArray src, const char* function, NoArray no_array) {
    if (src.kind() == cv::_InputArray::NONE) {
        // cv::noArray() has type -1 (512 channels of depth 7): OpenCV's sum, mean and norm read
        // it as an empty array, its other functions refuse it.
        if (no_array == NoArray::refused)
            CV_Error(cv::Error::StsBadArg, named(function) + "no array given (cv::noArray()), as OpenCV refuses");
        return Source{};
    }
    if (src.dims() > 2) CV_Error(cv::Error::StsBadArg, named(function) + "arrays of more than 2 dimensions");
    const int type = src.type();
    const int channels = CV_MAT_CN(type);
    if (channels > 4)
        CV_Error(cv::Error::StsBadArg,
                 named(function) + "1 to 4 channels are supported, got " + std::to_string(channels));
    Source s;
    s.element = element_type_of(CV_MAT_DEPTH(type));
    s.image.channels = static_cast<std::uint32_t>(channels);
    if (src.empty()) {
        // The shape even of an empty array (7 x 0, say), which reduce's output keeps: as OpenCV's
        // reduce reads it (getMat(): an empty std::vector is 0 x 0), or a UMat's own.
        const cv::Size size = src.isUMat() ? src.size() : src.getMat().size();
        s.image.rows = static_cast<std::uint64_t>(size.height);
        s.image.cols = static_cast<std::uint64_t>(size.width);
        return s;
    }
    if (in_opencl(src)) {
        s.umat = src.getUMat();
        auto* handle = mapped(s.umat) ? nullptr : static_cast<cl_mem>(s.umat.handle(cv::ACCESS_READ));
        if (handle != nullptr) {
            s.buffer = cl::Buffer(handle, true);
            s.image.rows = static_cast<std::uint64_t>(s.umat.rows);
            s.image.cols = static_cast<std::uint64_t>(s.umat.cols);
            s.image.step = s.umat.step[0];
            s.image.offset = s.umat.offset;
            s.reducer = &opencv_context_reducer();
            return s;
        }
        s.umat.release();
    }
    s.mat = src.getMat();
    s.image.rows = static_cast<std::uint64_t>(s.mat.rows);
    s.image.cols = static_cast<std::uint64_t>(s.mat.cols);
    s.image.step = s.mat.rows > 1 ? s.mat.step[0] : 0;
    s.reducer = &host_reducer();
    return s;
}

Mask mask_of(cv::InputArray mask, const Source& source, const char* function) {
    Mask m;
    if (mask.empty()) return m;
    if (mask.type() != CV_8UC1)
        CV_Error(cv::Error::StsBadMask,
                 named(function) + "the mask must be CV_8UC1, got " + cv::typeToString(mask.type()));
    const cv::Size size = mask.size();
    if (static_cast<std::uint64_t>(size.height) != source.image.rows ||
        static_cast<std::uint64_t>(size.width) != source.image.cols)
        CV_Error(cv::Error::StsUnmatchedSizes,
                 named(function) + "the mask is " + std::to_string(size.width) + "x" + std::to_string(size.height) +
                     ", the array " + std::to_string(source.image.cols) + "x" + std::to_string(source.image.rows));
    m.given = true;
    if (source.empty()) return m;
    if (source.on_device()) {
        // A Mat mask of a UMat source is uploaded by OpenCV (getUMat); a mapped UMat mask cannot
        // hand out its buffer: it is copied to a new one.
        m.umat = mask.getUMat();
        if (mapped(m.umat)) {
            cv::UMat copy;
            mask.getMat().copyTo(copy);
            m.umat = copy;
        }
        m.mask.buffer = cl::Buffer(static_cast<cl_mem>(m.umat.handle(cv::ACCESS_READ)), true);
        m.mask.offset = m.umat.offset;
        m.mask.step = m.umat.step[0];
    } else {
        m.mat = mask.getMat();
        m.mask.data = m.mat.data;
        m.mask.step = m.mat.rows > 1 ? m.mat.step[0] : 0;
    }
    return m;
}

std::uint64_t selected_pixels(const Source& source, const Mask& mask) {
    if (!mask.given) return source.image.rows * source.image.cols;
    if (source.empty()) return 0;
    const Image plane{source.image.rows, source.image.cols, 1, mask.mask.step, mask.mask.offset};
    if (source.on_device())
        return source.reducer->reduce<Operation::count_nonzero, std::uint8_t>(mask.mask.buffer, plane)[0];
    return source.reducer->reduce<Operation::count_nonzero, std::uint8_t>(mask.mask.data, plane)[0];
}

// Both are made at first use and never destroyed: a Reducer destroyed at exit could outlive
// the OpenCL runtime it calls.
const Reducer& host_reducer() {
    static const Reducer* reducer = new Reducer();
    return *reducer;
}

const Reducer& opencv_context_reducer() {
    auto* context = static_cast<cl_context>(cv::ocl::Context::getDefault().ptr());
    auto* queue = static_cast<cl_command_queue>(cv::ocl::Queue::getDefault().ptr());
    if (context == nullptr || queue == nullptr)
        CV_Error(cv::Error::OpenCLInitError, "clreduce::opencv: OpenCV has no OpenCL context for this UMat");
    static std::mutex mutex;
    static auto* reducers = new std::map<std::pair<cl_context, cl_command_queue>, std::unique_ptr<Reducer>>();
    const std::lock_guard<std::mutex> lock(mutex);
    std::unique_ptr<Reducer>& reducer = (*reducers)[{context, queue}];
    // The Reducer holds references to both, so that their handles are not reused while it lives.
    if (!reducer) reducer = std::make_unique<Reducer>(cl::Context(context, true), cl::CommandQueue(queue, true));
    return *reducer;
}

const Reducer& reducer_for(cv::InputArray src) {
    return in_opencl(src) && !mapped(src.getUMat()) ? opencv_context_reducer() : host_reducer();
}

}  // namespace clreduce::opencv
