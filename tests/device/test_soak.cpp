// Soak: 8 threads share 4 reducers and make mixed calls (types, operations, sizes, synchronous
// and asynchronous), every result checked; after a warm-up that makes every kind of call once
// per thread, host memory (resident set) and device buffers (the reducers' allocations) must
// stay flat (no allocation per call). CI-sized by default; CLREDUCE_SOAK_CALLS sets the calls per thread (10^5 for the
// long form).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "reference/op_reference.hpp"
#include "reference/sum_reference.hpp"
#include "test_ops_support.hpp"
#include "test_support.hpp"

namespace clreduce::test {
namespace {

std::uint64_t resident_bytes() {
    std::ifstream statm("/proc/self/statm");
    std::uint64_t size = 0, resident = 0;
    statm >> size >> resident;
    return resident * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
}

struct DataSet {
    std::vector<std::int32_t> ints;
    std::vector<float> floats;
    std::int64_t int_sum = 0;
    std::int32_t int_min = 0;
    testing::Approx float_sum;
    std::uint64_t float_argmax = 0;
};

constexpr int kKinds = 5;  // int32 sum, int32 min, float sum, float argmax, int32 sum_async

}  // namespace

TEST_CASE("soak: 8 threads x 4 reducers of mixed calls, all right, memory and buffers flat", "[soak][threads]") {
    const char* set = std::getenv("CLREDUCE_SOAK_CALLS");
    const std::uint64_t calls = set != nullptr && *set != '\0' ? std::strtoull(set, nullptr, 10) : 300;
    Reducer& shared = reducer();
    std::vector<std::unique_ptr<Reducer>> reducers;
    for (int k = 0; k < 4; ++k)
        reducers.push_back(std::make_unique<Reducer>(shared.queue().getInfo<CL_QUEUE_DEVICE>()));

    std::vector<DataSet> sets;
    for (std::uint64_t n : {1ull, 1000ull, 65537ull, 300007ull}) {
        DataSet d;
        d.ints = op_values<std::int32_t>(n, seed_for(0x50a, n));
        d.floats = op_values<float>(n, seed_for(0x50b, n));
        d.int_sum = testing::exact_sum(d.ints.data(), n);
        d.int_min = *std::min_element(d.ints.begin(), d.ints.end());
        d.float_argmax = testing::reference_max(d.floats.data(), n).index;
        sets.push_back(std::move(d));
    }
    std::vector<cl::Buffer> int_buffers;
    for (int k = 0; k < 4; ++k)
        for (const DataSet& d : sets) int_buffers.push_back(device_copy(*reducers[k], d.ints));

    std::atomic<std::uint64_t> wrong{0}, done{0};
    // One call of kind `kind` on data set `s` through reducer `k`; false when its result is wrong.
    const auto call_unchecked = [&](int k, std::size_t s, int kind, const cl::Buffer& result) {
        Reducer& r = *reducers[k];
        const DataSet& d = sets[s];
        switch (kind) {
            case 0: return r.sum(d.ints) == d.int_sum;
            case 1: return r.min(d.ints) == d.int_min;
            case 2: {
                CallInfo info;
                const double got = r.sum(d.floats, {}, &info);
                return testing::reference_sum(d.floats.data(), d.floats.size(),
                                              testing::unit_roundoff(info.plan.accumulator))
                    .accepts(got);
            }
            case 3: return r.argmax(d.floats).index == d.float_argmax;
            default: {
                const cl::Buffer& in = int_buffers[k * sets.size() + s];
                r.sum_async<std::int32_t>(in, 0, d.ints.size(), {result}).wait();
                std::int64_t got = 0;
                check(r.queue().enqueueReadBuffer(result, CL_TRUE, 0, sizeof got, &got), "clEnqueueReadBuffer");
                return got == d.int_sum;
            }
        }
    };
    // An exception in a thread is a wrong call, printed, not the end of the process.
    const auto call = [&](int k, std::size_t s, int kind, const cl::Buffer& result) {
        try {
            return call_unchecked(k, s, kind, result);
        } catch (const std::exception& e) {
            std::cout << "soak: reducer " << k << " kind " << kind << ": " << e.what() << "\n";
            return false;
        }
    };
    const auto buffers = [&] {
        std::uint64_t total = 0;
        for (const auto& r : reducers) total += r->counters().buffers_allocated;
        return total;
    };
    std::atomic<int> warmed{0};
    std::uint64_t warm_rss = 0, warm_buffers = 0;
    std::atomic<bool> measured{false};
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
        threads.emplace_back([&, t] {
            std::vector<cl::Buffer> results;  // one per reducer: each has its own context
            for (const auto& r : reducers) results.emplace_back(r->context(), CL_MEM_READ_WRITE, sizeof(std::int64_t));
            // Warm-up: every kind on every data set through every reducer, once.
            for (int k = 0; k < 4; ++k)
                for (std::size_t s = 0; s < sets.size(); ++s)
                    for (int kind = 0; kind < kKinds; ++kind)
                        if (!call(k, s, kind, results[k])) ++wrong;
            ++warmed;
            while (warmed.load() < 8) std::this_thread::yield();
            if (t == 0) {
                warm_rss = resident_bytes();
                warm_buffers = buffers();
                measured = true;
            }
            while (!measured.load()) std::this_thread::yield();
            std::mt19937_64 rng(seed_for(0x50c, t));
            for (std::uint64_t c = 0; c < calls; ++c) {
                const int k = int(rng() % 4);
                if (!call(k, rng() % sets.size(), int(rng() % kKinds), results[k])) ++wrong;
                ++done;
            }
        });
    }
    for (auto& t : threads) t.join();
    const std::uint64_t end_rss = resident_bytes(), end_buffers = buffers();
    std::cout << "soak: " << done.load() << " calls after warm-up; resident " << warm_rss / 1024
              << " KiB after warm-up, " << end_rss / 1024 << " KiB at the end; device buffers allocated "
              << warm_buffers << " after warm-up, " << end_buffers << " at the end\n";
    CHECK(wrong == 0);
    CHECK(done == 8 * calls);
    // Nothing is allocated per call: after the warm-up an execution slot may still meet a size
    // or kind it had not (the threads pick slots as they free up), so a few more allocations
    // are allowed, one per slot and buffer at most (4 reducers x 8 slots x 4 buffers), far
    // below the calls made.
    CHECK(end_buffers - warm_buffers <= 4 * 8 * 4);
    // The allocator may keep a little more; a leak per call would show over the calls.
    CHECK(end_rss <= warm_rss + (16u << 20));
}

}  // namespace clreduce::test
