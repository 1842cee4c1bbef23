#pragma once
// One host thread per device of a MultiReducer, started once: a call hands each device its
// task and waits for all of them, so the devices work at once and a call creates no thread.
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

    // Runs tasks[k] on worker k (an empty task: nothing there), from any number of host
    // threads at once, and returns when every task has ended; errors[k] holds what task k
    // threw. A task never outlives the call.
    void run(const std::vector<std::function<void()>>& tasks, std::vector<std::exception_ptr>& errors);

private:
    struct Worker {
        std::mutex mutex;
        std::condition_variable wake;
        std::deque<std::function<void()>> queue;
        bool stop = false;
        std::thread thread;
    };
    void loop(Worker& worker);

    std::vector<std::unique_ptr<Worker>> workers_;
};

}  // namespace clreduce
