// argminmax (both locations of one pass) and the level 1 it shares with argmin and argmax
// (ops/indexed.cl): each vector lane keeps the index of its extreme's vector, in 32 bits where
// the launch's indices allow and in 64 bits otherwise (forced here, as a launch over 2^32
// elements would take them), and the lanes holding the best value give the lowest index. Checked
// against the exact CPU references at every vector width, with ties, NaN, zeros of both signs,
// identity-valued data (a lane that never takes) and misaligned starts.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "kernels/kernel_spec.hpp"  // src/: force_wide_lane_indices
#include "reference/op_reference.hpp"
#include "test_support.hpp"

namespace clreduce::test {
namespace {

bool same(double got, double want) { return (std::isnan(got) && std::isnan(want)) || got == want; }

// Few distinct values (many ties), with NaN and zeros of both signs among floats.
template <class T>
std::vector<T> tied_values(std::uint64_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<T> out(n);
    for (auto& v : out) {
        const int k = static_cast<int>(rng() % 41) - 20;
        v = static_cast<T>(k);
        if constexpr (std::is_floating_point_v<T>) {
            if (rng() % 23 == 0) v = std::numeric_limits<T>::quiet_NaN();
            if (k == 0 && (rng() & 1)) v = T(-0.0);
        }
    }
    return out;
}

template <class T>
void check_locations(const Reducer& r, const cl::Buffer& buffer, const std::vector<T>& host, std::uint64_t offset,
                     std::uint64_t n, const LaunchParams& params, const std::string& label) {
    using namespace clreduce::testing;
    CallInfo info;
    const ArgMinMax<T> got = r.argminmax<T>(buffer, offset, n, params, &info);
    const auto lo = reference_min(host.data() + offset, n), hi = reference_max(host.data() + offset, n);
    INFO(label << " n=" << n << " offset=" << offset << " " << info.plan.describe() << ": indices " << got.min.index
               << ", " << got.max.index << " (expected " << lo.index << ", " << hi.index << ")");
    CHECK(same(double(got.min.value), double(lo.value)));
    CHECK(got.min.index == lo.index);
    CHECK(same(double(got.max.value), double(hi.value)));
    CHECK(got.max.index == hi.index);
}

// Every vector width, with 32-bit lane indices at half of them and 64-bit ones (forced, as a
// launch over 2^32 elements takes them) at the other half: `rotation` moves which half from one
// type to the next, so that every width and every type meets both (a covering, not the product:
// each (type, width, index width) is a program the device compiles).
template <class T>
void check_type(int rotation) {
    const Reducer& r = reducer();
    const char* type = type_name(element_traits<T>::type).data();
    const std::uint32_t widths[] = {1u, 2u, 8u, 16u};
    for (int k = 0; k < 4; ++k) {
        const std::uint32_t vec = widths[k];
        const bool wide = (k + rotation) % 2 == 1;
        force_wide_lane_indices(wide);
        LaunchParams params;
        params.vector_width = vec;
        params.times = 3;  // work-items of three vectors: lanes meet several, groups are many
        params.work_group_size = 16;
        for (const std::uint64_t n : {1ull, 37ull, 4099ull, 70001ull}) {
            const std::uint64_t seed = seed_for(n, vec, wide);
            const auto host = tied_values<T>(n + 3, seed);
            const cl::Buffer buffer = device_copy(r, host);
            const std::string label = std::string(type) + " vec=" + std::to_string(vec) +
                                      (wide ? " 64-bit indices" : " 32-bit indices") + " seed " + std::to_string(seed);
            for (const std::uint64_t offset : {0ull, 3ull}) check_locations(r, buffer, host, offset, n, params, label);
        }
        // Every element the identity of one direction (the other's best): a lane never takes, and
        // its first element is its extreme.
        for (const T fill : {std::numeric_limits<T>::lowest(), std::numeric_limits<T>::max()}) {
            const std::vector<T> host(5000, fill);
            const cl::Buffer buffer = device_copy(r, host);
            check_locations(r, buffer, host, 1, host.size() - 1, params, std::string(type) + " all equal");
        }
        if constexpr (std::is_floating_point_v<T>) {  // all NaN: (NaN, 0) both
            const std::vector<T> host(3000, std::numeric_limits<T>::quiet_NaN());
            const cl::Buffer buffer = device_copy(r, host);
            check_locations(r, buffer, host, 0, host.size(), params, std::string(type) + " all NaN");
        }
    }
}

// Restores the library's own choice of lane index width when a case ends, passed or not.
struct LaneIndexWidthRestored {
    LaneIndexWidthRestored() = default;
    ~LaneIndexWidthRestored() { force_wide_lane_indices(false); }
    LaneIndexWidthRestored(const LaneIndexWidthRestored&) = delete;
    LaneIndexWidthRestored& operator=(const LaneIndexWidthRestored&) = delete;
};

}  // namespace

TEST_CASE("argminmax gives argmin's and argmax's results at every vector width and index width",
          "[argminmax][operations]") {
    print_seed();
    const LaneIndexWidthRestored restore;
    check_type<std::int8_t>(0);
    check_type<std::uint16_t>(1);
    check_type<std::int32_t>(0);
    check_type<std::int64_t>(1);
    check_type<float>(0);
    if (reducer().device_info().has_fp64) check_type<double>(1);
}

TEST_CASE("argminmax of a masked image whose pixels all hold one direction's identity",
          "[argminmax][operations][image]") {
    // No lane ever takes a value: each extreme is the first selected pixel, which is not pixel 0.
    const Reducer& r = reducer();
    const std::uint64_t rows = 48, cols = 40, pixels = rows * cols;
    for (const std::uint8_t fill : {std::uint8_t{0}, std::uint8_t{255}}) {
        for (const std::uint32_t channels : {1u, 3u}) {
            INFO("fill " << int(fill) << ", " << channels << " channel(s)");
            const std::vector<std::uint8_t> data(pixels * channels, fill);
            std::vector<std::uint8_t> mask(pixels, 1);
            for (std::uint64_t p = 0; p < 301; ++p) mask[p] = 0;  // the first 301 pixels left out
            ImageMask image_mask;
            image_mask.data = mask.data();
            Image image{rows, cols, channels};
            image.mask = &image_mask;
            const auto both = r.argminmax<std::uint8_t>(data.data(), image);
            for (std::uint32_t c = 0; c < channels; ++c) {
                CHECK(both[c].min.value == fill);
                CHECK(both[c].min.index == 301);
                CHECK(both[c].max.value == fill);
                CHECK(both[c].max.index == 301);
            }
        }
    }
}

TEST_CASE("argminmax of host data, and of an empty range", "[argminmax][operations]") {
    const Reducer& r = reducer();
    const std::vector<float> data{3.0f, -1.0f, 7.0f, -1.0f, 7.0f, NAN};
    const ArgMinMax<float> both = r.argminmax(data);
    CHECK(both.min.value == -1.0f);
    CHECK(both.min.index == 1);
    CHECK(both.max.value == 7.0f);
    CHECK(both.max.index == 2);
    CHECK_THROWS_AS(r.argminmax(std::vector<float>{}), InvalidArgument);
}

}  // namespace clreduce::test
