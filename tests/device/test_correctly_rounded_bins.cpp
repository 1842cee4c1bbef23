// FloatMode::correctly_rounded through the bins (cl_kernels/ops/add_exact_bins.cl): data sets
// at each bin's bound, compared bit for bit with an independent rounding of the exact sum
// (reference/exact_float_sum), under a pairwise covering array of level 1 path, data set and
// launch shape.
#include <catch2/catch.hpp>

#include <cfloat>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "correctly_rounded_support.hpp"
#include "covering_array.hpp"
#include "test_support.hpp"

using namespace clreduce;
using clreduce::test::same_bits;
using namespace clreduce::test::correctly_rounded;

namespace {

// Data the untested passes cannot hold goes through bins before the tested lanes (add_exact.cl,
// CLREDUCE_EXACT_BINS): for floats 16 doubles of 16 binades a work-item; for doubles (after the
// anchored route's group check, where the group's ends span more than 106 binades) 16-bit
// digits in 32-bit words shared by 32 work-items. Each set checks a bound: a bin or word filled
// to its limit, the lowest bin (subnormals), values at the top of the range, and NaN and
// infinities, which the float bins hand to the tested lanes and the digits to the flags. On the
// device (host_path_bytes 0), in shapes up to the bins' most values a work-item (2^13 floats,
// 2^10 doubles) and past them (the tested lanes then follow directly), and in work-groups of 64
// and 256, where a group whose ends span too wide adds its bins or digits up together
// (clreduce_vbins_group).
template <class T>
void check_bins(const Reducer& r, const std::vector<std::pair<std::string, std::vector<T>>>& sets,
                std::mt19937_64& rng) {
    struct Shape {
        std::uint32_t times, vec, wg;  // wg 0: the planner's
    };
    const std::vector<Shape> shapes{{512, 16, 0}, {512, 2, 0}, {128, 4, 0},  {1, 1, 0},
                                    {32, 4, 64},  {8, 2, 256}, {256, 4, 256}};
    // Level 1 path x data set x shape in a pairwise covering array.
    const auto paths = level1_paths(r);
    std::vector<double> want, want_from_3;
    for (const auto& set : sets) {
        want.push_back(exact(set.second));
        want_from_3.push_back(exact(set.second, 3));
    }
    const std::vector<std::size_t> levels{paths.size(), sets.size(), shapes.size()};
    const std::uint64_t cover_seed = test::seed_for(525, sizeof(T));
    INFO("covering array seed " << cover_seed);
    const auto rows = test::pairwise_rows(levels, cover_seed);
    for (const auto& row : rows) {
        INFO(level1_name(paths[row[0]]));
        Level1Path path(paths[row[0]]);
        const auto& [name, data] = sets[row[1]];
        const auto& [times, vec, wg] = shapes[row[2]];
        LaunchParams p;
        p.float_mode = FloatMode::correctly_rounded;
        p.host_path_bytes = 0;
        p.times = times;
        p.vector_width = vec;
        if (wg != 0) p.work_group_size = wg;
        INFO(sizeof(T) * 8 << "-bit " << name << ", times " << times << ", vector width " << vec << ", exact "
                           << std::hexfloat << want[row[1]] << std::defaultfloat << ": "
                           << r.plan(element_traits<T>::type, Operation::sum, data.size(), p).describe());
        const double got = r.sum(data, p);
        const double got_from_3 = r.sum<T>(data.data() + 3, data.size() - 3, p);
        INFO("got " << std::hexfloat << got << ", from element 3 " << got_from_3 << std::defaultfloat);
        CHECK(same_bits(got, want[row[1]]));
        CHECK(same_bits(got_from_3, want_from_3[row[1]]));
    }
    CHECK(test::missing_pair(levels, rows).empty());
    for (const auto& passes : paths) {
        INFO(level1_name(passes));
        Level1Path path(passes);
        // NaN and infinities among wide data: IEEE addition's result (also where the group would
        // add its bins up together, had they all held); for doubles also over the whole range,
        // whose values go straight to the sink, NaN and infinities as flags.
        const std::vector<int> spans = sizeof(T) == 8 ? std::vector<int>{100, 1000} : std::vector<int>{100};
        for (std::size_t k = 0; k < 2 * spans.size(); ++k) {
            const std::uint32_t wg = k % 2 == 0 ? 0u : 64u;
            const int span = spans[k / 2];
            INFO("work-group size " << wg << " (0: the planner's), exponents within +-" << span);
            std::vector<T> v = spread<T>(-span, span, sets.front().second.size(), rng);
            const std::size_t n = v.size();
            LaunchParams p;
            p.float_mode = FloatMode::correctly_rounded;
            p.host_path_bytes = 0;
            p.times = 128;
            if (wg != 0) p.work_group_size = wg;
            v[n / 3] = std::numeric_limits<T>::infinity();
            CHECK(same_bits(r.sum(v, p), std::numeric_limits<double>::infinity()));
            v[n / 5] = -std::numeric_limits<T>::infinity();
            CHECK(std::isnan(r.sum(v, p)));
            v[n / 3] = v[n / 5] = 0;
            v[n / 7] = std::numeric_limits<T>::quiet_NaN();
            CHECK(std::isnan(r.sum(v, p)));
            if (span < 1000) continue;
            // An exact sum beyond DBL_MAX rounds to +-inf (the words and the sink hold it).
            v[n / 7] = 0;
            for (std::size_t i = 0; i < n; i += 100) v[i] = std::numeric_limits<T>::max();
            CHECK(same_bits(r.sum(v, p), std::numeric_limits<double>::infinity()));
            for (std::size_t i = 0; i < n; i += 100) v[i] = std::numeric_limits<T>::lowest();
            CHECK(same_bits(r.sum(v, p), -std::numeric_limits<double>::infinity()));
        }
    }
}

}  // namespace

