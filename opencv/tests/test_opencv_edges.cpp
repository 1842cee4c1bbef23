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
