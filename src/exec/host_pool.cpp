#include "exec/host_pool.hpp"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <clreduce/error.hpp>

#if defined(__linux__)
#include <sched.h>
#endif

namespace clreduce {
namespace {

// The cores this process may run on: its affinity mask on Linux (taskset, a container's
// cpuset), which a pool of as many threads as the host has cores would oversubscribe; else
// the host's cores.
unsigned usable_cores() {
#if defined(__linux__)
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) return static_cast<unsigned>(std::max(1, CPU_COUNT(&set)));
#endif
    return std::max(1u, std::thread::hardware_concurrency());
}

// Copies below this size cost more to hand over than they save.
constexpr std::size_t kMinPart = std::size_t(256) << 10;

// One thread's copy or pass reaches a fraction of a fast link's or a host memory's bandwidth;
// it takes 12 to 16 threads to match them (docs/performance.md, "Host data and several
// devices" and "Where host data is reduced").
constexpr unsigned kMaxThreads = 16;

// How long a worker looks for the next job before it sleeps, unless CLREDUCE_HOST_SPIN_US says
// otherwise (host_pool_spin). Waking a sleeping thread costs tens of microseconds (a system call
// on the caller's path, and on a virtual machine a halted core to restart), more than a pass
// over a few MiB takes, so back-to-back calls find the workers awake. But a spinning worker
// holds its core even though it yields at every turn: threads that wake meanwhile (a user's
// OpenMP loop whose threads slept) can wait for the scheduler's slice, milliseconds each time.
// So the spin is short, a fraction of a millisecond, and only a loop started within it is held
// up by it (docs/performance.md, "Where host data is reduced", measured with clreduce-perf
// host-idle; what remains after any spin is OpenMP's own, docs/usage.md).
constexpr std::chrono::microseconds kDefaultSpin{200};
constexpr std::uint64_t kMaxSpinMicroseconds = 1000000;

// Waiting in a loop: a pause (the core's hint that this is a spin) most of the time, and
// every 16th turn a yield, so that a spinning thread gives its core to a thread with work on a
// machine with fewer cores than threads.
inline void spin_wait(unsigned turn) {
#if defined(__x86_64__) || defined(__i386__)
    if (turn % 16 != 15) {
        __builtin_ia32_pause();
        return;
    }
#else
    (void)turn;
#endif
    std::this_thread::yield();
}

// One job, on its caller's stack. Parts are claimed with an atomic counter, so the threads of
// a job never wait for each other's claims. A job reaches the workers in one of two ways:
// - offered (the pool's offer word, below): a worker joins by incrementing the word's count,
//   with no lock, and leaves by incrementing `finished` (its last access); the caller closes
//   the offer when it finds no part left and waits for `finished` to reach the count it closed.
// - listed (while another job holds the offer): a worker joins under the pool's mutex and leaves
//   by decrementing `helpers` (its last access); the caller unlists the job when it finds no
//   part left, then waits for `helpers` to reach zero.
// After that wait no worker touches the job.
struct Job {
    void (*part)(void*, std::size_t) = nullptr;
    void* context = nullptr;
    std::size_t parts = 0;
    unsigned wanted = 0;  // the most workers that may join: the parts the caller cannot take at once
    unsigned joined = 0;  // workers that joined (under the mutex)
    std::atomic<std::size_t> next{0};
    std::atomic<unsigned> helpers{0};   // workers inside a listed job
    std::atomic<unsigned> finished{0};  // workers that left an offered job

    // Runs parts until none is left to claim.
    void work() {
        for (std::size_t k = next.fetch_add(1, std::memory_order_relaxed); k < parts;
             k = next.fetch_add(1, std::memory_order_relaxed))
            part(context, k);
    }
};

class HostPool {
public:
    HostPool() : spin_(host_pool_spin()) {
        threads_ = std::min(kMaxThreads, usable_cores());
        for (unsigned k = 1; k < threads_; ++k) workers_.emplace_back([this] { loop(); });
    }
    ~HostPool() {
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            stop_.store(true);
        }
        wake_.notify_all();
        for (std::thread& t : workers_) t.join();
    }
    unsigned threads() const { return threads_; }

