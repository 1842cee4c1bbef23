// clreduce::opencv against exact references computed here and against OpenCV's own functions
// on the CPU: every function over every depth, 1-4 channels, continuous and ROI arrays, with
// and without masks, as Mat and as UMat (OpenCV's OpenCL on the default device, which ctest
// points at the CPU with OPENCV_OPENCL_DEVICE=:CPU:), through a pairwise covering array of
// those factors. Integers must equal the exact value; float results are within the bounds
// stated at each check. Bad arguments throw cv::Exception where OpenCV's functions do.
#include <catch2/catch.hpp>

#include "catch_session.hpp"

#include <clreduce/opencv.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <opencv2/core/ocl.hpp>

#include "covering_array.hpp"
#include "reference/exact_float_sum.hpp"
#include "source.hpp"

namespace {

namespace cro = clreduce::opencv;
using clreduce::testing::ExactSum;

const int kDepths[] = {CV_8U, CV_8S, CV_16U, CV_16S, CV_32S, CV_32F, CV_64F};
enum Function { f_sum, f_mean, f_mean_std_dev, f_min_max_loc, f_count_non_zero, f_norm, f_reduce, f_count };
const char* const kFunctionNames[] = {"sum", "mean", "meanStdDev", "minMaxLoc", "countNonZero", "norm", "reduce"};

// Random data of `type` (integers over most of their range, int32 within +-2^20 so that
// OpenCV's double sums stay exact; floats in [-1000, 1000)), seeded.
cv::Mat random_mat(int rows, int cols, int type, std::uint64_t seed) {
    cv::Mat m(rows, cols, type);
    cv::RNG rng(seed);
    switch (CV_MAT_DEPTH(type)) {
        case CV_8U: rng.fill(m, cv::RNG::UNIFORM, 0, 256); break;
        case CV_8S: rng.fill(m, cv::RNG::UNIFORM, -128, 128); break;
        case CV_16U: rng.fill(m, cv::RNG::UNIFORM, 0, 65536); break;
        case CV_16S: rng.fill(m, cv::RNG::UNIFORM, -32768, 32768); break;
        case CV_32S: rng.fill(m, cv::RNG::UNIFORM, -(1 << 20), 1 << 20); break;
        default: rng.fill(m, cv::RNG::UNIFORM, -1000.0, 1000.0); break;
    }
    return m;
}

// The array as exact doubles, channel c of pixel (r, x) at at(r, x * cn + c).
cv::Mat exact(const cv::Mat& m) {
    cv::Mat d;
    m.convertTo(d, CV_64F);
    return d.reshape(1);
}

bool selected(const cv::Mat& mask, int r, int x) { return mask.empty() || mask.at<std::uint8_t>(r, x) != 0; }

bool integer_depth(int depth) { return depth != CV_32F && depth != CV_64F && depth != CV_16F; }

// |ours - exact| <= bound * scale, bound 0 for integer data.
void check_close(double ours, double exact_value, double scale, int depth, const char* what) {
    INFO(what << ": ours " << ours << ", exact " << exact_value);
    if (integer_depth(depth))
        CHECK(ours == exact_value);
    else
        CHECK(std::fabs(ours - exact_value) <= 1e-12 * (scale + std::fabs(exact_value)));
}

struct Case {
    Function function;
    int depth;
    int channels;
    bool roi;
    bool masked;
    bool umat;
    int variant;  // norm type / reduce dim and rtype
};

void run_case(const Case& k, std::uint64_t seed) {
    const int rows = 37, cols = 53;
    const int type = CV_MAKETYPE(k.depth, k.channels);
    const cv::Mat whole = random_mat(rows + 5, cols + 7, type, seed);
    const cv::Mat src = k.roi ? whole(cv::Rect(3, 2, cols, rows)) : whole(cv::Rect(0, 0, cols, rows)).clone();
    REQUIRE(src.isContinuous() == !k.roi);
    cv::Mat mask;
    if (k.masked) {
        mask.create(rows, cols, CV_8U);
        cv::RNG(seed + 1).fill(mask, cv::RNG::UNIFORM, 0, 2);
    }
    cv::UMat usrc, umask;
    if (k.umat) {
        src.copyTo(usrc);
        if (k.masked) mask.copyTo(umask);
    }
    const cv::_InputArray in = k.umat ? cv::_InputArray(usrc) : cv::_InputArray(src);
    const cv::_InputArray in_mask = !k.masked ? cv::_InputArray(cv::noArray())
                                    : k.umat  ? cv::_InputArray(umask)
                                              : cv::_InputArray(mask);
    const cv::Mat x = exact(src);
    const int cn = k.channels;
    // Exact per-channel sums over the selected pixels, their count and sum of |x|.
    std::vector<ExactSum> sums(cn), abs_sums(cn), squares(cn);
    std::uint64_t n = 0;
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            if (!selected(mask, r, c)) continue;
            ++n;
            for (int ch = 0; ch < cn; ++ch) {
                const double v = x.at<double>(r, c * cn + ch);
                sums[ch].add(v);
                abs_sums[ch].add(std::fabs(v));
                squares[ch].add_product(v, v);
            }
        }
    switch (k.function) {
        case f_sum: {
            const cv::Scalar ours = cro::sum(in), theirs = cv::sum(src);
            for (int ch = 0; ch < cn; ++ch) {
                check_close(ours[ch], sums[ch].to_double(), abs_sums[ch].to_double(), k.depth, "sum");
                // OpenCV's float sums: within 1e-6 of the sum of |x| (its blocks add in float).
                CHECK(std::fabs(ours[ch] - theirs[ch]) <=
                      (integer_depth(k.depth) ? 0.0 : 1e-6 * abs_sums[ch].to_double()));
            }
            break;
        }
        case f_mean: {
            const cv::Scalar ours = cro::mean(in, in_mask), theirs = cv::mean(src, mask);
            for (int ch = 0; ch < cn; ++ch) {
                const double e = sums[ch].to_double() / double(n);
                CHECK(std::fabs(ours[ch] - e) <= 1e-14 * (std::fabs(e) + abs_sums[ch].to_double() / double(n)));
                CHECK(std::fabs(ours[ch] - theirs[ch]) <= 1e-6 * (1 + std::fabs(theirs[ch])));
            }
            break;
        }
        case f_mean_std_dev: {
            cv::Scalar m, s, cm, cs;
            cro::meanStdDev(in, m, s, in_mask);
            cv::meanStdDev(src, cm, cs, mask);
            for (int ch = 0; ch < cn; ++ch) {
                // Statistics accumulate in double (shifted sums): 1e-9 relative to the spread.
                CHECK(std::fabs(m[ch] - cm[ch]) <= 1e-9 * (1 + std::fabs(cm[ch]) + cs[ch]));
                CHECK(std::fabs(s[ch] - cs[ch]) <= 1e-9 * (1 + std::fabs(cm[ch]) + cs[ch]));
            }
            break;
        }
        case f_min_max_loc: {
            double mn = 0, mx = 0, cmn = 0, cmx = 0;
            cv::Point lmn, lmx, clmn, clmx;
            cro::minMaxLoc(in, &mn, &mx, &lmn, &lmx, in_mask);
            cv::minMaxLoc(src, &cmn, &cmx, &clmn, &clmx, mask);
            CHECK(mn == cmn);
            CHECK(mx == cmx);
            CHECK(lmn == clmn);  // the first occurrence in row-major order, as OpenCV
            CHECK(lmx == clmx);
            int imn[2], imx[2];
            cro::minMaxIdx(in, nullptr, nullptr, imn, imx, in_mask);
            CHECK(cv::Point(imn[1], imn[0]) == clmn);
            CHECK(cv::Point(imx[1], imx[0]) == clmx);
            double vmn = 0, vmx = 0;  // the values only: the one-pass minmax form
            cro::minMaxIdx(in, &vmn, &vmx, nullptr, nullptr, in_mask);
            CHECK(vmn == cmn);
            CHECK(vmx == cmx);
            break;
        }
        case f_count_non_zero: CHECK(cro::countNonZero(in) == cv::countNonZero(src)); break;
        case f_norm: {
            const int types[] = {cv::NORM_L1, cv::NORM_L2, cv::NORM_L2SQR, cv::NORM_INF};
            const int t = types[k.variant % 4];
            INFO("normType " << t);
            const double ours = cro::norm(in, t, in_mask), theirs = cv::norm(src, t, mask);
            ExactSum l1, l2;
            double inf = 0;
            for (int ch = 0; ch < cn; ++ch) {
                l1.add(abs_sums[ch]);
                l2.add(squares[ch]);
            }
            for (int r = 0; r < rows; ++r)
                for (int c = 0; c < cols * cn; ++c)
                    if (selected(mask, r, c / cn)) inf = std::max(inf, std::fabs(x.at<double>(r, c)));
            const double e = t == cv::NORM_L1      ? l1.to_double()
                             : t == cv::NORM_L2    ? std::sqrt(l2.to_double())
                             : t == cv::NORM_L2SQR ? l2.to_double()
                                                   : inf;
            // Exact where the result is an integer (correctly rounded where it passes 2^53).
            if (t == cv::NORM_INF || (integer_depth(k.depth) && (t == cv::NORM_L1 || t == cv::NORM_L2SQR)))
                CHECK(ours == e);
            else
                CHECK(std::fabs(ours - e) <= 1e-12 * e);
            CHECK(std::fabs(ours - theirs) <= 1e-6 * (1 + theirs));
            break;
        }
        case f_reduce: {
            const int dim = (k.variant + k.channels) % 2;
            const int rtypes[] = {cv::REDUCE_SUM, cv::REDUCE_AVG, cv::REDUCE_MAX, cv::REDUCE_MIN};
            const int rtype = rtypes[k.variant % 4];
            const bool extreme = rtype == cv::REDUCE_MAX || rtype == cv::REDUCE_MIN;
            INFO("dim " << dim << " rtype " << rtype);
            cv::Mat ours;
            cro::reduce(in, ours, dim, rtype, extreme ? -1 : CV_64F);
            REQUIRE(ours.size() == (dim == 0 ? cv::Size(cols, 1) : cv::Size(1, rows)));
            const cv::Mat o = ours.reshape(1);
            const int outer = dim == 0 ? cols : rows, inner = dim == 0 ? rows : cols;
            for (int i = 0; i < outer; ++i)
                for (int ch = 0; ch < cn; ++ch) {
                    ExactSum s, a;
                    double best = rtype == cv::REDUCE_MAX ? -INFINITY : INFINITY;
                    for (int j = 0; j < inner; ++j) {
                        const double v = dim == 0 ? x.at<double>(j, i * cn + ch) : x.at<double>(i, j * cn + ch);
                        s.add(v);
                        a.add(std::fabs(v));
                        best = rtype == cv::REDUCE_MAX ? std::max(best, v) : std::min(best, v);
                    }
                    cv::Mat got;
                    o.convertTo(got, CV_64F);
                    const double g = dim == 0 ? got.at<double>(0, i * cn + ch) : got.at<double>(i, ch);
                    if (extreme)
                        CHECK(g == best);
                    else if (rtype == cv::REDUCE_SUM)
                        check_close(g, s.to_double(), a.to_double(), k.depth, "reduce sum");
                    else
                        CHECK(std::fabs(g - s.to_double() / inner) <= 1e-14 * (a.to_double() / inner));
                }
            // OpenCV where it has the combination (it refuses some: its result is then not compared).
            cv::Mat theirs;
            try {
                cv::reduce(src, theirs, dim, rtype, extreme ? -1 : CV_64F);
            } catch (const cv::Exception&) {
                break;
            }
            // Integer sums and extremes exact in both; means (OpenCV multiplies by 1 / n) and
            // float sums within 1e-6.
            const bool exact_both = integer_depth(k.depth) && rtype != cv::REDUCE_AVG;
            CHECK(cv::norm(ours, theirs, cv::NORM_INF) <=
                  (exact_both ? 0.0 : 1e-6 * (1 + cv::norm(theirs, cv::NORM_INF))));
            break;
        }
        case f_count: break;
    }
}

}  // namespace

