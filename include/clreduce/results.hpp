#pragma once
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>

namespace clreduce {

struct ImageMask;  // image_mask.hpp

// minmax(): both extremes of one pass.
template <class T>
struct MinMax {
    T min{};
    T max{};
};

// argmin() / argmax(): the extreme value and the index (from the range's start) of its first
// occurrence; ties go to the lowest index, like CUB and cv::minMaxLoc.
template <class T>
struct ArgResult {
    T value{};
    std::uint64_t index = 0;
};

// argminmax(): argmin() and argmax() of one pass (like cv::minMaxLoc), each by its own rule.
template <class T>
struct ArgMinMax {
    ArgResult<T> min;
    ArgResult<T> max;
};

// statistics(): count, extremes, sum, mean and variance of one pass (cl_kernels/ops/moments.cl),
// in the double accumulator (float on a device without fp64) for every element type. The
// variance is the population's (divided by count, like cv::meanStdDev and numpy's default);
// sample_variance() divides by count - 1. docs/numerics.md states their error bounds. min and
// max ignore NaN as min() and max() do; a NaN or an infinity makes mean and variance not
// finite.
template <class T>
struct Statistics {
    std::uint64_t count = 0;
    T min{};
    T max{};
    double sum = 0;
    double mean = 0;
    double variance = 0;

    double stddev() const { return std::sqrt(variance); }
    double sample_variance() const {
        return count > 1 ? variance * static_cast<double>(count) / static_cast<double>(count - 1)
                         : std::numeric_limits<double>::quiet_NaN();
    }
};

// Per-channel results of an Image reduction, like cv::Scalar: entry c is channel c;
// entries past the image's channel count are 0.
template <class V>
using Channels = std::array<V, 4>;

// 2-D, interleaved multi-channel input, like a cv::Mat: `rows` rows of `cols` pixels of
// `channels` interleaved elements each; row r starts `offset + r * step` bytes into the
// buffer (or after the host pointer). step == 0 means packed rows (cols * channels *
// sizeof(T)). Bad layouts (channels outside 1..4, step smaller than a row or not a multiple
// of sizeof(T), an offset not a multiple of sizeof(T), data past the buffer's end) throw
// InvalidArgument. `mask` (image_mask.hpp), where given, selects the pixels that take part,
// like the mask of cv::sum / cv::minMaxLoc; the caller keeps it alive for the call.
struct Image {
    std::uint64_t rows = 0;
    std::uint64_t cols = 0;
    std::uint32_t channels = 1;
    std::uint64_t step = 0;    // bytes
    std::uint64_t offset = 0;  // bytes; buffer inputs only
    const ImageMask* mask = nullptr;
};

// The combine of transform_reduce(), applied after the user's element-wise expression.
enum class Combine { sum, product, min, max };

}  // namespace clreduce
