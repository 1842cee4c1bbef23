// clreduce-perf floor: what bounds a synchronous reduction call on a device, measured with raw
// OpenCL and no reduction work: the host cost of an enqueue, a launch waited for, the ways of
// bringing 8 bytes back, a second launch, a fill, a profiling queue; then clreduce's own call
// beside them, and the device's read bandwidth (a read-only kernel).
#include <chrono>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <random>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <clreduce/clreduce.hpp>

#include "commands/commands.hpp"
#include "measure/embedded_perf_kernels.hpp"
#include "measure/read_only_kernel.hpp"
#include "measure/timing.hpp"
#include "report/output_files.hpp"

namespace clreduce::perf {
namespace {

// Asynchronous calls are timed in chains of this many, none waited for.
constexpr int kAsyncChain = 100;

using Clock = std::chrono::steady_clock;

struct FloorRow {
    std::string name;
    double median_us = 0, p10_us = 0, p90_us = 0;
    std::string note;
};

double percentile(std::vector<double> v, double q) {
    std::sort(v.begin(), v.end());
    return v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1))];
}

FloorRow summarize(std::string name, const std::vector<double>& us, std::string note = {}) {
    return {std::move(name), median(us), percentile(us, 0.1), percentile(us, 0.9), std::move(note)};
}

// Wall time of `call` over `repeats` runs after 10 warm-up runs.
FloorRow time_wall(const std::string& name, int repeats, const std::function<void()>& call, std::string note = {}) {
    for (int i = 0; i < 10; ++i) call();
    std::vector<double> us;
    for (int i = 0; i < repeats; ++i) {
        const auto t0 = Clock::now();
        call();
        us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
    }
    return summarize(name, us, std::move(note));
}

class Probe {
public:
    explicit Probe(const cl::Device& device) {
        context_ = cl::Context(device);
        queue_ = cl::CommandQueue(context_, device);
        profiling_queue_ = cl::CommandQueue(context_, device, CL_QUEUE_PROFILING_ENABLE);
        const cl::Program program = build_perf_program(context_, device, "call_floor.cl");
        touch_ = cl::Kernel(program, "floor_touch");
        touch2_ = cl::Kernel(program, "floor_touch");
        busy_ = cl::Kernel(program, "floor_busy");
        read_ = ReadOnlyKernel(build_perf_program(context_, device, "read_only.cl"), DeviceInfo::query(device));
        result_ = cl::Buffer(context_, CL_MEM_READ_WRITE, 64);
        pinned_ = cl::Buffer(context_, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, 64);
        pinned_host_ = static_cast<std::int64_t*>(
            queue_.enqueueMapBuffer(pinned_, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, 64));
        touch_.setArg(0, result_);
        touch2_.setArg(0, result_);
        busy_.setArg(0, result_);
    }
    ~Probe() {
        queue_.enqueueUnmapMemObject(pinned_, pinned_host_);
        queue_.finish();
    }

