// FloatMode::correctly_rounded's two routes to the same number (cl_kernels/ops/add_exact.cl):
// the expansion path (InterGroup::exact_atomic, the default where the device has 64-bit
// atomics, base and extended, and doubles) and the fixed-point states (second pass, last
// group). Every result is compared bit for bit with an independent rounding of the exact sum
// (reference/exact_float_sum), on data that makes the expansions spill (wide exponent ranges,
// the whole range), at the overflow threshold, with signed zeros, NaN and infinities, through
// every launch shape, offset and entry form, and merged from partials. The bins' bounds are
// test_correctly_rounded_bins.cpp's; the helpers both use, correctly_rounded_support.hpp's.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "correctly_rounded_support.hpp"
#include "covering_array.hpp"
#include "device/vendor.hpp"        // src/
#include "kernels/kernel_spec.hpp"  // src/
#include "reference/adversarial_data.hpp"
#include "reference/exact_float_sum.hpp"
#include "test_support.hpp"

namespace ct = clreduce::testing;
using namespace clreduce;
using clreduce::test::same_bits;
using namespace clreduce::test::correctly_rounded;

namespace {

// Sets that fit the expansions, spill from them (wide: 200 or 300 binades) and live in the sink
// (the whole exponent range, subnormals included).
template <class T>
std::vector<std::pair<const char*, std::vector<T>>> route_sets(std::mt19937_64& rng) {
    const bool f = std::is_same_v<T, float>;
    return {
        {"benign", ct::make_dataset<T>(ct::Dataset::benign, 30011, test::seed_for(521))},
        {"cancellation", ct::make_dataset<T>(ct::Dataset::cancellation, 30011, test::seed_for(522))},
        {"wide", spread<T>(f ? -100 : -150, f ? 99 : 149, 30011, rng)},
        {"whole range", spread<T>(f ? -149 : -1074, f ? 120 : 1000, 30011, rng)},
        {"small under cancelling large",
         f ? hidden_small<T>(30011, rng, 90, 100, -60, -40) : hidden_small<T>(30011, rng, 600, 700, -400, -380)},
        // 29-31 binades apart: a float lane's double sum just cannot hold them.
        {"small 30 binades under cancelling large", hidden_small<T>(30011, rng, 29, 31, 0, 1)},
        // 50 binades apart: within two TwoSums (106 bits), beyond any one double's window with
        // room for its errors (a pass of one TwoSum and a plain second double, tried for CPU
        // devices, held 53 - 2 log2(times) binades: this set caught it stretched).
        {"small 50 binades under cancelling large", hidden_small<T>(30011, rng, 49, 51, 0, 1)},
        // Magnitudes rising 90 binades along the range: a work-item's first vector is far below
        // its last (the anchored pass scales itself by the first).
        {"rising", rising<T>(30011, -30, 60, rng)},
        // 2^100 and -2^100 among values in [1, 2), inside some work-item's vectors: far above the
        // ends' magnitudes, from which the anchored pass takes its scale.
        {"cancelling spikes", cancelling_spikes<T>(30011, rng)},
        {"values above the room inside the work-items", inside_outliers<T>(30011, true, rng)},
        {"values below the window inside the work-items", inside_outliers<T>(30011, false, rng)},
    };
}

// The launch factors a route is checked under (0: the default): times 1, 3 (local stride) and
// 128, work-groups of 1, 32 and 256, vector widths 1, 2, 4 and 16 (each called twice), and the
// pointer form from offsets 1, 2, 5 and 63.
const std::uint32_t kRouteTimes[] = {0, 1, 3, 128};
const std::uint32_t kRouteGroups[] = {0, 1, 32, 256};
const std::uint32_t kRouteVectors[] = {0, 1, 2, 4, 16};
const std::size_t kRouteOffsets[] = {0, 1, 2, 5, 63};

// Every set of T under one route and launch shape (on the level 1 path set), bit for bit against
// the exact sum.
template <class T>
void check_route_shape(const Reducer& r, const std::vector<std::pair<const char*, std::vector<T>>>& sets,
                       const std::optional<InterGroup>& route, std::uint32_t times, std::uint32_t wg, std::uint32_t vec,
                       std::size_t offset) {
    LaunchParams p;
    p.float_mode = FloatMode::correctly_rounded;
    p.inter_group = route;
    if (times != 0) {
        p.times = times;
        p.stride = times == 3 ? Stride::local : Stride::global;
    }
    if (wg != 0) p.work_group_size = wg;
    if (vec != 0) p.vector_width = vec;
    INFO("times " << times << ", work-group " << wg << ", vector width " << vec << ", offset " << offset
                  << " (0: the default)");
    for (const auto& [name, data] : sets) {
        INFO(sizeof(T) * 8 << "-bit " << name);
        const double want = exact(data, offset);
        INFO("exact " << want);
        try {
            const double got = r.sum<T>(data.data() + offset, data.size() - offset, p);
            INFO(std::hexfloat << got << " want " << want << std::defaultfloat << ": "
                               << r.plan(element_traits<T>::type, Operation::sum, data.size(), p).describe());
            CHECK(same_bits(got, want));
            if (vec != 0) CHECK(same_bits(r.sum<T>(data.data() + offset, data.size() - offset, p), want));
        } catch (const InvalidArgument& e) {  // a CPU device's room for big states
            CHECK(wg != 0);
            CHECK(route != InterGroup::exact_atomic);
        }
    }
}

}  // namespace

