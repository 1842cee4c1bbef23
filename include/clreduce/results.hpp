#pragma once
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

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

// A combine of the user's own for transform_reduce() (docs/expression-language.md, "A combine
// of one's own"): `expression` in a and b, two partial results of the accumulation type (the
// type the map expression computes in: transform_type_t's, or LaunchParams::accumulator),
// and `identity`, one literal of that type, optionally signed, that the combine leaves every
// value unchanged with (an empty range's result). The user promises that the combine is
// associative; it must be commutative as written (swapping a and b gives the same expression
// up to the order of a commutative operator's operands), since the kernels combine partial
// results out of the elements' order. One value only: no pairs or structures.
struct CombineExpression {
    std::string expression;  // "a + b", "max(a, b)", "max(a, b) + log(1 + exp(-fabs(a - b)))"
    std::string identity;    // "0", "1", "-9223372036854775808", "-0x1.fffffffffffffp1023"
};

}  // namespace clreduce