    void run(std::size_t parts, void (*part)(void*, std::size_t), void* context, unsigned threads) {
        if (parts == 0) return;
        Job job;
        job.part = part;
        job.context = context;
        job.parts = parts;
        const unsigned use = threads == 0 ? threads_ : std::min(threads, threads_);
        job.wanted = static_cast<unsigned>(std::min<std::size_t>(parts, use) - 1);
        const bool offered = job.wanted > 0 && !offer_held_.exchange(true, std::memory_order_acquire);
        if (offered)
            offer(job);
        else if (job.wanted > 0)
            list(job);
        // The caller runs parts too; then closes the offer or unlists the job (no worker joins
        // it after that) and waits for the workers inside it by spinning (their parts take
        // microseconds; a sleeping caller wakes late).
        job.work();
        if (offered) {
            const unsigned joined = static_cast<unsigned>(offer_.fetch_and(~kOpen, std::memory_order_acq_rel) & kCount);
            for (unsigned turn = 0; job.finished.load(std::memory_order_acquire) != joined; ++turn) spin_wait(turn);
            offer_held_.store(false, std::memory_order_release);
        } else if (job.wanted > 0) {
            {
                const std::lock_guard<std::mutex> lock(mutex_);
                unlist(job);
            }
            for (unsigned turn = 0; job.helpers.load(std::memory_order_acquire) != 0; ++turn) spin_wait(turn);
        }
    }

private:
    // The offer word: the workers that joined the offered job (bits 0-7), the workers it wants
    // (bits 8-15), whether it is open (bit 16) and a generation above, so that a worker's
    // compare-and-swap on an earlier offer's word fails. At most 15 workers: 8 bits each.
    static constexpr std::uint64_t kCount = 0xff;
    static constexpr std::uint64_t kOpen = std::uint64_t(1) << 16;
    static constexpr int kGenerationShift = 17;

    // Offers `job` to the workers (the caller holds offer_held_); wakes sleeping ones. The
    // offer's store and the sleepers' count are sequentially consistent with a sleeping
    // worker's increment and its look at the offer: one of the two sees the other.
    void offer(Job& job) {
        offered_job_.store(&job, std::memory_order_relaxed);
        const std::uint64_t generation = (offer_.load(std::memory_order_relaxed) >> kGenerationShift) + 1;
        offer_.store(generation << kGenerationShift | kOpen | std::uint64_t(job.wanted) << 8);
        // Sleepers are woken only where the spinning workers are fewer than the job wants: a
        // wake is a system call on the caller's path, and a woken thread comes late.
        const unsigned sleeping = sleepers_.load();
        if (sleeping != 0 && workers_.size() - sleeping < job.wanted) {
            unsigned wake = 0;
            {
                const std::lock_guard<std::mutex> lock(mutex_);
                const unsigned spinning = static_cast<unsigned>(workers_.size()) - sleepers_.load();
                wake = std::min(sleepers_.load(), job.wanted - std::min(job.wanted, spinning));
            }
            for (unsigned k = 0; k < wake; ++k) wake_.notify_one();
        }
    }
    // Joins the offered job if it is open and wants another worker; nullptr otherwise. After
    // the compare-and-swap the caller waits for this worker, so the job stays valid.
    Job* take_offer() {
        std::uint64_t word = offer_.load(std::memory_order_acquire);
        while (wants_worker(word))
            if (offer_.compare_exchange_weak(word, word + 1, std::memory_order_acquire, std::memory_order_acquire))
                return offered_job_.load(std::memory_order_relaxed);
        return nullptr;
    }
    // Whether the offer `word` is open and wants another worker.
    static bool wants_worker(std::uint64_t word) { return (word & kOpen) && (word & kCount) < (word >> 8 & kCount); }
    bool offer_wants() const { return wants_worker(offer_.load()); }

