// Edge cases of clreduce::opencv reported by users, each against OpenCV 4.6's own CPU function
// and, where one exists, an exact reference. Random inputs print their seeds (with a failure).
#include <catch2/catch.hpp>

#include <clreduce/opencv.hpp>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <opencv2/core/ocl.hpp>

#include "reference/exact_float_sum.hpp"

namespace {

namespace cro = clreduce::opencv;
using clreduce::testing::ExactSum;
using u128 = unsigned __int128;

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

// Both calls throw cv::Exception, or neither does.
template <class F, class G>
void same_refusal(F&& ours, G&& theirs, const char* what) {
    INFO(what);
    bool they_throw = false;
    try {
        theirs();
    } catch (const cv::Exception&) {
        they_throw = true;
    }
    if (they_throw)
        CHECK_THROWS_AS(ours(), cv::Exception);
    else
        CHECK_NOTHROW(ours());
}

// `v` as reduce's output of an integer depth must be: clamped to [low, high], rounded to
// nearest (ties to even, as cvRound), NaN 0.
double saturated(double v, double low, double high) {
    return std::isnan(v) ? 0.0 : std::nearbyint(std::clamp(v, low, high));
}

}  // namespace

TEST_CASE("clreduce::opencv::reduce saturates into every dtype", "[opencv][saturate]") {
    // The cases, and an 8-bit sum into 8 bits (OpenCV 4.6 refuses all three combinations).
    const cv::Mat int_max = (cv::Mat_<int>(2, 1) << INT_MAX, INT_MAX),
                  int_min = (cv::Mat_<int>(2, 1) << INT_MIN, INT_MIN);
    const cv::Mat big = (cv::Mat_<float>(1, 1) << 1e10f), bytes = (cv::Mat_<std::uint8_t>(1, 2) << 200, 200);
    cv::Mat d;
    cro::reduce(int_max, d, 0, cv::REDUCE_SUM, -1);
    REQUIRE(d.type() == CV_32SC1);
    CHECK(d.at<int>(0, 0) == INT_MAX);
    cro::reduce(int_min, d, 0, cv::REDUCE_SUM, -1);
    CHECK(d.at<int>(0, 0) == INT_MIN);
    cro::reduce(big, d, 0, cv::REDUCE_MAX, CV_8U);
    REQUIRE(d.type() == CV_8UC1);
    CHECK(int(d.at<std::uint8_t>(0, 0)) == 255);
    cro::reduce(bytes, d, 1, cv::REDUCE_SUM, CV_8U);
    CHECK(int(d.at<std::uint8_t>(0, 0)) == 255);

    // Random values, each alone in its row of a CV_64F column: REDUCE_SUM along dim 1 gives the
    // value itself, converted to dtype. Wide magnitudes, halves (ties), the ranges' edges, NaN, inf.
    const std::uint64_t seed = 20261130;
    INFO("seed " << seed);
    std::mt19937_64 rng(seed);
    std::vector<double> values{kNaN,          kInf,         -kInf,        1e10,         -1e10,
                               2.5,           3.5,          -2.5,         255.5,        256.0,
                               -128.5,        -129.0,       65535.5,      32767.5,      -32768.5,
                               2147483647.0,  2147483647.4, 2147483647.6, 2147483648.0, -2147483648.0,
                               -2147483648.6, 1e300,        -1e300,       3.5e38,       -3.5e38};
    for (int k = 0; k < 200; ++k) {
        const double magnitude = std::ldexp(1.0, int(rng() % 40));
        const double v = (double(rng() >> 11) * 0x1p-53 * 2 - 1) * magnitude;
        values.push_back(k % 4 == 0 ? std::floor(v) + 0.5 : v);
    }
    const cv::Mat column(int(values.size()), 1, CV_64F, values.data());
    struct Depth {
        int depth;
        double low, high;
        double (*opencv)(double);  // cv::saturate_cast, where it saturates (within int's range)
    };
    const Depth depths[] = {
        {CV_8U, 0, 255, [](double v) { return double(cv::saturate_cast<std::uint8_t>(v)); }},
        {CV_8S, -128, 127, [](double v) { return double(cv::saturate_cast<std::int8_t>(v)); }},
        {CV_16U, 0, 65535, [](double v) { return double(cv::saturate_cast<std::uint16_t>(v)); }},
        {CV_16S, -32768, 32767, [](double v) { return double(cv::saturate_cast<std::int16_t>(v)); }},
        {CV_32S, INT_MIN, INT_MAX, [](double v) { return double(cv::saturate_cast<int>(v)); }},
    };
    for (const bool umat : {false, true}) {
        const cv::UMat ucolumn = umat ? column.getUMat(cv::ACCESS_READ) : cv::UMat();
        const cv::_InputArray in = umat ? cv::_InputArray(ucolumn) : cv::_InputArray(column);
        for (const Depth& t : depths) {
            INFO((umat ? "UMat" : "Mat") << " dtype " << cv::typeToString(t.depth));
            cro::reduce(in, d, 1, cv::REDUCE_SUM, t.depth);
            REQUIRE(d.type() == t.depth);
            cv::Mat got;
            d.convertTo(got, CV_64F);
            for (std::size_t i = 0; i < values.size(); ++i) {
                const double v = values[i];
                INFO("value " << v);
                CHECK(got.at<double>(int(i)) == saturated(v, t.low, t.high));
                if (std::fabs(v) < 2147483647.0) CHECK(got.at<double>(int(i)) == t.opencv(v));
            }
        }
        // Float depths as saturate_cast<float>: beyond CV_32F's range, +-inf.
        cro::reduce(in, d, 1, cv::REDUCE_SUM, CV_32F);
        for (std::size_t i = 0; i < values.size(); ++i) {
            const float expected = cv::saturate_cast<float>(values[i]), got = d.at<float>(int(i));
            CHECK((got == expected || (std::isnan(got) && std::isnan(expected))));
        }
    }
    // Means into integer depths round as OpenCV's (ties to even), where OpenCV has the combination.
    const cv::Mat ties = (cv::Mat_<std::uint8_t>(3, 2) << 1, 4, 2, 5, 3, 4);  // 2.5, 3.5, 3.5
    cv::Mat theirs;
    cv::reduce(ties, theirs, 1, cv::REDUCE_AVG, -1);
    cro::reduce(ties, d, 1, cv::REDUCE_AVG, -1);
    CHECK(cv::norm(d, theirs, cv::NORM_INF) == 0);
}