TEST_CASE("clreduce::opencv equals the exact values and OpenCV's", "[opencv]") {
    // factors: function, depth, channels, ROI, mask, UMat, variant
    const std::vector<std::size_t> levels{f_count, std::size(kDepths), 4, 2, 2, 2, 4};
    const std::uint64_t seed = 20261127;
    const auto allowed = [](std::size_t a, std::size_t x, std::size_t b, std::size_t y) {
        // countNonZero and minMaxLoc take one channel; countNonZero, sum and reduce no mask.
        if (a == 0 && b == 2 && (x == f_count_non_zero || x == f_min_max_loc)) return y == 0;
        if (a == 0 && b == 4 && (x == f_count_non_zero || x == f_sum || x == f_reduce)) return y == 0;
        return true;
    };
    const auto rows = clreduce::test::pairwise_rows(levels, seed, allowed);
    const bool opencl = cv::ocl::useOpenCL();
    INFO("seed " << seed << ", " << rows.size() << " rows; OpenCV's OpenCL " << (opencl ? "on" : "off"));
    for (const auto& row : rows) {
        const Case k{Function(row[0]), kDepths[row[1]], int(row[2]) + 1, row[3] == 1,
                     row[4] == 1,      row[5] == 1,     int(row[6])};
        INFO(kFunctionNames[k.function] << " depth " << k.depth << " x" << k.channels << (k.roi ? " ROI" : "")
                                        << (k.masked ? " masked" : "") << (k.umat ? " UMat" : " Mat") << " variant "
                                        << k.variant);
        run_case(k, seed + row[1] * 16 + row[2]);
    }
}

