// Reducer::statistics, the fused count/min/max/sum/mean/variance of one pass: against the
// long double two-pass reference for every element type, launch shape, offset and segment
// list; against cv::meanStdDev, where a large mean against a small spread shows OpenCV's sums of
// x and x^2 losing the variance; NaN and infinities; every refusal.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "segment_checks.hpp"
#include "statistics_checks.hpp"
#include "test_ops_support.hpp"

namespace clreduce::test {
namespace {

using namespace clreduce::testing;

// op_values' data, half as the nearest halves of op_values<float>.
template <class T>
std::vector<T> statistics_values(std::uint64_t n, std::uint64_t seed) {
    if constexpr (std::is_same_v<T, half>) {
        const std::vector<float> f = op_values<float>(n, seed);
        return std::vector<half>(f.begin(), f.end());
    } else {
        return op_values<T>(n, seed);
    }
}

template <class T>
void check_types_and_shapes(const Reducer& r, bool all_shapes) {
    const std::uint64_t seed = seed_for(sizeof(T), 71);
    INFO("data seed " << seed << ", type " << type_name(element_traits<T>::type));
    const std::vector<T> host = statistics_values<T>(100003 + 8, seed);
    const cl::Buffer buffer = device_copy(r, host);
    std::vector<LaunchParams> shapes(1);
    for (const bool local : {false, true})
        for (const std::uint32_t wg : {1u, 128u})
            for (const std::uint32_t vec : {1u, 4u})
                for (const InterGroup finish : {InterGroup::second_pass, InterGroup::last_group}) {
                    LaunchParams p;
                    p.stride = local ? Stride::local : Stride::global;
                    p.work_group_size = wg;
                    p.vector_width = vec;
                    p.times = 3;
                    p.inter_group = finish;
                    shapes.push_back(p);
                }
    // (Each shape is a program to build: the other types take the default and one more.)
    if (!all_shapes) shapes.resize(2);
    // Every shape on the edge sizes; the long range (many groups) in the default shape and
    // the two finishes with 128-item groups.
    for (const LaunchParams& p : shapes)
        for (const std::uint64_t offset : {0, 1, 3})
            for (const std::uint64_t n : {1, 2, 3, 257, 1000}) {
                INFO("offset " << offset << " n " << n);
                check_statistics_call(r, buffer, host, offset, n, p);
            }
    for (const LaunchParams& p : shapes)
        if (!p.work_group_size || *p.work_group_size == 128)
            for (const std::uint64_t offset : {0, 3}) check_statistics_call(r, buffer, host, offset, 100003, p);
    // Host data, as a pointer and as a range; the same bits as the buffer's call of one plan.
    const auto from_buffer = r.statistics<T>(buffer, 0, host.size());
    const auto from_range = r.statistics(host);
    CHECK(from_range.count == host.size());
    CHECK(from_range.mean == from_buffer.mean);
    CHECK(from_range.variance == from_buffer.variance);
    check_statistics(from_range, host.data(), host.size(), unit_roundoff(ElementType::float64));
}

TEST_CASE("statistics: count, extremes, mean and variance of every type, shape and offset", "[statistics]") {
    Reducer& r = reducer();
    check_types_and_shapes<std::int8_t>(r, false);
    check_types_and_shapes<std::uint8_t>(r, false);
    check_types_and_shapes<std::int16_t>(r, false);
    check_types_and_shapes<std::uint16_t>(r, false);
    check_types_and_shapes<std::int32_t>(r, true);
    check_types_and_shapes<std::uint32_t>(r, false);
    check_types_and_shapes<float>(r, true);
    if (r.device_info().has_fp64) check_types_and_shapes<double>(r, false);
    if (r.device_info().has_fp16)
        check_types_and_shapes<half>(r, false);
    else
        CHECK_THROWS_AS(r.statistics(std::vector<half>(8, half(1.0f))), Unsupported);
}

// Level 1 of 8/16-bit data keeps each lane's sums of x and x^2 in 32 bits where the lane's
// values cannot overflow them (kernel_spec.cpp: the sum below 2^31 at 65535 per value for
// 16-bit data, 255 for 8-bit; the squares below 2^32 for 8-bit data only), else in 64.
// Values at the type's largest magnitude in one work-item of 70,000: both sums pass 2^32 there.
template <class T>
void check_lane_sums_at_their_widest(const Reducer& r) {
    const std::uint64_t seed = seed_for(sizeof(T), 73);
    INFO("data seed " << seed << ", type " << type_name(element_traits<T>::type));
    std::mt19937_64 rng(seed);
    std::vector<T> host(100003);
    const T largest = std::is_signed_v<T> ? std::numeric_limits<T>::min() : std::numeric_limits<T>::max();
    for (T& x : host) x = rng() % 8 == 0 ? static_cast<T>(rng()) : largest;
    const cl::Buffer buffer = device_copy(r, host);
    for (const std::uint32_t times : {1000u, 70000u}) {
        LaunchParams p;
        p.work_group_size = 1;
        p.vector_width = 1;
        p.times = times;
        INFO("one work-item per group, times " << times);
        check_statistics_call(r, buffer, host, 0, host.size(), p);
        check_statistics_call(r, buffer, host, 1, host.size() - 1, p);
    }
}

TEST_CASE("statistics of 8/16-bit data: each lane's sums in 32 bits where they fit, in 64 where they do not",
          "[statistics]") {
    Reducer& r = reducer();
    check_lane_sums_at_their_widest<std::uint8_t>(r);
    check_lane_sums_at_their_widest<std::int8_t>(r);
    check_lane_sums_at_their_widest<std::uint16_t>(r);
    check_lane_sums_at_their_widest<std::int16_t>(r);
}

TEST_CASE("statistics: a large mean against a small spread keeps the variance that cv::meanStdDev loses",
          "[statistics]") {
    Reducer& r = reducer();
    if (!r.device_info().has_fp64) {
        WARN("not run: the device has no fp64");
        return;
    }
    const std::uint64_t seed = seed_for(8, 72);
    INFO("data seed " << seed);
    std::mt19937_64 rng(seed);
    std::vector<double> host(1 << 18);
    for (auto& x : host) x = 1e9 + std::uniform_real_distribution<double>(-1, 1)(rng);
    const cl::Buffer buffer = device_copy(r, host);
    const auto got = r.statistics<double>(buffer, 0, host.size());
    const StatisticsReference ref = reference_statistics(host.data(), host.size(), unit_roundoff(ElementType::float64));
    check_statistics(got, host.data(), host.size(), unit_roundoff(ElementType::float64));
    const double ours = std::fabs(got.variance - double(ref.variance.value)) / double(ref.variance.value);
    INFO("variance " << double(ref.variance.value) << ", clreduce relative error " << ours);
    CHECK(ours < 1e-6);
    if (const auto cv = cv_mean_std_dev(host.data(), row_of(host.size()))) {
        const double theirs =
            std::fabs(cv->stddev * cv->stddev - double(ref.variance.value)) / double(ref.variance.value);
        INFO("cv::meanStdDev relative error " << theirs);
        CHECK(ours <= theirs);
        WARN("variance of 2^18 values 1e9 + U(-1, 1): clreduce relative error " << ours << ", cv::meanStdDev "
                                                                                << theirs);
    }
}

TEST_CASE("statistics: NaN is ignored by the extremes and makes mean and variance NaN, infinities", "[statistics]") {
    Reducer& r = reducer();
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    std::vector<float> v(1000, 2.0f);
    v[10] = -3.0f;
    v[500] = 7.0f;
    v[700] = nan;
    auto s = r.statistics(v);
    CHECK(s.min == -3.0f);
    CHECK(s.max == 7.0f);
    CHECK(std::isnan(s.mean));
    CHECK(std::isnan(s.variance));
    v[700] = inf;
    s = r.statistics(v);
    CHECK(s.max == inf);
    CHECK(s.mean == inf);
    CHECK_FALSE(std::isfinite(s.variance));
    // The same under every launch shape, also where an infinity is a state's first value.
    for (std::uint32_t wg : {1u, 4u, 64u})
        for (std::uint32_t vec : {1u, 4u})
            for (std::uint32_t times : {1u, 16u}) {
                LaunchParams p;
                p.work_group_size = wg;
                p.vector_width = vec;
                p.times = times;
                INFO("wg " << wg << " vec " << vec << " times " << times);
                for (std::size_t at : {std::size_t(0), std::size_t(700), std::size_t(999)}) {
                    std::vector<float> w(1000, 2.0f);
                    w[at] = inf;
                    const auto t = r.statistics(w, p);
                    CHECK(t.mean == inf);
                    CHECK(t.sum == inf);
                    CHECK(t.max == inf);
                    w[at == 0 ? 1 : 0] = -inf;
                    CHECK(std::isnan(r.statistics(w, p).mean));
                }
            }
    const std::vector<float> all_nan(33, nan);
    s = r.statistics(all_nan);
    CHECK(std::isnan(s.min));
    CHECK(std::isnan(s.max));
    CHECK(s.count == 33);
    // One value: variance 0, sample variance undefined.
    const std::vector<std::int32_t> one{-17};
    const auto single = r.statistics(one);
    CHECK(single.mean == -17.0);
    CHECK(single.variance == 0.0);
    CHECK(std::isnan(single.sample_variance()));
    CHECK(single.min == -17);
}

TEST_CASE("statistics near the top of the range: finite within numerics.md's range, never a wrong finite value beyond",
          "[statistics]") {
    Reducer& r = reducer();
    if (!r.device_info().has_fp64) {
        WARN("no fp64: the double cases are not run on this device");
        return;
    }
    // Within the range (n R = 1.5e308, below DBL_MAX): the sum and the mean (n R^2 is beyond
    // it: the variance, 1.44e614, is no double anyway).
    const std::vector<double> within{-1e307, 2e307, 2e307, 2e307, 2e307};
    const Statistics<double> in = r.statistics(within);
    CHECK(std::fabs(in.sum - 7e307) <= 1e-14 * 7e307);
    CHECK(std::fabs(in.mean - 1.4e307) <= 1e-14 * 1.4e307);
    // Beyond it (n R = 4e308): not finite, in one call and through partials, and the extremes
    // and the count exact; sum() gives the sum.
    const std::vector<double> beyond{-4e307, 4e307, 4e307, 4e307, 4e307};
    const Statistics<double> out = r.statistics(beyond);
    CHECK(out.count == 5);
    CHECK(out.min == -4e307);
    CHECK(out.max == 4e307);
    CHECK_FALSE(std::isfinite(out.sum));
    CHECK_FALSE(std::isfinite(out.mean));
    Partial merged = r.partial(Operation::statistics, std::vector<double>(beyond.begin(), beyond.begin() + 2));
    merged.merge(r.partial(Operation::statistics, std::vector<double>(beyond.begin() + 2, beyond.end())));
    CHECK_FALSE(std::isfinite(merged.statistics<double>().sum));
    CHECK(std::fabs(r.sum(beyond) - 1.2e308) <= 1e-14 * 1.2e308);
}

// A statistics result in a float32 accumulator: count and extremes exact, of the data; mean and
// variance within numerics.md's bounds for the values as the accumulator holds them (32-bit
// integers beyond 2^24 round on their way in).
template <class T>
void check_in_float32(const Statistics<T>& got, const T* data, std::uint64_t n) {
    CHECK(got.count == n);
    CHECK(got.min == *std::min_element(data, data + n));
    CHECK(got.max == *std::max_element(data, data + n));
    const std::vector<float> held(data, data + n);
    const StatisticsReference ref = reference_statistics(held.data(), n, unit_roundoff(ElementType::float32));
    INFO("mean " << got.mean << ": " << ref.mean.mismatch(got.mean));
    CHECK(ref.mean.accepts(got.mean));
    INFO("variance " << got.variance << ": " << ref.variance.mismatch(got.variance));
    CHECK(ref.variance.accepts(got.variance));
}

// Integers at the ends of their type in a float32 accumulator, which holds 24 bits: the extremes
// are the elements themselves, in every shape (scalar and vector lanes, 8/16-bit integer lanes,
// one work-item and many groups), per segment and through partials.
template <class T>
void check_float_accumulator_extremes(const Reducer& r) {
    const std::uint64_t seed = seed_for(sizeof(T), std::is_signed_v<T>, 75);
    INFO("data seed " << seed << ", type " << type_name(element_traits<T>::type) << ", float32 accumulator");
    std::mt19937_64 rng(seed);
    using L = std::numeric_limits<T>;
    std::vector<T> host(30011);
    // Values near both ends (within 64 of them, where a float rounds 32-bit values), and some
    // anywhere.
    for (T& x : host)
        x = rng() % 4 == 0   ? static_cast<T>(rng())
            : rng() % 2 == 0 ? static_cast<T>(L::max() - T(rng() % 64))
                             : static_cast<T>(L::lowest() + T(rng() % 64));
    const cl::Buffer buffer = device_copy(r, host);
    LaunchParams f32;
    f32.accumulator = ElementType::float32;
    std::vector<LaunchParams> shapes{f32};
    for (const std::uint32_t vec : {1u, 4u})
        for (const InterGroup finish : {InterGroup::second_pass, InterGroup::last_group}) {
            LaunchParams p = f32;
            p.vector_width = vec;
            p.work_group_size = 64;
            p.times = 5;
            p.inter_group = finish;
            shapes.push_back(p);
        }
    for (const LaunchParams& p : shapes)
        for (const std::uint64_t offset : {0, 3})
            for (const std::uint64_t n : {1, 2, 7, 1000, 30000}) {
                CallInfo info;
                INFO("offset " << offset << " n " << n);
                try {
                    const Statistics<T> got = r.statistics<T>(buffer, offset, n, p, &info);
                    INFO(info.plan.describe());
                    check_in_float32(got, host.data() + offset, n);
                } catch (const Error& e) {
                    FAIL_CHECK(e.what());  // extremes rounded past the type were refused so
                }
            }
    // Per segment: rows of 97.
    const std::uint64_t rows = 300, cols = 97;
    try {
        const auto per_row = r.statistics<T>(buffer, 0, Segments::rows(rows, cols), f32);
        REQUIRE(per_row.size() == rows);
        for (std::uint64_t k = 0; k < rows; ++k) {
            INFO("row " << k);
            check_in_float32(per_row[k], host.data() + k * cols, cols);
        }
    } catch (const Error& e) {
        FAIL_CHECK("per row: " << e.what());
    }
    // Partials of pieces, merged directly and through bytes.
    try {
        Partial direct, through_bytes;
        const std::vector<std::uint64_t> cuts{0, 1000, 1001, 20000, host.size()};
        for (std::size_t k = 0; k + 1 < cuts.size(); ++k) {
            const Partial piece = r.partial<T>(Operation::statistics, buffer, cuts[k], cuts[k + 1] - cuts[k], f32);
            direct.merge(piece);
            const std::vector<std::uint8_t> bytes = piece.to_bytes();
            through_bytes.merge(Partial::from_bytes(bytes.data(), bytes.size()));
        }
        for (const Partial* p : {&direct, &through_bytes})
            check_in_float32(p->statistics<T>(), host.data(), host.size());
        CHECK(direct.to_bytes() == through_bytes.to_bytes());
    } catch (const Error& e) {
        FAIL_CHECK("partials: " << e.what());
    }
}

TEST_CASE("statistics in a float32 accumulator keep the extremes of integers exact", "[statistics]") {
    Reducer& r = reducer();
    LaunchParams f32;
    f32.accumulator = ElementType::float32;
    // The report: -2145286346 became -2145286400; 2^31 - 1 made the call throw.
    const Statistics<std::int32_t> two = r.statistics(std::vector<std::int32_t>{-2145286346, 5}, f32);
    CHECK(two.min == -2145286346);
    CHECK(two.max == 5);
    try {
        const Statistics<std::int32_t> top = r.statistics(std::vector<std::int32_t>{2147483647, 2147483600, -7}, f32);
        CHECK(top.min == -7);
        CHECK(top.max == 2147483647);
        const Statistics<std::uint32_t> utop = r.statistics(std::vector<std::uint32_t>{4294967295u, 4294967233u}, f32);
        CHECK(utop.min == 4294967233u);
        CHECK(utop.max == 4294967295u);
    } catch (const Error& e) {
        FAIL_CHECK(e.what());
    }
    check_float_accumulator_extremes<std::int32_t>(r);
    check_float_accumulator_extremes<std::uint32_t>(r);
    check_float_accumulator_extremes<std::int16_t>(r);
    check_float_accumulator_extremes<std::uint16_t>(r);
    check_float_accumulator_extremes<std::int8_t>(r);
    check_float_accumulator_extremes<std::uint8_t>(r);
}

TEST_CASE("statistics: refusals name the problem, repeated calls allocate nothing", "[statistics][errors]") {
    Reducer& r = reducer();
    const std::vector<std::int64_t> wide(10, 1);
    CHECK_THROWS_WITH(r.statistics(wide), Catch::Contains("would round the extremes"));
    const std::vector<std::int32_t> empty;
    CHECK_THROWS_WITH(r.statistics(empty), Catch::Contains("statistics of an empty range is undefined"));
    const std::vector<std::int32_t> v{1, 2, 3, 4};
    LaunchParams integer;
    integer.accumulator = ElementType::int64;
    CHECK_THROWS_WITH(r.statistics(v, integer), Catch::Contains("accumulates in float32 or float64"));
    LaunchParams atomic;
    atomic.inter_group = InterGroup::atomic;
    CHECK_THROWS_WITH(r.statistics(v, atomic), Catch::Contains("use InterGroup::second_pass"));
    LaunchParams exact;
    exact.float_mode = FloatMode::correctly_rounded;
    CHECK_THROWS_WITH(r.statistics(v, exact), Catch::Contains("not statistics"));
    // Sample variance of 1, 2, 3, 4: 5/3; population 5/4.
    const auto s = r.statistics(v);
    CHECK(s.variance == 1.25);
    CHECK(std::fabs(s.sample_variance() - 5.0 / 3.0) < 1e-15);
    CHECK(s.sum == 10.0);

    const std::vector<float> host = op_values<float>(50000, seed_for(4, 73));
    const cl::Buffer buffer = device_copy(r, host);
    const auto first = r.statistics<float>(buffer, 0, host.size());
    const std::vector<std::uint64_t> offsets{0, 10, 10, 5000, 50000};
    const Segments segments = Segments::offsets(offsets);
    CHECK_THROWS_WITH(r.statistics<float>(buffer, 0, segments), Catch::Contains("segment 1, which is empty"));
    const Counters before = r.counters();
    for (int k = 0; k < 5; ++k) {
        const auto again = r.statistics<float>(buffer, 0, host.size());
        CHECK(same_bits(again.mean, first.mean));
        CHECK(same_bits(again.variance, first.variance));
    }
    CHECK_THROWS_WITH(r.statistics<float>(buffer, 0, segments), Catch::Contains("segment 1, which is empty"));
    const Counters after = r.counters();
    CHECK(after.buffers_allocated == before.buffers_allocated);
    CHECK(after.kernels_created == before.kernels_created);
}

TEST_CASE("statistics per segment: rows with a large mean, every mapping of a segment list", "[statistics][segments]") {
    Reducer& r = reducer();
    const std::uint64_t seed = seed_for(4, 74);
    INFO("data seed " << seed);
    std::mt19937_64 rng(seed);
    // 300 rows of 97: row k holds 1000 k + U(-1, 1), so a mean dominated by the row and a
    // variance of about 1/3.
    const std::uint64_t rows = 300, cols = 97;
    std::vector<float> host(rows * cols);
    for (std::uint64_t k = 0; k < rows; ++k)
        for (std::uint64_t c = 0; c < cols; ++c)
            host[k * cols + c] = 1000.0f * float(k) + std::uniform_real_distribution<float>(-1, 1)(rng);
    const cl::Buffer buffer = device_copy(r, host);
    for (const std::uint32_t team : {1u, 4u, 32u}) {
        LaunchParams p;
        p.work_group_size = 32;
        p.segment_team = team;
        CallInfo info;
        const auto stats = r.statistics<float>(buffer, 0, Segments::rows(rows, cols), p, &info);
        INFO("team " << team << ": " << info.plan.describe());
        REQUIRE(stats.size() == rows);
        for (std::uint64_t k = 0; k < rows; ++k) {
            INFO("row " << k);
            check_statistics(stats[k], host.data() + k * cols, cols, unit_roundoff(info.plan.accumulator));
        }
    }
}

}  // namespace
}  // namespace clreduce::test