namespace {

// Whether d is sqrt(s) rounded to nearest: s lies between the exact squares of the midpoints
// from d to its neighbours.
bool is_rounded_sqrt(double d, u128 s) {
    if (s == 0) return d == 0;
    const double up = std::nextafter(d, kInf) - d, down = d - std::nextafter(d, 0.0);
    ExactSum above, below;  // (d + up / 2)^2 - s and (d - down / 2)^2 - s
    for (ExactSum* e : {&above, &below}) {
        e->add_product(d, d);
        e->add_scaled(static_cast<std::uint64_t>(s >> 64), true, 64);
        e->add_scaled(static_cast<std::uint64_t>(s), true, 0);
    }
    above.add_product(d, up);
    above.add_product(up / 2, up / 2);
    below.add_product(-d, down);
    below.add_product(down / 2, down / 2);
    return above.sign() >= 0 && below.sign() <= 0;
}

}  // namespace

TEST_CASE("clreduce::opencv::norm of integers is correctly rounded (NORM_L2, NORM_L2SQR)", "[opencv][norm32s]") {
    // 64 CV_32S cases over the whole int32 range (each channel's sum of squares passes 2^64),
    // then 24 of the 8- and 16-bit depths.
    const std::uint64_t seed = 20261129;
    const bool opencl = cv::ocl::useOpenCL();
    const int small_depths[] = {CV_8U, CV_16U, CV_16S};
    for (int k = 0; k < 64 + 24; ++k) {
        std::mt19937_64 rng(seed + k);
        const int depth = k < 64 ? CV_32S : small_depths[k % 3], cn = 1 + k % 4;
        // The shape, 1013 x 1 of two channels, every eighth case.
        const int rows = k % 8 == 1 ? 1013 : 1 + int(rng() % 40), cols = k % 8 == 1 ? 1 : 1 + int(rng() % 40);
        const bool roi = k % 3 == 1, masked = k % 5 == 2, umat = opencl && k % 2 == 1;
        INFO("seed " << seed << " + " << k << ": " << cv::typeToString(CV_MAKETYPE(depth, cn)) << " " << rows << "x"
                     << cols << (roi ? " ROI" : "") << (masked ? " masked" : "") << (umat ? " UMat" : " Mat"));
        cv::Mat whole32(rows + 2, cols + 3, CV_32SC(cn)), whole;
        for (auto it = whole32.begin<int>(); it != whole32.end<int>(); ++it) *it = int(std::uint32_t(rng()));
        if (k == 0) whole32.setTo(cv::Scalar::all(INT_MIN));  // the largest squares: 2^62 each
        if (depth == CV_32S)
            whole = whole32;
        else  // the low bits, as the narrower type
            cv::Mat(whole32 & cv::Scalar::all(depth == CV_8U ? 0xFF : 0xFFFF))
                .convertTo(whole, depth, 1, depth == CV_16S ? -32768 : 0);
        const cv::Mat src = roi ? whole(cv::Rect(1, 2, cols, rows)) : whole(cv::Rect(0, 0, cols, rows)).clone();
        cv::Mat mask;
        if (masked) {
            mask.create(rows, cols, CV_8U);
            cv::RNG(seed + k).fill(mask, cv::RNG::UNIFORM, 0, 2);
        }
        // The exact sum of squares of the selected pixels' channels, in 128 bits.
        cv::Mat x;
        src.convertTo(x, CV_64F);
        x = x.reshape(1);
        u128 s = 0;
        ExactSum exact;
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols * cn; ++c) {
                if (masked && mask.at<std::uint8_t>(r, c / cn) == 0) continue;
                const auto v = static_cast<std::int64_t>(x.at<double>(r, c));
                s += static_cast<u128>(v * v);
                exact.add_product(double(v), double(v));
            }
        const cv::UMat usrc = umat ? src.getUMat(cv::ACCESS_READ) : cv::UMat();
        const cv::UMat umask = umat && masked ? mask.getUMat(cv::ACCESS_READ) : cv::UMat();
        const cv::_InputArray in = umat ? cv::_InputArray(usrc) : cv::_InputArray(src);
        const cv::_InputArray in_mask = !masked ? cv::_InputArray(cv::noArray())
                                        : umat  ? cv::_InputArray(umask)
                                                : cv::_InputArray(mask);
        const double l2 = cro::norm(in, cv::NORM_L2, in_mask), l2sqr = cro::norm(in, cv::NORM_L2SQR, in_mask);
        INFO("exact sum of squares " << exact.to_string() << ", NORM_L2 " << l2 << ", NORM_L2SQR " << l2sqr);
        CHECK(is_rounded_sqrt(l2, s));
        CHECK(l2sqr == exact.to_double());
        // OpenCV's double sums of squares, within 1e-12.
        CHECK(std::fabs(l2 - cv::norm(src, cv::NORM_L2, mask)) <= 1e-12 * l2);
        CHECK(std::fabs(l2sqr - cv::norm(src, cv::NORM_L2SQR, mask)) <= 1e-12 * l2sqr);
    }
}

