#include "exec/copy_pool.hpp"

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

// Parts below this size cost more to hand over than they save.
constexpr std::size_t kMinPart = std::size_t(256) << 10;

// A PCIe Gen5 x16 link takes about 55 GB/s from pinned memory; one thread's memcpy from pageable
// into pinned memory about a fifth of that, and it takes 12 to 16 threads to match the link
// (docs/performance.md, "Host data and several devices").
constexpr unsigned kMaxThreads = 16;

// How long a worker looks for the next copy before it sleeps: a stream copies a chunk every
// few hundred microseconds, and waking a sleeping thread costs tens of microseconds, which a
// copy of a few MiB cannot afford 15 times over.
constexpr std::chrono::microseconds kSpin{200};

// One copy, on its caller's stack. Parts are taken under the pool's mutex; `done` counts the
// parts copied, and the caller returns only when it reaches `parts`, after which no worker
// touches the job (a worker's last access is its increment).
struct CopyJob {
    unsigned char* dst = nullptr;
    const unsigned char* src = nullptr;
    std::size_t bytes = 0;
    std::size_t parts = 0;
    std::size_t next = 0;  // the next part to take (under the mutex)
    std::atomic<std::size_t> done{0};
};

class CopyPool {
public:
    CopyPool() {
        const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
        threads_ = std::min(kMaxThreads, cores);
        for (unsigned k = 1; k < threads_; ++k) workers_.emplace_back([this] { loop(); });
    }
    ~CopyPool() {
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            stop_ = true;
        }
        wake_.notify_all();
        for (std::thread& t : workers_) t.join();
    }
    unsigned threads() const { return threads_; }

    void copy(void* dst, const void* src, std::size_t bytes, unsigned threads) {
        if (bytes == 0) return;
        const unsigned use = threads == 0 ? threads_ : std::min(threads, threads_);
        CopyJob job;
        job.dst = static_cast<unsigned char*>(dst);
        job.src = static_cast<const unsigned char*>(src);
        job.bytes = bytes;
        // Two parts per thread: a worker that starts late takes fewer, and nobody waits for it.
        job.parts = std::clamp<std::size_t>(bytes / kMinPart, 1, std::size_t(2) * use);
        if (job.parts > 1) {
            bool wake = false;
            {
                const std::lock_guard<std::mutex> lock(mutex_);
                jobs_.push_back(&job);
                pending_.store(jobs_.size(), std::memory_order_release);
                wake = sleepers_ > 0;
            }
            if (wake) wake_.notify_all();
        }
        // The caller copies parts too, until none is left to take, then waits for the parts
        // in flight by spinning (they take microseconds; a sleeping caller wakes late).
        for (;;) {
            std::size_t part = 0;
            {
                const std::lock_guard<std::mutex> lock(mutex_);
                if (!take(job, part)) break;
            }
            copy_part(job, part);
            job.done.fetch_add(1, std::memory_order_acq_rel);
        }
        while (job.done.load(std::memory_order_acquire) != job.parts) std::this_thread::yield();
    }

private:
    // Takes the job's next part (under mutex_); drops the job from the list when that was its last.
    bool take(CopyJob& job, std::size_t& part) {
        if (job.next == job.parts) return false;
        part = job.next++;
        if (job.next == job.parts) {
            const auto it = std::find(jobs_.begin(), jobs_.end(), &job);
            if (it != jobs_.end()) jobs_.erase(it);
            pending_.store(jobs_.size(), std::memory_order_release);
        }
        return true;
    }
    static void copy_part(const CopyJob& job, std::size_t part) {
        // Parts of whole 4 KiB pages, the last one taking the rest.
        const std::size_t size = job.bytes / job.parts / 4096 * 4096;
        const std::size_t begin = part * size;
        const std::size_t end = part + 1 == job.parts ? job.bytes : begin + size;
        std::memcpy(job.dst + begin, job.src + begin, end - begin);
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
                CopyJob& job = *jobs_.front();
                std::size_t part = 0;
                take(job, part);
                lock.unlock();
                copy_part(job, part);
                job.done.fetch_add(1, std::memory_order_acq_rel);  // the last access to the job
                lock.lock();
            }
        }
    }

    unsigned threads_ = 1;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<CopyJob*> jobs_;
    std::atomic<std::size_t> pending_{0};  // jobs_.size(), for spinning workers
    unsigned sleepers_ = 0;                // workers waiting on wake_
    bool stop_ = false;
    std::vector<std::thread> workers_;
};

CopyPool& pool() {
    static CopyPool instance;
    return instance;
}

}  // namespace

void parallel_copy(void* dst, const void* src, std::size_t bytes, unsigned threads) {
    if (bytes < 2 * kMinPart || threads == 1) {
        std::memcpy(dst, src, bytes);
        return;
    }
    pool().copy(dst, src, bytes, threads);
}

unsigned copy_pool_threads() { return pool().threads(); }

}  // namespace clreduce
