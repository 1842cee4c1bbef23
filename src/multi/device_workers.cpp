#include "multi/device_workers.hpp"

#include <memory>

namespace clreduce {

DeviceWorkers::DeviceWorkers(std::size_t devices) {
    for (std::size_t k = 0; k < devices; ++k) {
        workers_.push_back(std::make_unique<Worker>());
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
    for (auto& w : workers_) w->thread.join();
}

void DeviceWorkers::loop(Worker& w) {
    for (;;) {
        std::function<void()> task;
        {
            std::unique_lock<std::mutex> lock(w.mutex);
            w.wake.wait(lock, [&] { return w.stop || !w.queue.empty(); });
            if (w.queue.empty()) return;  // stopping, nothing left
            task = std::move(w.queue.front());
            w.queue.pop_front();
        }
        task();
    }
}

void DeviceWorkers::run(const std::vector<std::function<void()>>& tasks, std::vector<std::exception_ptr>& errors) {
    errors.assign(tasks.size(), nullptr);
    // The call's own count of tasks still running, on its stack: every task ends before run
    // returns, so the references stay valid.
    std::mutex mutex;
    std::condition_variable done;
    std::size_t running = 0;
    for (std::size_t k = 0; k < tasks.size() && k < workers_.size(); ++k) running += tasks[k] ? 1 : 0;
    for (std::size_t k = 0; k < tasks.size() && k < workers_.size(); ++k) {
        if (!tasks[k]) continue;
        Worker& w = *workers_[k];
        {
            const std::lock_guard<std::mutex> lock(w.mutex);
            w.queue.push_back([&, k] {
                try {
                    tasks[k]();
                } catch (...) {
                    errors[k] = std::current_exception();
                }
                const std::lock_guard<std::mutex> finished(mutex);
                if (--running == 0) done.notify_all();
            });
        }
        w.wake.notify_one();
    }
    std::unique_lock<std::mutex> lock(mutex);
    done.wait(lock, [&] { return running == 0; });
}

}  // namespace clreduce