    void launch(cl::CommandQueue& queue, cl::Kernel& kernel, cl::Event* event = nullptr) {
        kernel.setArg(1, cl_long(++value_));
        check(queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(32), cl::NDRange(32), nullptr, event),
              "clEnqueueNDRangeKernel");
    }
    void read_pageable(cl::CommandQueue& queue) {
        check(queue.enqueueReadBuffer(result_, CL_TRUE, 0, 8, &host_value_), "clEnqueueReadBuffer");
        verify(host_value_);
    }
    // The word read blocking into pinned memory (a mapped CL_MEM_ALLOC_HOST_PTR buffer).
    void read_pinned(cl::CommandQueue& queue) {
        check(queue.enqueueReadBuffer(result_, CL_TRUE, 0, 8, pinned_host_ + 4), "clEnqueueReadBuffer");
        verify(pinned_host_[4]);
    }
    // The same word read without blocking, watched until it is no longer the sentinel (the
    // previous launch's value: each launch writes a new one).
    void polled_read(cl::CommandQueue& queue) {
        volatile std::int64_t* word = pinned_host_ + 4;
        const std::int64_t sentinel = value_ - 1;
        *word = sentinel;
        check(queue.enqueueReadBuffer(result_, CL_FALSE, 0, 8, pinned_host_ + 4), "clEnqueueReadBuffer");
        check(queue.flush(), "clFlush");
        const auto give_up = Clock::now() + std::chrono::seconds(1);
        while (*word == sentinel)
            if (Clock::now() > give_up) throw Error("floor: a polled read saw no result within a second");
        verify(*word);
    }
    void verify(std::int64_t seen) {
        if (seen != value_) throw Error(fmt::format("floor: read {} where {} was written", seen, value_));
    }

    std::vector<FloorRow> rows(int repeats) {
        std::vector<FloorRow> out;
        {
            std::vector<double> us;
            for (int i = 0; i < repeats + 10; ++i) {
                const auto t0 = Clock::now();
                launch(queue_, touch_);
                const auto t1 = Clock::now();
                queue_.finish();
                if (i >= 10) us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
            }
            out.push_back(summarize("enqueue kernel (host cost only)", us, "clEnqueueNDRangeKernel returns"));
        }
        {
            std::vector<double> us;
            for (int i = 0; i < repeats + 10; ++i) {
                const auto t0 = Clock::now();
                kernel_arg_and_launch();
                const auto t1 = Clock::now();
                queue_.finish();
                if (i >= 10) us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
            }
            out.push_back(summarize("clSetKernelArg x5 + enqueue (host cost only)", us));
        }
        {
            std::vector<double> us;
            for (int i = 0; i < repeats + 10; ++i) {
                cl::Event event;
                const auto t0 = Clock::now();
                launch(queue_, touch_, &event);
                const auto t1 = Clock::now();
                queue_.finish();
                if (i >= 10) us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
            }
            out.push_back(summarize("enqueue kernel with an event (host cost only)", us));
        }
        // As clreduce's asynchronous rows below time themselves: calls queued behind each other,
        // the event (if any) released within the timed call.
        for (const bool with_event : {true, false}) {
            std::vector<double> us;
            while (static_cast<int>(us.size()) < repeats) {
                for (int k = 0; k < kAsyncChain; ++k) {
                    const auto t0 = Clock::now();
                    {
                        cl::Event event;
                        launch(queue_, touch_, with_event ? &event : nullptr);
                    }
                    us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
                }
                queue_.finish();
            }
            out.push_back(summarize(with_event ? "enqueue kernel with an event, in chains (host)"
                                               : "enqueue kernel, in chains (host)",
                                    us, fmt::format("as the sum_async rows: chains of {}{}", kAsyncChain,
                                                    with_event ? ", the event released in the call" : "")));
        }
        // The driver calls an asynchronous clreduce call makes beside its enqueue.
        out.push_back(time_wall("clGetMemObjectInfo x4 (host cost only)", repeats, [&] {
            for (int i = 0; i < 2; ++i) {
                cl_context owner = nullptr;
                size_t bytes = 0;
                check(clGetMemObjectInfo(result_(), CL_MEM_CONTEXT, sizeof owner, &owner, nullptr), "clGetMemObjectInfo");
                check(clGetMemObjectInfo(result_(), CL_MEM_SIZE, sizeof bytes, &bytes, nullptr), "clGetMemObjectInfo");
            }
        }, "a buffer's context and size, for two buffers"));
        out.push_back(time_wall("clSetKernelArg x8 (host cost only)", repeats, [&] {
            for (int i = 0; i < 4; ++i) {
                check(touch_.setArg(0, result_), "clSetKernelArg");
                check(touch_.setArg(1, cl_long(value_)), "clSetKernelArg");
            }
        }, "4 buffers, 4 scalars"));
        out.push_back(time_wall("kernel + clFinish", repeats, [&] {
            launch(queue_, touch_);
            queue_.finish();
        }, "no result read"));
        out.push_back(time_wall("kernel + blocking read (pageable)", repeats, [&] {
            launch(queue_, touch_);
            read_pageable(queue_);
        }, "what clreduce's int32 sum does"));
        out.push_back(time_wall("kernel + clFlush + blocking read (pinned host)", repeats, [&] {
            launch(queue_, touch_);
            queue_.flush();
            read_pinned(queue_);
        }, "the kernel submitted before the read is enqueued"));
        out.push_back(time_wall("kernel + blocking read (pinned host)", repeats, [&] {
            launch(queue_, touch_);
            read_pinned(queue_);
        }, "destination from a mapped CL_MEM_ALLOC_HOST_PTR buffer"));
        out.push_back(time_wall("kernel + polled read (pinned host)", repeats, [&] {
            launch(queue_, touch_);
            polled_read(queue_);
        }, "non-blocking read, clFlush, spin until the pinned word changes"));
        out.push_back(time_wall("kernel + non-blocking read + clFinish", repeats, [&] {
            launch(queue_, touch_);
            check(queue_.enqueueReadBuffer(result_, CL_FALSE, 0, 8, &host_value_), "clEnqueueReadBuffer");
            queue_.finish();
            verify(host_value_);
        }));
        out.push_back(time_wall("kernel + read + flush + spin on event", repeats, [&] {
            launch(queue_, touch_);
            cl::Event done;
            check(queue_.enqueueReadBuffer(result_, CL_FALSE, 0, 8, &host_value_, nullptr, &done),
                  "clEnqueueReadBuffer");
            queue_.flush();
            while (done.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>() != CL_COMPLETE) {
            }
            verify(host_value_);
        }, "busy-wait instead of the driver's blocking wait"));
        out.push_back(time_wall("kernel + blocking map/unmap (pinned buffer)", repeats, [&] {
            touch_.setArg(0, pinned_);
            launch(queue_, touch_);
            void* p = queue_.enqueueMapBuffer(pinned_, CL_TRUE, CL_MAP_READ, 0, 8);
            verify(*static_cast<std::int64_t*>(p));
            queue_.enqueueUnmapMemObject(pinned_, p);
            touch_.setArg(0, result_);
        }, "kernel writes a CL_MEM_ALLOC_HOST_PTR buffer"));
        out.push_back(time_wall("2 kernels + blocking read", repeats, [&] {
            launch(queue_, touch2_);
            launch(queue_, touch_);
            read_pageable(queue_);
        }, "a second pass"));
        out.push_back(time_wall("fill 8 B + kernel + blocking read", repeats, [&] {
            check(queue_.enqueueFillBuffer(result_, cl_long(0), 8, 8), "clEnqueueFillBuffer");
            launch(queue_, touch_);
            read_pageable(queue_);
        }, "zeroing a result word first"));
        out.push_back(time_wall("kernel with event + blocking read", repeats, [&] {
            cl::Event event;
            launch(queue_, touch_, &event);
            read_pageable(queue_);
        }, "an event object per call"));
        out.push_back(time_wall("profiling queue: kernel with event + blocking read", repeats, [&] {
            cl::Event event;
            launch(profiling_queue_, touch_, &event);
            read_pageable(profiling_queue_);
            (void)event.getProfilingInfo<CL_PROFILING_COMMAND_END>();
        }, "as a profiled call"));
        {
            // The device's own floor: what profiling reports for a launch that does nothing.
            std::vector<double> us;
            for (int i = 0; i < repeats + 10; ++i) {
                cl::Event event;
                launch(profiling_queue_, touch_, &event);
                event.wait();
                if (i >= 10) us.push_back(device_microseconds({event}));
            }
            out.push_back(summarize("one-work-group kernel (device time)", us, "profiling START to END"));
        }
        return out;
    }

    // The blocking read's wait against the kernel's length: a one-work-item kernel busy for
    // about `target_us` of device time, read at once, or after the host spins `delay_us`
    // (the kernel flushed first), so that the read starts nearer the kernel's end.
    std::vector<FloorRow> wait_rows(int repeats, double target_us) {
        std::vector<FloorRow> out;
        cl_ulong iterations = 256;
        double device_us = 0;
        for (; iterations < (cl_ulong(1) << 30); iterations += iterations / 4) {
            busy_.setArg(2, iterations);
            std::vector<double> us;
            for (int i = 0; i < 5; ++i) {
                cl::Event event;
                launch(profiling_queue_, busy_, &event);
                event.wait();
                us.push_back(device_microseconds({event}));
            }
            device_us = median(us);
            if (device_us >= target_us) break;
        }
        const std::string what = fmt::format("busy kernel of {:.1f} us device", device_us);
        out.push_back(time_wall(what + " + blocking read", repeats, [&] {
            launch(queue_, busy_);
            read_pinned(queue_);
        }));
        out.push_back(time_wall(what + " + polled read", repeats, [&] {
            launch(queue_, busy_);
            polled_read(queue_);
        }));
        for (const bool polled : {false, true}) {
            for (double delay_us : {2.0, 4.0, 6.0, 8.0}) {
                const std::string how = polled ? "polled read" : "read";
                out.push_back(time_wall(fmt::format("{} + flush, {:.0f} us spin, {}", what, delay_us, how), repeats, [&] {
                    const auto t0 = Clock::now();
                    launch(queue_, busy_);
                    queue_.flush();
                    while (std::chrono::duration<double, std::micro>(Clock::now() - t0).count() < 5.0 + delay_us) {
                    }
                    if (polled) {
                        polled_read(queue_);
                    } else {
                        read_pinned(queue_);
                    }
                }, "the read starts this long after the enqueue's 5 us"));
            }
        }
        return out;
    }

    // Device time of one read-only pass over `bytes`, median of `repeats`.
    FloorRow read_bandwidth(std::uint64_t bytes, int repeats, double* gbps) {
        cl::Buffer in(context_, CL_MEM_READ_ONLY, static_cast<size_t>(bytes));
        {
            // Random contents (whatever the allocation held would do, but be definite).
            std::vector<std::uint32_t> chunk(1u << 22);
            std::mt19937 rng(7);
            for (auto& v : chunk) v = rng();
            const std::uint64_t chunk_bytes = chunk.size() * 4;
            for (std::uint64_t at = 0; at < bytes; at += chunk_bytes)
                queue_.enqueueWriteBuffer(in, CL_TRUE, static_cast<size_t>(at),
                                          static_cast<size_t>(std::min(chunk_bytes, bytes - at)), chunk.data());
        }
        const std::vector<double> us = read_.time(profiling_queue_, in, bytes, repeats);
        FloorRow row = summarize(fmt::format("read-only kernel, {} MiB (device time)", bytes >> 20), us, read_.geometry());
        *gbps = static_cast<double>(bytes) / row.median_us / 1e3;
        row.note += fmt::format(", {:.0f} GB/s", *gbps);
        return row;
    }