TEST_CASE("clreduce::opencv reduces a UMat in place on OpenCV's context and queue", "[opencv]") {
    if (!cv::ocl::useOpenCL())
        FAIL("OpenCV's OpenCL is off: set OPENCV_OPENCL_DEVICE (ctest sets :CPU:) to test the UMat path");
    cv::UMat u(300, 200, CV_32SC2);
    cv::randu(u, -1000, 1000);
    const clreduce::Reducer& r = cro::reducer_for(u);
    CHECK(r.context()() == static_cast<cl_context>(cv::ocl::Context::getDefault().ptr()));
    CHECK(r.queue()() == static_cast<cl_command_queue>(cv::ocl::Queue::getDefault().ptr()));
    CHECK(&r != &cro::reducer_for(u.getMat(cv::ACCESS_READ)));
    const cv::UMat roi = u(cv::Rect(5, 7, 100, 150));  // an offset into the same buffer
    cv::Scalar expected, expected_roi;
    {
        // (A UMat mapped to the host is read through the mapping, by the default device's
        // Reducer: the Mats go first, so that the calls below run on OpenCV's queue.)
        const cv::Mat host = u.getMat(cv::ACCESS_READ);
        expected = cv::sum(host);
        expected_roi = cv::sum(host(cv::Rect(5, 7, 100, 150)));
    }
    const cv::Scalar first = cro::sum(u);
    // The ROI's first call may plan another shape (its size and pitch differ): repeated calls
    // of both then build and allocate nothing.
    CHECK(cro::sum(roi) == expected_roi);
    const clreduce::Counters before = r.counters();
    CHECK(cro::sum(u) == first);
    CHECK(cro::sum(roi) == expected_roi);
    const clreduce::Counters after = r.counters();
    CHECK(after.buffers_allocated == before.buffers_allocated);  // nothing copied or allocated
    CHECK(after.programs_built + after.programs_loaded == before.programs_built + before.programs_loaded);
    CHECK(first == expected);
}

