#pragma once
// What the adapter's functions reduce: an OpenCV array as a clreduce Image (a UMat's OpenCL
// buffer on OpenCV's context, or a Mat's host memory), its mask, the Reducer that runs it, and
// the one switch from an OpenCV depth to the element type the core call is instantiated for.
#include <cstdint>

#include <opencv2/core.hpp>

#include <clreduce/element_type.hpp>
#include <clreduce/error.hpp>
#include <clreduce/image_mask.hpp>
#include <clreduce/reducer.hpp>

namespace clreduce::opencv {

// The element type of an OpenCV depth; cv::Exception (StsUnsupportedFormat) for any other.
ElementType element_type_of(int depth);

struct Source {
    cv::Mat mat;    // host data (kept alive for the call)
    cv::UMat umat;  // device data on OpenCV's context
    cl::Buffer buffer;
    const Reducer* reducer = nullptr;
    ElementType element = ElementType::uint8;
    Image image;  // rows, cols, channels, step, offset (buffer) of the array

    bool on_device() const { return buffer() != nullptr; }
    bool empty() const { return image.rows == 0 || image.cols == 0; }
    // Calls f(T{}) for the source's element type and returns what it returns.
    template <class F>
    decltype(auto) visit(F&& f) const {
        return visit_type(element, std::forward<F>(f));
    }
};

// What a function does with cv::noArray() as its source, as OpenCV 4.6's counterpart does:
// reads it as an empty array (sum, mean, norm; meanStdDev then refuses it as empty) or
// refuses it with cv::Exception (minMaxLoc, minMaxIdx, countNonZero, reduce).
enum class NoArray { empty, refused };

// `src` as a Source; cv::Exception for more than 2 dimensions or outside 1..4 channels
// (`function` names the OpenCV function, as OpenCV's messages do).
Source source_of(cv::InputArray src, const char* function, NoArray no_array);

// The mask of `source` (none for an empty InputArray); cv::Exception for a mask that is not
// CV_8UC1 or not of the source's size, as OpenCV's functions.
struct Mask {
    cv::Mat mat;
    cv::UMat umat;
    ImageMask mask;
    bool given = false;
    const ImageMask* get() const { return given ? &mask : nullptr; }
};
Mask mask_of(cv::InputArray mask, const Source& source, const char* function);

// The pixels a mask selects (one count on the device).
std::uint64_t selected_pixels(const Source& source, const Mask& mask);

// Runs `reduce` (a reduction whose state of no pixel is refused with InvalidArgument: minmax,
// argmin, argmax, statistics), which leaves its outputs as they were where a given mask
// selects no pixel: the caller has set them to OpenCV's results for that case. The mask is
// counted only after such a refusal, so that the common call makes no pass over it first; any
// other error is thrown.
template <class F>
void reduce_unless_mask_empty(const Source& source, const Mask& mask, F&& reduce) {
    try {
        reduce();
    } catch (const InvalidArgument&) {
        if (!mask.given || selected_pixels(source, mask) != 0) throw;
    }
}

// The core call Reducer::reduce<Op, T> over the image (with `mask`, `params`), its per-channel
// results handed to take(Channels<result_t<Op, T>>, T{}).
template <Operation Op, class F>
void reduce_image(const Source& s, const ImageMask* mask, F&& take, const LaunchParams& params = {}) {
    s.visit([&](auto element) {
        using T = decltype(element);
        Image image = s.image;
        image.mask = mask;
        // One channel, no gaps between rows, no mask: the pixels are one range, which the range
        // form reads with vector loads in one launch (the same values; argmin/argmax's index in
        // the range is the pixel's row-major index, as the image form gives).
        const std::uint64_t row_bytes = image.cols * sizeof(T);
        if (mask == nullptr && image.channels == 1 && (image.step == 0 || image.step == row_bytes) &&
            (!s.on_device() || image.offset % sizeof(T) == 0)) {
            Channels<result_t<Op, T>> one{};
            const std::uint64_t count = image.rows * image.cols;
            if (s.on_device())
                one[0] = s.reducer->template reduce<Op, T>(s.buffer, image.offset / sizeof(T), count, params);
            else
                one[0] = s.reducer->template reduce<Op, T>(reinterpret_cast<const T*>(s.mat.data), count, params);
            take(one, element);
            return;
        }
        if (s.on_device())
            take(s.reducer->template reduce<Op, T>(s.buffer, image, params), element);
        else
            take(s.reducer->template reduce<Op, T>(reinterpret_cast<const T*>(s.mat.data), image, params), element);
    });
}

// The default device's Reducer (Mat inputs) and the one on OpenCV's current OpenCL context and
// queue (UMat inputs; one per context and queue, made at first use, kept; thread-safe).
const Reducer& host_reducer();
const Reducer& opencv_context_reducer();

}  // namespace clreduce::opencv
