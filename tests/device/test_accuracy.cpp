// Accuracy and determinism of the floating-point modes on data built to be hard to sum
// (tests/support/adversarial_data.hpp), against the exact sum (tests/support/exact_float_sum):
//   every mode stays within its stated bound (op_reference.hpp's rules);
//   deterministic and compensated results are bit-identical run after run, from several
//     threads at once, and on an out-of-order queue;
//   correctly_rounded equals the exact sum rounded to double, bit for bit, whatever the
//     times, work-group size, stride, vector width, offset and order of the data.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <random>
#include <thread>

#include "float_ops.hpp"
#include "reference/adversarial_data.hpp"
#include "reference/exact_float_sum.hpp"
#include "reference/op_reference.hpp"
#include "test_support.hpp"

namespace ct = clreduce::testing;
using namespace clreduce;

namespace {

using clreduce::test::same_bits;

constexpr std::uint64_t kSize = 65536 + 3;

// The run's data set d of T, made once per (d, T).
template <class T>
const std::vector<T>& dataset(ct::Dataset d) {
    static std::map<ct::Dataset, std::vector<T>> cache;
    auto it = cache.find(d);
    if (it == cache.end()) it = cache.emplace(d, ct::make_dataset<T>(d, kSize, test::seed_for(500, int(d)))).first;
    return it->second;
}

// Runs op in `mode`; false when the device refuses the mode (only atomic and correctly
// rounded may be refused, and only with Unsupported).
template <class T>
bool try_run(const Reducer& r, Operation op, const std::vector<T>& data, LaunchParams p, double& got,
             LaunchPlan* plan = nullptr) {
    try {
        CallInfo info;
        got = test::run_additive(r, op, data.data(), data.size(), p, &info);
        if (plan) *plan = info.plan;
        return true;
    } catch (const Unsupported& e) {
        const FloatMode mode = p.float_mode.value_or(FloatMode::deterministic);
        INFO(e.what());
        CHECK((mode == FloatMode::atomic || mode == FloatMode::correctly_rounded));
        return false;
    }
}

template <class T>
void check_bounds() {
    const Reducer& r = test::reducer();
    if (std::is_same_v<T, double> && !r.device_info().has_fp64) return;
    std::vector<std::optional<ElementType>> accumulators{std::nullopt};
    if (std::is_same_v<T, float>) accumulators.push_back(ElementType::float32);
    for (const auto d : ct::all_datasets()) {
        const auto& data = dataset<T>(d);
        for (const auto& accumulator : accumulators) {
            for (const FloatMode mode : test::float_modes()) {
                if (accumulator && mode == FloatMode::correctly_rounded) continue;
                for (const Operation op : test::additive_operations()) {
                    // Squares of values up to 2^150 overflow by design: those sets are for sums.
                    const bool wide = d == ct::Dataset::wide_range || d == ct::Dataset::full_range;
                    if (wide && (op == Operation::sum_of_squares || op == Operation::norm_l2)) continue;
                    LaunchParams p;
                    p.float_mode = mode;
                    p.accumulator = accumulator;
                    double got = 0;
                    LaunchPlan plan;
                    if (!try_run(r, op, data, p, got, &plan)) continue;
                    const auto ref =
                        test::additive_reference(op, data.data(), data.size(), ct::unit_roundoff(plan.accumulator),
                                                 test::summation_of(mode));
                    INFO(ct::dataset_name(d) << ", " << operation_name(op) << ", " << to_string(mode)
                                             << ", accumulator " << type_name(plan.accumulator));
                    CHECK(ref.mismatch(got) == "");
                }
            }
        }
    }
}

}  // namespace

TEST_CASE("accuracy: every mode within its stated bound on adversarial data, float32", "[accuracy]") {
    check_bounds<float>();
}
TEST_CASE("accuracy: every mode within its stated bound on adversarial data, float64", "[accuracy]") {
    check_bounds<double>();
}