TEST_CASE("clreduce::opencv: empty arrays and masks that select nothing, as OpenCV", "[opencv]") {
    const cv::Mat empty;
    CHECK(cro::sum(empty) == cv::Scalar());
    CHECK(cro::mean(empty) == cv::Scalar());
    CHECK(cro::countNonZero(cv::Mat(0, 0, CV_8U)) == 0);
    CHECK(cro::norm(cv::Mat(0, 0, CV_8U)) == 0);
    CHECK_THROWS_AS(cro::meanStdDev(cv::Mat(0, 0, CV_8U), cv::noArray(), cv::noArray()), cv::Exception);
    double mn = 7, mx = 7;
    cv::Point a(5, 5), b(5, 5);
    cro::minMaxLoc(cv::Mat(0, 0, CV_8U), &mn, &mx, &a, &b);
    CHECK((mn == 0 && mx == 0 && a == cv::Point(-1, -1) && b == cv::Point(-1, -1)));
    const cv::Mat img(4, 6, CV_16UC1, cv::Scalar(3)), none(4, 6, CV_8U, cv::Scalar(0));
    CHECK(cro::mean(img, none) == cv::mean(img, none));
    cv::Scalar m(9), s(9);
    cro::meanStdDev(img, m, s, none);
    CHECK((m == cv::Scalar() && s == cv::Scalar()));
    cro::minMaxLoc(img, &mn, &mx, &a, &b, none);
    CHECK((mn == 0 && mx == 0 && a == cv::Point(-1, -1) && b == cv::Point(-1, -1)));
    mn = mx = 7;
    cro::minMaxIdx(img, &mn, &mx, nullptr, nullptr, none);  // the values only
    CHECK((mn == 0 && mx == 0));
    // The same on the device (a UMat and its mask).
    const cv::UMat img_umat = img.getUMat(cv::ACCESS_READ), none_umat = none.getUMat(cv::ACCESS_READ);
    m = s = cv::Scalar(9);
    cro::meanStdDev(img_umat, m, s, none_umat);
    CHECK((m == cv::Scalar() && s == cv::Scalar()));
    mn = mx = 7;
    a = b = cv::Point(5, 5);
    cro::minMaxLoc(img_umat, &mn, &mx, &a, &b, none_umat);
    CHECK((mn == 0 && mx == 0 && a == cv::Point(-1, -1) && b == cv::Point(-1, -1)));
    CHECK(cro::norm(img, cv::NORM_INF, none) == 0);
    cv::Mat d;
    cro::reduce(cv::Mat(0, 0, CV_8U), d, 0, cv::REDUCE_SUM, CV_32S);
    CHECK(d.size() == cv::Size(0, 1));
}

