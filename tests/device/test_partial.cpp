// Partial (partial.hpp): the partials of a range cut into pieces (empty ones included), merged
// in order, and also after a trip through to_bytes/from_bytes, give the value of one call over
// the whole: integers and extremes equal, argmin/argmax the index in the whole, correctly
// rounded sums the same bits, other float results within their bounds; merges that keep exact
// integers exact; every refusal.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <iomanip>
#include <limits>
#include <random>
#include <sstream>
#include <vector>

#include "partial_checksum.hpp"
#include "statistics_checks.hpp"
#include "test_ops_support.hpp"

namespace clreduce::test {
namespace {

using namespace clreduce::testing;

// Cut points of [0, n): `pieces` ranges, some of them empty.
std::vector<std::uint64_t> cuts_of(std::uint64_t n, int pieces, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<std::uint64_t> cuts{0, n};
    for (int k = 1; k < pieces; ++k) cuts.push_back(rng() % (n + 1));
    cuts.push_back(cuts[cuts.size() / 2]);  // an empty piece
    std::sort(cuts.begin(), cuts.end());
    return cuts;
}

// The partials of the pieces merged in order, directly and through bytes.
template <class T>
std::pair<Partial, Partial> merged_pieces(const Reducer& r, Operation op, const cl::Buffer& buffer,
                                          const std::vector<std::uint64_t>& cuts, const LaunchParams& params) {
    Partial direct, through_bytes;
    for (std::size_t k = 0; k + 1 < cuts.size(); ++k) {
        const Partial piece = r.partial<T>(op, buffer, cuts[k], cuts[k + 1] - cuts[k], params);
        CHECK(piece.count() == cuts[k + 1] - cuts[k]);
        direct.merge(piece);
        const std::vector<std::uint8_t> bytes = piece.to_bytes();
        through_bytes.merge(Partial::from_bytes(bytes.data(), bytes.size()));
    }
    CHECK(direct.count() == cuts.back());
    CHECK(direct.to_bytes() == through_bytes.to_bytes());
    return {direct, through_bytes};
}

template <class T>
void check_every_operation(const Reducer& r, const LaunchParams& params, const std::string& label) {
    const std::uint64_t seed = seed_for(sizeof(T), 81);
    const std::uint64_t n = 30011;
    INFO(label << ", data seed " << seed << ", type " << type_name(element_traits<T>::type));
    const std::vector<T> host = op_values<T>(n, seed);
    const std::vector<T> factors = product_values<T>(n, seed + 1);
    const cl::Buffer buffer = device_copy(r, host), factor_buffer = device_copy(r, factors);
    const auto cuts = cuts_of(n, 5, seed + 2);
    // (A std::function, so that its result's type is not a dependent one here.)
    const std::function<Partial(Operation)> merged = [&](Operation op) {
        return merged_pieces<T>(r, op, buffer, cuts, params).first;
    };
    constexpr bool integral = std::is_integral_v<T>;
    CallInfo info;

    // Exact for every type: extremes, indices, counts.
    CHECK(merged(Operation::min).min<T>() == r.min<T>(buffer, 0, n, params));
    CHECK(merged(Operation::max).max<T>() == r.max<T>(buffer, 0, n, params));
    const auto both = merged(Operation::minmax).minmax<T>();
    const auto whole = r.minmax<T>(buffer, 0, n, params);
    CHECK(both.min == whole.min);
    CHECK(both.max == whole.max);
    for (const Operation op : {Operation::argmin, Operation::argmax}) {
        const Partial p = merged(op);
        const auto got = op == Operation::argmin ? p.argmin<T>() : p.argmax<T>();
        const auto want =
            op == Operation::argmin ? r.argmin<T>(buffer, 0, n, params) : r.argmax<T>(buffer, 0, n, params);
        INFO(operation_name(op) << " index " << got.index << ", whole " << want.index);
        CHECK(got.index == want.index);
        CHECK(got.value == want.value);
    }
    CHECK(merged(Operation::count_nonzero).count_nonzero<T>() == r.count_nonzero<T>(buffer, 0, n, params));
    CHECK(merged(Operation::norm_inf).norm_inf<T>() == r.norm_inf<T>(buffer, 0, n, params));

    // Sums: integers exact, floats within the reference's bound.
    const sum_type_t<T> sum = merged(Operation::sum).sum<T>();
    const double mean = merged(Operation::mean).mean<T>();
    const auto squares = merged(Operation::sum_of_squares).sum_of_squares<T>();
    const double l1 = merged(Operation::norm_l1).norm_l1<T>();
    const double l2 = merged(Operation::norm_l2).norm_l2<T>();
    r.sum<T>(buffer, 0, n, params, &info);
    const long double u = rounding_unit<T>(info.plan.accumulator);
    if constexpr (integral) {
        CHECK(sum == r.sum<T>(buffer, 0, n, params));
        CHECK(mean == r.mean<T>(buffer, 0, n, params));  // the exact sum's correctly rounded quotient
        CHECK(squares == r.sum_of_squares<T>(buffer, 0, n, params));
        CHECK(l1 == r.norm_l1<T>(buffer, 0, n, params));
        CHECK(l2 == r.norm_l2<T>(buffer, 0, n, params));
    } else if (params.float_mode == FloatMode::correctly_rounded) {
        CHECK(same_bits(sum, r.sum<T>(buffer, 0, n, params)));
        CHECK(same_bits(mean, r.mean<T>(buffer, 0, n, params)));
        CHECK(same_bits(l1, r.norm_l1<T>(buffer, 0, n, params)));
    } else {
        check_approx(reference_sum(host.data(), n, u), sum, "merged sum");
        check_approx(reference_mean(host.data(), n, u), mean, "merged mean");
        check_approx(reference_sum_of_squares(host.data(), n, u), squares, "merged sum_of_squares");
        check_approx(reference_norm_l1(host.data(), n, u), l1, "merged norm_l1");
        check_approx(reference_norm_l2(host.data(), n, u), l2, "merged norm_l2");
    }
    // Products of values near 1 (integers modulo 2^64).
    const Partial products = merged_pieces<T>(r, Operation::product, factor_buffer, cuts, params).first;
    const auto product = products.product<T>();
    if constexpr (integral)
        CHECK(product == r.product<T>(factor_buffer, 0, n, params));
    else
        check_approx(reference_product(factors.data(), n, u), product, "merged product");

    // Statistics: within their bounds (64-bit integers refused by the call itself).
    if (!statistics_refused<T>(n, params))
        check_statistics(merged(Operation::statistics).statistics<T>(), host.data(), n,
                         unit_roundoff(r.device_info().has_fp64 ? ElementType::float64 : ElementType::float32));
}

TEST_CASE("partials of pieces merge into the whole's value for every operation and type", "[partial]") {
    const Reducer& r = reducer();
    check_every_operation<std::int32_t>(r, {}, "default");
    check_every_operation<std::uint8_t>(r, {}, "default");
    check_every_operation<std::int64_t>(r, {}, "default");
    check_every_operation<std::uint64_t>(r, {}, "default");
    check_every_operation<float>(r, {}, "default");
    LaunchParams wrap;
    wrap.overflow = IntegerOverflow::wrap;
    check_every_operation<std::int64_t>(r, wrap, "wrap");
    LaunchParams compensated;
    compensated.float_mode = FloatMode::compensated;
    check_every_operation<float>(r, compensated, "compensated");
    if (r.device_info().has_fp64) check_every_operation<double>(r, {}, "default");
}

TEST_CASE("correctly rounded partials give the single call's bits for any split", "[partial]") {
    const Reducer& r = reducer();
    const std::uint64_t seed = seed_for(4, 82);
    INFO("data seed " << seed);
    const std::vector<float> host = wide_values<float>(50000, seed, 60);
    const cl::Buffer buffer = device_copy(r, host);
    LaunchParams exact;
    exact.float_mode = FloatMode::correctly_rounded;
    const double whole = r.sum<float>(buffer, 0, host.size(), exact);
    CHECK(whole == exact_sum_of_values(host.data(), host.size()).to_double());
    for (int pieces : {1, 2, 3, 7, 40}) {
        INFO(pieces << " pieces");
        const auto cuts = cuts_of(host.size(), pieces, seed + pieces);
        CHECK(same_bits(merged_pieces<float>(r, Operation::sum, buffer, cuts, exact).first.sum<float>(), whole));
        // Merged in a tree rather than left to right: the same limbs.
        std::vector<Partial> parts;
        for (std::size_t k = 0; k + 1 < cuts.size(); ++k)
            parts.push_back(r.partial<float>(Operation::sum, buffer, cuts[k], cuts[k + 1] - cuts[k], exact));
        while (parts.size() > 1) {
            std::vector<Partial> next;
            for (std::size_t k = 0; k < parts.size(); k += 2) {
                next.push_back(parts[k]);
                if (k + 1 < parts.size()) next.back().merge(parts[k + 1]);
            }
            parts = next;
        }
        CHECK(same_bits(parts[0].sum<float>(), whole));
    }
}

TEST_CASE("merged integer partials stay exact past their pieces' accumulators", "[partial]") {
    const Reducer& r = reducer();
    constexpr std::int64_t big = std::numeric_limits<std::int64_t>::max();
    // Each half sums past int64, the whole fits: as the single call, exact.
    const std::vector<std::int64_t> v{big, big, -big, -big, 5};
    const Partial first = r.partial(Operation::sum, std::vector<std::int64_t>{big, big});
    const Partial second = r.partial(Operation::sum, std::vector<std::int64_t>{-big, -big, 5});
    CHECK_THROWS_AS(first.sum<std::int64_t>(), clreduce::Overflow);  // 2^64 - 2 does not fit int64
    Partial whole = first;
    whole.merge(second);
    CHECK(whole.sum<std::int64_t>() == 5);
    CHECK(r.sum(v) == 5);
    // The merged mean of int64 data: the exact sum's quotient, correctly rounded.
    Partial mean = r.partial(Operation::mean, std::vector<std::int64_t>{big, big});
    mean.merge(r.partial(Operation::mean, std::vector<std::int64_t>{big}));
    CHECK(mean.mean<std::int64_t>() == r.mean(std::vector<std::int64_t>{big, big, big}));
    // The whole overflows: Overflow, as the call's.
    Partial over = first;
    over.merge(first);
    CHECK_THROWS_AS(over.sum<std::int64_t>(), clreduce::Overflow);
}

// Partials written by the last release with format version 1 (clreduce c3969c1), kept as bytes.
// sum of int32 {5, -7, 11, 2, -7, 40}
const std::vector<std::uint8_t> kVersion1_sum_int32{0x43, 0x4c, 0x52, 0x50, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00,
                                                    0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0a, 0x00, 0x00, 0x00,
                                                    0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x18, 0x00,
                                                    0x00, 0x00, 0x2c, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                                                    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                                                    0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
// argmin of int32 {5, -7, 11, 2, -7, 40}
const std::vector<std::uint8_t> kVersion1_argmin_int32{0x43, 0x4c, 0x52, 0x50, 0x01, 0x00, 0x05, 0x00, 0x00, 0x00,
                                                       0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00,
                                                       0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00,
                                                       0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                                                       0xf9, 0xff, 0xff, 0xff, 0x69, 0x55, 0x00, 0x00};
// max of float {2.5, -1.25, 8, -1.25}
const std::vector<std::uint8_t> kVersion1_max_float{0x43, 0x4c, 0x52, 0x50, 0x01, 0x00, 0x03, 0x00, 0x04,
                                                    0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00,
                                                    0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                                                    0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x41};
// norm_l1 of float {2.5, -1.25, 8, -1.25}
const std::vector<std::uint8_t> kVersion1_norm_l1_float{0x43, 0x4c, 0x52, 0x50, 0x01, 0x00, 0x0a, 0x00, 0x04, 0x00,
                                                        0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00,
                                                        0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x08, 0x00,
                                                        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x2a, 0x40};
// statistics of float {2.5, -1.25, 8, -1.25}
const std::vector<std::uint8_t> kVersion1_statistics_float{0x43, 0x4c, 0x52, 0x50, 0x01, 0x00, 0x0d, 0x00, 0x04, 0x00,
                                                           0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0b, 0x00, 0x00, 0x00,
                                                           0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x30, 0x00,
                                                           0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                                                           0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x40, 0x00, 0x00,
                                                           0x00, 0x00, 0x00, 0x00, 0x00, 0xc0, 0x00, 0x00, 0x00, 0x00,
                                                           0x00, 0x30, 0x4d, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                                                           0xf4, 0xbf, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x20, 0x40};
// sum of float {2.5, -1.25, 8, -1.25}, correctly rounded
const std::vector<std::uint8_t> kVersion1_cr_sum_float{
    0x43, 0x4c, 0x52, 0x50, 0x01, 0x00, 0x00, 0x00, 0x04, 0x00, 0x04, 0x00, 0x03, 0x00, 0x00, 0x00, 0x08, 0x00,
    0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x58, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};

// Partials written with format version 3 (clreduce fe5dcbc, the last without a checksum), kept
// as bytes. sum of int32 {5, -7, 11, 2, -7, 40}
const std::vector<std::uint8_t> kVersion3_sum_int32{0x43, 0x4c, 0x52, 0x50, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00,
                                                    0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0a, 0x00, 0x00, 0x00,
                                                    0x06, 0x00, 0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                                                    0x18, 0x00, 0x00, 0x00, 0x2c, 0x00, 0x00, 0x00, 0x00, 0x00,
                                                    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                                                    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
// argminmax of int32 {5, -7, 11, 2, -7, 40}
const std::vector<std::uint8_t> kVersion3_argminmax_int32{0x43, 0x4c, 0x52, 0x50, 0x03, 0x00, 0x13, 0x00, 0x00, 0x00,
                                                          0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0f, 0x00, 0x00, 0x00,
                                                          0x08, 0x00, 0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                                                          0x20, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00,
                                                          0x00, 0x00, 0xf9, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00,
                                                          0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x28, 0x00,
                                                          0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
// bit_xor of int32 {5, -7, 11, 2, -7, 40}
const std::vector<std::uint8_t> kVersion3_bit_xor_int32{0x43, 0x4c, 0x52, 0x50, 0x03, 0x00, 0x10, 0x00, 0x00, 0x00,
                                                        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0e, 0x00, 0x00, 0x00,
                                                        0x00, 0x00, 0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                                                        0x04, 0x00, 0x00, 0x00, 0x24, 0x00, 0x00, 0x00};

// statistics of int32 {-3, 9, 4}, uint16 {60000, 3, 65535} and int32 {-2145286346, 5,
// 2147483600, 7} in a float32 accumulator: the extremes as floats (version 4: as integers),
// those of the last rounded to -2145286400 and 2^31.
const std::vector<std::uint8_t> kVersion3_statistics_int32_float32{
    0x43, 0x4c, 0x52, 0x50, 0x03, 0x00, 0x0d, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0b,
    0x00, 0x00, 0x00, 0x07, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00,
    0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0xc0, 0x00, 0x00, 0x98, 0x41, 0x00,
    0x00, 0x41, 0x43, 0x00, 0x00, 0x40, 0xc0, 0x00, 0x00, 0x10, 0x41, 0x00, 0x00, 0x00, 0x00};
const std::vector<std::uint8_t> kVersion3_statistics_uint16_float32{
    0x43, 0x4c, 0x52, 0x50, 0x03, 0x00, 0x0d, 0x00, 0x09, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0b,
    0x00, 0x00, 0x00, 0x07, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00,
    0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x60, 0x6a, 0x47, 0x00, 0xbe, 0x54, 0xc7, 0x9f,
    0x61, 0x58, 0x4f, 0x00, 0x00, 0x40, 0x40, 0x00, 0xff, 0x7f, 0x47, 0x00, 0x00, 0x00, 0x00};
const std::vector<std::uint8_t> kVersion3_statistics_int32_float32_rounded{
    0x43, 0x4c, 0x52, 0x50, 0x03, 0x00, 0x0d, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0b,
    0x00, 0x00, 0x00, 0x07, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00,
    0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf2, 0xbc, 0xff, 0xce, 0xb6, 0xcd, 0xff, 0x4f, 0xf8,
    0xbc, 0xbf, 0x5f, 0xf2, 0xbc, 0xff, 0xce, 0x00, 0x00, 0x00, 0x4f, 0x00, 0x00, 0x00, 0x00};

// A record of an earlier version read, written again in this version (its header, the same
// state, the checksum), and read back.
Partial read_and_rewrite(const std::vector<std::uint8_t>& bytes, int version) {
    REQUIRE(bytes[4] == version);
    const Partial p = Partial::from_bytes(bytes.data(), bytes.size());
    const std::vector<std::uint8_t> again = p.to_bytes();
    CHECK(again[4] == 4);
    const std::size_t header = version == 1 ? 32 : 34;  // version 1 has no layout field
    CHECK(std::vector<std::uint8_t>(again.begin() + 34, again.end() - 4) ==
          std::vector<std::uint8_t>(bytes.begin() + static_cast<std::ptrdiff_t>(header), bytes.end()));
    CHECK(stored_checksum(again) == reference_crc32c(again.data(), again.size() - 4));
    return Partial::from_bytes(again.data(), again.size());  // the same partial through version 4
}

TEST_CASE("partials of format versions 1 to 3 are still read, and written again as version 4", "[partial]") {
    const std::vector<std::int32_t> ints{5, -7, 11, 2, -7, 40};
    const auto read = [](const std::vector<std::uint8_t>& bytes) { return read_and_rewrite(bytes, 1); };
    CHECK(read(kVersion1_sum_int32).sum<std::int32_t>() == 44);
    const ArgResult<std::int32_t> arg = read(kVersion1_argmin_int32).argmin<std::int32_t>();
    CHECK(arg.value == -7);
    CHECK(arg.index == 1);
    CHECK(read(kVersion1_max_float).max<float>() == 8.0f);
    CHECK(read(kVersion1_norm_l1_float).norm_l1<float>() == 13.0);
    const Statistics<float> s = read(kVersion1_statistics_float).statistics<float>();
    CHECK(s.count == 4);
    CHECK(s.min == -1.25f);
    CHECK(s.max == 8.0f);
    CHECK(s.sum == 8.0);
    const Partial cr = read(kVersion1_cr_sum_float);
    CHECK(cr.float_mode() == FloatMode::correctly_rounded);
    CHECK(cr.sum<float>() == 8.0);
    // A version-1 partial merges with one this version makes.
    Partial merged = read(kVersion1_sum_int32);
    merged.merge(reducer().partial(Operation::sum, ints));
    CHECK(merged.sum<std::int32_t>() == 88);
    // Operations version 1 did not have are refused in its records.
    std::vector<std::uint8_t> newer = kVersion1_sum_int32;
    newer[6] = 14;  // bit_and's number, new in version 2
    CHECK_THROWS_WITH(Partial::from_bytes(newer.data(), newer.size()), Catch::Contains("operation 14"));
    // An indexed state's padding after an int32 value is zero: equal partials are equal bytes.
    const auto arg_bytes = reducer().partial(Operation::argmin, ints).to_bytes();
    for (std::size_t k = arg_bytes.size() - 8; k < arg_bytes.size() - 4; ++k) CHECK(arg_bytes[k] == 0);

    // Version 3: this version's header and state without the checksum.
    CHECK(read_and_rewrite(kVersion3_sum_int32, 3).sum<std::int32_t>() == 44);
    const ArgMinMax<std::int32_t> both = read_and_rewrite(kVersion3_argminmax_int32, 3).argminmax<std::int32_t>();
    CHECK(both.min.value == -7);
    CHECK(both.min.index == 1);
    CHECK(both.max.value == 40);
    CHECK(both.max.index == 5);
    CHECK(read_and_rewrite(kVersion3_bit_xor_int32, 3).bit_xor<std::int32_t>() == (5 ^ -7 ^ 11 ^ 2 ^ -7 ^ 40));
    // The same records are this version's bytes but for the version and the checksum.
    for (const auto* stored : {&kVersion3_sum_int32, &kVersion3_argminmax_int32, &kVersion3_bit_xor_int32}) {
        const std::vector<std::uint8_t> now = Partial::from_bytes(stored->data(), stored->size()).to_bytes();
        std::vector<std::uint8_t> expected = *stored;
        expected[4] = 4;
        expected.resize(expected.size() + 4);
        reseal(expected);
        CHECK(now == expected);
    }
    // Statistics of integers in a float32 accumulator: version 4 keeps the extremes as 32-bit
    // integers; the floats of version 3 are read as the integers they are, where they are.
    const auto old_statistics = [](const std::vector<std::uint8_t>& bytes) {
        const Partial p = Partial::from_bytes(bytes.data(), bytes.size());
        const std::vector<std::uint8_t> again = p.to_bytes();
        CHECK(std::equal(again.begin() + 34, again.begin() + 54, bytes.begin() + 34));  // count, shift, sums
        return Partial::from_bytes(again.data(), again.size());
    };
    const Statistics<std::int32_t> small =
        old_statistics(kVersion3_statistics_int32_float32).statistics<std::int32_t>();
    CHECK(small.count == 3);
    CHECK(small.min == -3);
    CHECK(small.max == 9);
    CHECK(small.sum == 10.0);
    const Partial now = reducer().partial(Operation::statistics, std::vector<std::int32_t>{-3, 9, 4}, [] {
        LaunchParams p;
        p.accumulator = ElementType::float32;
        return p;
    }());
    CHECK(old_statistics(kVersion3_statistics_int32_float32).to_bytes() == now.to_bytes());
    const Statistics<std::uint16_t> wide =
        old_statistics(kVersion3_statistics_uint16_float32).statistics<std::uint16_t>();
    CHECK(wide.min == 3);
    CHECK(wide.max == 65535);
    // Extremes rounded past the type (2^31 for 2147483600) are no int32 values: refused, as
    // reading them was before.
    CHECK_THROWS_WITH(Partial::from_bytes(kVersion3_statistics_int32_float32_rounded.data(),
                                          kVersion3_statistics_int32_float32_rounded.size()),
                      Catch::Contains("extremes are not int32 values"));
    // Version 2 is version 3 without argminmax: its records are read, argminmax refused in them.
    std::vector<std::uint8_t> version2 = kVersion3_bit_xor_int32;
    version2[4] = 2;
    CHECK(read_and_rewrite(version2, 2).bit_xor<std::int32_t>() == (5 ^ -7 ^ 11 ^ 2 ^ -7 ^ 40));
    version2 = kVersion3_argminmax_int32;
    version2[4] = 2;
    CHECK_THROWS_WITH(Partial::from_bytes(version2.data(), version2.size()), Catch::Contains("operation 19"));
    // A record without its checksum is not a version-4 record, nor one of version 3 with it.
    std::vector<std::uint8_t> unsealed = kVersion3_sum_int32;
    unsealed[4] = 4;
    CHECK_THROWS_WITH(Partial::from_bytes(unsealed.data(), unsealed.size()), Catch::Contains("CRC-32C checksum"));
    std::vector<std::uint8_t> sealed3 = reducer().partial(Operation::sum, ints).to_bytes();
    sealed3[4] = 3;
    CHECK_THROWS_WITH(Partial::from_bytes(sealed3.data(), sealed3.size()),
                      Catch::Contains("62 bytes where its header and state take 58"));
}

TEST_CASE("partials refuse what does not merge or read, and bytes that are not a partial", "[partial][errors]") {
    const Reducer& r = reducer();
    const std::vector<std::int32_t> v{3, 1, 2};
    Partial sum = r.partial(Operation::sum, v);
    CHECK_THROWS_WITH(sum.merge(r.partial(Operation::min, v)), Catch::Contains("different operations"));
    CHECK_THROWS_WITH(sum.merge(r.partial(Operation::sum, std::vector<std::int16_t>{1})),
                      Catch::Contains("different element types"));
    LaunchParams wrap;
    wrap.overflow = IntegerOverflow::wrap;
    CHECK_THROWS_WITH(sum.merge(r.partial(Operation::sum, v, wrap)), Catch::Contains("different overflow rules"));
    CHECK_THROWS_WITH(sum.min<std::int32_t>(), Catch::Contains("has no min"));
    CHECK_THROWS_WITH(sum.sum<std::int64_t>(), Catch::Contains("read as int64"));
    CHECK_THROWS_WITH(Partial().sum<std::int32_t>(), Catch::Contains("of nothing"));
    // An empty range: merges as nothing; alone, min of it is undefined as for a call.
    const Partial none = r.partial(Operation::min, std::vector<std::int32_t>{});
    CHECK(none.count() == 0);
    CHECK_THROWS_AS(none.min<std::int32_t>(), InvalidArgument);
    Partial some = none;
    some.merge(r.partial(Operation::min, v));
    some.merge(none);
    CHECK(some.min<std::int32_t>() == 1);
    CHECK(some.count() == 3);

    std::vector<std::uint8_t> bytes = sum.to_bytes();
    CHECK(Partial::from_bytes(bytes.data(), bytes.size()).sum<std::int32_t>() == 6);
    CHECK_THROWS_WITH(Partial::from_bytes(bytes.data(), bytes.size() - 1),
                      Catch::Contains("not a clreduce Partial") && Catch::Contains("checksum"));
    CHECK_THROWS_WITH(Partial::from_bytes(bytes.data(), 10), Catch::Contains("fewer than its header"));
    CHECK_THROWS_WITH(Partial::from_bytes(bytes.data(), 37),
                      Catch::Contains("37 bytes, fewer than its header's and checksum's"));
    CHECK_THROWS_WITH(Partial::from_bytes(nullptr, 0), Catch::Contains("not a clreduce Partial"));
    std::vector<std::uint8_t> bad = bytes;
    bad[0] = 'X';
    CHECK_THROWS_WITH(Partial::from_bytes(bad.data(), bad.size()), Catch::Contains("CLRP"));
    bad = bytes;
    bad[4] = 5;
    CHECK_THROWS_WITH(Partial::from_bytes(bad.data(), bad.size()), Catch::Contains("format version 5"));
    // A changed field under a checksum that no longer matches: refused for the checksum,
    // naming both values; with the checksum written again, for the field itself.
    bad = bytes;
    bad[6] = 200;  // operation
    const std::uint32_t checksum = stored_checksum(bytes);
    const std::uint32_t changed = reference_crc32c(bad.data(), bad.size() - 4);
    const auto hex = [](std::uint32_t v) {
        std::ostringstream out;
        out << "0x" << std::hex << std::setw(8) << std::setfill('0') << v;
        return out.str();
    };
    CHECK_THROWS_WITH(Partial::from_bytes(bad.data(), bad.size()),
                      "not a clreduce Partial: its CRC-32C checksum is " + hex(checksum) + " where its bytes give " +
                          hex(changed) + " (a record changed or cut short on its way)");
    bad = resealed(bad);
    CHECK_THROWS_WITH(Partial::from_bytes(bad.data(), bad.size()), Catch::Contains("operation 200"));
    bad = bytes;
    bad[20] = 4;  // the layout field: exact, not the int192 of an integer sum
    CHECK_THROWS_WITH(Partial::from_bytes(bad.data(), bad.size()), Catch::Contains("checksum"));
    CHECK_THROWS_WITH(Partial::from_bytes(resealed(bad).data(), bad.size()), Catch::Contains("state layout 4"));
    bad = bytes;
    bad[partial_state_at() - 4] = 7;  // the state's size
    reseal(bad);
    CHECK_THROWS_WITH(Partial::from_bytes(bad.data(), bad.size()), Catch::Contains("a state of 7 bytes"));
}

}  // namespace
}  // namespace clreduce::test