TEST_CASE("clreduce::opencv reads a UMat with a live getMat() mapping, as OpenCV", "[opencv][mapped]") {
    if (!cv::ocl::useOpenCL())
        FAIL("OpenCV's OpenCL is off: set OPENCV_OPENCL_DEVICE (ctest sets :CPU:) to test the UMat path");
    const std::uint64_t seed = 20261131;
    INFO("seed " << seed);
    cv::Mat host(37, 53, CV_8UC1), mask(37, 53, CV_8UC1);
    cv::RNG(seed).fill(host, cv::RNG::UNIFORM, 0, 256);
    cv::RNG(seed + 1).fill(mask, cv::RNG::UNIFORM, 0, 2);
    cv::UMat u, umask;
    host.copyTo(u);
    mask.copyTo(umask);
    // Every function on the mapped UMat (with a mapped, an unmapped and no mask), and on an
    // unmapped UMat with a mapped mask.
    for (const int mapping : {0, 1, 2}) {
        const bool source_mapped = mapping != 2, mask_mapped = mapping != 0;
        INFO("source " << (source_mapped ? "mapped" : "not mapped") << ", mask "
                       << (mask_mapped ? "mapped" : "not mapped"));
        const cv::Mat map_source = source_mapped ? u.getMat(cv::ACCESS_READ) : cv::Mat();
        const cv::Mat map_mask = mask_mapped ? umask.getMat(cv::ACCESS_READ) : cv::Mat();
        if (source_mapped) CHECK(&cro::reducer_for(u) == &cro::reducer_for(host));  // the calls' Reducer
        CHECK(cro::sum(u) == cv::sum(host));
        CHECK(cro::sum(u) == cv::sum(u));  // OpenCV reads it too
        CHECK(cro::countNonZero(u) == cv::countNonZero(host));
        for (const bool with_mask : {false, true}) {
            const cv::_InputArray m = with_mask ? cv::_InputArray(umask) : cv::_InputArray(cv::noArray());
            const cv::Mat& cm = with_mask ? mask : cv::Mat();
            INFO((with_mask ? "with mask" : "without mask"));
            const cv::Scalar ours_mean = cro::mean(u, m), theirs_mean = cv::mean(host, cm);
            CHECK(std::fabs(ours_mean[0] - theirs_mean[0]) <= 1e-12 * theirs_mean[0]);
            cv::Scalar mean, dev, cmean, cdev;
            cro::meanStdDev(u, mean, dev, m);
            cv::meanStdDev(host, cmean, cdev, cm);
            CHECK(std::fabs(mean[0] - cmean[0]) <= 1e-9 * cmean[0]);
            CHECK(std::fabs(dev[0] - cdev[0]) <= 1e-9 * cdev[0]);
            double mn = 0, mx = 0, cmn = 0, cmx = 0;
            cv::Point lmn, lmx, clmn, clmx;
            cro::minMaxLoc(u, &mn, &mx, &lmn, &lmx, m);
            cv::minMaxLoc(host, &cmn, &cmx, &clmn, &clmx, cm);
            CHECK((mn == cmn && mx == cmx && lmn == clmn && lmx == clmx));
            CHECK(cro::norm(u, cv::NORM_L1, m) == cv::norm(host, cv::NORM_L1, cm));
        }
        cv::Mat ours, theirs;
        cro::reduce(u, ours, 0, cv::REDUCE_SUM, CV_32S);
        cv::reduce(host, theirs, 0, cv::REDUCE_SUM, CV_32S);
        CHECK(cv::norm(ours, theirs, cv::NORM_INF) == 0);
    }
}

