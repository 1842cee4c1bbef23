#include "experiments/clreduce_calls.hpp"

#include "measure/delivery.hpp"

#include <iostream>
#include <random>

#include <fmt/format.h>

#include <clreduce/clreduce.hpp>

namespace clreduce::perf::experiments {
namespace {

// `n` seeded integers 0..999 on the reducer's device, and their exact sum.
struct FloorData {
    cl::Buffer buffer;
    long double expected = 0;
};
template <class T>
FloorData floor_data(const Reducer& reducer, std::uint64_t n, std::uint32_t seed) {
    std::vector<T> host(n);
    std::mt19937 rng(seed);
    FloorData data;
    for (auto& v : host) {
        v = static_cast<T>(rng() % 1000);
        data.expected += v;
    }
    data.buffer = cl::Buffer(reducer.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(T), host.data());
    return data;
}

}  // namespace

template <class T>
FloorRow clreduce_call(const cl::Device& device, std::uint64_t n, int repeats, LaunchParams params, std::string label,
                       const std::string& delivery) {
    Reducer reducer(device);
    set_delivery(reducer, delivery);
    const FloorData data = floor_data<T>(reducer, n, 11);
    const cl::Buffer& buffer = data.buffer;
    const long double expected = data.expected;
    auto sum = reducer.sum<T>(buffer, 0, n, params);
    const Counters before = reducer.counters();
    FloorRow row = time_wall(label, repeats, [&] { sum = reducer.sum<T>(buffer, 0, n, params); });
    if (static_cast<long double>(sum) != expected) throw Error("floor: clreduce's sum is wrong");
    const Counters after = reducer.counters();
    if (after.programs_built != before.programs_built || after.kernels_created != before.kernels_created ||
        after.buffers_allocated != before.buffers_allocated)
        throw Error("floor: a repeated call built, created or allocated something");
    // How the calls after those read: paced (a wait before the read) in how many, and how long.
    CallInfo info;
    int paced = 0;
    double waited_us = 0;
    for (int i = 0; i < 100; ++i) {
        reducer.sum<T>(buffer, 0, n, params, &info);
        paced += info.read_wait_us > 0;
        waited_us += info.read_wait_us;
    }
    row.note = info.plan.describe();
    if (paced > 0)
        row.note += fmt::format(", paced in {} of the next 100 calls, reads {:.2f} us after the enqueue", paced,
                                waited_us / paced);
    return row;
}

template <class T>
FloorRow clreduce_async_call(const cl::Device& device, std::uint64_t n, int repeats, std::string label,
                             bool make_event) {
    Reducer reducer(device);
    const FloorData data = floor_data<T>(reducer, n, 13);
    const cl::Buffer& buffer = data.buffer;
    const long double expected = data.expected;
    using R = sum_type_t<T>;
    const int chain = kAsyncChain;
    cl::Buffer results(reducer.context(), CL_MEM_READ_WRITE, chain * sizeof(R));
    reducer.sum_async<T>(buffer, 0, n, {results}).wait();  // warm-up: the program and the slot
    std::vector<double> us;
    while (static_cast<int>(us.size()) < repeats) {
        for (int k = 0; k < chain; ++k) {
            const auto t0 = Clock::now();
            reducer.sum_async<T>(
                buffer, 0, n,
                {results, static_cast<std::uint64_t>(k), {}, make_event ? AsyncEvent::returned : AsyncEvent::none});
            us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
        }
        reducer.queue().finish();
    }
    std::vector<R> got(chain);
    reducer.queue().enqueueReadBuffer(results, CL_TRUE, 0, chain * sizeof(R), got.data());
    for (const R v : got)
        if (static_cast<long double>(v) != expected) throw Error("floor: clreduce's asynchronous sum is wrong");
    return summarize(label, us,
                     fmt::format("host cost of each call in chains of {}, none waited for{}", chain,
                                 make_event ? "" : "; no event"));
}

void trace_calls(const cl::Device& device, std::uint64_t n, int calls) {
    Reducer reducer(device);
    const FloorData data = floor_data<std::int32_t>(reducer, n, 17);
    std::cout << fmt::format("\ntrace: int32 sum, n = {}, {} calls from the reducer's first (us: call, read's wait)\n",
                             n, calls);
    for (int k = 0; k < calls; ++k) {
        CallInfo info;
        const auto t0 = Clock::now();
        const auto sum = reducer.sum<std::int32_t>(data.buffer, 0, n, {}, &info);
        const double us = std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
        if (static_cast<long double>(sum) != data.expected) throw Error("floor: clreduce's sum is wrong");
        std::cout << fmt::format("{} {:.1f} {:.2f}\n", k, us, info.read_wait_us);
    }
}

template FloorRow clreduce_call<std::int32_t>(const cl::Device&, std::uint64_t, int, LaunchParams, std::string,
                                              const std::string&);
template FloorRow clreduce_call<float>(const cl::Device&, std::uint64_t, int, LaunchParams, std::string,
                                       const std::string&);
template FloorRow clreduce_async_call<std::int32_t>(const cl::Device&, std::uint64_t, int, std::string, bool);
template FloorRow clreduce_async_call<float>(const cl::Device&, std::uint64_t, int, std::string, bool);

}  // namespace clreduce::perf::experiments