private:
    void kernel_arg_and_launch() {
        for (int i = 0; i < 4; ++i) touch_.setArg(0, result_);
        launch(queue_, touch_);
    }

    cl::Context context_;
    cl::CommandQueue queue_, profiling_queue_;
    cl::Kernel touch_, touch2_, busy_;
    ReadOnlyKernel read_;
    cl::Buffer result_, pinned_;
    std::int64_t* pinned_host_ = nullptr;
    std::int64_t host_value_ = 0;
    cl_long value_ = 0;
};

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

// clreduce's synchronous sum of `n` random elements on a plain (non-profiling) queue.
template <class T>
FloorRow clreduce_call(const cl::Device& device, std::uint64_t n, int repeats, LaunchParams params, std::string label) {
    Reducer reducer(device);
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
    if (paced > 0) row.note += fmt::format(", paced in {} of the next 100 calls, reads {:.2f} us after the enqueue",
                                           paced, waited_us / paced);
    return row;
}

// clreduce's asynchronous sum: the host cost of each call in a chain of calls that nothing
// waits for between them (the result of call k goes to slot k of a device buffer), checked
// against the exact sum at the end.
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
    reducer.sum_async<T>(buffer, 0, n, results).wait();  // warm-up: the program and the slot
    std::vector<double> us;
    while (static_cast<int>(us.size()) < repeats) {
        for (int k = 0; k < chain; ++k) {
            const auto t0 = Clock::now();
            reducer.sum_async<T>(buffer, 0, n, results, k * sizeof(R), {}, {}, make_event);
            us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
        }
        reducer.queue().finish();
    }
    std::vector<R> got(chain);
    reducer.queue().enqueueReadBuffer(results, CL_TRUE, 0, chain * sizeof(R), got.data());
    for (const R v : got)
        if (static_cast<long double>(v) != expected) throw Error("floor: clreduce's asynchronous sum is wrong");
    return summarize(label, us, fmt::format("host cost of each call in chains of {}, none waited for{}", chain,
                                            make_event ? "" : "; no event"));
}

