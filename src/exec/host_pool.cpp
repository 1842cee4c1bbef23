#include "exec/host_pool.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace clreduce {
namespace {

// Copies below this size cost more to hand over than they save.
constexpr std::size_t kMinPart = std::size_t(256) << 10;

// One thread's copy or pass reaches a fraction of a fast link's or a host memory's bandwidth;
// it takes 12 to 16 threads to match them (docs/performance.md, "Host data and several
// devices" and "Where host data is reduced").
constexpr unsigned kMaxThreads = 16;

// How long a worker looks for the next job before it sleeps: a stream copies a chunk every
// few hundred microseconds, and waking a sleeping thread costs tens of microseconds, which a
// copy of a few MiB cannot afford 15 times over.
constexpr std::chrono::microseconds kSpin{200};

// One job, on its caller's stack. Parts are taken under the pool's mutex; `done` counts the
// parts run, and the caller returns only when it reaches `parts`, after which no worker
// touches the job (a worker's last access is its increment).
struct Job {
    void (*part)(void*, std::size_t) = nullptr;
    void* context = nullptr;
    std::size_t parts = 0;
    std::size_t next = 0;  // the next part to take (under the mutex)
    std::atomic<std::size_t> done{0};
};

class HostPool {
public:
    HostPool() {
        const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
        threads_ = std::min(kMaxThreads, cores);
        for (unsigned k = 1; k < threads_; ++k) workers_.emplace_back([this] { loop(); });
    }
    ~HostPool() {
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            stop_ = true;
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
        if (parts > 1 && use > 1) {
            bool wake = false;
            {
                const std::lock_guard<std::mutex> lock(mutex_);
                jobs_.push_back(&job);
                pending_.store(jobs_.size(), std::memory_order_release);
                wake = sleepers_ > 0;
            }
            if (wake) wake_.notify_all();
        }
        // The caller runs parts too, until none is left to take, then waits for the parts
        // in flight by spinning (they take microseconds; a sleeping caller wakes late).
        for (;;) {
            std::size_t k = 0;
            {
                const std::lock_guard<std::mutex> lock(mutex_);
                if (!take(job, k)) break;
            }
            job.part(job.context, k);
            job.done.fetch_add(1, std::memory_order_acq_rel);
        }
        while (job.done.load(std::memory_order_acquire) != job.parts) std::this_thread::yield();
    }

private:
    // Takes the job's next part (under mutex_); drops the job from the list when that was its last.
    bool take(Job& job, std::size_t& k) {
        if (job.next == job.parts) return false;
        k = job.next++;
        if (job.next == job.parts) {
            const auto it = std::find(jobs_.begin(), jobs_.end(), &job);
            if (it != jobs_.end()) jobs_.erase(it);
            pending_.store(jobs_.size(), std::memory_order_release);
        }
        return true;
    }
    void loop() {
        for (;;) {
            const auto until = std::chrono::steady_clock::now() + kSpin;
            while (pending_.load(std::memory_order_acquire) == 0 && std::chrono::steady_clock::now() < until)
                std::this_thread::yield();
            std::unique_lock<std::mutex> lock(mutex_);
            if (jobs_.empty() && !stop_) {
                ++sleepers_;
                wake_.wait(lock, [&] { return stop_ || !jobs_.empty(); });
                --sleepers_;
            }
            if (stop_) return;
            while (!jobs_.empty()) {
                Job& job = *jobs_.front();
                std::size_t k = 0;
                take(job, k);
                lock.unlock();
                job.part(job.context, k);
                job.done.fetch_add(1, std::memory_order_acq_rel);  // the last access to the job
                lock.lock();
            }
        }
    }

    unsigned threads_ = 1;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Job*> jobs_;
    std::atomic<std::size_t> pending_{0};  // jobs_.size(), for spinning workers
    unsigned sleepers_ = 0;                // workers waiting on wake_
    bool stop_ = false;
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

}  // namespace clreduce
