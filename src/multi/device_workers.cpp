#include "multi/device_workers.hpp"

#include <algorithm>
#include <chrono>
#include <memory>

namespace clreduce {
namespace {

// How long a worker looks for its next task before it sleeps: long enough to span the gap
// between calls in a row (the caller's merge and its next call), short enough that an idle
// MultiReducer gives its cores back at once.
constexpr std::chrono::microseconds kSpin{200};

void run_one(const std::function<void()>& task, std::exception_ptr& error) {
    try {
        task();
    } catch (...) {
        error = std::current_exception();
    }
}

}  // namespace

DeviceWorkers::DeviceWorkers(std::size_t devices) {
    for (std::size_t k = 0; k < devices; ++k) {
        workers_.push_back(std::make_unique<Worker>());
        if (k == 0) continue;  // the caller's own
        Worker& w = *workers_.back();
        w.thread = std::thread([this, &w] { loop(w); });
    }
}

DeviceWorkers::~DeviceWorkers() {
    for (auto& w : workers_) {
        {
            const std::lock_guard<std::mutex> lock(w->mutex);
            w->stop = true;
        }
        w->wake.notify_one();
    }
    for (auto& w : workers_)
        if (w->thread.joinable()) w->thread.join();
}

void DeviceWorkers::loop(Worker& w) {
    for (;;) {
        const auto until = std::chrono::steady_clock::now() + kSpin;
        while (w.queued.load(std::memory_order_acquire) == 0 && std::chrono::steady_clock::now() < until)
            std::this_thread::yield();
        Handoff* handoff = nullptr;
        {
            std::unique_lock<std::mutex> lock(w.mutex);
            if (w.queue.empty() && !w.stop) {
                w.sleeping = true;
                w.wake.wait(lock, [&] { return w.stop || !w.queue.empty(); });
                w.sleeping = false;
            }
            if (w.queue.empty()) return;  // stopping, nothing left
            handoff = w.queue.front();
            w.queue.pop_front();
            w.queued.store(w.queue.size(), std::memory_order_relaxed);
        }
        run_one(*handoff->task, *handoff->error);
        handoff->done.store(true, std::memory_order_release);
    }
}

void DeviceWorkers::run(const std::vector<std::function<void()>>& tasks, std::vector<std::exception_ptr>& errors) {
    errors.assign(tasks.size(), nullptr);
    const std::size_t n = std::min(tasks.size(), workers_.size());
    // The first task stays on this thread; the others go to their workers first.
    std::size_t own = n;
    for (std::size_t k = 0; k < n; ++k)
        if (tasks[k]) {
            own = k;
            break;
        }
    std::vector<Handoff> handoffs(n);
    for (std::size_t k = own + 1; k < n; ++k) {
        if (!tasks[k]) continue;
        Handoff& h = handoffs[k];
        h.task = &tasks[k];
        h.error = &errors[k];
        Worker& w = *workers_[k];
        bool wake = false;
        {
            const std::lock_guard<std::mutex> lock(w.mutex);
            w.queue.push_back(&h);
            w.queued.store(w.queue.size(), std::memory_order_release);
            wake = w.sleeping;
        }
        if (wake) w.wake.notify_one();
    }
    if (own < n) run_one(tasks[own], errors[own]);
    // Spinning, not sleeping: a sleeping caller is woken late (device_workers.hpp).
    for (std::size_t k = own + 1; k < n; ++k) {
        if (!tasks[k]) continue;
        while (!handoffs[k].done.load(std::memory_order_acquire)) std::this_thread::yield();
    }
}

}  // namespace clreduce