    // Lists `job` for workers to join under the mutex (another job holds the offer).
    void list(Job& job) {
        unsigned wake = 0;
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            jobs_.push_back(&job);
            pending_.store(jobs_.size(), std::memory_order_release);
            wake = std::min(sleepers_.load(), job.wanted);
        }
        for (unsigned k = 0; k < wake; ++k) wake_.notify_one();
    }
    // Drops `job` from the list if it is there (under mutex_).
    void unlist(Job& job) {
        const auto it = std::find(jobs_.begin(), jobs_.end(), &job);
        if (it != jobs_.end()) jobs_.erase(it);
        pending_.store(jobs_.size(), std::memory_order_release);
    }
    // Joins the first listed job (under mutex_), unlisting it once it has all the workers it
    // wants; nullptr when none is listed.
    Job* join() {
        if (jobs_.empty()) return nullptr;
        Job* job = jobs_.front();
        job->helpers.fetch_add(1, std::memory_order_relaxed);
        if (++job->joined == job->wanted) unlist(*job);
        return job;
    }
    struct Taken {
        Job* job = nullptr;
        bool offered = false;
    };
    // Spins for spin_ looking for a job: the offered one first, then a listed one (taking the
    // mutex only when one is listed, and only if it is free: a busy mutex means another worker
    // is joining); then sleeps until one is offered or listed. No job when the pool stops.
    Taken next_job() {
        for (;;) {
            auto until = std::chrono::steady_clock::now() + spin_;
            std::uint64_t generation = offer_.load(std::memory_order_relaxed) >> kGenerationShift;
            do {
                if (Job* job = take_offer()) return {job, true};
                // Jobs still coming (another offer, taken by other workers) keep this worker
                // spinning: a stream of small jobs, each wanting fewer workers than spin, would
                // otherwise put the workers that lose the offers to sleep, and each later job
                // would wait for a wake.
                if (const std::uint64_t now = offer_.load(std::memory_order_relaxed) >> kGenerationShift;
                    now != generation) {
                    generation = now;
                    until = std::chrono::steady_clock::now() + spin_;
                }
                if (pending_.load(std::memory_order_acquire) != 0) {
                    const std::unique_lock<std::mutex> lock(mutex_, std::try_to_lock);
                    if (lock.owns_lock())
                        if (Job* job = join()) return {job, false};
                }
                if (stop_.load(std::memory_order_relaxed)) return {};
                // An idle worker yields at every turn, so that other threads of the process
                // (the caller's own OpenMP loops) get its core at once.
                std::this_thread::yield();
            } while (std::chrono::steady_clock::now() < until);
            std::unique_lock<std::mutex> lock(mutex_);
            sleepers_.fetch_add(1);
            wake_.wait(lock, [&] { return stop_.load() || !jobs_.empty() || offer_wants(); });
            sleepers_.fetch_sub(1);
            if (stop_.load()) return {};
            if (Job* job = join()) return {job, false};
            // An offer is taken on the next turn of the spin, without the mutex.
        }
    }
    void loop() {
        for (Taken taken = next_job(); taken.job != nullptr; taken = next_job()) {
            taken.job->work();
            // The last access to the job.
            if (taken.offered)
                taken.job->finished.fetch_add(1, std::memory_order_release);
            else
                taken.job->helpers.fetch_sub(1, std::memory_order_release);
        }
    }

    std::chrono::microseconds spin_;
    unsigned threads_ = 1;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Job*> jobs_;
    std::atomic<std::size_t> pending_{0};  // jobs_.size(), for spinning workers
    std::atomic<unsigned> sleepers_{0};    // workers waiting on wake_ (changed under mutex_)
    std::atomic<bool> offer_held_{false};  // a caller's job is in the offer
    std::atomic<std::uint64_t> offer_{0};  // the offer word (above)
    std::atomic<Job*> offered_job_{nullptr};
    std::atomic<bool> stop_{false};
    std::vector<std::thread> workers_;
};

HostPool& pool() {
    static HostPool instance;
    return instance;
}

// One copy's parts: whole 4 KiB pages, the last one taking the rest.
struct Copy {
    unsigned char* dst;
    const unsigned char* src;
    std::size_t bytes;
    std::size_t parts;
    void operator()(std::size_t k) const {
        const std::size_t size = bytes / parts / 4096 * 4096;
        const std::size_t begin = k * size;
        const std::size_t end = k + 1 == parts ? bytes : begin + size;
        std::memcpy(dst + begin, src + begin, end - begin);
    }
};

}  // namespace

void parallel_for(std::size_t parts, void (*part)(void*, std::size_t), void* context, unsigned threads) {
    if (threads == 1 || parts <= 1) {  // (also a part's own parallel_for of one part: no pool at all)
        for (std::size_t k = 0; k < parts; ++k) part(context, k);
        return;
    }
    pool().run(parts, part, context, threads);
}

void parallel_copy(void* dst, const void* src, std::size_t bytes, unsigned threads) {
    if (bytes < 2 * kMinPart || threads == 1) {
        std::memcpy(dst, src, bytes);
        return;
    }
    const unsigned use = threads == 0 ? pool().threads() : std::min(threads, pool().threads());
    // Two parts per thread: a worker that starts late takes fewer, and nobody waits for it.
    Copy copy{static_cast<unsigned char*>(dst), static_cast<const unsigned char*>(src), bytes,
              std::clamp<std::size_t>(bytes / kMinPart, 1, std::size_t(2) * use)};
    parallel_for(copy.parts, copy, threads);
}

unsigned host_pool_threads() { return pool().threads(); }

std::chrono::microseconds host_pool_spin() {
    static const std::chrono::microseconds spin = [] {
        const char* text = std::getenv("CLREDUCE_HOST_SPIN_US");
        if (text == nullptr || *text == '\0') return kDefaultSpin;
        const std::string_view value(text);
        std::uint64_t us = 0;
        const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), us);
        if (error != std::errc() || end != value.data() + value.size() || us > kMaxSpinMicroseconds)
            throw InvalidArgument("CLREDUCE_HOST_SPIN_US=\"" + std::string(value) +
                                  "\": expected how long the host threads wait for work before they sleep, in "
                                  "microseconds, from 0 to " +
                                  std::to_string(kMaxSpinMicroseconds));
        return std::chrono::microseconds(us);
    }();
    return spin;
}

std::size_t host_parts(std::uint64_t items, std::uint64_t bytes) {
    return static_cast<std::size_t>(std::min<std::uint64_t>(
        {items, std::max<std::uint64_t>(1, bytes / kMinHostPartBytes), kMaxHostParts, 4ull * host_pool_threads()}));
}

}  // namespace clreduce