// `calls` int32 sums of `n` in one new reducer, one line each: the call's time and how long
// its read waited (paced reads), so that the learning can be seen call by call.
void trace_calls(const cl::Device& device, std::uint64_t n, int calls) {
    Reducer reducer(device);
    const FloorData data = floor_data<std::int32_t>(reducer, n, 17);
    std::cout << fmt::format("\ntrace: int32 sum, n = {}, {} calls from the reducer's first (us: call, read's wait)\n", n,
                             calls);
    for (int k = 0; k < calls; ++k) {
        CallInfo info;
        const auto t0 = Clock::now();
        const auto sum = reducer.sum<std::int32_t>(data.buffer, 0, n, {}, &info);
        const double us = std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
        if (static_cast<long double>(sum) != data.expected) throw Error("floor: clreduce's sum is wrong");
        std::cout << fmt::format("{} {:.1f} {:.2f}\n", k, us, info.read_wait_us);
    }
}

}  // namespace

int run_floor(const FloorOptions& options) {
    const cl::Device device = options.device.empty() ? default_device() : select_device(options.device);
    const DeviceInfo info = DeviceInfo::query(device);
    std::cout << "device: " << info.platform_name << " / " << info.name << ", driver " << info.driver_version << "\n"
              << "medians of " << options.repeats << " calls after 10 warm-up calls, wall clock unless marked\n\n";
    std::vector<FloorRow> rows;
    {
        Probe probe(device);
        rows = probe.rows(options.repeats);
        std::uint64_t bytes = options.read_bytes;
        bytes = std::min<std::uint64_t>(bytes, info.max_alloc_size);
        bytes = std::min<std::uint64_t>(bytes, info.global_mem_size / 2);
        bytes -= bytes % 16;
        double gbps = 0;
        if (bytes >= 16) rows.push_back(probe.read_bandwidth(bytes, std::max(5, options.repeats / 20), &gbps));
        for (double target_us : {8.0, 10.0, 14.0})
            for (FloorRow& row : probe.wait_rows(options.repeats, target_us)) rows.push_back(std::move(row));
    }
    // clreduce's sync call as it reads by default, then (on NVIDIA, where the defaults are
    // polled and paced reads) each other way (README: CLREDUCE_READ_POLLING, CLREDUCE_READ_PACING)
    // and the default again.
    struct ReadWay {
        const char* suffix;
        const char* polling;
        const char* pacing;
    };
    std::vector<ReadWay> ways{{"", nullptr, nullptr}};
    // The default again at the end: the first rows of a run can be slower (the GPU's clocks
    // after the bandwidth and wait rows).
    if (info.is_nvidia) ways.insert(ways.end(), {{", polled, unpaced", "1", "0"},
                                                 {", blocking, paced", "0", "1"},
                                                 {", blocking, unpaced", "0", "0"},
                                                 {", default again", nullptr, nullptr}});
    for (const ReadWay& way : ways) {
        if (way.polling != nullptr) ::setenv("CLREDUCE_READ_POLLING", way.polling, 1);
        if (way.pacing != nullptr) ::setenv("CLREDUCE_READ_PACING", way.pacing, 1);
        for (std::uint64_t n : options.sizes) {
            rows.push_back(clreduce_call<std::int32_t>(device, n, options.repeats, {},
                                                       fmt::format("clreduce sum int32, n = {}{}", n, way.suffix)));
            rows.push_back(clreduce_call<float>(device, n, options.repeats, {},
                                                fmt::format("clreduce sum float32, n = {}{}", n, way.suffix)));
        }
        ::unsetenv("CLREDUCE_READ_POLLING");
        ::unsetenv("CLREDUCE_READ_PACING");
    }
    for (std::uint64_t n : options.sizes) {
        for (bool event : {true, false}) {
            const char* how = event ? "" : ", no event";
            rows.push_back(clreduce_async_call<std::int32_t>(
                device, n, options.repeats, fmt::format("clreduce sum_async int32, n = {} (host{})", n, how), event));
            rows.push_back(clreduce_async_call<float>(
                device, n, options.repeats, fmt::format("clreduce sum_async float32, n = {} (host{})", n, how), event));
        }
    }
    std::cout << fmt::format("{:<58} {:>9} {:>9} {:>9}  {}\n", "what", "median", "p10", "p90", "note");
    for (const auto& r : rows)
        std::cout << fmt::format("{:<58} {:>9.1f} {:>9.1f} {:>9.1f}  {}\n", r.name, r.median_us, r.p10_us, r.p90_us, r.note);
    if (options.trace > 0)
        for (std::uint64_t n : options.sizes) trace_calls(device, n, options.trace);
    if (!options.json.empty()) {
        nlohmann::json j;
        j["device"] = device_json(info);
        j["repeats"] = options.repeats;
        for (const auto& r : rows)
            j["rows"].push_back({{"what", r.name}, {"median_us", r.median_us}, {"p10_us", r.p10_us},
                                 {"p90_us", r.p90_us}, {"note", r.note}});
        open_output(options.json) << j.dump(2) << "\n";
    }
    return 0;
}

}  // namespace clreduce::perf
