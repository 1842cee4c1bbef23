// Float sums of host segments in the plan's order (exec/host_plan_segments.hpp): batches, a
// matrix's rows and columns and host offsets of float and double data must give, on the host,
// the bits the kernels give the same values in a buffer, for sum, mean, sum_of_squares,
// norm_l1 and norm_l2: over launch shapes where teams, groups per segment (fewer and more than
// a work-group's work-items), vector widths and work-group sizes meet, at sizes with tails,
// starts at every byte misalignment and rows with padding, with data whose sums depend on the
// order of their additions, and (rows, batches, offsets) with infinities, NaN and zeros of both
// signs (a NaN result: NaN on both), and segments of negative zeros only.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "test_ops_support.hpp"

namespace clreduce::test {
namespace {

// One segment mapping a test forces (work-group size, vector width, team, groups a segment).
struct Mapping {
    std::uint32_t wg, vector_width, team, parts;
};

LaunchParams params_for(const Mapping& m, bool host) {
    LaunchParams p;
    p.work_group_size = m.wg;
    p.vector_width = m.vector_width;
    p.segment_team = m.team;
    p.groups_per_segment = m.parts;
    p.host_path_bytes = host ? std::numeric_limits<std::uint64_t>::max() : 0;
    return p;
}

// Values whose sum depends on the order of the additions: random signs and magnitudes from
// 2^-30 to 2^30, and a few infinities, NaNs and zeros of both signs among the first
// `specials` (0: none).
template <class T>
std::vector<T> order_sensitive(std::uint64_t n, std::uint64_t seed, std::uint64_t specials) {
    std::mt19937_64 gen(seed);
    std::uniform_real_distribution<double> mantissa(1.0, 2.0);
    std::uniform_int_distribution<int> exponent(-30, 30);
    std::vector<T> v(n);
    for (auto& x : v) x = static_cast<T>((gen() & 1 ? -1.0 : 1.0) * std::ldexp(mantissa(gen), exponent(gen)));
    if (specials > 16 && n >= specials) {
        const T odd[] = {std::numeric_limits<T>::infinity(), -std::numeric_limits<T>::infinity(),
                         std::numeric_limits<T>::quiet_NaN(), T(0), -T(0)};
        for (int k = 0; k < 12; ++k) v[gen() % specials] = odd[k % 5];
    }
    return v;
}

// `values` copied to byte `shift` past a 64-byte boundary: the pointer a user holds.
template <class T>
struct Placed {
    std::vector<unsigned char> bytes;
    const T* at;
    Placed(const std::vector<T>& values, std::size_t shift) : bytes(values.size() * sizeof(T) + 128) {
        const auto base = reinterpret_cast<std::uintptr_t>(bytes.data());
        unsigned char* start = bytes.data() + (64 - base % 64) % 64 + shift;
        std::memcpy(start, values.data(), values.size() * sizeof(T));
        at = reinterpret_cast<const T*>(start);
    }
};

// The same bits, or NaN on both: which NaN an addition of NaNs or of opposite infinities
// gives is the implementation's (x86 keeps the first operand's, a compiler may swap them).
template <class R>
bool same_result(R a, R b) {
    return same_bits(a, b) || (std::isnan(a) && std::isnan(b));
}

// One operation of `segments` over host data at byte `shift` and over a buffer holding the
// same values: the host call runs on the host, with the buffer's bits.
template <Operation Op, class T>
void check_operation(Reducer& r, const std::vector<T>& values, const cl::Buffer& buffer, const Segments& segments,
                     const Mapping* mapping, std::size_t shift) {
    INFO(operation_name(Op) << " at byte " << shift);
    const LaunchParams host = mapping != nullptr ? params_for(*mapping, true) : LaunchParams{};
    const LaunchParams device = mapping != nullptr ? params_for(*mapping, false) : LaunchParams{};
    const Placed<T> placed(values, shift);
    CallInfo info;
    std::vector<result_t<Op, T>> got, want;
    std::string host_error, device_error;  // (a mean of an empty segment is refused)
    try {
        got = r.reduce<Op, T>(placed.at, segments, host, &info);
    } catch (const InvalidArgument& e) {
        host_error = e.what();
    }
    try {
        want = r.reduce<Op, T>(buffer, 0, segments, device);
    } catch (const InvalidArgument& e) {
        device_error = e.what();
    }
    INFO("plan " << info.plan.describe());
    CHECK(info.plan.on_host);
    CHECK(host_error == device_error);
    REQUIRE(got.size() == want.size());
    std::size_t differ = 0;
    for (std::size_t s = 0; s < got.size(); ++s) differ += same_result(got[s], want[s]) ? 0 : 1;
    CHECK(differ == 0);
}

template <class T>
void check_all(Reducer& r, const std::vector<T>& values, const cl::Buffer& buffer, const Segments& segments,
               const Mapping* mapping, std::size_t shift) {
    check_operation<Operation::sum, T>(r, values, buffer, segments, mapping, shift);
    check_operation<Operation::mean, T>(r, values, buffer, segments, mapping, shift);
    check_operation<Operation::sum_of_squares, T>(r, values, buffer, segments, mapping, shift);
    check_operation<Operation::norm_l1, T>(r, values, buffer, segments, mapping, shift);
    check_operation<Operation::norm_l2, T>(r, values, buffer, segments, mapping, shift);
}

template <class T>
void check_rows_and_batches(Reducer& r) {
    const std::uint64_t rows = 37, cols = 301, step = 307;              // a tail after any vector width, padded rows
    const std::uint64_t seed = seed_for(sizeof(T), rows * step, 5151);  // (the first rows * step values)
    INFO(type_name(element_traits<T>::type) << " data seed " << seed);
    // The second half: a segment of 8 steps and more of 4096 lanes (host_plan_segments.cpp's
    // fused steps), without the specials (whose NaN would hide the order).
    const std::uint64_t n = 80000;
    const std::vector<T> values = order_sensitive<T>(n, seed, rows * step);
    const cl::Buffer buffer = device_copy(r, values);
    const std::vector<Mapping> mappings{{64, 4, 64, 1},    {64, 4, 64, 5}, {32, 1, 8, 1},    {128, 8, 2, 1},
                                        {32, 16, 32, 40},  {16, 2, 16, 3}, {256, 4, 256, 1}, {32, 4, 32, 33},
                                        {256, 16, 256, 1}, {64, 16, 1, 1}, {32, 4, 1, 1}};
    // Offsets no longer than any mapping's split (longer ones: the last test case), but for the
    // mappings of a work-item a segment (team 1), whose split is shorter: those take the other
    // shapes. Short rows: with a work-item a segment, a row shorter than a vector is that
    // work-item's scalar tail alone.
    const std::vector<std::uint64_t> offsets{0, 0, 1, 9, 9, 300, 301, 700, 1000, 1400};
    const std::vector<Segments> shapes{Segments::rows(rows, cols, step * sizeof(T)), Segments::batch(11, 1000),
                                       Segments::offsets(offsets), Segments::batch(2, n / 2),
                                       Segments::rows(900, 7, 9 * sizeof(T))};
    for (std::size_t k = 0; k < shapes.size(); ++k) {
        INFO("shape " << k);
        check_all<T>(r, values, buffer, shapes[k], nullptr, 0);
        for (const Mapping& m : mappings) {
            if (m.team == 1 && shapes[k].kind() == Segments::Kind::host_offsets) continue;
            INFO("work-group " << m.wg << ", vector width " << m.vector_width << ", team " << m.team << ", " << m.parts
                               << " groups a segment");
            check_all<T>(r, values, buffer, shapes[k], &m, k % sizeof(T));
        }
    }
    for (std::size_t shift = 1; shift < sizeof(T); ++shift) check_all<T>(r, values, buffer, shapes[0], nullptr, shift);
}

template <class T>
void check_columns(Reducer& r) {
    struct Matrix {
        std::uint64_t rows, cols, step;
    };
    const std::vector<Matrix> matrices{{1000, 13, 13}, {257, 70, 75}, {3, 200, 200}, {1, 5, 9}, {640, 1, 3}};
    const std::vector<Mapping> mappings{{32, 1, 1, 1},  {32, 2, 4, 3},  {32, 4, 32, 40},
                                        {64, 1, 64, 2}, {16, 4, 2, 17}, {128, 2, 16, 1}};
    for (const Matrix& m : matrices) {
        const std::uint64_t n = (m.rows - 1) * m.step + m.cols;
        const std::uint64_t seed = seed_for(sizeof(T), n, 6262);
        INFO(type_name(element_traits<T>::type)
             << " " << m.rows << " x " << m.cols << " step " << m.step << ", data seed " << seed);
        const std::vector<T> values = order_sensitive<T>(n, seed, 0);  // (the rows' case has the specials)
        const cl::Buffer buffer = device_copy(r, values);
        const Segments columns = Segments::columns(m.rows, m.cols, m.step * sizeof(T));
        check_all<T>(r, values, buffer, columns, nullptr, 0);
        for (std::size_t k = 0; k < mappings.size(); ++k) {
            const Mapping& mp = mappings[k];
            INFO("work-group " << mp.wg << ", columns a work-item " << mp.vector_width << ", team " << mp.team << ", "
                               << mp.parts << " groups a column");
            check_all<T>(r, values, buffer, columns, &mp, (k + 1) % sizeof(T));
        }
    }
}

// Segments of negative zeros only: the kernels' lanes start at +0.0, so each sum is +0.0, also
// where a lane's first step sets it on the host.
template <class T>
void check_negative_zeros(Reducer& r) {
    const std::vector<T> values(3000, -T(0));
    const cl::Buffer buffer = device_copy(r, values);
    const std::vector<Mapping> mappings{{64, 4, 64, 1}, {32, 1, 8, 1}, {32, 16, 32, 3}, {32, 16, 1, 1}};
    for (const Segments& segments :
         {Segments::batch(3, 1000), Segments::rows(10, 250, 300 * sizeof(T)), Segments::rows(300, 5, 9 * sizeof(T))}) {
        check_all<T>(r, values, buffer, segments, nullptr, 0);
        for (const Mapping& m : mappings) check_all<T>(r, values, buffer, segments, &m, 0);
    }
    const auto sums = r.sum<T>(values.data(), Segments::batch(3, 1000));
    for (const auto s : sums) CHECK_FALSE(std::signbit(s));
}

}  // namespace

TEMPLATE_TEST_CASE("float sums of host segments of negative zeros are the device's +0.0", "[host-path][segments]",
                   float, double) {
    check_negative_zeros<TestType>(reducer());
}

TEMPLATE_TEST_CASE("float sums of host rows, batches and offsets on the host give the device's bits",
                   "[host-path][segments]", float, double) {
    check_rows_and_batches<TestType>(reducer());
}

TEMPLATE_TEST_CASE("float sums of host columns on the host give the device's bits", "[host-path][columns]", float,
                   double) {
    check_columns<TestType>(reducer());
}

TEST_CASE("float sums of long host offsets cross the link: their chunks are the device's", "[host-path][segments]") {
    Reducer& r = reducer();
    const std::vector<float> values = order_sensitive<float>(50000, seed_for(50000, 7373), 0);
    const cl::Buffer buffer = device_copy(r, values);
    LaunchParams host = params_for({32, 1, 2, 1}, true), device = params_for({32, 1, 2, 1}, false);
    const Segments segments = Segments::offsets({0, 10, 49000, 50000});  // 48,990 elements: past 2 lanes' split
    CallInfo info;
    const auto got = r.sum<float>(values.data(), segments, host, &info);
    CHECK_FALSE(info.plan.on_host);
    const auto want = r.sum<float>(buffer, 0, segments, device);
    REQUIRE(got.size() == want.size());
    for (std::size_t s = 0; s < got.size(); ++s) CHECK(same_bits(got[s], want[s]));
}

}  // namespace clreduce::test