TEST_CASE("clreduce::opencv takes cv::noArray() as the source as OpenCV 4.6 does", "[opencv][noarray]") {
    // sum, mean and norm read it as empty; the others refuse it, as OpenCV's.
    const cv::Mat none;
    CHECK(cro::sum(cv::noArray()) == cv::sum(cv::noArray()));
    CHECK(cro::mean(cv::noArray()) == cv::mean(cv::noArray()));
    for (const int t : {cv::NORM_L1, cv::NORM_L2, cv::NORM_L2SQR, cv::NORM_INF})
        CHECK(cro::norm(cv::noArray(), t) == cv::norm(cv::noArray(), t));
    cv::Mat m, s, d;
    double mn = 0, mx = 0;
    cv::Point a, b;
    int ia[2], ib[2];
    same_refusal([&] { cro::meanStdDev(cv::noArray(), m, s); }, [&] { cv::meanStdDev(cv::noArray(), m, s); },
                 "meanStdDev");
    same_refusal([&] { cro::minMaxLoc(cv::noArray(), &mn, &mx, &a, &b); },
                 [&] { cv::minMaxLoc(cv::noArray(), &mn, &mx, &a, &b); }, "minMaxLoc");
    same_refusal([&] { cro::minMaxIdx(cv::noArray(), &mn, &mx, ia, ib); },
                 [&] { cv::minMaxIdx(cv::noArray(), &mn, &mx, ia, ib); }, "minMaxIdx");
    same_refusal([&] { cro::minMaxIdx(cv::noArray(), &mn, &mx); }, [&] { cv::minMaxIdx(cv::noArray(), &mn, &mx); },
                 "minMaxIdx without locations");
    same_refusal([&] { cro::countNonZero(cv::noArray()); }, [&] { cv::countNonZero(cv::noArray()); }, "countNonZero");
    for (const int dtype : {-1, CV_32S, CV_64F})
        same_refusal([&] { cro::reduce(cv::noArray(), d, 0, cv::REDUCE_SUM, dtype); },
                     [&] { cv::reduce(cv::noArray(), d, 0, cv::REDUCE_SUM, dtype); }, "reduce");
}

