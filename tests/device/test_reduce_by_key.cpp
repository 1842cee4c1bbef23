// reduce_by_key: runs of equal consecutive keys, one result each, against an exact host
// reference and, bit for bit, against the segmented call over the same runs' offsets (the
// path reduce_by_key takes). Run lengths: all 1, many short, few huge, power-law, one run, no
// keys; int32 and uint64 keys (uint64 ones differing only in their high bits, and keys that
// come back after another run: separate runs), 8- and 16-bit ones; device buffers from
// offsets, misaligned host data; correctly rounded sums against the exact sums; bad input.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "reference/exact_float_sum.hpp"
#include "test_support.hpp"

namespace clreduce::test {
namespace {

using testing::ExactSum;

// Run lengths of one shape, adding up to about `n` (exactly, but for power-law), from `rng`.
std::vector<std::uint64_t> run_lengths(const std::string& shape, std::uint64_t n, std::mt19937_64& rng) {
    std::vector<std::uint64_t> out;
    std::uint64_t total = 0;
    const auto add = [&](std::uint64_t len) {
        len = std::min(len, n - total);
        out.push_back(len);
        total += len;
    };
    if (shape == "one run") {
        add(n);
    } else if (shape == "all length 1") {
        while (total < n) add(1);
    } else if (shape == "many short") {
        std::uniform_int_distribution<std::uint64_t> len(1, 9);
        while (total < n) add(len(rng));
    } else if (shape == "few huge") {
        std::uniform_int_distribution<std::uint64_t> len(n / 5, n / 2);
        while (total < n) add(len(rng));
    } else {  // power-law: P(length > x) ~ 1 / x, capped at n / 4
        std::uniform_real_distribution<double> u(0.0, 1.0);
        while (total < n) add(std::min<std::uint64_t>(n / 4, static_cast<std::uint64_t>(1.0 / (1.0 - u(rng) + 1e-12))));
    }
    return out;
}

// One key per run, each different from the one before; keys may come back after another run.
// uint64 keys differ only above bit 32, so that a comparison of their low words sees one run.
template <class Key>
std::vector<Key> run_keys(std::size_t runs, std::mt19937_64& rng) {
    std::uniform_int_distribution<int> pick(0, 5);
    std::vector<Key> out;
    for (std::size_t r = 0; r < runs; ++r) {
        Key k;
        do {
            const int p = pick(rng);
            if constexpr (sizeof(Key) == 8)
                k = static_cast<Key>((std::uint64_t(p) + 0xfffffff0u) << 32 | 0x1234u);
            else
                k = static_cast<Key>(p * 1000 - 2500);
        } while (!out.empty() && k == out.back());
        out.push_back(k);
    }
    return out;
}

struct Runs {
    std::vector<std::uint64_t> offsets{0};  // CSR: run r is [offsets[r], offsets[r + 1])
};

Runs runs_of(const std::vector<std::uint64_t>& lengths) {
    Runs r;
    for (std::uint64_t len : lengths) r.offsets.push_back(r.offsets.back() + len);
    return r;
}

template <class Key>
std::vector<Key> expand(const std::vector<Key>& keys, const Runs& runs) {
    std::vector<Key> out;
    for (std::size_t r = 0; r + 1 < runs.offsets.size(); ++r)
        out.insert(out.end(), runs.offsets[r + 1] - runs.offsets[r], keys[r]);
    return out;
}

// `host` from element `offset` of a buffer, after copies of its first element and before one of
// its last: a key read before the first or after the last would continue a run.
template <class T>
cl::Buffer placed_buffer(Reducer& r, const std::vector<T>& host, std::uint64_t offset) {
    std::vector<T> padded(offset, host.empty() ? T{} : host.front());
    padded.insert(padded.end(), host.begin(), host.end());
    padded.push_back(host.empty() ? T{} : host.back());
    return device_copy(r, padded);
}

template <class V>
void check_same_vectors(const std::vector<V>& got, const std::vector<V>& want) {
    REQUIRE(got.size() == want.size());
    for (std::size_t s = 0; s < got.size(); ++s) {
        INFO("run " << s);
        if constexpr (std::is_arithmetic_v<V>) {
            REQUIRE(same_bits(got[s], want[s]));
        } else {  // ArgResult: its fields (the struct has padding)
            REQUIRE(same_bits(got[s].value, want[s].value));
            REQUIRE(got[s].index == want[s].index);
        }
    }
}

// The exact host reference of one operation over each run of `values`.
template <Operation Op, class T>
void check_reference(const std::vector<result_t<Op, T>>& got, const std::vector<T>& values, const Runs& runs) {
    REQUIRE(got.size() + 1 == runs.offsets.size());
    for (std::size_t s = 0; s < got.size(); ++s) {
        const std::uint64_t b = runs.offsets[s], e = runs.offsets[s + 1];
        INFO("run " << s << " [" << b << ", " << e << ")");
        if constexpr (Op == Operation::sum && std::is_integral_v<T>) {
            std::int64_t sum = 0;
            for (std::uint64_t i = b; i < e; ++i) sum += values[i];
            REQUIRE(got[s] == sum);
        } else if constexpr (Op == Operation::sum) {
            ExactSum exact;
            for (std::uint64_t i = b; i < e; ++i) exact.add(values[i]);
            // The deterministic sum of floats in a double accumulator: within n units of the
            // double's roundoff of the exact sum's magnitude bound.
            double magnitude = 0;
            for (std::uint64_t i = b; i < e; ++i) magnitude += std::fabs(double(values[i]));
            REQUIRE(std::fabs(got[s] - exact.to_double()) <= double(e - b) * 0x1p-52 * magnitude);
        } else if constexpr (Op == Operation::min) {
            REQUIRE(got[s] == *std::min_element(values.begin() + b, values.begin() + e));
        } else if constexpr (Op == Operation::max) {
            REQUIRE(got[s] == *std::max_element(values.begin() + b, values.begin() + e));
        } else if constexpr (Op == Operation::argmax) {
            const auto it = std::max_element(values.begin() + b, values.begin() + e);  // the first of the largest
            REQUIRE(got[s].value == *it);
            REQUIRE(got[s].index == std::uint64_t(it - (values.begin() + b)));
        } else if constexpr (Op == Operation::count_nonzero) {
            REQUIRE(got[s] == std::uint64_t(std::count_if(values.begin() + b, values.begin() + e,
                                                          [](T v) { return v != T(0); })));
        } else if constexpr (Op == Operation::bit_xor) {
            T x = 0;
            for (std::uint64_t i = b; i < e; ++i) x ^= values[i];
            REQUIRE(got[s] == x);
        } else if constexpr (Op == Operation::mean) {
            // int32 values: the exact sum is below 2^53, so its double over the count's is the
            // correctly rounded mean the library gives.
            std::int64_t sum = 0;
            for (std::uint64_t i = b; i < e; ++i) sum += values[i];
            REQUIRE(same_bits(got[s], double(sum) / double(e - b)));
        }
    }
}

// Whether reduce_by_key of Op over T runs in one launch (exec/fused_by_key.hpp): integer
// results no order of combining changes, which are the states themselves.
template <Operation Op, class T>
constexpr bool one_launch() {
    using R = result_t<Op, T>;
    return std::is_integral_v<T> && std::is_integral_v<R> && !std::is_same_v<R, bool> &&
           (Op == Operation::sum || Op == Operation::min || Op == Operation::max || Op == Operation::count_nonzero ||
            Op == Operation::bit_xor || Op == Operation::bit_and || Op == Operation::bit_or);
}

// reduce_by_key of one operation in both forms (device buffers from offsets: in the passes with
// keys and values misaligned for vectors of four, and in one launch where the operation fits it,
// misaligned and, for sums, aligned; misaligned host data) against the reference and the
// segmented call over the same offsets.
template <Operation Op, class T, class Key>
void check_by_key(Reducer& r, const std::vector<Key>& keys, const std::vector<T>& values, const Runs& runs,
                  const std::vector<Key>& want_keys, const LaunchParams& params = {}) {
    INFO("operation " << operation_name(Op));
    const std::uint64_t n = values.size();
    constexpr std::uint64_t kAll = std::numeric_limits<std::uint64_t>::max();
    // (keys' offset, values' offset, LaunchParams::by_key_one_launch_keys)
    std::vector<std::array<std::uint64_t, 3>> ways{{3, 5, 0}};
    if (one_launch<Op, T>()) ways.push_back({3, 5, kAll});
    // Aligned loads for sums (a program of their own each, which CPU runtimes take seconds to build;
    // the loads are the same for every operation).
    if (one_launch<Op, T>() && Op == Operation::sum) ways.push_back({4, 8, kAll});
    std::vector<result_t<Op, T>> segmented;
    for (const auto& [key_offset, value_offset, most] : ways) {
        INFO("keys from element " << key_offset << ", values from element " << value_offset << ", one launch up to "
                                  << most << " keys");
        const cl::Buffer key_buffer = placed_buffer(r, keys, key_offset);
        const cl::Buffer value_buffer = placed_buffer(r, values, value_offset);
        if (segmented.empty() && n > 0)
            segmented = r.reduce<Op, T>(value_buffer, value_offset, Segments::offsets(runs.offsets), params);
        LaunchParams p = params;
        p.by_key_one_launch_keys = most;
        CallInfo info;
        const auto got = r.reduce_by_key<Op, T, Key>(key_buffer, key_offset, value_buffer, value_offset, n, p, &info);
        INFO("plan " << info.plan.describe());
        REQUIRE(got.keys == want_keys);
        REQUIRE(got.runs() == want_keys.size());
        if (n > 0) {
            // One launch, or two where the slot's room for runs grew; else the runs' two
            // launches, then the segments'.
            CHECK(info.plan.by_key_one_launch == (most != 0));
            if (most != 0)
                CHECK(info.kernel_events.size() <= 2);
            else
                CHECK(info.kernel_events.size() > 2);
        }
        check_reference<Op, T>(got.results, values, runs);
        check_same_vectors(got.results, segmented);
    }

    // Host data one byte past alignment (keys) and three (values): what a numpy view hands in.
    std::vector<unsigned char> key_bytes(n * sizeof(Key) + 8), value_bytes(n * sizeof(T) + 8);
    if (n > 0) {
        std::memcpy(key_bytes.data() + 1, keys.data(), n * sizeof(Key));
        std::memcpy(value_bytes.data() + 3, values.data(), n * sizeof(T));
    }
    KeyedResults<Key, result_t<Op, T>> host;
    r.reduce_by_key<Op>(reinterpret_cast<const Key*>(key_bytes.data() + 1),
                        reinterpret_cast<const T*>(value_bytes.data() + 3), n, host, params);
    REQUIRE(host.keys == want_keys);
    check_same_vectors(host.results, r.reduce<Op>(reinterpret_cast<const T*>(value_bytes.data() + 3),
                                                  Segments::offsets(runs.offsets), params));
    check_reference<Op, T>(host.results, values, runs);
}

const std::vector<std::string> kShapes{"all length 1", "many short", "few huge", "power-law", "one run"};

template <class Key>
void check_shapes(std::uint64_t type_seed) {
    Reducer& r = reducer();
    for (std::size_t k = 0; k < kShapes.size(); ++k) {
        const std::string& shape = kShapes[k];
        // Key counts past a whole vector of four and a mask word of 32 (run_heads.cl's tails).
        const std::uint64_t n = shape == "all length 1" ? 3001 : 60003;
        const std::uint64_t s = seed_for(type_seed, k);
        INFO("shape " << shape << ", data seed " << s << " (seed " << seed() << ")");
        std::mt19937_64 rng(s);
        const Runs runs = runs_of(run_lengths(shape, n, rng));
        const std::vector<Key> want_keys = run_keys<Key>(runs.offsets.size() - 1, rng);
        const std::vector<Key> keys = expand(want_keys, runs);
        std::vector<std::int32_t> ints(n);
        std::uniform_int_distribution<std::int32_t> small(-3, 3), wide(-2000000000, 2000000000);
        for (auto& v : ints) v = k % 2 == 0 ? small(rng) : wide(rng);  // small: ties and zeros
        std::vector<float> floats(n);
        std::uniform_real_distribution<float> real(-1e3f, 1e3f);
        for (auto& v : floats) v = real(rng);

        check_by_key<Operation::sum, std::int32_t, Key>(r, keys, ints, runs, want_keys);
        check_by_key<Operation::min, std::int32_t, Key>(r, keys, ints, runs, want_keys);
        check_by_key<Operation::max, std::int32_t, Key>(r, keys, ints, runs, want_keys);
        check_by_key<Operation::argmax, std::int32_t, Key>(r, keys, ints, runs, want_keys);
        check_by_key<Operation::count_nonzero, std::int32_t, Key>(r, keys, ints, runs, want_keys);
        check_by_key<Operation::bit_xor, std::int32_t, Key>(r, keys, ints, runs, want_keys);
        check_by_key<Operation::mean, std::int32_t, Key>(r, keys, ints, runs, want_keys);
        check_by_key<Operation::sum, float, Key>(r, keys, floats, runs, want_keys);
    }
}

}  // namespace

TEST_CASE("reduce_by_key of int32 keys gives each run's key and the segmented call's result", "[by-key]") {
    print_seed();
    check_shapes<std::int32_t>(1);
}

TEST_CASE("reduce_by_key of uint64 keys that differ only in their high words", "[by-key]") {
    check_shapes<std::uint64_t>(2);
}

namespace {

// int32 sums over n int32 keys in runs of each shape, in every form check_by_key takes; the data
// seeded from `seed_base` and the shape.
void check_long_int32_sums(std::uint64_t n, const std::vector<std::string>& shapes, std::uint64_t seed_base) {
    Reducer& r = reducer();
    for (const std::string& shape : shapes) {
        const std::uint64_t s = seed_for(seed_base, shape.size());
        INFO("shape " << shape << ", data seed " << s << " (seed " << seed() << ")");
        std::mt19937_64 rng(s);
        const Runs runs = runs_of(run_lengths(shape, n, rng));
        const auto want_keys = run_keys<std::int32_t>(runs.offsets.size() - 1, rng);
        std::vector<std::int32_t> values(n);
        std::uniform_int_distribution<std::int32_t> v(-1000, 1000);
        for (auto& x : values) x = v(rng);
        check_by_key<Operation::sum, std::int32_t, std::int32_t>(r, expand(want_keys, runs), values, runs, want_keys);
    }
}

}  // namespace

// Enough keys that a group's chunk takes several of run_heads.cl's write steps (on a device of
// up to 64 compute units), whose runs continue from step to step.
TEST_CASE("reduce_by_key of long chunks: runs numbered across the write pass's steps", "[by-key]") {
    check_long_int32_sums(700001, {"many short", "power-law"}, 5);
}

// The one launch's look-back reads a window of one tile a work-item (cl_kernels/by_key.cl): more
// tiles than that (8,192 keys a tile of 256 work-items: 269 here) take a second window where no
// inclusive pair is in the first, and runs cross the tiles (many short) or span most of them
// (few huge).
TEST_CASE("reduce_by_key's one launch over more tiles than its look-back's window", "[by-key]") {
    check_long_int32_sums(2200001, {"many short", "few huge"}, 11);
}

// The one launch (cl_kernels/by_key.cl; forced, as CPU devices do not take it by default) on a
// fresh reducer, whose room for runs starts at 2^16: 200,003 runs of 1 and 2 keys need more, so
// the launch runs again with room for all (two kernel events), and a repeated call then
// allocates nothing. Int64 sums under IntegerOverflow::wrap (the segments' modular bits), 8-bit
// values.
TEST_CASE("reduce_by_key's one launch grows its room for runs, then allocates nothing", "[by-key]") {
    const cl::Device device = default_device();
    cl::Context context(device);
    cl::CommandQueue queue(context, device);
    Reducer r(context, queue);
    const std::uint64_t s = seed_for(7);
    INFO("data seed " << s << " (seed " << seed() << ")");
    std::mt19937_64 rng(s);
    std::vector<std::uint64_t> lengths(200003);
    std::uniform_int_distribution<std::uint64_t> one_or_two(1, 2);
    for (auto& len : lengths) len = one_or_two(rng);
    const Runs runs = runs_of(lengths);
    const std::uint64_t n = runs.offsets.back();
    const auto want_keys = run_keys<std::int32_t>(lengths.size(), rng);
    const auto keys = expand(want_keys, runs);
    std::vector<std::int64_t> wide(n);
    std::uniform_int_distribution<std::int64_t> any(std::numeric_limits<std::int64_t>::min(),
                                                    std::numeric_limits<std::int64_t>::max());
    for (auto& v : wide) v = any(rng);
    const cl::Buffer key_buffer = device_copy(r, keys);
    const cl::Buffer wide_buffer = device_copy(r, wide);
    LaunchParams wrap;
    wrap.overflow = IntegerOverflow::wrap;
    wrap.by_key_one_launch_keys = std::numeric_limits<std::uint64_t>::max();
    CallInfo info;
    const auto got = r.sum_by_key<std::int64_t, std::int32_t>(key_buffer, 0, wide_buffer, 0, n, wrap, &info);
    INFO("plan " << info.plan.describe());
    CHECK(info.plan.by_key_one_launch);
    CHECK(info.kernel_events.size() == 2);
    REQUIRE(got.keys == want_keys);
    for (std::size_t k = 0; k < got.results.size(); ++k) {
        std::uint64_t sum = 0;  // modulo 2^64
        for (std::uint64_t i = runs.offsets[k]; i < runs.offsets[k + 1]; ++i) sum += std::uint64_t(wide[i]);
        INFO("run " << k);
        REQUIRE(got.results[k] == static_cast<std::int64_t>(sum));
    }
    check_same_vectors(got.results, r.sum<std::int64_t>(wide_buffer, 0, Segments::offsets(runs.offsets), wrap));
    const Counters before = r.counters();
    CallInfo again;
    const auto repeated = r.sum_by_key<std::int64_t, std::int32_t>(key_buffer, 0, wide_buffer, 0, n, wrap, &again);
    CHECK(again.kernel_events.size() == 1);
    CHECK(r.counters().buffers_allocated == before.buffers_allocated);
    check_same_vectors(repeated.results, got.results);

    std::vector<std::uint8_t> bytes(n);
    for (auto& v : bytes) v = static_cast<std::uint8_t>(rng());
    check_by_key<Operation::sum, std::uint8_t, std::int32_t>(r, keys, bytes, runs, want_keys);
}

TEST_CASE("reduce_by_key of 8- and 16-bit keys", "[by-key]") {
    Reducer& r = reducer();
    const std::uint64_t s = seed_for(4);
    INFO("data seed " << s << " (seed " << seed() << ")");
    std::mt19937_64 rng(s);
    const Runs runs = runs_of(run_lengths("many short", 20002, rng));
    std::vector<std::int32_t> values(20002);
    std::uniform_int_distribution<std::int32_t> v(-1000, 1000);
    for (auto& x : values) x = v(rng);
    const auto bytes = run_keys<std::uint8_t>(runs.offsets.size() - 1, rng);
    check_by_key<Operation::sum, std::int32_t, std::uint8_t>(r, expand(bytes, runs), values, runs, bytes);
    const auto shorts = run_keys<std::int16_t>(runs.offsets.size() - 1, rng);
    check_by_key<Operation::max, std::int32_t, std::int16_t>(r, expand(shorts, runs), values, runs, shorts);
}

TEST_CASE("reduce_by_key's correctly rounded float sums are the exact sums rounded once", "[by-key]") {
    Reducer& r = reducer();
    const std::uint64_t s = seed_for(3);
    INFO("data seed " << s << " (seed " << seed() << ")");
    std::mt19937_64 rng(s);
    const Runs runs = runs_of(run_lengths("power-law", 40000, rng));
    const auto want_keys = run_keys<std::int32_t>(runs.offsets.size() - 1, rng);
    const auto keys = expand(want_keys, runs);
    std::vector<float> values(40000);
    std::uniform_real_distribution<double> exponent(-20, 20);
    std::uniform_int_distribution<int> sign(0, 1);
    for (auto& v : values) v = float((sign(rng) ? -1 : 1) * std::exp2(exponent(rng)));  // sums that cancel
    LaunchParams p;
    p.float_mode = FloatMode::correctly_rounded;
    const auto got =
        r.sum_by_key<float, std::int32_t>(device_copy(r, keys), 0, device_copy(r, values), 0, values.size(), p);
    REQUIRE(got.keys == want_keys);
    for (std::size_t k = 0; k < got.results.size(); ++k) {
        ExactSum exact;
        for (std::uint64_t i = runs.offsets[k]; i < runs.offsets[k + 1]; ++i) exact.add(values[i]);
        INFO("run " << k);
        REQUIRE(same_bits(got.results[k], exact.to_double()));
    }
    check_same_vectors(got.results, r.sum(values.data(), Segments::offsets(runs.offsets), p));
}

TEST_CASE("reduce_by_key on an out-of-order queue orders its launches by events", "[by-key]") {
    const cl::Device device = default_device();
    cl_command_queue_properties supported = 0;
    check(device.getInfo(CL_DEVICE_QUEUE_PROPERTIES, &supported), "clGetDeviceInfo");
    if (!(supported & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE))
        return skip_case("no out-of-order queues on device '" + reducer().device_info().name + "'");
    cl::Context context(device);
    cl::CommandQueue queue(context, device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    Reducer r(context, queue);
    const std::uint64_t s = seed_for(5);
    INFO("data seed " << s << " (seed " << seed() << ")");
    std::mt19937_64 rng(s);
    const Runs runs = runs_of(run_lengths("power-law", 100000, rng));
    const auto want_keys = run_keys<std::int32_t>(runs.offsets.size() - 1, rng);
    std::vector<std::int32_t> values(100000);
    std::uniform_int_distribution<std::int32_t> v(-1000, 1000);
    for (auto& x : values) x = v(rng);
    for (int repeat = 0; repeat < 3; ++repeat) {
        check_by_key<Operation::sum, std::int32_t, std::int32_t>(r, expand(want_keys, runs), values, runs, want_keys);
        check_by_key<Operation::mean, std::int32_t, std::int32_t>(r, expand(want_keys, runs), values, runs, want_keys);
    }
}

TEST_CASE("a repeated reduce_by_key allocates no buffers and builds nothing", "[by-key]") {
    Reducer& r = reducer();
    std::mt19937_64 rng(seed_for(6));
    const Runs runs = runs_of(run_lengths("many short", 50000, rng));
    const auto want_keys = run_keys<std::int32_t>(runs.offsets.size() - 1, rng);
    const cl::Buffer keys = device_copy(r, expand(want_keys, runs));
    const cl::Buffer values = device_copy(r, std::vector<float>(50000, 1.5f));
    KeyedResults<std::int32_t, double> out;
    r.sum_by_key<float, std::int32_t>(keys, 0, values, 0, 50000, out);
    const Counters before = r.counters();
    r.sum_by_key<float, std::int32_t>(keys, 0, values, 0, 50000, out);
    const Counters after = r.counters();
    CHECK(after.buffers_allocated == before.buffers_allocated);
    CHECK(after.kernels_created == before.kernels_created);
    CHECK(after.programs_built + after.programs_loaded == before.programs_built + before.programs_loaded);
    CHECK(out.keys == want_keys);
}

TEST_CASE("reduce_by_key of no keys gives no runs, and refuses bad input by name", "[by-key]") {
    Reducer& r = reducer();
    const std::vector<std::int32_t> none;
    const cl::Buffer buffer = device_copy(r, std::vector<std::int32_t>{1, 1, 2, 2, 2, 3});
    const auto empty = r.sum_by_key<std::int32_t, std::int32_t>(buffer, 0, buffer, 0, 0);
    CHECK(empty.runs() == 0);
    CHECK(empty.results.empty());
    CHECK(r.min_by_key(none, none).runs() == 0);  // no runs, so no empty run to refuse
    // The same buffer as keys and values: runs {1, 1}, {2, 2, 2}, {3}.
    const auto same = r.sum_by_key<std::int32_t, std::int32_t>(buffer, 0, buffer, 0, 6);
    CHECK(same.keys == std::vector<std::int32_t>{1, 2, 3});
    CHECK(same.results == std::vector<std::int64_t>{2, 6, 3});

    CHECK_THROWS_AS((r.sum_by_key<std::int32_t, std::int32_t>(buffer, 1, buffer, 0, 6)), InvalidArgument);
    CHECK_THROWS_AS((r.sum_by_key<std::int32_t, std::int64_t>(buffer, 0, buffer, 0, 4)), InvalidArgument);
    CHECK_THROWS_AS((r.sum_by_key<std::int32_t, std::int32_t>(buffer, 0, buffer, 2, 5)), InvalidArgument);
    CHECK_THROWS_AS((r.sum_by_key(std::vector<int>{1, 2}, std::vector<int>{1})), InvalidArgument);
    CHECK_THROWS_AS((r.sum_by_key<std::int32_t, std::int32_t>(nullptr, none.data(), 3)), InvalidArgument);
    // An operation the type does not take is refused as by the segmented form, also for no keys.
    CHECK_THROWS_AS((r.bit_and_by_key<float, std::int32_t>(buffer, 0, buffer, 0, 0)), Unsupported);
}

}  // namespace clreduce::test