TEST_CASE("clreduce::opencv refuses bad arguments with cv::Exception, as OpenCV", "[opencv]") {
    const cv::Mat img(4, 6, CV_8UC1, cv::Scalar(3));
    const cv::Mat small_mask(3, 6, CV_8U, cv::Scalar(1)), wide_mask(4, 6, CV_16U, cv::Scalar(1)),
        two_channel_mask(4, 6, CV_8UC2, cv::Scalar(1));
    for (const cv::Mat* bad : {&small_mask, &wide_mask, &two_channel_mask}) {
        INFO("mask " << cv::typeToString(bad->type()) << " " << bad->size());
        CHECK_THROWS_AS(cv::mean(img, *bad), cv::Exception);  // OpenCV's own refusal
        CHECK_THROWS_AS(cro::mean(img, *bad), cv::Exception);
        CHECK_THROWS_AS(cro::meanStdDev(img, cv::noArray(), cv::noArray(), *bad), cv::Exception);
        CHECK_THROWS_AS(cro::minMaxLoc(img, nullptr, nullptr, nullptr, nullptr, *bad), cv::Exception);
        CHECK_THROWS_AS(cro::norm(img, cv::NORM_L1, *bad), cv::Exception);
    }
    CHECK_THROWS_WITH(cro::mean(img, small_mask), Catch::Contains("the mask is 6x3, the array 6x4"));
    CHECK_THROWS_WITH(cro::mean(img, wide_mask), Catch::Contains("the mask must be CV_8UC1, got CV_16UC1"));
    const cv::Mat five(4, 6, CV_8UC(5));
    CHECK_THROWS_AS(cv::sum(five), cv::Exception);
    CHECK_THROWS_WITH(cro::sum(five), Catch::Contains("1 to 4 channels are supported, got 5"));
    CHECK_THROWS_WITH(cro::countNonZero(cv::Mat(4, 6, CV_8UC3)), Catch::Contains("one channel, it has 3"));
    CHECK_THROWS_WITH(cro::minMaxLoc(cv::Mat(4, 6, CV_8UC3), nullptr, nullptr, nullptr, nullptr, img),
                      Catch::Contains("neither a mask nor locations"));
    CHECK_THROWS_WITH(cro::norm(img, cv::NORM_HAMMING), Catch::Contains("normType must be"));
    cv::Mat d;
    CHECK_THROWS_WITH(cro::reduce(img, d, 2, cv::REDUCE_SUM), Catch::Contains("dim must be 0 or 1"));
    CHECK_THROWS_WITH(cro::reduce(img, d, 0, 99), Catch::Contains("unknown reduction type 99"));
    const int sizes[] = {2, 3, 4};
    CHECK_THROWS_WITH(cro::sum(cv::Mat(3, sizes, CV_8U, cv::Scalar(1))), Catch::Contains("more than 2 dimensions"));
    CHECK_THROWS_WITH(clreduce::opencv::element_type_of(CV_16F + 1), Catch::Contains("unsupported depth"));
    // CV_16F: reduced where the device has cl_khr_fp16, else clreduce::Unsupported names it.
    cv::Mat h;
    cv::Mat(4, 6, CV_32F, cv::Scalar(1.5)).convertTo(h, CV_16F);
    if (cro::reducer_for(h).device_info().has_fp16)
        CHECK(cro::sum(h)[0] == 36.0);
    else
        CHECK_THROWS_WITH(cro::sum(h), Catch::Contains("cl_khr_fp16"));
}

