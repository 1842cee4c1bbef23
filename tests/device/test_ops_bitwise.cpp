// bit_and, bit_or, bit_xor, all and any (SYCL 2020's standard reductions) in every form: buffer
// ranges (aligned and not), host data, partials merged across a split, images per channel,
// segments from device and host data, and MultiReducer, against CPU folds of the same data;
// float data refused by the bitwise ones, NaN and -0.0 read as count_nonzero reads them.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include <clreduce/multi_reducer.hpp>

#include "test_support.hpp"

namespace clreduce::test {
namespace {

// Random integers whose and / or / xor over any range is neither 0 nor all ones: every element
// keeps the bits of `ones` set and the bits of `zeros` clear, the other bits random.
template <class T>
std::vector<T> bit_values(std::uint64_t n, std::uint64_t seed, T ones, T zeros) {
    std::mt19937_64 rng(seed);
    std::vector<T> out(n);
    for (auto& v : out) v = static_cast<T>((static_cast<T>(rng()) | ones) & static_cast<T>(~zeros));
    return out;
}

template <class T>
struct BitFolds {
    T all_and = static_cast<T>(~T(0));
    T all_or = 0;
    T all_xor = 0;
    bool every = true;
    bool some = false;
};

template <class T>
BitFolds<T> folds(const T* data, std::uint64_t n) {
    BitFolds<T> f;
    for (std::uint64_t i = 0; i < n; ++i) {
        if constexpr (std::is_integral_v<T>) {
            f.all_and = static_cast<T>(f.all_and & data[i]);
            f.all_or = static_cast<T>(f.all_or | data[i]);
            f.all_xor = static_cast<T>(f.all_xor ^ data[i]);
        }
        const bool nonzero = data[i] != T(0);  // NaN != 0; -0.0 == 0
        f.every = f.every && nonzero;
        f.some = f.some || nonzero;
    }
    return f;
}

template <class T>
void check_range(const Reducer& r, const cl::Buffer& buffer, const std::vector<T>& host, std::uint64_t offset,
                 std::uint64_t n, const LaunchParams& params) {
    const BitFolds<T> want = folds(host.data() + offset, n);
    CallInfo info;
    CHECK(r.bit_and<T>(buffer, offset, n, params, &info) == want.all_and);
    INFO(info.plan.describe());
    CHECK(r.bit_or<T>(buffer, offset, n, params) == want.all_or);
    CHECK(r.bit_xor<T>(buffer, offset, n, params) == want.all_xor);
    CHECK(r.all<T>(buffer, offset, n, params) == want.every);
    CHECK(r.any<T>(buffer, offset, n, params) == want.some);
    // The same from host data, through the core call.
    CHECK(r.reduce<Operation::bit_xor>(host.data() + offset, n, params) == want.all_xor);
    CHECK(r.reduce<Operation::all>(host.data() + offset, n, params) == want.every);
}

}  // namespace

TEMPLATE_TEST_CASE("bitwise and logical reductions over ranges, offsets and level-3 finishes", "[bitwise]", std::int8_t,
                   std::uint8_t, std::int16_t, std::uint16_t, std::int32_t, std::uint32_t, std::int64_t,
                   std::uint64_t) {
    using T = TestType;
    Reducer& r = reducer();
    const std::uint64_t seed = seed_for(sizeof(T), std::is_signed_v<T>, 0xb17);
    INFO("data seed " << seed << " (run seed " << test::seed() << ")");
    const T ones = static_cast<T>(0x21), zeros = static_cast<T>(0x84);
    auto host = bit_values<T>(70000, seed, ones, zeros);
    const cl::Buffer buffer = device_copy(r, host);

    for (std::uint64_t n : {0ull, 1ull, 7ull, 257ull, 65537ull})
        for (std::uint64_t offset : {0ull, 3ull}) {
            INFO("n " << n << ", offset " << offset);
            check_range(r, buffer, host, offset, n, {});
        }
    // Every level 3 the device has, over many groups.
    for (InterGroup level3 : strategies<std::int64_t>(r.device_info())) {
        if (level3 == InterGroup::exact_atomic) continue;
        LaunchParams params;
        params.work_group_size = 64;
        params.times = 2;
        params.inter_group = level3;
        if (level3 == InterGroup::atomic) {
            // Atomic and/or/xor are core for 32-bit words, need 64-bit extended atomics else.
            const bool fits = sizeof(T) == 4 || (sizeof(T) == 8 && r.device_info().has_int64_min_max_atomics);
            if (!fits) {
                CHECK_THROWS_AS(r.bit_and<T>(buffer, 0, 1000, params), Unsupported);
                continue;
            }
        }
        INFO("level 3 " << to_string(level3));
        check_range(r, buffer, host, 1, 65537, params);
    }

    // all / any see single zeros anywhere, and all-zero data.
    std::vector<T> zeros_in(4099, T(1));
    zeros_in[4098] = T(0);
    CHECK_FALSE(r.all(zeros_in));
    CHECK(r.any(zeros_in));
    std::fill(zeros_in.begin(), zeros_in.end(), T(0));
    CHECK_FALSE(r.any(zeros_in));
    zeros_in[0] = T(5);
    CHECK(r.any(zeros_in));
    CHECK_FALSE(r.all(zeros_in));
}

TEST_CASE("bitwise reductions refuse float data, all and any read NaN and -0.0 as count_nonzero does", "[bitwise]") {
    Reducer& r = reducer();
    const std::vector<float> f{1.0f, -0.0f, 2.5f};
    CHECK_THROWS_AS(r.bit_and(f), Unsupported);
    CHECK_THROWS_AS(r.bit_or(f), Unsupported);
    CHECK_THROWS_WITH(r.bit_xor(f), Catch::Contains("bit_xor") && Catch::Contains("float32"));
    CHECK_FALSE(r.all(f));
    CHECK(r.any(f));
    const float nan = std::numeric_limits<float>::quiet_NaN();
    CHECK(r.all(std::vector<float>{nan, 1.0f, -3.0f}));
    CHECK_FALSE(r.any(std::vector<float>{-0.0f, 0.0f}));
    CHECK(r.any(std::vector<float>{-0.0f, nan}));
    if (r.device_info().has_fp64) {
        CHECK(r.all(std::vector<double>{1e-300, -1.0}));
        CHECK_FALSE(r.all(std::vector<double>{1e-300, 0.0}));
    }
    // Empty ranges give the identities.
    const std::vector<std::int32_t> none;
    CHECK(r.all(none));
    CHECK_FALSE(r.any(none));
    CHECK(r.bit_and(none) == -1);
    CHECK(r.bit_or(none) == 0);
    CHECK(r.bit_xor(none) == 0);
    CHECK(r.bit_and(std::vector<std::uint16_t>{}) == 0xffff);
}

TEST_CASE("bitwise and logical reductions merge as partials, per image channel, per segment and across devices",
          "[bitwise]") {
    Reducer& r = reducer();
    const std::uint64_t seed = seed_for(0xb17, 2);
    INFO("data seed " << seed << " (run seed " << test::seed() << ")");
    auto host = bit_values<std::uint32_t>(20000, seed, 0x10001u, 0x800u);
    host[7777] = 0;  // all() false over ranges holding it
    const cl::Buffer buffer = device_copy(r, host);

    SECTION("partials of a split give the whole's value") {
        for (std::uint64_t split : {0ull, 1ull, 9999ull, 20000ull}) {
            INFO("split at " << split);
            const auto whole = folds(host.data(), host.size());
            for (Operation op :
                 {Operation::bit_and, Operation::bit_or, Operation::bit_xor, Operation::all, Operation::any}) {
                Partial p = r.partial<std::uint32_t>(op, buffer, 0, split);
                p.merge(r.partial<std::uint32_t>(op, host.data() + split, host.size() - split));
                const Partial copy = Partial::from_bytes(p.to_bytes().data(), p.to_bytes().size());
                switch (op) {
                    case Operation::bit_and: CHECK(copy.bit_and<std::uint32_t>() == whole.all_and); break;
                    case Operation::bit_or: CHECK(copy.bit_or<std::uint32_t>() == whole.all_or); break;
                    case Operation::bit_xor: CHECK(copy.bit_xor<std::uint32_t>() == whole.all_xor); break;
                    case Operation::all: CHECK(copy.all<std::uint32_t>() == whole.every); break;
                    default: CHECK(copy.value<Operation::any, std::uint32_t>() == whole.some); break;
                }
            }
        }
    }

    SECTION("images: one value per channel") {
        // 30 rows of 41 pixels of 3 channels, rows 130 elements apart (padding between rows).
        const Image image{30, 41, 3, 130 * sizeof(std::uint32_t), 0};
        const auto got_and = r.bit_and<std::uint32_t>(buffer, image);
        const auto got_any = r.reduce<Operation::all, std::uint32_t>(host.data(), image);
        for (std::uint32_t c = 0; c < 3; ++c) {
            std::vector<std::uint32_t> channel;
            for (std::uint64_t y = 0; y < image.rows; ++y)
                for (std::uint64_t x = 0; x < image.cols; ++x) channel.push_back(host[y * 130 + x * 3 + c]);
            const auto want = folds(channel.data(), channel.size());
            CHECK(got_and[c] == want.all_and);
            CHECK(got_any[c] == want.every);
        }
    }

    SECTION("segments from a device buffer and from host data, an empty one among them") {
        const std::vector<std::uint64_t> offsets{0, 5, 5, 7780, 12000, 19999};
        const Segments segments = Segments::offsets(offsets);
        const auto got_or = r.bit_or<std::uint32_t>(buffer, 1, segments);
        std::vector<bool> got_all;
        r.reduce<Operation::all, std::uint32_t>(host.data() + 1, segments, got_all);
        const auto got_xor = r.reduce<Operation::bit_xor>(host.data() + 1, segments);
        REQUIRE(got_or.size() == offsets.size() - 1);
        REQUIRE(got_all.size() == offsets.size() - 1);
        for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
            INFO("segment " << s);
            const auto want = folds(host.data() + 1 + offsets[s], offsets[s + 1] - offsets[s]);
            CHECK(got_or[s] == want.all_or);
            CHECK(got_all[s] == want.every);
            CHECK(got_xor[s] == want.all_xor);
        }
        const auto rows = r.bit_and<std::uint32_t>(buffer, 0, Segments::rows(100, 200));
        for (std::size_t s = 0; s < rows.size(); ++s) CHECK(rows[s] == folds(host.data() + 200 * s, 200).all_and);
    }

    SECTION("MultiReducer: the element type deduced, the single device's values") {
        static MultiReducer multi;
        const auto want = folds(host.data(), host.size());
        CHECK(multi.bit_and(host) == want.all_and);
        CHECK(multi.bit_or(host) == want.all_or);
        CHECK(multi.reduce<Operation::bit_xor>(host) == want.all_xor);
        CHECK(multi.all(host) == want.every);
        CHECK(multi.any(host) == want.some);
        CHECK(multi.sum(host) == r.sum(host));
    }
}

}  // namespace clreduce::test
