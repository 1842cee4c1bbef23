// Image masks (Image::mask, image_mask.hpp): only the pixels whose mask byte is nonzero take
// part, in the buffer and host-data forms, with pitched masks at an offset; argmin keeps the
// pixel's own index, mean and statistics count the selected pixels only; a mask that selects
// nothing gives the empty range's result; bad masks are refused.
#include <limits>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "test_support.hpp"

namespace clreduce::test {
namespace {

constexpr std::uint64_t kRows = 23, kCols = 31, kChannels = 2, kPad = 5, kMaskPad = 3, kMaskOffset = 7;

struct MaskedImage {
    std::vector<std::uint8_t> values;  // rows of kCols * kChannels + kPad
    std::vector<std::uint8_t> mask;    // kMaskOffset bytes, then rows of kCols + kMaskPad
    Image image{kRows, kCols, kChannels, (kCols * kChannels + kPad) * sizeof(std::uint8_t), 0};
    bool at(std::uint64_t r, std::uint64_t c) const { return mask[kMaskOffset + r * (kCols + kMaskPad) + c] != 0; }
    std::uint8_t value(std::uint64_t r, std::uint64_t c, std::uint64_t ch) const {
        return values[r * (kCols * kChannels + kPad) + c * kChannels + ch];
    }
};

MaskedImage masked_image(std::uint64_t seed, bool select_none) {
    MaskedImage m;
    std::mt19937_64 rng(seed);
    m.values.resize(kRows * (kCols * kChannels + kPad));
    for (auto& v : m.values) v = static_cast<std::uint8_t>(rng());
    m.mask.resize(kMaskOffset + kRows * (kCols + kMaskPad));
    for (auto& b : m.mask) b = select_none ? 0 : static_cast<std::uint8_t>(rng() % 3 == 0 ? 0 : rng() % 256);
    return m;
}

}  // namespace

TEST_CASE("image masks select the pixels that take part", "[image][mask]") {
    const std::uint64_t seed = seed_for(kRows, kCols, 44);
    INFO("seed " << seed);
    const Reducer& r = reducer();
    const MaskedImage m = masked_image(seed, false);
    const cl::Buffer values = device_copy(r, m.values);
    const cl::Buffer mask_buffer = device_copy(r, m.mask);
    ImageMask device_mask;
    device_mask.buffer = mask_buffer;
    device_mask.offset = kMaskOffset;
    device_mask.step = kCols + kMaskPad;
    ImageMask host_mask;
    host_mask.data = m.mask.data() + kMaskOffset;
    host_mask.step = kCols + kMaskPad;
    Image on_device = m.image, on_host = m.image;
    on_device.mask = &device_mask;
    on_host.mask = &host_mask;

    const auto sums = r.sum<std::uint8_t>(values, on_device);
    const auto host_sums = r.sum<std::uint8_t>(m.values.data(), on_host);
    const auto means = r.mean<std::uint8_t>(values, on_device);
    const auto mins = r.argmin<std::uint8_t>(m.values.data(), on_host);
    const auto stats = r.statistics<std::uint8_t>(values, on_device);
    const auto all = r.all<std::uint8_t>(values, on_device);
    for (std::uint64_t ch = 0; ch < kChannels; ++ch) {
        INFO("channel " << ch);
        std::uint64_t sum = 0, count = 0, nonzero = 0, min_index = 0;
        unsigned min = 256;
        for (std::uint64_t p = 0; p < kRows * kCols; ++p) {
            if (!m.at(p / kCols, p % kCols)) continue;
            const unsigned v = m.value(p / kCols, p % kCols, ch);
            sum += v;
            ++count;
            nonzero += v != 0;
            if (v < min) {
                min = v;
                min_index = p;
            }
        }
        REQUIRE(count > 0);
        REQUIRE(count < kRows * kCols);
        CHECK(sums[ch] == sum);
        CHECK(host_sums[ch] == sum);
        CHECK(means[ch] == double(sum) / double(count));
        CHECK(mins[ch].value == min);
        CHECK(mins[ch].index == min_index);  // the pixel's own index in the whole image
        CHECK(stats[ch].count == count);
        CHECK(stats[ch].sum == double(sum));
        CHECK(all[ch] == (nonzero == count));
    }
}

TEST_CASE("a mask that selects nothing gives the empty range's result, bad masks are refused", "[image][mask]") {
    const Reducer& r = reducer();
    const MaskedImage m = masked_image(seed_for(kRows, kCols, 45), true);
    const cl::Buffer values = device_copy(r, m.values);
    ImageMask none;
    none.buffer = device_copy(r, m.mask);
    none.offset = kMaskOffset;
    none.step = kCols + kMaskPad;
    Image image = m.image;
    image.mask = &none;
    CHECK(r.sum<std::uint8_t>(values, image)[0] == 0);
    CHECK_THROWS_AS(r.mean<std::uint8_t>(values, image), InvalidArgument);
    CHECK_THROWS_AS(r.min<std::uint8_t>(values, image), InvalidArgument);
    CHECK_THROWS_AS(r.argmin<std::uint8_t>(values, image), InvalidArgument);
    CHECK_THROWS_AS(r.statistics<std::uint8_t>(values, image), InvalidArgument);

    ImageMask narrow = none;
    narrow.step = kCols - 1;
    image.mask = &narrow;
    CHECK_THROWS_WITH(r.sum<std::uint8_t>(values, image), Catch::Contains("smaller than a row of the mask"));
    ImageMask past = none;
    past.offset = m.mask.size() - kCols;
    image.mask = &past;
    CHECK_THROWS_WITH(r.sum<std::uint8_t>(values, image), Catch::Contains("past the end of its buffer"));
    ImageMask host_only;
    host_only.data = m.mask.data();
    image.mask = &host_only;
    CHECK_THROWS_WITH(r.sum<std::uint8_t>(values, image), Catch::Contains("must be a buffer"));
    ImageMask host_offset = host_only;
    host_offset.offset = 1;
    image.mask = &host_offset;
    CHECK_THROWS_WITH(r.sum<std::uint8_t>(m.values.data(), image), Catch::Contains("offset must be 0"));
    ImageMask nothing;
    image.mask = &nothing;
    CHECK_THROWS_WITH(r.sum<std::uint8_t>(m.values.data(), image), Catch::Contains("neither a buffer nor host data"));
}

}  // namespace clreduce::test