// Level 1 path x element type x route x times x work-group x vector width x offset in a pairwise
// covering array (tests/support/covering_array.hpp): each row a kernel build (the offset aside),
// over every data set. Work-groups whose states do not fit local memory are left out.
TEST_CASE("correctly rounded: the expansion path and the fixed-point states give the same bits",
          "[correctly-rounded]") {
    const Reducer& r = test::reducer();
    if (!offered(r)) return;
    std::mt19937_64 rng(test::seed_for(520));
    const std::uint64_t cover_seed = test::seed_for(523);
    INFO("seed " << test::seed_for(520) << ", covering array seed " << cover_seed);
    const auto floats = route_sets<float>(rng);
    const auto doubles = route_sets<double>(rng);
    const auto paths = level1_paths(r);
    const auto all_routes = routes(r);
    const std::vector<std::size_t> levels{paths.size(),
                                          2,
                                          all_routes.size(),
                                          std::size(kRouteTimes),
                                          std::size(kRouteGroups),
                                          std::size(kRouteVectors),
                                          std::size(kRouteOffsets)};
    const std::uint64_t local_mem = r.device_info().local_mem_size;
    const test::AllowedPair fits = [&](std::size_t a, std::size_t x, std::size_t b, std::size_t y) {
        if (a != 2 || b != 4) return true;  // route x work-group
        return kRouteGroups[y] * (all_routes[x] == InterGroup::exact_atomic ? 32u : 544u) <= local_mem;
    };
    const auto rows = test::pairwise_rows(levels, cover_seed, fits);
    for (const auto& row : rows) {
        INFO(level1_name(paths[row[0]]) << ", via " << route_name(all_routes[row[2]]));
        Level1Path path(paths[row[0]]);
        const auto& route = all_routes[row[2]];
        const std::uint32_t times = kRouteTimes[row[3]], wg = kRouteGroups[row[4]], vec = kRouteVectors[row[5]];
        const std::size_t offset = kRouteOffsets[row[6]];
        if (row[1] == 0)
            check_route_shape(r, floats, route, times, wg, vec, offset);
        else if (r.device_info().has_fp64)
            check_route_shape(r, doubles, route, times, wg, vec, offset);
    }
    CHECK(test::missing_pair(levels, rows, fits).empty());
}

