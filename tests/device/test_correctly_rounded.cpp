// FloatMode::correctly_rounded's two routes to the same number (cl_kernels/ops/add_exact.cl):
// the expansion path (InterGroup::exact_atomic, the default where the device has 64-bit
// atomics, base and extended, and doubles) and the fixed-point states (second pass, last
// group). Every result is compared bit for bit with an independent rounding of the exact sum
// (reference/exact_float_sum), on data that makes the expansions spill (wide exponent ranges,
// the whole range), at the overflow threshold, with signed zeros, NaN and infinities, through
// every launch shape, offset and entry form, and merged from partials. (Just over 500 lines:
// its cases share the data sets and shape lists at its top; a split would repeat them.)
#include <catch2/catch.hpp>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "covering_array.hpp"
#include "device/vendor.hpp"        // src/
#include "kernels/kernel_spec.hpp"  // src/
#include "reference/adversarial_data.hpp"
#include "reference/exact_float_sum.hpp"
#include "test_support.hpp"

namespace ct = clreduce::testing;
using namespace clreduce;
using clreduce::test::same_bits;

namespace {

// The routes a correctly rounded sum can take on this device: the expansion path where it is
// offered, and the fixed-point states of the second pass and (NVIDIA, CPU devices) the
// last-group finish.
std::vector<std::optional<InterGroup>> routes(const Reducer& r) {
    std::vector<std::optional<InterGroup>> out;
    for (InterGroup g : {InterGroup::exact_atomic, InterGroup::second_pass, InterGroup::last_group}) {
        LaunchParams p;
        p.float_mode = FloatMode::correctly_rounded;
        p.inter_group = g;
        try {
            r.plan(ElementType::float32, Operation::sum, 100000, p);
            out.push_back(g);
        } catch (const Unsupported&) {
        }
    }
    return out;
}

// The expansion route's level 1 paths to check on this device (exact_lane_passes): its own
// choice per type and, forced, the tested lanes and the anchored pass (where a float converts
// to a double with its subnormals; the untested passes are a CPU device's own choice).
std::vector<std::optional<ExactLanePasses>> level1_paths(const Reducer& r) {
    std::vector<std::optional<ExactLanePasses>> out{std::nullopt, ExactLanePasses::tested};
    if (r.device_info().has_float_denormals) out.push_back(ExactLanePasses::anchored);
    return out;
}

// Puts every plan of a scope on one level 1 path (std::nullopt: the device's own).
struct Level1Path {
    explicit Level1Path(std::optional<ExactLanePasses> passes) { force_exact_lane_passes(passes); }
    ~Level1Path() { force_exact_lane_passes(std::nullopt); }
    Level1Path(const Level1Path&) = delete;
    Level1Path& operator=(const Level1Path&) = delete;
};

std::string level1_name(std::optional<ExactLanePasses> passes) {
    return passes ? std::string("level 1 ") + to_string(*passes) + ", forced" : "level 1 as the device chooses";
}

std::string route_name(const std::optional<InterGroup>& g) { return g ? std::string(to_string(*g)) : "default"; }

bool offered(const Reducer& r) {
    try {
        LaunchParams p;
        p.float_mode = FloatMode::correctly_rounded;
        r.sum(std::vector<float>{1.0f}, p);
        return true;
    } catch (const Unsupported& e) {
        WARN("correctly_rounded is not offered on this device: " << e.what());
        return false;
    }
}

// Random signs, significands in [1, 2), exponents uniform in [lo, hi].
template <class T>
std::vector<T> spread(int lo, int hi, std::size_t n, std::mt19937_64& rng) {
    std::uniform_int_distribution<int> e(lo, hi);
    std::uniform_real_distribution<double> m(1, 2);
    std::vector<T> v(n);
    for (auto& x : v) x = static_cast<T>((rng() & 1 ? -1 : 1) * std::ldexp(m(rng), e(rng)));
    return v;
}

// Large values that cancel exactly (each with its negative, shuffled) among small ones whose
// exact sum is the result: a lane's terms then span far more than two doubles' 106 bits, and
// a small part lost anywhere changes the rounded result.
// Exponents of the large values in [large_lo, large_hi], of the small ones in [small_lo, small_hi].
template <class T>
std::vector<T> hidden_small(std::size_t n, std::mt19937_64& rng, int large_lo, int large_hi, int small_lo,
                            int small_hi) {
    const std::vector<T> large = spread<T>(large_lo, large_hi, n / 3, rng);
    std::vector<T> v = spread<T>(small_lo, small_hi, n - 2 * large.size(), rng);
    for (T x : large) {
        v.push_back(x);
        v.push_back(-x);
    }
    std::shuffle(v.begin(), v.end(), rng);
    return v;
}

// Random signs and significands, exponents rising linearly from lo to hi along the range.
template <class T>
std::vector<T> rising(std::size_t n, int lo, int hi, std::mt19937_64& rng) {
    std::uniform_real_distribution<double> m(1, 2);
    std::vector<T> v(n);
    for (std::size_t i = 0; i < n; ++i)
        v[i] = static_cast<T>((rng() & 1 ? -1 : 1) * std::ldexp(m(rng), lo + int((hi - lo) * double(i) / n)));
    return v;
}

template <class T>
std::vector<T> cancelling_spikes(std::size_t n, std::mt19937_64& rng) {
    std::vector<T> v = spread<T>(0, 0, n, rng);
    v[n / 2 + 3] = T(0x1p100);
    v[n / 4] = T(-0x1p100);  // cancels it: the small values' sum is the result
    return v;
}

// Values in [1, 2) with a block in the middle of the range, inside the work-items' vectors and
// away from their first and last, from which the GPU passes take the group's range (random
// significands and signs):
//  - above: values near 2^18, above the anchored passes' room;
//  - below: the [1, 2) values cancel in pairs (x at i, -x at n - 1 - i) and the block holds
//    values near 2^-85 that cancel in pairs, below the lanes' window, and values near 2^-105,
//    whose sum is the result: a lane that adds the 2^-85 values inexactly gets it wrong.
template <class T>
std::vector<T> inside_outliers(std::size_t n, bool above, std::mt19937_64& rng) {
    std::vector<T> v = spread<T>(0, 0, n, rng);
    const std::size_t k_max = 300, block = 3 * k_max, begin = n / 2 - block / 2;
    const std::vector<T> large = spread<T>(18, 18, block, rng), small = spread<T>(-85, -85, k_max, rng),
                         least = spread<T>(-105, -105, k_max, rng);
    if (above) {
        for (std::size_t i = 0; i < block; ++i) v[begin + i] = large[i];
        return v;
    }
    for (std::size_t i = 0; i < begin; ++i) v[n - 1 - i] = -v[i];
    for (std::size_t k = 0; k < k_max; ++k) {
        v[begin + 3 * k] = small[k];
        v[begin + 3 * k + 1] = least[k];
        v[begin + 3 * k + 2] = -small[k];
    }
    for (std::size_t i = begin + block; i < n - begin; ++i) v[i] = 0;
    return v;
}

template <class T>
double exact(const std::vector<T>& v, std::size_t from = 0) {
    return ct::exact_sum_of(v.data() + from, v.size() - from).to_double();
}

}  // namespace

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
