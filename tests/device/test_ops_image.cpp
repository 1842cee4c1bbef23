// Images: 2-D input with a row pitch and 1-4 interleaved channels, per-channel results like
// cv::sum / cv::mean, norms like cv::norm; bad layouts refused.
#include <string>
#include <vector>

#include "test_ops_support.hpp"

namespace clreduce::test {
namespace {

template <class T>
void check_image(std::uint64_t rows, std::uint64_t cols, std::uint32_t channels, std::uint64_t pad_elements,
                 std::uint64_t offset_elements, const LaunchParams& params = {}) {
    using namespace clreduce::testing;
    Reducer& r = reducer();
    const std::uint64_t row_elements = cols * channels + pad_elements;
    const std::uint64_t step = row_elements * sizeof(T);
    const auto storage = op_values<T>(offset_elements + rows * row_elements, seed_for(rows, cols, channels));
    const cl::Buffer buffer = device_copy(r, storage);
    const T* data = storage.data() + offset_elements;
    Image image;
    image.rows = rows;
    image.cols = cols;
    image.channels = channels;
    image.step = step;
    image.offset = offset_elements * sizeof(T);
    INFO(rows << " x " << cols << " x " << channels << " step " << step << " offset " << image.offset);
    const ImageShape shape{rows, cols, int(channels), step};

    const auto sums = r.sum<T>(buffer, image, params);
    const auto host_sums = r.sum<T>(data, Image{rows, cols, channels, step, 0}, params);
    const auto means = r.mean<T>(buffer, image, params);
    const auto mins = r.min<T>(buffer, image, params);
    const auto maxs = r.max<T>(buffer, image, params);
    const auto counts = r.count_nonzero<T>(buffer, image, params);
    const auto cv_sums = cv_sum(data, shape);
    const auto cv_means = cv_mean(data, shape);
    for (std::uint32_t c = 0; c < 4; ++c) {
        INFO("channel " << c);
        if (c >= channels) {
            CHECK(sums[c] == 0);
            CHECK(counts[c] == 0);
            continue;
        }
        const auto plane = extract_channel(data, rows, cols, int(channels), step, int(c));
        const std::uint64_t n = plane.size();
        if constexpr (std::is_integral_v<T>)
            CHECK(sums[c] == wrapped_sum<sum_type_t<T>>(plane.data(), n));
        else
            check_approx(reference_sum(plane.data(), n, std::ldexp(1.0L, -53)), sums[c], "sum");
        CHECK(host_sums[c] == sums[c]);
        CHECK(mins[c] == reference_min(plane.data(), n).value);
        CHECK(maxs[c] == reference_max(plane.data(), n).value);
        CHECK(counts[c] == reference_count_nonzero(plane.data(), n));
        check_approx(reference_mean(plane.data(), n, std::ldexp(1.0L, -53)), means[c], "mean");
        if (cv_sums) CHECK(std::fabs(double(sums[c]) - (*cv_sums)[c]) <= 1e-6 * (1 + std::fabs((*cv_sums)[c])));
        if (cv_means) CHECK(std::fabs(means[c] - (*cv_means)[c]) <= 1e-6 * (1 + std::fabs((*cv_means)[c])));
    }
    for (auto [op, kind] : {std::pair{Operation::norm_l1, CvNorm::l1}, std::pair{Operation::norm_l2, CvNorm::l2},
                            std::pair{Operation::norm_inf, CvNorm::inf}}) {
        const double got = r.norm<T>(buffer, image, op);
        INFO(operation_name(op) << " = " << got);
        if (auto cv = cv_norm(data, shape, kind)) CHECK(std::fabs(got - *cv) <= 1e-6 * (1 + *cv));
        CHECK(r.norm<T>(data, Image{rows, cols, channels, step, 0}, op) == got);
    }
}

}  // namespace

TEMPLATE_TEST_CASE("images: per-channel results with a row pitch match the references and OpenCV", "[ops][image]",
                   std::uint8_t, std::int32_t, double) {
    print_seed();
    if (std::is_same_v<TestType, double> && !reducer().device_info().has_fp64) return;
    for (std::uint32_t channels = 1; channels <= 4; ++channels) {
        check_image<TestType>(37, 53, channels, 3, 5);  // padded rows, misaligned start
    }
    check_image<TestType>(1, 1, 1, 0, 0);
    check_image<TestType>(300, 41, 3, 0, 0);  // packed rows, several groups
    check_image<TestType>(2, 33, 4, 1, 1);
    // Rows narrower than a loop's step, so that each step crosses rows (the kernels walk a
    // pixel's row and column by a row step and a column step): global and local stride.
    LaunchParams narrow_rows;
    narrow_rows.times = 4;
    narrow_rows.work_group_size = 8;
    for (Stride stride : {Stride::global, Stride::local}) {
        narrow_rows.stride = stride;
        INFO("times 4, groups of 8, " << to_string(stride) << " stride");
        check_image<TestType>(500, 3, 2, 1, 0, narrow_rows);
    }
}

TEST_CASE("images: bad layouts get clear errors", "[ops][image][errors]") {
    Reducer& r = reducer();
    const std::vector<float> host(1000, 1.0f);
    const cl::Buffer buffer = device_copy(r, host);
    const auto message = [&](Image image) {
        try {
            r.sum<float>(buffer, image);
        } catch (const InvalidArgument& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK_THAT(message(Image{10, 10, 0, 0, 0}), Catch::Contains("channels must be 1 to 4"));
    CHECK_THAT(message(Image{10, 10, 5, 0, 0}), Catch::Contains("channels must be 1 to 4"));
    CHECK_THAT(message(Image{10, 10, 2, 40, 0}), Catch::Contains("smaller than a row"));
    CHECK_THAT(message(Image{10, 10, 1, 42, 0}), Catch::Contains("multiples of the element size"));
    CHECK_THAT(message(Image{10, 10, 1, 0, 2}), Catch::Contains("multiples of the element size"));
    CHECK_THAT(message(Image{10, 101, 1, 0, 0}), Catch::Contains("past the end"));
    CHECK_THAT(message(Image{1, 10, 1, 0, 3996}), Catch::Contains("past the end"));
    CHECK_THAT(message(Image{1ull << 40, 1ull << 40, 4, 0, 0}), Catch::Contains("too large"));
    CHECK_THROWS_AS(r.sum<float>(host.data(), Image{10, 10, 1, 0, 4}), InvalidArgument);
    CHECK_THROWS_AS(r.sum<float>(nullptr, Image{10, 10, 1, 0, 0}), InvalidArgument);
    CHECK_THROWS_AS(r.norm<float>(buffer, Image{10, 10, 1, 0, 0}, Operation::sum), InvalidArgument);
    CHECK_THROWS_AS(r.min<float>(buffer, Image{0, 10, 1, 0, 0}), InvalidArgument);
    CHECK(r.sum<float>(buffer, Image{0, 10, 2, 0, 0}) == Channels<double>{});
    CHECK(r.sum<float>(buffer, Image{10, 10, 1, 0, 0})[0] == 100.0);
}

}  // namespace clreduce::test
