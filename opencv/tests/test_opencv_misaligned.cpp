// cv::Mat over user memory at any byte address (cv::Mat(rows, cols, type, data, step) with
// data not a multiple of the element size) is legal OpenCV: every adapted function must give
// there what it gives for the same pixels in an aligned Mat, at every misalignment
// 1 ... elemSize1() - 1, 1-4 channels, pitched rows, with and without a mask; float results
// the same bits (the same pitch and so the same plan).
#include <catch2/catch.hpp>

#include <clreduce/opencv.hpp>

#include <cstdint>
#include <cstring>
#include <vector>

namespace {

namespace cro = clreduce::opencv;

// A copy of `m` whose pixel (0, 0) lies `shift` bytes past a 64-byte boundary of `storage`,
// rows one element longer than the pixels (a pitched image).
cv::Mat misaligned_copy(const cv::Mat& m, std::size_t shift, std::vector<unsigned char>& storage) {
    const std::size_t step = m.cols * m.elemSize() + m.elemSize1();
    storage.assign(m.rows * step + 128, 0);
    const auto base = reinterpret_cast<std::uintptr_t>(storage.data());
    unsigned char* data = storage.data() + (64 - base % 64) % 64 + shift;
    for (int r = 0; r < m.rows; ++r) std::memcpy(data + r * step, m.ptr(r), m.cols * m.elemSize());
    return cv::Mat(m.rows, m.cols, m.type(), data, step);
}

bool same(const cv::Scalar& a, const cv::Scalar& b) {
    for (int c = 0; c < 4; ++c)
        if (std::memcmp(&a[c], &b[c], sizeof(double)) != 0) return false;
    return true;
}

}  // namespace

TEST_CASE("Mats at every misalignment give the aligned Mat's results", "[opencv][misaligned]") {
    const std::uint64_t seed = 20261129;
    cv::RNG rng(seed);
    for (const int depth : {CV_16U, CV_16S, CV_32S, CV_32F, CV_64F}) {
        for (int channels = 1; channels <= 4; ++channels) {
            cv::Mat pixels(23, 31, CV_MAKETYPE(depth, channels));
            rng.fill(pixels, cv::RNG::UNIFORM, -1000, 1000);
            // The same pixels and pitch at an aligned address: the same plan, so the same bits.
            std::vector<unsigned char> aligned_storage;
            const cv::Mat aligned = misaligned_copy(pixels, 0, aligned_storage);
            cv::Mat mask(pixels.rows, aligned.cols, CV_8UC1);
            rng.fill(mask, cv::RNG::UNIFORM, 0, 2);
            std::vector<unsigned char> storage;
            for (std::size_t shift = 1; shift < aligned.elemSize1(); ++shift) {
                INFO("depth " << depth << ", " << channels << " channel(s), " << shift
                              << " byte(s) past alignment, seed " << seed);
                const cv::Mat m = misaligned_copy(pixels, shift, storage);
                CHECK(same(cro::sum(m), cro::sum(aligned)));
                CHECK(same(cro::mean(m, mask), cro::mean(aligned, mask)));
                cv::Mat mean_a, std_a, mean_b, std_b;
                cro::meanStdDev(m, mean_a, std_a);
                cro::meanStdDev(aligned, mean_b, std_b);
                CHECK(cv::norm(mean_a, mean_b, cv::NORM_INF) == 0);
                CHECK(cv::norm(std_a, std_b, cv::NORM_INF) == 0);
                for (const int type : {cv::NORM_L1, cv::NORM_L2, cv::NORM_INF})
                    CHECK(cro::norm(m, type) == cro::norm(aligned, type));
                for (const int dim : {0, 1}) {
                    cv::Mat a, b;
                    cro::reduce(m, a, dim, cv::REDUCE_SUM, CV_64F);
                    cro::reduce(aligned, b, dim, cv::REDUCE_SUM, CV_64F);
                    CHECK(cv::norm(a, b, cv::NORM_INF) == 0);
                }
                if (channels == 1) {
                    double lo_a = 0, hi_a = 0, lo_b = 0, hi_b = 0;
                    cv::Point at_a, at_b;
                    cro::minMaxLoc(m, &lo_a, &hi_a, &at_a);
                    cro::minMaxLoc(aligned, &lo_b, &hi_b, &at_b);
                    CHECK(lo_a == lo_b);
                    CHECK(hi_a == hi_b);
                    CHECK(at_a == at_b);
                    CHECK(cro::countNonZero(m) == cro::countNonZero(aligned));
                }
            }
        }
    }
}

TEST_CASE("the issue's case: a CV_16SC1 pixel at an odd address", "[opencv][misaligned]") {
    alignas(64) unsigned char buf[64] = {};
    const std::int16_t v = 1000;
    std::memcpy(buf + 17, &v, sizeof v);
    const cv::Mat m(1, 1, CV_16SC1, buf + 17);
    double lo = 0, hi = 0;
    cro::minMaxLoc(m, &lo, &hi);
    CHECK(lo == 1000);
    CHECK(hi == 1000);
}