TEST_CASE("correctly rounded: signed zeros, overflow, NaN and infinities by IEEE's rules", "[correctly-rounded]") {
    const Reducer& r = test::reducer();
    if (!offered(r)) return;
    const double inf = std::numeric_limits<double>::infinity();
    for (const auto& passes : level1_paths(r))
        for (const auto& route : routes(r)) {
            INFO("via " << route_name(route) << ", " << level1_name(passes));
            Level1Path path(passes);
            LaunchParams p;
            p.float_mode = FloatMode::correctly_rounded;
            p.inter_group = route;
            // A zero sum is -0.0 exactly when every term is -0.0 (IEEE addition); +0.0 otherwise,
            // and for an empty sum.
            for (std::size_t n : {1u, 7u, 4096u, 100003u}) {
                INFO(n << " terms");
                std::vector<float> zeros(n, -0.0f);
                CHECK(same_bits(r.sum(zeros, p), -0.0));
                zeros[n / 2] = 0.0f;
                CHECK(same_bits(r.sum(zeros, p), 0.0));
                zeros[n / 2] = 1.5f;
                if (n > 1) zeros[n / 3] = -1.5f;
                CHECK(same_bits(r.sum(zeros, p), n > 1 ? 0.0 : 1.5));
                if (!r.device_info().has_fp64) continue;
                const std::vector<double> dzeros(n, -0.0);
                CHECK(same_bits(r.sum(dzeros, p), -0.0));
                CHECK(same_bits(r.mean(dzeros, p), -0.0));
            }
            CHECK(same_bits(r.sum(std::vector<float>{}, p), 0.0));
            // Subnormals only: exact, whatever the device does with subnormals in conversions.
            CHECK(same_bits(r.sum(std::vector<float>(1001, std::ldexp(1.0f, -149)), p), 1001 * std::ldexp(1.0, -149)));
            CHECK(same_bits(r.sum(std::vector<float>{FLT_MAX, FLT_MAX, -FLT_MAX}, p), double(FLT_MAX)));
            // NaN and infinities as IEEE addition gives them, wherever they are.
            std::vector<float> v(5000, 1.0f);
            v[1234] = std::numeric_limits<float>::infinity();
            CHECK(same_bits(r.sum(v, p), inf));
            v[4321] = -std::numeric_limits<float>::infinity();
            CHECK(std::isnan(r.sum(v, p)));
            v[1234] = v[4321] = std::numeric_limits<float>::quiet_NaN();
            CHECK(std::isnan(r.sum(v, p)));
            if (!r.device_info().has_fp64) continue;
            // At the overflow threshold: an exact sum that is representable is returned even where
            // every partial sum in some order overflows; one that is not rounds to +-inf.
            CHECK(same_bits(r.sum(std::vector<double>{DBL_MAX, DBL_MAX, -DBL_MAX}, p), DBL_MAX));
            CHECK(same_bits(r.sum(std::vector<double>(1000, DBL_MAX), p), inf));
            CHECK(same_bits(r.sum(std::vector<double>(1000, -DBL_MAX), p), -inf));
            std::vector<double> big(3001, DBL_MAX);
            for (std::size_t i = 1; i < big.size(); i += 2) big[i] = -DBL_MAX;
            CHECK(same_bits(r.sum(big, p), DBL_MAX));
            // The same spread over lanes and work-items among zeros: no lane overflows on its own.
            std::vector<double> spaced(4096, 0.0);
            spaced[0] = spaced[1] = DBL_MAX;
            spaced[2] = -DBL_MAX;
            CHECK(same_bits(r.sum(spaced, p), DBL_MAX));
            for (std::size_t i = 3; i < spaced.size(); i += 37) spaced[i] = i % 2 ? 0x1p1000 : -0x1p999;
            CHECK(same_bits(r.sum(spaced, p), exact(spaced)));
            // Cancellation to one ulp of the largest term.
            const double ulp = std::ldexp(1.0, 1023 - 52);
            CHECK(same_bits(r.sum(std::vector<double>{DBL_MAX, -DBL_MAX, ulp, 1e-300, -1e-300}, p), ulp));
        }
}

TEST_CASE("correctly rounded: partial states merged on the host give the one-call bits",
          "[correctly-rounded][partial]") {
    const Reducer& r = test::reducer();
    if (!offered(r) || !r.device_info().has_fp64) return;
    std::mt19937_64 rng(test::seed_for(523));
    const auto data = spread<double>(-300, 300, 50021, rng);
    const double want = exact(data);
    for (const auto& route : routes(r)) {
        INFO("via " << route_name(route));
        LaunchParams p;
        p.float_mode = FloatMode::correctly_rounded;
        p.inter_group = route;
        CHECK(same_bits(r.sum(data, p), want));
        const std::size_t cut = 17389;
        Partial first = r.partial<double>(Operation::sum, data.data(), cut, p);
        const Partial second = r.partial<double>(Operation::sum, data.data() + cut, data.size() - cut, p);
        first.merge(second);
        CHECK(same_bits(first.sum<double>(), want));
        // Through bytes, as another process or device would receive it.
        const auto bytes = first.to_bytes();
        CHECK(same_bits(Partial::from_bytes(bytes.data(), bytes.size()).sum<double>(), want));
    }
}
