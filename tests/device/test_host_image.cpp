// Host images on the host path (exec/host_order_free_image.cpp): every order-free operation of
// every type, 1 to 4 channels, pitched and dense rows, rows wider than a chunk of pixels, with
// and without a mask (one that selects nothing too), against each channel's plane reduced as a
// range (the same bits, an index the pixel's own, or both refused), and CallInfo saying where
// the host data ran; then a
// few of them against the same image in a buffer on the device (each shape and operation
// there is a kernel to build, so a few).
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

#include "test_ops_support.hpp"

namespace clreduce::test {
namespace {

struct ImageCase {
    std::uint64_t rows, cols;
    std::uint32_t channels;
    std::uint64_t pad;  // elements after each row
};

template <class T>
void check_value(const T& got, const T& want) {
    CHECK(same_bits(got, want));
}
template <class T>
void check_value(const ArgResult<T>& got, const ArgResult<T>& want) {
    CHECK(same_bits(got.value, want.value));
    CHECK(got.index == want.index);
}
template <class T>
void check_value(const ArgMinMax<T>& got, const ArgMinMax<T>& want) {
    check_value(got.min, want.min);
    check_value(got.max, want.max);
}
template <class T>
void check_value(const MinMax<T>& got, const MinMax<T>& want) {
    CHECK(same_bits(got.min, want.min));
    CHECK(same_bits(got.max, want.max));
}

// Channel c's elements of the pixels `mask` selects (all without one), in row-major order, and
// each one's pixel index in the image.
template <class T>
std::vector<T> channel_plane(const std::vector<T>& values, const ImageCase& k, std::uint32_t c,
                             const std::vector<std::uint8_t>* mask, std::uint64_t mask_step,
                             std::vector<std::uint64_t>& pixels) {
    std::vector<T> plane;
    pixels.clear();
    for (std::uint64_t y = 0; y < k.rows; ++y)
        for (std::uint64_t x = 0; x < k.cols; ++x)
            if (mask == nullptr || (*mask)[y * mask_step + x] != 0) {
                plane.push_back(values[y * (k.cols * k.channels + k.pad) + x * k.channels + c]);
                pixels.push_back(y * k.cols + x);
            }
    return plane;
}

// A range result's indices (among the pixels the mask selected) made the pixels' own.
template <class R>
void to_pixels(R&, const std::vector<std::uint64_t>&) {}
template <class T>
void to_pixels(ArgResult<T>& r, const std::vector<std::uint64_t>& pixels) {
    r.index = pixels.at(r.index);
}
template <class T>
void to_pixels(ArgMinMax<T>& r, const std::vector<std::uint64_t>& pixels) {
    to_pixels(r.min, pixels);
    to_pixels(r.max, pixels);
}

// One operation of the host image against each channel's plane reduced as a range on the host
// (the order-free passes test_host_path.cpp checks against the device for every operation and
// type): the same results or both refused, and the image call ran on the host.
template <Operation Op, class T>
void check_host_image(Reducer& r, const std::vector<T>& values, const ImageCase& k, const Image& image,
                      const std::vector<std::uint8_t>* mask, std::uint64_t mask_step) {
    INFO(operation_name(Op));
    CallInfo call;
    std::string error;
    Channels<result_t<Op, T>> got{};
    try {
        got = r.reduce<Op, T>(values.data(), image, {}, &call);
    } catch (const std::exception& e) {
        error = e.what();
    }
    // One call gives every channel: refused where any channel's range is.
    Channels<result_t<Op, T>> want{};
    std::string range_error;
    for (std::uint32_t c = 0; c < k.channels; ++c) {
        std::vector<std::uint64_t> pixels;
        const std::vector<T> plane = channel_plane(values, k, c, mask, mask_step, pixels);
        CallInfo range_call;
        try {
            want[c] = r.reduce<Op, T>(plane.data(), plane.size(), {}, &range_call);
            to_pixels(want[c], pixels);
            CHECK(range_call.plan.on_host);
        } catch (const std::exception& e) {
            range_error = e.what();
        }
    }
    INFO("image: " << error << "; a channel's range: " << range_error);
    CHECK(error.empty() == range_error.empty());
    if (!error.empty() || !range_error.empty()) return;
    CHECK(call.plan.on_host);
    for (std::uint32_t c = 0; c < k.channels; ++c) {
        INFO("channel " << c);
        check_value(got[c], want[c]);
    }
}

template <class T>
void check_host_image_shapes(Reducer& r) {
    const std::vector<ImageCase> cases{{37, 53, 3, 5},  {5, 4100, 1, 3}, {300, 20, 4, 0},
                                       {1, 9000, 2, 0}, {200, 64, 1, 0}, {64, 33, 2, 1}};
    for (const ImageCase& k : cases) {
        const std::uint64_t row_elements = k.cols * k.channels + k.pad;
        const std::uint64_t seed = seed_for(sizeof(T), k.rows * k.cols, k.channels);
        INFO(type_name(element_traits<T>::type)
             << ", " << k.rows << " x " << k.cols << " x " << k.channels << " pad " << k.pad << ", data seed " << seed);
        const std::vector<T> values = edge_values<T>(k.rows * row_elements, seed, 1);
        const Image image{k.rows, k.cols, k.channels, row_elements * sizeof(T), 0};
        // Masks with a pitch of their own: about two pixels in three, and none.
        const std::uint64_t mask_step = k.cols + 2;
        std::mt19937_64 rng(seed);
        std::vector<std::uint8_t> some(k.rows * mask_step), none(k.rows * mask_step, 0);
        for (auto& b : some) b = std::uint8_t(rng() % 3 == 0 ? 0 : 1 + rng() % 255);
        for (int masked = 0; masked < 3; ++masked) {
            INFO((masked == 0 ? "no mask" : masked == 1 ? "a mask" : "a mask that selects nothing"));
            const std::vector<std::uint8_t>* bytes = masked == 0 ? nullptr : masked == 1 ? &some : &none;
            ImageMask host_mask;
            host_mask.data = masked == 0 ? nullptr : bytes->data();
            host_mask.step = mask_step;
            Image masked_image = image;
            if (masked != 0) masked_image.mask = &host_mask;
            // (Float sums and float extremes run on the device.)
            check_host_image<Operation::argmin, T>(r, values, k, masked_image, bytes, mask_step);
            check_host_image<Operation::argmax, T>(r, values, k, masked_image, bytes, mask_step);
            check_host_image<Operation::argminmax, T>(r, values, k, masked_image, bytes, mask_step);
            check_host_image<Operation::count_nonzero, T>(r, values, k, masked_image, bytes, mask_step);
            check_host_image<Operation::any, T>(r, values, k, masked_image, bytes, mask_step);
            check_host_image<Operation::all, T>(r, values, k, masked_image, bytes, mask_step);
            if constexpr (std::is_integral_v<T>) {
                check_host_image<Operation::sum, T>(r, values, k, masked_image, bytes, mask_step);
                check_host_image<Operation::mean, T>(r, values, k, masked_image, bytes, mask_step);
                check_host_image<Operation::min, T>(r, values, k, masked_image, bytes, mask_step);
                check_host_image<Operation::minmax, T>(r, values, k, masked_image, bytes, mask_step);
                check_host_image<Operation::norm_inf, T>(r, values, k, masked_image, bytes, mask_step);
                if (sizeof(T) < 8)
                    check_host_image<Operation::norm_l2, T>(r, values, k, masked_image, bytes, mask_step);
                check_host_image<Operation::bit_xor, T>(r, values, k, masked_image, bytes, mask_step);
                check_host_image<Operation::product, T>(r, values, k, masked_image, bytes, mask_step);
            }
        }
    }
}

}  // namespace

TEMPLATE_TEST_CASE("host images (channels, pitch, masks) on the host give each channel's range result",
                   "[host-path][image]", std::int8_t, std::uint8_t, std::uint16_t, std::int32_t, std::int64_t, float,
                   double) {
    check_host_image_shapes<TestType>(reducer());
}

// One operation of a host image against the same image in a buffer: the same bits, and where
// the host data ran.
template <Operation Op, class T>
void check_against_buffer(Reducer& r, const std::vector<T>& values, const cl::Buffer& buffer, const Image& host_image,
                          const Image& buffer_image, bool expect_on_host) {
    INFO(operation_name(Op));
    CallInfo call;
    const auto got = r.reduce<Op, T>(values.data(), host_image, {}, &call);
    const auto want = r.reduce<Op, T>(buffer, buffer_image);
    CHECK(call.plan.on_host == expect_on_host);
    for (std::uint32_t c = 0; c < host_image.channels; ++c) {
        INFO("channel " << c);
        check_value(got[c], want[c]);
    }
}

TEST_CASE("host images on the host give the device's bits", "[host-path][image]") {
    Reducer& r = reducer();
    {  // 8-bit, 3 channels, pitched, with a pitched mask
        const ImageCase k{41, 67, 3, 7};
        const std::uint64_t seed = seed_for(41, 67, 3);
        INFO("uint8 41 x 67 x 3, data seed " << seed);
        const std::vector<std::uint8_t> values = edge_values<std::uint8_t>(k.rows * (k.cols * 3 + k.pad), seed, 1);
        const cl::Buffer buffer = device_copy(r, values);
        std::vector<std::uint8_t> mask(k.rows * (k.cols + 5));
        for (std::size_t b = 0; b < mask.size(); ++b) mask[b] = std::uint8_t((b * 7 + seed) % 5 != 0);
        const cl::Buffer mask_buffer = device_copy(r, mask);
        ImageMask host_mask, buffer_mask;
        host_mask.data = mask.data();
        host_mask.step = k.cols + 5;
        buffer_mask.buffer = mask_buffer;
        buffer_mask.step = k.cols + 5;
        Image image{k.rows, k.cols, 3, k.cols * 3 + k.pad, 0};
        check_against_buffer<Operation::sum, std::uint8_t>(r, values, buffer, image, image, true);
        check_against_buffer<Operation::argmax, std::uint8_t>(r, values, buffer, image, image, true);
        Image host_masked = image, buffer_masked = image;
        host_masked.mask = &host_mask;
        buffer_masked.mask = &buffer_mask;
        check_against_buffer<Operation::sum, std::uint8_t>(r, values, buffer, host_masked, buffer_masked, true);
        check_against_buffer<Operation::min, std::uint8_t>(r, values, buffer, host_masked, buffer_masked, true);
        check_against_buffer<Operation::argmin, std::uint8_t>(r, values, buffer, host_masked, buffer_masked, true);
        check_against_buffer<Operation::argminmax, std::uint8_t>(r, values, buffer, host_masked, buffer_masked, true);
    }
    {  // int32, one channel, rows wider than a chunk of pixels, pitched
        const std::uint64_t rows = 6, cols = 4100, row_elements = cols + 3;
        const std::uint64_t seed = seed_for(6, 4100, 1);
        INFO("int32 6 x 4100, data seed " << seed);
        const std::vector<std::int32_t> values = edge_values<std::int32_t>(rows * row_elements, seed, 1);
        const cl::Buffer buffer = device_copy(r, values);
        const Image image{rows, cols, 1, row_elements * sizeof(std::int32_t), 0};
        check_against_buffer<Operation::argminmax, std::int32_t>(r, values, buffer, image, image, true);
        check_against_buffer<Operation::sum, std::int32_t>(r, values, buffer, image, image, true);
        check_against_buffer<Operation::bit_xor, std::int32_t>(r, values, buffer, image, image, true);
    }
    {  // float, 2 channels: indexed on the host, sums on the device
        const std::uint64_t rows = 90, cols = 45;
        const std::uint64_t seed = seed_for(90, 45, 2);
        INFO("float 90 x 45 x 2, data seed " << seed);
        const std::vector<float> values = edge_values<float>(rows * cols * 2, seed, 1);
        const cl::Buffer buffer = device_copy(r, values);
        const Image image{rows, cols, 2, cols * 2 * sizeof(float), 0};
        check_against_buffer<Operation::argmin, float>(r, values, buffer, image, image, true);
        check_against_buffer<Operation::count_nonzero, float>(r, values, buffer, image, image, true);
        check_against_buffer<Operation::sum, float>(r, values, buffer, image, image, false);
    }
}

TEST_CASE("host images: an extreme in a later band of rows and a later chunk of a row has its pixel's index",
          "[host-path][image]") {
    Reducer& r = reducer();
    // 200 rows of 4100 pixels, 3 channels of int32 (9.8 MB: the host's threads take bands of
    // rows; a row is read in chunks of 4096 pixels), values 10-99, then one smallest value in
    // a middle band's second chunk and one largest in the last row's.
    const std::uint64_t rows = 200, cols = 4100, pad = 5, row_elements = cols * 3 + pad;
    const std::uint64_t seed = seed_for(200, 4100, 3);
    INFO("data seed " << seed);
    std::mt19937_64 rng(seed);
    std::vector<std::int32_t> values(rows * row_elements);
    for (auto& v : values) v = std::int32_t(10 + rng() % 90);
    const std::uint64_t low_pixel = 150 * cols + 4099, high_pixel = 199 * cols + 4097;
    values[150 * row_elements + 4099 * 3 + 2] = 1;
    values[199 * row_elements + 4097 * 3 + 0] = 100;
    const Image image{rows, cols, 3, row_elements * sizeof(std::int32_t), 0};
    CallInfo call;
    const auto both = r.argminmax<std::int32_t>(values.data(), image, {}, &call);
    CHECK(call.plan.on_host);
    CHECK(both[2].min.value == 1);
    CHECK(both[2].min.index == low_pixel);
    CHECK(both[0].max.value == 100);
    CHECK(both[0].max.index == high_pixel);
    CHECK(r.argmin<std::int32_t>(values.data(), image)[2].index == low_pixel);
    CHECK(r.argmax<std::int32_t>(values.data(), image)[0].index == high_pixel);

    // With a mask that selects no pixel of the first 120 rows (whole bands take none), every
    // third pixel from there on but the planted ones' neighbours, which hold a smaller and a
    // larger value the mask leaves out.
    std::vector<std::uint8_t> mask(rows * cols, 0);
    for (std::uint64_t p = 120 * cols; p < rows * cols; ++p) mask[p] = p % 3 == 0 ? 1 : 0;
    mask[low_pixel] = mask[high_pixel] = 1;
    mask[low_pixel - 1] = mask[high_pixel - 1] = 0;
    values[150 * row_elements + 4098 * 3 + 2] = 0;
    values[199 * row_elements + 4096 * 3 + 0] = 101;
    ImageMask host_mask;
    host_mask.data = mask.data();
    Image masked = image;
    masked.mask = &host_mask;
    CallInfo masked_call;
    const auto masked_both = r.argminmax<std::int32_t>(values.data(), masked, {}, &masked_call);
    CHECK(masked_call.plan.on_host);
    CHECK(masked_both[2].min.value == 1);
    CHECK(masked_both[2].min.index == low_pixel);
    CHECK(masked_both[0].max.value == 100);
    CHECK(masked_both[0].max.index == high_pixel);
    // The first selected pixel holds every channel's first value among the selected ones.
    const auto first = r.argmax<std::int32_t>(values.data(), masked)[1];
    CHECK(first.index >= 120 * cols);
    CHECK(mask[first.index] == 1);
}

TEST_CASE("host images: 8- and 16-bit sums past 2^16 terms a lane stay exact", "[host-path][image]") {
    Reducer& r = reducer();
    // One row of 3,200,000 elements: each of the fold's 48 lanes takes 66,667, so a 32-bit lane
    // would wrap without its flush every 2^16 terms.
    const std::uint64_t pixels = 1600000;
    const std::vector<std::uint16_t> full(pixels * 2, 65535);
    const auto sums = r.sum<std::uint16_t>(full.data(), Image{1, pixels, 2, 0, 0});
    CHECK(sums[0] == pixels * 65535);
    CHECK(sums[1] == pixels * 65535);
    const std::vector<std::int8_t> low(pixels * 2, -128);
    std::vector<std::uint8_t> mask(pixels, 1);
    mask[7] = 0;
    ImageMask host_mask;
    host_mask.data = mask.data();
    Image masked{1, pixels, 2, 0, 0};
    masked.mask = &host_mask;
    const auto low_sums = r.sum<std::int8_t>(low.data(), masked);
    CHECK(low_sums[0] == -128 * std::int64_t(pixels - 1));
    CHECK(low_sums[1] == -128 * std::int64_t(pixels - 1));
}

TEST_CASE("host images: host_path_bytes = 0 keeps them on the device", "[host-path][image]") {
    Reducer& r = reducer();
    const std::vector<std::int32_t> values(30 * 7 * 3, 5);
    const Image image{30, 7, 3, 7 * 3 * sizeof(std::int32_t), 0};
    LaunchParams device;
    device.host_path_bytes = 0;
    CallInfo on_host, on_device;
    const auto a = r.sum<std::int32_t>(values.data(), image, {}, &on_host);
    const auto b = r.sum<std::int32_t>(values.data(), image, device, &on_device);
    CHECK(on_host.plan.on_host);
    CHECK_FALSE(on_device.plan.on_host);
    for (std::uint32_t c = 0; c < 3; ++c) {
        CHECK(a[c] == 30 * 7 * 5);
        CHECK(b[c] == a[c]);
    }
}

}  // namespace clreduce::test
