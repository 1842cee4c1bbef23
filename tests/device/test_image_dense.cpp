// Dense images, whose rows (and whose mask's rows) lie back to back: level 1 reads several
// pixels per load (CLREDUCE_DENSE) instead of an element at a time. Each channel's result of
// sum, argmin and statistics, and in some cases of the other operations, against a CPU
// reference over the same pixels (integers and extremes bit for bit, argmin/argmax with the
// pixel's row-major index, float sums within their bound) and against the same pixels with
// padded rows, which take the element-at-a-time path; aligned and
// misaligned starts, masks at any offset, pixel counts that leave a tail after the last whole
// vector, one row, several groups.
#include <cmath>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "test_ops_support.hpp"

namespace clreduce::test {
namespace {

struct DenseCase {
    std::uint64_t rows, cols;
    std::uint32_t channels;
    std::uint64_t offset;                      // elements before pixel (0, 0)
    std::optional<std::uint64_t> mask_offset;  // bytes before the mask's first byte; none: no mask
    LaunchParams params{};
    // Every case runs sum, argmin and statistics (an atomic finish, an indexed last-group one,
    // the integer moments); these also run the other operations and the padded-row twins.
    bool all_operations = false;
};

// The selected pixels' elements of channel c and their pixel indices.
template <class T>
struct Plane {
    std::vector<T> values;
    std::vector<std::uint64_t> pixels;
};

template <class T>
Plane<T> plane_of(const T* data, const std::uint8_t* mask, std::uint64_t pixels, std::uint32_t channels,
                  std::uint32_t c) {
    Plane<T> p;
    for (std::uint64_t i = 0; i < pixels; ++i) {
        if (mask != nullptr && mask[i] == 0) continue;
        p.values.push_back(data[i * channels + c]);
        p.pixels.push_back(i);
    }
    return p;
}

template <class T>
void check_dense(const DenseCase& k) {
    using namespace clreduce::testing;
    const Reducer& r = reducer();
    const std::uint64_t pixels = k.rows * k.cols;
    const std::uint64_t seed = seed_for(pixels, k.channels, k.offset * 16 + k.mask_offset.value_or(15));
    INFO(k.rows << " x " << k.cols << " x " << k.channels << " " << type_name(element_traits<T>::type) << ", offset "
                << k.offset << ", mask offset " << (k.mask_offset ? std::to_string(*k.mask_offset) : "none")
                << ", seed " << seed);
    const auto storage = op_values<T>(k.offset + pixels * k.channels, seed);
    const T* data = storage.data() + k.offset;
    std::vector<std::uint8_t> mask_bytes;
    const std::uint8_t* mask = nullptr;
    if (k.mask_offset) {
        std::mt19937_64 rng(seed + 1);
        mask_bytes.resize(*k.mask_offset + pixels);
        for (auto& b : mask_bytes) b = static_cast<std::uint8_t>(rng() % 3 == 0 ? 0 : 1 + rng() % 255);
        mask = mask_bytes.data() + *k.mask_offset;
    }
    // The dense image in a buffer, and the same pixels with a padding element after each row.
    const cl::Buffer dense_buffer = device_copy(r, storage);
    const std::uint64_t row = k.cols * k.channels;
    std::vector<T> padded(k.rows * (row + 1));
    for (std::uint64_t y = 0; y < k.rows; ++y)
        for (std::uint64_t x = 0; x < row; ++x) padded[y * (row + 1) + x] = data[y * row + x];
    const cl::Buffer padded_buffer = device_copy(r, padded);
    ImageMask image_mask;
    std::optional<cl::Buffer> mask_buffer;
    if (mask != nullptr) {
        mask_buffer = device_copy(r, mask_bytes);
        image_mask.buffer = *mask_buffer;
        image_mask.offset = *k.mask_offset;
    }
    Image dense{k.rows, k.cols, k.channels, 0, k.offset * sizeof(T)};
    Image pitched{k.rows, k.cols, k.channels, (row + 1) * sizeof(T), 0};
    if (mask != nullptr) dense.mask = pitched.mask = &image_mask;

    const auto sums = r.sum<T>(dense_buffer, dense, k.params);
    const auto lows = r.argmin<T>(dense_buffer, dense, k.params);
    const auto stats = r.statistics<T>(dense_buffer, dense, k.params);
    // The other operations and the padded-row twins, where the case asks for them.
    const auto more = [&](auto call) { return k.all_operations ? std::optional(call()) : std::nullopt; };
    const auto pitched_sums = more([&] { return r.sum<T>(padded_buffer, pitched, k.params); });
    const auto pitched_lows = more([&] { return r.argmin<T>(padded_buffer, pitched, k.params); });
    const auto squares = more([&] { return r.sum_of_squares<T>(dense_buffer, dense, k.params); });
    const auto counts = more([&] { return r.count_nonzero<T>(dense_buffer, dense, k.params); });
    const auto highs = more([&] { return r.argmax<T>(dense_buffer, dense, k.params); });
    const auto extremes = more([&] { return r.minmax<T>(dense_buffer, dense, k.params); });
    const auto locations = more([&] { return r.argminmax<T>(dense_buffer, dense, k.params); });
    for (std::uint32_t c = 0; c < k.channels; ++c) {
        INFO("channel " << c);
        const Plane<T> p = plane_of(data, mask, pixels, k.channels, c);
        const std::uint64_t n = p.values.size();
        REQUIRE(n > 0);
        const T* v = p.values.data();
        const auto low = reference_min(v, n), high = reference_max(v, n);
        if constexpr (std::is_integral_v<T>)
            CHECK(sums[c] == wrapped_sum<sum_type_t<T>>(v, n));
        else
            check_approx(reference_sum(v, n, std::ldexp(1.0L, -53)), sums[c], "sum");
        CHECK(lows[c].value == low.value);
        CHECK(lows[c].index == p.pixels[low.index]);  // the pixel's index in the whole image
        CHECK(stats[c].count == n);
        CHECK(stats[c].min == low.value);
        CHECK(stats[c].max == high.value);
        check_approx(reference_mean(v, n, std::ldexp(1.0L, -50)), stats[c].mean, "statistics mean");
        if (!k.all_operations) continue;
        if constexpr (std::is_integral_v<T>) {
            CHECK((*pitched_sums)[c] == sums[c]);
            std::uint64_t sq = 0;
            for (std::uint64_t i = 0; i < n; ++i) sq += std::uint64_t(std::int64_t(v[i]) * std::int64_t(v[i]));
            CHECK((*squares)[c] == sq);
        } else {
            check_approx(reference_sum(v, n, std::ldexp(1.0L, -53)), (*pitched_sums)[c], "pitched sum");
        }
        CHECK((*pitched_lows)[c].index == lows[c].index);
        CHECK((*highs)[c].value == high.value);
        CHECK((*highs)[c].index == p.pixels[high.index]);
        CHECK((*extremes)[c].min == low.value);
        CHECK((*extremes)[c].max == high.value);
        CHECK((*locations)[c].min.value == low.value);
        CHECK((*locations)[c].min.index == p.pixels[low.index]);
        CHECK((*locations)[c].max.value == high.value);
        CHECK((*locations)[c].max.index == p.pixels[high.index]);
        CHECK((*counts)[c] == reference_count_nonzero(v, n));
    }
}

}  // namespace

TEST_CASE("dense images: several pixels per load give each channel's results", "[image][dense]") {
    print_seed();
    LaunchParams small;  // many groups of a few short work-items, both strides
    small.times = 3;
    small.work_group_size = 8;
    LaunchParams small_local = small;
    small_local.stride = Stride::local;
    // Pixel counts of 63 and 2,145 leave tails after every vector width; offsets of one element
    // and masks at an odd byte take the unaligned loads.
    check_dense<std::uint8_t>({7, 9, 3, 0, std::nullopt});
    check_dense<std::uint8_t>({7, 9, 3, 1, 3, {}, true});
    check_dense<std::uint8_t>({65, 33, 4, 0, 0, small});
    check_dense<std::uint8_t>({1, 77, 1, 5, 1});
    check_dense<std::int16_t>({65, 33, 2, 1, std::nullopt, small_local});
    check_dense<float>({65, 33, 1, 1, 5, small, true});
    check_dense<float>({9, 7, 3, 0, std::nullopt});
    if (reducer().device_info().has_fp64) {
        check_dense<double>({9, 7, 4, 1, 2, small_local});
    }
}

}  // namespace clreduce::test