TEST_CASE("clreduce::opencv::meanStdDev into preallocated outputs makes them as OpenCV does", "[opencv][outputs]") {
    const cv::Mat img(4, 6, CV_8UC3, cv::Scalar(1, 2, 3));
    const cv::Mat shapes[] = {cv::Mat(3, 1, CV_64F), cv::Mat(1, 3, CV_64F), cv::Mat(5, 1, CV_64F),
                              cv::Mat(1, 5, CV_64F), cv::Mat(2, 2, CV_64F), cv::Mat(3, 1, CV_32F),
                              cv::Mat(1, 1, CV_64F), cv::Mat(4, 4, CV_8U),  cv::Mat(5, 5, CV_64F).col(1)};
    for (const cv::Mat& shape : shapes) {
        INFO("preallocated " << shape.rows << "x" << shape.cols << " " << cv::typeToString(shape.type())
                             << (shape.isContinuous() ? "" : " not continuous"));
        // Each call gets its own copy of the preallocated arrays (a column keeps its step).
        cv::Mat backing_ours = shape.isContinuous() ? shape.clone() : cv::Mat(5, 5, CV_64F, cv::Scalar(9));
        cv::Mat backing_theirs = backing_ours.clone();
        cv::Mat ours = shape.isContinuous() ? backing_ours : backing_ours.col(1);
        cv::Mat theirs = shape.isContinuous() ? backing_theirs : backing_theirs.col(1);
        ours.setTo(9);
        theirs.setTo(9);
        const uchar *ours_before = ours.data, *theirs_before = theirs.data;
        cv::Mat ours_dev = ours.clone(), theirs_dev = theirs.clone();
        cro::meanStdDev(img, ours, ours_dev);
        cv::meanStdDev(img, theirs, theirs_dev);
        CHECK(ours.size() == theirs.size());
        CHECK(ours.type() == theirs.type());
        CHECK((ours.data == ours_before) == (theirs.data == theirs_before));  // kept where OpenCV keeps it
        CHECK(cv::norm(ours, theirs, cv::NORM_INF) == 0);
        CHECK(cv::norm(ours_dev, theirs_dev, cv::NORM_INF) == 0);
    }
    // Outputs of fixed size: written in place where they hold the channels (rest 0), else refused.
    cv::Scalar m4(9, 9, 9, 9), s4(9, 9, 9, 9), cm4, cs4;
    cro::meanStdDev(img, m4, s4);
    cv::meanStdDev(img, cm4, cs4);
    CHECK((m4 == cm4 && s4 == cs4));
    cv::Vec3d m3, s3, cm3, cs3;
    cro::meanStdDev(img, m3, s3);
    cv::meanStdDev(img, cm3, cs3);
    CHECK((m3 == cm3 && s3 == cs3));
    cv::Vec2d m2, s2;
    same_refusal([&] { cro::meanStdDev(img, m2, s2); }, [&] { cv::meanStdDev(img, m2, s2); }, "Vec2d");
    std::vector<double> mv(5, 9.0), sv(5, 9.0), cmv(5, 9.0), csv(5, 9.0);
    cro::meanStdDev(img, mv, sv);
    cv::meanStdDev(img, cmv, csv);
    CHECK((mv == cmv && sv == csv));
    cv::UMat um(2, 2, CV_64F), us(2, 2, CV_64F);
    cro::meanStdDev(img, um, us);
    CHECK(um.size() == cv::Size(1, 3));
    CHECK(cv::norm(um, cv::Mat(cm3), cv::NORM_INF) == 0);
}

