#pragma once
// The host's threads, shared by everything that works on host memory in parallel: the copies
// that stream host data into pinned memory (host_stream.hpp) and the host path's passes over
// host data (host_reduction.hpp). One thread's pass reaches a fraction of the memory's (or a
// fast link's) bandwidth. One pool per process, its threads started on first use and kept; a
// job creates no thread and allocates nothing.
#include <chrono>
#include <cstddef>
#include <cstdint>

namespace clreduce {

// Runs part(context, k) for k in [0, parts), with up to `threads` threads, the calling thread
// among them (0: all of the pool's); returns when every part has run. Any number of host
// threads may run jobs at once: each takes part in its own, so a job never waits for a busy
// pool. `part` must not throw.
void parallel_for(std::size_t parts, void (*part)(void* context, std::size_t k), void* context, unsigned threads = 0);

// The same, for a callable: part(k) for k in [0, parts).
template <class F>
void parallel_for(std::size_t parts, F& part, unsigned threads = 0) {
    parallel_for(
        parts, [](void* context, std::size_t k) { (*static_cast<F*>(context))(k); }, &part, threads);
}

// Copies bytes [0, bytes) of src to dst in parts of whole 4 KiB pages (copies below 512 KiB
// on the calling thread alone).
void parallel_copy(void* dst, const void* src, std::size_t bytes, unsigned threads = 0);

// The pool's threads, the calling thread included: up to 16, at most the cores the process may
// run on (its affinity mask on Linux).
unsigned host_pool_threads();

// How long the pool's threads look for the next job before they sleep: CLREDUCE_HOST_SPIN_US
// microseconds where it is set (0 to 1,000,000; 0 sleeps at once), else the pool's default
// (host_pool.cpp's kDefaultSpin; docs/usage.md gives it). Read once; a value that is not such
// a number throws InvalidArgument naming the variable (a Reducer's constructor asks first, so
// that the error comes from there and not from a worker thread).
std::chrono::microseconds host_pool_spin();

// The parts a pass over host data is split into (host_order_free.cpp, host_plan_order.cpp,
// host_plan_moments.cpp, host_plan_segments.cpp): at most kMaxHostParts (a few per thread, so
// that a late thread takes fewer), each of at least kMinHostPartBytes. Workers join a job
// without a lock (host_pool.cpp), so on a 16-core host short passes gain from parts as small as
// 32 KiB (docs/performance.md, "Where host data is reduced"), float sums in the plan's order
// (several operations a byte) the most.
constexpr std::size_t kMaxHostParts = 64;
constexpr std::uint64_t kMinHostPartBytes = std::uint64_t(32) << 10;

// The parts a pass over `items` whole units (elements, groups, segments, jobs) of `bytes` in all
// is split into by those rules: no more parts than units, than kMaxHostParts, than four a thread,
// or than the bytes hold kMinHostPartBytes (one at least where there are units).
std::size_t host_parts(std::uint64_t items, std::uint64_t bytes);

}  // namespace clreduce
