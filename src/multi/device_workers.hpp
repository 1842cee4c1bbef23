#pragma once
// One host thread per device of a MultiReducer but the first, started once: a call runs the
// first device's task on the calling thread and hands each other device its task, then waits
// for all of them, so the devices work at once and a call creates no thread. A worker spins
// (yielding its core) for a while after each task before it sleeps, and the caller spins for
// the others' tasks to end: calls in a row hand over without a trip through the kernel, which
// waking a sleeping thread and being woken again would cost each call (docs/usage.md,
// "MultiReducer: the devices of one host", has the times).
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace clreduce {

class DeviceWorkers {
public:
    explicit DeviceWorkers(std::size_t devices);
    ~DeviceWorkers();
    DeviceWorkers(const DeviceWorkers&) = delete;
    DeviceWorkers& operator=(const DeviceWorkers&) = delete;

    // Runs tasks[k] for device k (an empty task: nothing there; the first non-empty one on the
    // calling thread, the others on their workers), from any number of host threads at once,
    // and returns when every task has ended; errors[k] holds what task k threw. A task never
    // outlives the call.
    void run(const std::vector<std::function<void()>>& tasks, std::vector<std::exception_ptr>& errors);

private:
    // One task handed to a worker, on the caller's stack: the worker's last access is the
    // store to `done`.
    struct Handoff {
        const std::function<void()>* task = nullptr;
        std::exception_ptr* error = nullptr;
        std::atomic<bool> done{false};
    };
    struct Worker {
        std::mutex mutex;
        std::condition_variable wake;
        std::deque<Handoff*> queue;
        std::atomic<std::size_t> queued{0};  // queue.size(), read without the lock while spinning
        bool sleeping = false;
        bool stop = false;
        std::thread thread;
    };
    void loop(Worker& worker);

    std::vector<std::unique_ptr<Worker>> workers_;  // workers_[k] serves device k; none for device 0
};

}  // namespace clreduce
