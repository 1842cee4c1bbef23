// sum, mean, meanStdDev, countNonZero and norm: each one image form of the core call.
#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>

#include <clreduce/opencv.hpp>

#include "source.hpp"
#include "values.hpp"

namespace clreduce::opencv {

void write_channels(cv::OutputArray out, const cv::Scalar& values, int cn) {
    if (!out.needed()) return;
    // As cv::meanStdDev: an output of another shape or type is made anew (cn x 1, or 1 x cn
    // kept); one of fixed size (a cv::Scalar, a cv::Vec4d) must hold cn values.
    if (!out.fixedSize()) out.create(cn, 1, CV_64F, -1, true);
    cv::Mat dst = out.getMat();
    CV_Assert(dst.type() == CV_64F && dst.isContinuous() && (dst.cols == 1 || dst.rows == 1) &&
              dst.total() >= static_cast<std::size_t>(cn));
    auto* p = dst.ptr<double>();
    for (std::size_t k = 0; k < dst.total(); ++k)
        p[k] = k < static_cast<std::size_t>(cn) ? values[static_cast<int>(k)] : 0.0;
}

namespace {

using u128 = unsigned __int128;

int bit_length(u128 v) {
    const auto high = static_cast<std::uint64_t>(v >> 64), low = static_cast<std::uint64_t>(v);
    if (high != 0) return 128 - __builtin_clzll(high);
    return low == 0 ? 0 : 64 - __builtin_clzll(low);
}

// q * 2^exponent rounded to the nearest double, ties to even; `sticky`: the exact value lies a
// little above q * 2^exponent (by less than a unit of q's last bit; then q has 54 bits or more).
double round_scaled(u128 q, int exponent, bool sticky) {
    const int length = bit_length(q);
    if (length <= 53) return std::ldexp(static_cast<double>(static_cast<std::uint64_t>(q)), exponent);
    const int shift = length - 53;
    auto mantissa = static_cast<std::uint64_t>(q >> shift);
    const u128 rest = q & ((u128(1) << shift) - 1), half = u128(1) << (shift - 1);
    if (rest > half || (rest == half && (sticky || (mantissa & 1) != 0))) ++mantissa;
    return std::ldexp(static_cast<double>(mantissa), exponent + shift);
}

// floor(sqrt(a)) digit by digit (base 4); `a` is left as the remainder.
u128 integer_sqrt(u128& a) {
    u128 root = 0, place = u128(1) << 126;
    while (place > a) place >>= 2;
    for (; place != 0; place >>= 2) {
        if (a >= root + place) {
            a -= root + place;
            root = (root >> 1) + place;
        } else {
            root >>= 1;
        }
    }
    return root;
}

// sqrt(s) correctly rounded: s scaled by 4^k so that the root has 54 bits or more, the
// remainder its sticky bit. (s < 2^126: fewer than 2^64 squares, each at most 2^62.)
double rounded_sqrt(u128 s) {
    if (s == 0) return 0.0;
    const int k = std::max(0, (109 - bit_length(s)) / 2);
    u128 rest = s << (2 * k);
    const u128 root = integer_sqrt(rest);
    return round_scaled(root, -k, rest != 0);
}

// NORM_L2 (l2) or NORM_L2SQR of integer data, correctly rounded from the exact sum of squares of
// all channels (added in 128 bits, rounded once). 8- and 16-bit data: the core's exact uint64
// sums of squares. CV_32S: squares overflow uint64 after four elements, so each channel's exact
// sum S comes from two passes: S modulo 2^64 (sum_of_squares, IntegerOverflow::wrap) and the
// correctly rounded sqrt(S) (norm_l2, exact in the core), whose square is within S * 2^-51 of
// S: below 2^63 (S < 2^114, fewer than 2^52 pixels), it fixes S's multiple of 2^64. The root of
// the rebuilt S is checked against the core's.
double integer_l2(const Source& s, const Mask& m, bool l2) {
    const std::uint32_t cn = s.image.channels;
    const bool int32 = s.element == ElementType::int32;
    Channels<double> roots{};
    if (int32) {
        reduce_image<Operation::norm_l2>(s, m.get(), [&](const auto& r, auto) { roots = r; });
        if (l2 && cn == 1) return roots[0];  // one channel: the core's own correctly rounded root
    }
    Channels<std::uint64_t> sums{};  // exact; CV_32S: modulo 2^64
    LaunchParams params;
    if (int32) params.overflow = IntegerOverflow::wrap;
    const auto take = [&](const auto& r, auto element) {
        if constexpr (std::is_integral_v<decltype(element)>) sums = r;
    };
    reduce_image<Operation::sum_of_squares>(s, m.get(), take, params);
    u128 total = 0;
    for (std::uint32_t c = 0; c < cn; ++c) {
        u128 exact = sums[c];
        if (int32) {
            const long double approx = static_cast<long double>(roots[c]) * roots[c];
            const long double above = std::round((approx - static_cast<long double>(sums[c])) / 0x1p64L);
            exact |= static_cast<u128>(above) << 64;
            if (rounded_sqrt(exact) != roots[c])  // the two passes disagree: an error in them
                throw Error("clreduce::opencv::norm: the CV_32S sum of squares could not be rebuilt");
        }
        total += exact;
    }
    return l2 ? rounded_sqrt(total) : round_scaled(total, 0, false);
}

}  // namespace

cv::Scalar sum(cv::InputArray src) {
    const Source s = source_of(src, "sum", NoArray::empty);
    cv::Scalar out;
    if (s.empty()) return out;
    reduce_image<Operation::sum>(s, nullptr, [&](const auto& r, auto) {
        for (std::uint32_t c = 0; c < s.image.channels; ++c) out[static_cast<int>(c)] = to_double(r[c]);
    });
    return out;
}

cv::Scalar mean(cv::InputArray src, cv::InputArray mask) {
    const Source s = source_of(src, "mean", NoArray::empty);
    const Mask m = mask_of(mask, s, "mean");
    cv::Scalar out;
    if (s.empty()) return out;
    const std::uint64_t n = selected_pixels(s, m);
    if (n == 0) return out;
    reduce_image<Operation::sum>(s, m.get(), [&](const auto& r, auto) {
        for (std::uint32_t c = 0; c < s.image.channels; ++c)
            out[static_cast<int>(c)] = to_double(r[c]) / static_cast<double>(n);
    });
    return out;
}

void meanStdDev(cv::InputArray src, cv::OutputArray mean, cv::OutputArray stddev, cv::InputArray mask) {
    const Source s = source_of(src, "meanStdDev", NoArray::empty);
    const Mask m = mask_of(mask, s, "meanStdDev");
    if (s.empty()) CV_Error(cv::Error::StsBadArg, "clreduce::opencv::meanStdDev: the array is empty");
    cv::Scalar means, deviations;
    // OpenCV gives 0 and 0 where the mask selects no pixel; the statistics state of no pixel
    // is an error.
    reduce_unless_mask_empty(s, m, [&] {
        reduce_image<Operation::statistics>(s, m.get(), [&](const auto& r, auto) {
            for (std::uint32_t c = 0; c < s.image.channels; ++c) {
                means[static_cast<int>(c)] = r[c].mean;
                deviations[static_cast<int>(c)] = r[c].stddev();
            }
        });
    });
    const int cn = static_cast<int>(s.image.channels);
    write_channels(mean, means, cn);
    write_channels(stddev, deviations, cn);
}

int countNonZero(cv::InputArray src) {
    const Source s = source_of(src, "countNonZero", NoArray::refused);
    if (s.image.channels != 1)
        CV_Error(cv::Error::StsBadArg, "clreduce::opencv::countNonZero: the array must have one channel, it has " +
                                           std::to_string(s.image.channels));
    if (s.empty()) return 0;
    std::uint64_t n = 0;
    reduce_image<Operation::count_nonzero>(s, nullptr, [&](const auto& r, auto) { n = r[0]; });
    return static_cast<int>(n);
}

double norm(cv::InputArray src, int normType, cv::InputArray mask) {
    const int type = normType & cv::NORM_TYPE_MASK;
    if (type != cv::NORM_L1 && type != cv::NORM_L2 && type != cv::NORM_L2SQR && type != cv::NORM_INF)
        CV_Error(cv::Error::StsBadArg,
                 "clreduce::opencv::norm: normType must be NORM_L1, NORM_L2, NORM_L2SQR or NORM_INF, got " +
                     std::to_string(normType));
    const Source s = source_of(src, "norm", NoArray::empty);
    const Mask m = mask_of(mask, s, "norm");
    if (s.empty()) return 0;
    double total = 0;
    const auto add = [&](const auto& r, auto) {
        for (std::uint32_t c = 0; c < s.image.channels; ++c) {
            const double v = to_double(r[c]);
            total = type == cv::NORM_INF ? std::max(total, v) : total + v;
        }
    };
    if (type == cv::NORM_INF) {
        reduce_image<Operation::norm_inf>(s, m.get(), add);
    } else if (type == cv::NORM_L1) {
        reduce_image<Operation::norm_l1>(s, m.get(), add);
    } else if (!is_floating(s.element)) {
        return integer_l2(s, m, type == cv::NORM_L2);
    } else {
        reduce_image<Operation::sum_of_squares>(s, m.get(), add);
    }
    return type == cv::NORM_L2 ? std::sqrt(total) : total;
}

}  // namespace clreduce::opencv