TEST_CASE("clreduce::opencv::reduce of empty arrays along each dim has OpenCV's shape", "[opencv][empty]") {
    // OpenCV makes 1 x cols (dim 0) or rows x 1 (dim 1). Where that is empty OpenCV returns it;
    // where it is not (7 x 0 along dim 1, 0 x 7 along dim 0) OpenCV 4.6 crashes: zeros here.
    for (const cv::Size size : {cv::Size(0, 0), cv::Size(0, 7), cv::Size(7, 0)})
        for (const int type : {CV_8UC1, CV_32FC2, CV_16SC3})
            for (const int dim : {0, 1})
                for (const int rtype : {cv::REDUCE_SUM, cv::REDUCE_AVG, cv::REDUCE_MAX, cv::REDUCE_MIN})
                    for (const bool umat : {false, true}) {
                        const cv::Mat src(size, type);
                        const cv::UMat usrc(size, type);
                        const int dtype = rtype == cv::REDUCE_SUM ? CV_64F : -1;
                        INFO(src.rows << "x" << src.cols << " " << cv::typeToString(type) << " dim " << dim << " rtype "
                                      << rtype << (umat ? " UMat" : " Mat"));
                        cv::Mat ours;
                        cro::reduce(umat ? cv::_InputArray(usrc) : cv::_InputArray(src), ours, dim, rtype, dtype);
                        const cv::Size expected = dim == 0 ? cv::Size(src.cols, 1) : cv::Size(1, src.rows);
                        CHECK(ours.size() == expected);
                        CHECK(ours.type() == CV_MAKETYPE(dtype < 0 ? CV_MAT_DEPTH(type) : dtype, CV_MAT_CN(type)));
                        if (expected.area() > 0) {
                            CHECK(cv::countNonZero(ours.reshape(1)) == 0);
                        } else if (src.rows > 0 || dim == 1) {  // (OpenCV takes seconds for 0 x 0 along dim 0)
                            cv::Mat theirs;
                            try {  // where OpenCV has the combination (not 16-bit means into 16 bits)
                                cv::reduce(src, theirs, dim, rtype, dtype);
                            } catch (const cv::Exception&) {
                                continue;
                            }
                            CHECK((theirs.size() == ours.size() && theirs.type() == ours.type()));
                        }
                    }
    // An empty std::vector is read as OpenCV's getMat() reads it: 0 x 0.
    const std::vector<float> none;
    cv::Mat ours, theirs;
    cro::reduce(none, ours, 1, cv::REDUCE_SUM, CV_64F);
    cv::reduce(none, theirs, 1, cv::REDUCE_SUM, CV_64F);
    CHECK((ours.size() == theirs.size() && ours.type() == theirs.type()));
}