TEST_CASE("correctly rounded: float data through the bins", "[correctly-rounded][bins]") {
    const Reducer& r = test::reducer();
    if (!offered(r)) return;
    std::mt19937_64 rng(test::seed_for(524));
    INFO("seed " << test::seed_for(524));
    const std::size_t n = 3 * 65536 + 13;
    // Floats at the top of a bin (significand 2 - 2^-23, exponent 16j + 15 - 127), one sign: of
    // random bins, of bin 7 only (up to 2^13 floats of a work-item in one bin, its bound), and
    // FLT_MAX (bin 15). Every 512th value is 2^-140, so that a work-item's values span more
    // than any untested pass holds.
    auto float_tops = [&](int only_bin) {
        std::vector<float> v(n);
        for (std::size_t i = 0; i < n; ++i) {
            const int bin = only_bin >= 0 ? only_bin : int(rng() % 16);
            v[i] = i % 512 == 0 ? 0x1p-140f : std::ldexp(2.0f - 0x1p-23f, std::min(16 * bin + 15 - 127, 127));
        }
        return v;
    };
    // Subnormals and the lowest bin's normals (below 2^-110) under large values that cancel:
    // the exact sum is the small values' alone.
    std::vector<float> lowest = hidden_small<float>(n, rng, 90, 100, -149, -111);
    for (std::size_t i = 0; i < lowest.size(); i += 7)
        if (std::fabs(lowest[i]) < 0x1p-100f) lowest[i] = std::ldexp(float(rng() % 1000), -149);
    check_bins<float>(r,
                      {{"tops of random bins", float_tops(-1)},
                       {"tops of bin 7", float_tops(7)},
                       {"FLT_MAX", float_tops(15)},
                       {"the lowest bin", lowest}},
                      rng);
}

TEST_CASE("correctly rounded: double data through the bins", "[correctly-rounded][bins]") {
    const Reducer& r = test::reducer();
    if (!offered(r) || !r.device_info().has_fp64) return;
    std::mt19937_64 rng(test::seed_for(526));
    INFO("seed " << test::seed_for(526));
    const std::size_t n = 3 * 65536 + 13;
    // Doubles of one sign with the largest significand over 300 binades: each bin's low words
    // near their bound (2^10 values of 53 bits); the same 300 binades ending just below 2^980,
    // the bins' ceiling; subnormals and small normals under large values that cancel, all
    // within the bins' 384 binades, so that the lowest bins start below exponent 1.
    auto double_tops = [&](int lo, int hi) {
        std::uniform_int_distribution<int> e(lo, hi);
        std::vector<double> v(n);
        for (auto& x : v) x = std::ldexp(2.0 - 0x1p-52, e(rng));
        return v;
    };
    std::vector<double> small = hidden_small<double>(n, rng, -750, -740, -1074, -1040);
    for (std::size_t i = 0; i < small.size(); i += 5)
        if (std::fabs(small[i]) < 0x1p-1000) small[i] = std::ldexp(double(rng() % 100000), -1074);
    // The whole range with the largest significands, one sign; subnormals under cancelling
    // values up to 2^1020; random signs and magnitudes up to 2^1001; one value with the largest
    // significand, one sign, among a few far below it (so that groups take the digits): each
    // slice's words then take 2^15 times the same digits, their bound.
    std::vector<double> one_value(n, std::ldexp(2.0 - 0x1p-52, 700));
    for (std::size_t i = 0; i < n; i += 61) one_value[i] = 0x1p-600;
    // DBL_MAX and -DBL_MAX in equal numbers among the whole range: partial sums far beyond
    // DBL_MAX, an exact sum of the small values.
    std::vector<double> max_cancelling = spread<double>(-1074, 1000, n, rng);
    for (std::size_t i = 0; i + 50 < n; i += 100) {
        max_cancelling[i] = DBL_MAX;
        max_cancelling[i + 50] = -DBL_MAX;
    }
    check_bins<double>(r,
                       {{"largest significands over 300 binades", double_tops(-150, 150)},
                        {"below 2^980 over 300 binades", double_tops(679, 978)},
                        {"subnormals under cancelling values", small},
                        {"largest significands over the whole range", double_tops(-1074, 1010)},
                        {"subnormals under cancelling values up to 2^1020",
                         hidden_small<double>(n, rng, 500, 1020, -1074, -1000)},
                        {"random signs over the whole range", spread<double>(-1074, 1000, n, rng)},
                        {"one value filling the words", one_value},
                        {"DBL_MAX cancelling among the whole range", max_cancelling}},
                       rng);
}
