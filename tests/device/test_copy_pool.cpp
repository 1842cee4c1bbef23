// The host pool (src/exec/host_pool.hpp), no device needed: parallel_for runs every part once
// and returns only when all have run, with any thread count, from several host threads at
// once; parallel_copy lands every byte, at every size around the part boundaries, from and to
// misaligned addresses, while several host threads copy at once (the pool's parts of
// different jobs interleave).
// Tagged [threads] for the ThreadSanitizer run (scripts/sanitize.sh), where a caller that
// returns before its parts are copied races with the worker still copying.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include <clreduce/error.hpp>
#include <clreduce/reducer.hpp>

#include "exec/host_pool.hpp"

#if defined(__linux__)
#include <sched.h>
#endif

namespace clreduce::test {
namespace {

// Copies `bytes` from `source` at offset `from` to a fresh buffer at offset `to` with `threads`,
// and says whether exactly those bytes changed.
bool copies_exactly(const std::vector<unsigned char>& source, std::size_t from, std::size_t to, std::size_t bytes,
                    unsigned threads) {
    std::vector<unsigned char> target(to + bytes + 64, 0xA5);
    parallel_copy(target.data() + to, source.data() + from, bytes, threads);
    const auto untouched = [](const unsigned char* p, std::size_t n) {
        return std::all_of(p, p + n, [](unsigned char b) { return b == 0xA5; });
    };
    return std::memcmp(target.data() + to, source.data() + from, bytes) == 0 && untouched(target.data(), to) &&
           untouched(target.data() + to + bytes, 64);
}

std::vector<unsigned char> random_bytes(std::size_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<unsigned char> v(n);
    for (auto& b : v) b = static_cast<unsigned char>(rng());
    return v;
}

}  // namespace

TEST_CASE("parallel_copy copies every byte at part boundaries, misaligned, with any thread count",
          "[copy_pool][threads]") {
    const std::uint64_t seed = 0xc0b1;
    INFO("seed " << seed << ", pool of " << host_pool_threads() << " threads");
    const std::size_t part = std::size_t(256) << 10;
    const std::vector<unsigned char> source = random_bytes((std::size_t(9) << 20) + 4096, seed);
    for (const std::size_t bytes : {std::size_t(0), std::size_t(1), std::size_t(4095), 2 * part - 1, 2 * part,
                                    2 * part + 1, 33 * part + 7, (std::size_t(9) << 20) + 5})
        for (const unsigned threads : {0u, 1u, 2u, 3u, 16u, 64u})
            for (const std::size_t from : {std::size_t(0), std::size_t(3)}) {
                INFO(bytes << " bytes, " << threads << " threads, from offset " << from << " to offset " << 5 * from);
                CHECK(copies_exactly(source, from, 5 * from, bytes, threads));
            }
}

TEST_CASE("parallel_copy from several host threads at once: each copy is whole", "[copy_pool][threads]") {
    const std::vector<unsigned char> source = random_bytes(std::size_t(6) << 20, 0xc0b2);
    std::vector<std::thread> callers;
    std::vector<int> wrong(4, 0);
    for (int t = 0; t < 4; ++t)
        callers.emplace_back([&, t] {
            for (int k = 0; k < 25; ++k) {
                const std::size_t bytes = (std::size_t(1) << 20) * (1 + (t + k) % 5) + 4096 * k + t;
                if (!copies_exactly(source, t, k % 3, bytes, 0)) ++wrong[t];
            }
        });
    for (auto& c : callers) c.join();
    CHECK(wrong == std::vector<int>(4, 0));
}

TEST_CASE("parallel_for runs every part once, from several host threads at once", "[copy_pool][threads]") {
    std::vector<std::thread> callers;
    std::vector<int> failures(4, 0);
    for (unsigned c = 0; c < 4; ++c) {
        callers.emplace_back([c, &failures] {
            for (std::size_t parts :
                 {std::size_t(0), std::size_t(1), std::size_t(7), std::size_t(64), std::size_t(300)}) {
                for (unsigned threads : {0u, 1u, 3u}) {
                    std::vector<int> ran(parts, 0);
                    auto part = [&ran](std::size_t k) { ++ran[k]; };
                    parallel_for(parts, part, threads);
                    // Every part exactly once, all of them done when parallel_for returned.
                    if (std::count(ran.begin(), ran.end(), 1) != static_cast<std::ptrdiff_t>(parts)) ++failures[c];
                }
            }
        });
    }
    for (std::thread& t : callers) t.join();
    for (unsigned c = 0; c < 4; ++c) {
        INFO("caller " << c);
        CHECK(failures[c] == 0);
    }
    CHECK(host_pool_threads() >= 1);
}

// What CLREDUCE_HOST_SPIN_US sets. The plain run has it unset (200 µs); the ctests host_pool_passive
// and host_pool_bad_spin (tests/CMakeLists.txt) set it and say in CLREDUCE_TEST_SPIN_EXPECT what
// this process must see: a number of microseconds, or "error".
TEST_CASE(
    "the host threads spin for CLREDUCE_HOST_SPIN_US microseconds, else 200 us, and a bad value is an error "
    "naming it",
    "[copy_pool][spin]") {
    const char* variable = std::getenv("CLREDUCE_HOST_SPIN_US");
    const char* expect = std::getenv("CLREDUCE_TEST_SPIN_EXPECT");
    INFO("CLREDUCE_HOST_SPIN_US=" << (variable ? variable : "(unset)"));
    if (expect == nullptr) {
        REQUIRE((variable == nullptr || *variable == '\0'));
        CHECK(host_pool_spin() == std::chrono::microseconds(200));
    } else if (std::string(expect) == "error") {
        const std::string quoted = std::string("CLREDUCE_HOST_SPIN_US=\"") + variable + "\"";
        CHECK_THROWS_WITH(host_pool_spin(), Catch::Contains(quoted) && Catch::Contains("0 to 1000000"));
        CHECK_THROWS_AS(Reducer(), InvalidArgument);
    } else {
        CHECK(host_pool_spin() == std::chrono::microseconds(std::stoull(expect)));
        // Workers that sleep at once still take their parts.
        std::vector<std::atomic<int>> runs(64);
        auto part = [&](std::size_t k) { runs[k].fetch_add(1); };
        for (int call = 0; call < 50; ++call) parallel_for(runs.size(), part);
        CHECK(std::all_of(runs.begin(), runs.end(), [](const std::atomic<int>& r) { return r.load() == 50; }));
    }
}

#if defined(__linux__)
// CTest runs this once more under `taskset -c 0` (host_pool_one_core): a pool sized by the host's
// cores would have more threads than the one core the process may use.
TEST_CASE("the pool has a thread for each core the process may run on, at most 16", "[pool][affinity]") {
    cpu_set_t set;
    CPU_ZERO(&set);
    REQUIRE(sched_getaffinity(0, sizeof set, &set) == 0);
    INFO(CPU_COUNT(&set) << " core(s) in the affinity mask");
    CHECK(host_pool_threads() == static_cast<unsigned>(std::min(16, CPU_COUNT(&set))));
}
#endif

}  // namespace clreduce::test