TEST_CASE("accuracy: compensated beats plain where plain loses digits", "[accuracy]") {
    // Float data in a float accumulator: a plain sum of 2^16 + 3 values of mixed magnitude
    // loses digits that a compensated one keeps (its error bound is ~2u|S|, not n u sum|x|).
    const Reducer& r = test::reducer();
    const auto& data = dataset<float>(ct::Dataset::mixed_magnitudes);
    const ct::ExactSum exact = ct::exact_sum_of(data.data(), data.size());
    LaunchParams p;
    p.accumulator = ElementType::float32;
    p.float_mode = FloatMode::deterministic;
    const double plain = r.sum(data, p);
    p.float_mode = FloatMode::compensated;
    const double compensated = r.sum(data, p);
    INFO("plain " << plain << ", compensated " << compensated << ", exact " << exact.to_string());
    CHECK(ct::relative_error(compensated, exact) <= 2 * std::ldexp(1.0, -24));
    CHECK(ct::relative_error(compensated, exact) <= ct::relative_error(plain, exact));
}

TEST_CASE("determinism: repeated, concurrent and out-of-order calls give the same bits", "[determinism]") {
    const Reducer& r = test::reducer();
    const bool fp64 = r.device_info().has_fp64;
    for (const FloatMode mode : {FloatMode::deterministic, FloatMode::compensated, FloatMode::correctly_rounded}) {
        for (const auto d : {ct::Dataset::cancellation, ct::Dataset::ill_conditioned}) {
            const auto& data = dataset<float>(d);
            LaunchParams p;
            p.float_mode = mode;
            double first = 0;
            if (!try_run(r, Operation::sum, data, p, first)) continue;
            INFO(to_string(mode) << ", " << ct::dataset_name(d));
            for (int i = 0; i < 4; ++i) CHECK(same_bits(r.sum(data, p), first));
            // Six host threads on one reducer, each calling three times.
            std::vector<double> results(18);
            std::vector<std::thread> threads;
            for (int t = 0; t < 6; ++t)
                threads.emplace_back([&, t] {
                    for (int k = 0; k < 3; ++k) results[t * 3 + k] = r.sum(data, p);
                });
            for (auto& t : threads) t.join();
            for (double v : results) CHECK(same_bits(v, first));
            // Another reducer on an out-of-order queue of the same device: the same plan
            // gives the same bits.
            cl_int err = CL_SUCCESS;
            cl::CommandQueue ooo(r.context(), r.context().getInfo<CL_CONTEXT_DEVICES>().front(),
                                 CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
            if (err == CL_SUCCESS) {
                Reducer other(r.context(), ooo);
                CHECK(same_bits(other.sum(data, p), first));
            }
            if (fp64) {
                const auto& doubles = dataset<double>(d);
                const double d0 = r.sum(doubles, p);
                CHECK(same_bits(r.sum(doubles, p), d0));
            }
        }
    }
}

TEST_CASE("determinism: integer sums do not depend on the order of the data", "[determinism]") {
    const Reducer& r = test::reducer();
    std::mt19937_64 rng(test::seed_for(501));
    std::vector<std::int32_t> data(kSize);
    for (auto& v : data) v = static_cast<std::int32_t>(rng());
    const auto want = ct::wrapped_sum<std::int64_t>(data.data(), data.size());
    for (int round = 0; round < 3; ++round) {
        std::shuffle(data.begin(), data.end(), rng);
        CHECK(r.sum(data) == want);
    }
}

TEST_CASE("correctly rounded: the exact sum rounded once, for every plan and order", "[accuracy][determinism]") {
    const Reducer& r = test::reducer();
    LaunchParams p;
    p.float_mode = FloatMode::correctly_rounded;
    {
        double probe = 0;
        const auto& data = dataset<float>(ct::Dataset::benign);
        if (!try_run(r, Operation::sum, data, p, probe)) {
            WARN("correctly_rounded is not offered on this device: only its clear refusal was checked");
            return;
        }
    }
    auto check_type = [&](auto tag) {
        using T = decltype(tag);
        if (std::is_same_v<T, double> && !r.device_info().has_fp64) return;
        for (const auto d : ct::all_datasets()) {
            auto data = dataset<T>(d);
            const double want = ct::exact_sum_of(data.data(), data.size()).to_double();
            INFO(sizeof(T) * 8 << "-bit, " << ct::dataset_name(d) << ", exact " << want);
            std::mt19937_64 rng(test::seed_for(502, int(d)));
            for (std::uint32_t times : {1u, 4u, 64u}) {
                for (Stride stride : {Stride::global, Stride::local}) {
                    LaunchParams q = p;
                    q.times = times;
                    q.stride = stride;
                    CHECK(same_bits(r.sum(data, q), want));
                }
            }
            for (std::uint32_t wg : {1u, 32u, 64u}) {
                LaunchParams q = p;
                q.work_group_size = wg;
                CHECK(same_bits(r.sum(data, q), want));
            }
            for (std::uint32_t vec : {1u, 2u, 8u}) {
                LaunchParams q = p;
                q.vector_width = vec;
                CHECK(same_bits(r.sum(data, q), want));
            }
            // Misaligned starts: the sum of elements [offset, n).
            for (std::uint64_t offset : {1u, 3u}) {
                const double part = ct::exact_sum_of(data.data() + offset, data.size() - offset).to_double();
                CHECK(same_bits(r.sum<T>(data.data() + offset, data.size() - offset, p), part));
            }
            for (int round = 0; round < 2; ++round) {
                std::shuffle(data.begin(), data.end(), rng);
                CHECK(same_bits(r.sum(data, p), want));
            }
        }
    };
    check_type(float{});
    check_type(double{});
}

TEST_CASE("correctly rounded: the whole exponent range, exact zeros, images, transform", "[accuracy]") {
    const Reducer& r = test::reducer();
    LaunchParams p;
    p.float_mode = FloatMode::correctly_rounded;
    std::mt19937_64 rng(test::seed_for(503));
    auto wide = [&](int lo, int hi, std::size_t n) {
        std::uniform_int_distribution<int> e(lo, hi);
        std::uniform_real_distribution<double> m(1, 2);
        std::vector<double> v(n);
        for (auto& x : v) x = (rng() & 1 ? -1 : 1) * std::ldexp(m(rng), e(rng));
        return v;
    };
    try {
        const std::vector<float> probe{1.0f};
        r.sum(probe, p);
    } catch (const Unsupported& e) {
        WARN("correctly_rounded is not offered on this device: " << e.what());
        return;
    }
    // Floats from subnormals to near the top of the range; then the same with every value's
    // negation added (the exact sum is 0).
    std::vector<float> floats;
    for (double x : wide(-149, 126, 20011)) floats.push_back(static_cast<float>(x));
    CHECK(same_bits(r.sum(floats, p), ct::exact_sum_of(floats.data(), floats.size()).to_double()));
    auto cancelled = floats;
    for (float x : floats) cancelled.push_back(-x);
    std::shuffle(cancelled.begin(), cancelled.end(), rng);
    CHECK(same_bits(r.sum(cancelled, p), 0.0));
    // Only tiny values: the result is a sum of subnormals.
    std::vector<float> tiny;
    for (double x : wide(-149, -130, 5003)) tiny.push_back(static_cast<float>(x));
    CHECK(same_bits(r.sum(tiny, p), ct::exact_sum_of(tiny.data(), tiny.size()).to_double()));
    // norm_l1 is the exact sum of |x|, mean that sum over n (one more rounding).
    const auto abs_sum = ct::exact_abs_sum_of_values(floats.data(), floats.size());
    CHECK(same_bits(r.norm_l1(floats, p), abs_sum.to_double()));
    CHECK(r.mean(floats, p) == ct::exact_sum_of(floats.data(), floats.size()).to_double() / floats.size());
    // transform_reduce with Combine::sum: the exact sum of the transformed values.
    std::vector<float> doubled(floats);
    for (auto& x : doubled) x *= 2;  // exact (no value is near the top of the range)
    CHECK(same_bits(r.transform_reduce(floats, "x * 2.0f", Combine::sum, p),
                    ct::exact_sum_of(doubled.data(), doubled.size()).to_double()));
    // A pitched 3-channel image: each channel's exact sum.
    const Image image{13, 17, 3, 17 * 3 * sizeof(float) + 20, 0};
    std::vector<float> pixels(image.rows * image.step / sizeof(float));
    for (std::size_t i = 0; i < pixels.size(); ++i) pixels[i] = floats[i % floats.size()];
    const auto channels = r.sum<float>(pixels.data(), image, p);
    for (int c = 0; c < 3; ++c) {
        const auto channel = ct::extract_channel(pixels.data(), image.rows, image.cols, 3, image.step, c);
        CHECK(same_bits(channels[c], ct::exact_sum_of(channel.data(), channel.size()).to_double()));
    }
    CHECK_THROWS_AS(r.sum_of_squares(floats, p), Unsupported);
    // Rounding to nearest even, at ties and just past them, of both signs (the host's rounding
    // of the device state).
    const float half_ulp = std::ldexp(1.0f, -53), far = std::ldexp(1.0f, -80);
    CHECK(same_bits(r.sum(std::vector<float>{1.0f, half_ulp}, p), 1.0));
    CHECK(same_bits(r.sum(std::vector<float>{1.0f, half_ulp, far}, p), 1.0 + std::ldexp(1.0, -52)));
    CHECK(same_bits(r.sum(std::vector<float>{-1.0f, -half_ulp, -far}, p), -1.0 - std::ldexp(1.0, -52)));
    CHECK(same_bits(r.sum(std::vector<float>{1.0f + std::ldexp(1.0f, -23), std::ldexp(1.0f, -53)}, p),
                    1.0 + std::ldexp(1.0, -23)));  // a tie: the even neighbour is below
    CHECK(same_bits(r.sum(std::vector<float>{-0.5f, 0.25f}, p), -0.25));
    if (!r.device_info().has_fp64) return;
    const double dtie = std::ldexp(1.0, -53);
    CHECK(same_bits(r.sum(std::vector<double>{1.0 + std::ldexp(1.0, -52), dtie}, p), 1.0 + std::ldexp(1.0, -51)));
    CHECK(same_bits(r.sum(std::vector<double>{1.0, dtie}, p), 1.0));
    CHECK(same_bits(r.sum(std::vector<double>{DBL_MAX, std::ldexp(1.0, 969)}, p), DBL_MAX));
    CHECK(same_bits(r.sum(std::vector<double>{DBL_MAX, std::ldexp(1.0, 970)}, p), HUGE_VAL));
    CHECK(same_bits(r.sum(std::vector<double>{-DBL_MAX, -DBL_MAX, DBL_MAX, -1.0}, p), -DBL_MAX));
    // Doubles over the whole range, subnormals included.
    const auto doubles = wide(-1074, 1000, 20011);
    CHECK(same_bits(r.sum(doubles, p), ct::exact_sum_of(doubles.data(), doubles.size()).to_double()));
    const auto small = wide(-1074, -1000, 5003);
    CHECK(same_bits(r.sum(small, p), ct::exact_sum_of(small.data(), small.size()).to_double()));
    LaunchParams narrow = p;
    narrow.accumulator = ElementType::float32;
    CHECK_THROWS_AS(r.sum(doubles, narrow), InvalidArgument);
}

// Hidden (run by scripts/gpu-run.sh with the other [huge] tests): the case where OpenCV's
// OpenCL float32 sum was seen wrong on the H200, 2^28 small integers, must be exact here in
// every mode with a double accumulator, and in the correctly rounded mode.
TEST_CASE("accuracy: 2^28 small integers in float32 are summed exactly", "[.][huge][accuracy]") {
    const Reducer& r = test::reducer();
    if (!r.device_info().has_fp64) {
        WARN("no cl_khr_fp64: float sums accumulate in float here, which cannot be exact at this size");
        return;
    }
    const std::uint64_t n = 1ull << 28;
    const auto data = ct::make_dataset<float>(ct::Dataset::small_integers, n, test::seed_for(504));
    const double want = ct::exact_sum_of(data.data(), n).to_double();
    const cl::Buffer buffer = test::device_copy(r, data);
    for (const FloatMode mode : test::float_modes()) {
        LaunchParams p;
        p.float_mode = mode;
        INFO(to_string(mode));
        try {
            CHECK(r.sum<float>(buffer, 0, n, p) == want);
        } catch (const Unsupported& e) {
            CHECK((mode == FloatMode::atomic || mode == FloatMode::correctly_rounded));
        }
    }
}