TEST_CASE("clreduce::opencv::minMaxLoc of NaN gives OpenCV's CPU results", "[opencv][nan]") {
    // OpenCV skips NaN; where every pixel that takes part is NaN it gives +inf and -inf at (0, 0)
    // without a mask, 0 and 0 at (-1, -1) with one.
    const std::uint64_t seed = 20261132;
    INFO("seed " << seed);
    cv::RNG rng(seed);
    for (const int depth : {CV_32F, CV_64F})
        for (const cv::Size size : {cv::Size(4, 3), cv::Size(400, 300)})
            for (int pattern = 0; pattern < 4; ++pattern) {
                // The NaN pixels: 0 all; 1 all but the last row (5.0); 2 the first row; 3 random.
                cv::Mat src(size, depth), nan_pixels(size, CV_8U, cv::Scalar(pattern < 2 ? 1 : 0));
                rng.fill(src, cv::RNG::UNIFORM, -1000.0, 1000.0);
                if (pattern == 1) nan_pixels.row(size.height - 1).setTo(0), src.row(size.height - 1).setTo(5.0);
                if (pattern == 2) nan_pixels.row(0).setTo(1);
                if (pattern == 3) rng.fill(nan_pixels, cv::RNG::UNIFORM, 0, 2);
                src.setTo(kNaN, nan_pixels);
                const cv::Mat all(size, CV_8U, cv::Scalar(1));
                for (const int masking : {0, 1, 2}) {  // no mask, every pixel, the NaN pixels only
                    const cv::Mat mask = masking == 0 ? cv::Mat() : masking == 1 ? all : nan_pixels;
                    for (const bool umat : {false, true}) {
                        INFO(cv::typeToString(depth) << " " << size << " pattern " << pattern << " mask " << masking
                                                     << (umat ? " UMat" : " Mat"));
                        const cv::UMat usrc = umat ? src.getUMat(cv::ACCESS_READ) : cv::UMat();
                        const cv::UMat umask = umat ? mask.getUMat(cv::ACCESS_READ) : cv::UMat();
                        const cv::_InputArray in = umat ? cv::_InputArray(usrc) : cv::_InputArray(src);
                        const cv::_InputArray in_mask = mask.empty() ? cv::_InputArray(cv::noArray())
                                                        : umat       ? cv::_InputArray(umask)
                                                                     : cv::_InputArray(mask);
                        double mn = 7, mx = 7, cmn = 0, cmx = 0;
                        cv::Point lmn(5, 5), lmx(5, 5), clmn, clmx;
                        cro::minMaxLoc(in, &mn, &mx, &lmn, &lmx, in_mask);
                        cv::minMaxLoc(src, &cmn, &cmx, &clmn, &clmx, mask);
                        INFO("ours " << mn << " " << mx << " " << lmn << " " << lmx << ", OpenCV's " << cmn << " "
                                     << cmx << " " << clmn << " " << clmx);
                        CHECK((mn == cmn && mx == cmx && lmn == clmn && lmx == clmx));
                        double vmn = 7, vmx = 7;  // the values only (the minmax pass)
                        cro::minMaxIdx(in, &vmn, &vmx, nullptr, nullptr, in_mask);
                        CHECK((vmn == cmn && vmx == cmx));
                    }
                }
            }
    // Several channels read as one, values only.
    const cv::Mat three(5, 6, CV_32FC3, cv::Scalar::all(kNaN));
    double mn = 7, mx = 7, cmn = 0, cmx = 0;
    cro::minMaxIdx(three, &mn, &mx);
    cv::minMaxIdx(three, &cmn, &cmx);
    CHECK((mn == cmn && mx == cmx));
}