TEST_CASE("clreduce::opencv::minMaxIdx of a multi-channel array's values equals OpenCV's", "[opencv]") {
    // Without mask and locations, the channels are read as one (one minmax pass).
    for (const int type : {CV_8UC3, CV_32FC2, CV_16SC4}) {
        const cv::Mat src = random_mat(17, 29, type, 45);
        INFO(cv::typeToString(type));
        double mn = 0, mx = 0, cmn = 0, cmx = 0;
        cro::minMaxIdx(src, &mn, &mx);
        cv::minMaxIdx(src, &cmn, &cmx);
        CHECK(mn == cmn);
        CHECK(mx == cmx);
        cro::minMaxIdx(src.getUMat(cv::ACCESS_READ), &mn, &mx);
        CHECK(mn == cmn);
        CHECK(mx == cmx);
    }
}

TEST_CASE("clreduce::opencv::reduce of a multi-channel ROI along both dimensions equals OpenCV's", "[opencv]") {
    // The rows of a multi-channel array are one segmented call each, from each row's start.
    const cv::Mat whole = random_mat(19, 23, CV_8UC3, 44);
    const cv::Mat roi = whole(cv::Rect(2, 3, 17, 13));
    cv::UMat uwhole;
    whole.copyTo(uwhole);
    const cv::UMat uroi = uwhole(cv::Rect(2, 3, 17, 13));
    for (const int dim : {0, 1})
        for (const int rtype : {cv::REDUCE_SUM, cv::REDUCE_MAX}) {
            INFO("dim " << dim << " rtype " << rtype);
            const int dtype = rtype == cv::REDUCE_SUM ? CV_32S : -1;
            cv::Mat theirs, ours, ours_umat;
            cv::reduce(roi, theirs, dim, rtype, dtype);
            cro::reduce(roi, ours, dim, rtype, dtype);
            cro::reduce(uroi, ours_umat, dim, rtype, dtype);
            REQUIRE(ours.type() == theirs.type());
            CHECK(cv::norm(ours, theirs, cv::NORM_INF) == 0);
            CHECK(cv::norm(ours_umat, theirs, cv::NORM_INF) == 0);
        }
}

int main(int argc, char** argv) { return clreduce::test::run_catch_session(argc, argv); }
