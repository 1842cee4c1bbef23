#include "experiments/opencl_probe.hpp"

#include <algorithm>
#include <random>

#include <fmt/format.h>

#include <clreduce/device_info.hpp>
#include <clreduce/error.hpp>

#include "measure/embedded_perf_kernels.hpp"
#include "measure/timing.hpp"

namespace clreduce::perf::experiments {

Probe::Probe(const cl::Device& device) {
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
    pinned_host_ =
        static_cast<std::int64_t*>(queue_.enqueueMapBuffer(pinned_, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, 64));
    touch_.setArg(0, result_);
    touch2_.setArg(0, result_);
    busy_.setArg(0, result_);
}

Probe::~Probe() {
    queue_.enqueueUnmapMemObject(pinned_, pinned_host_);
    queue_.finish();
}

void Probe::launch(cl::CommandQueue& queue, cl::Kernel& kernel, cl::Event* event) {
    kernel.setArg(1, cl_long(++value_));
    check(queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(32), cl::NDRange(32), nullptr, event),
          "clEnqueueNDRangeKernel");
}

void Probe::read_pageable(cl::CommandQueue& queue) {
    check(queue.enqueueReadBuffer(result_, CL_TRUE, 0, 8, &host_value_), "clEnqueueReadBuffer");
    verify(host_value_);
}

void Probe::read_pinned(cl::CommandQueue& queue) {
    check(queue.enqueueReadBuffer(result_, CL_TRUE, 0, 8, pinned_host_ + 4), "clEnqueueReadBuffer");
    verify(pinned_host_[4]);
}

void Probe::polled_read(cl::CommandQueue& queue) {
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

void Probe::verify(std::int64_t seen) {
    if (seen != value_) throw Error(fmt::format("floor: read {} where {} was written", seen, value_));
}

std::vector<FloorRow> Probe::rows(int repeats) {
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
                                us,
                                fmt::format("as the sum_async rows: chains of {}{}", kAsyncChain,
                                            with_event ? ", the event released in the call" : "")));
    }
    // The driver calls an asynchronous clreduce call makes beside its enqueue.
    out.push_back(time_wall(
        "clGetMemObjectInfo x4 (host cost only)", repeats,
        [&] {
        for (int i = 0; i < 2; ++i) {
            cl_context owner = nullptr;
            size_t bytes = 0;
            check(clGetMemObjectInfo(result_(), CL_MEM_CONTEXT, sizeof owner, &owner, nullptr), "clGetMemObjectInfo");
            check(clGetMemObjectInfo(result_(), CL_MEM_SIZE, sizeof bytes, &bytes, nullptr), "clGetMemObjectInfo");
        }
        },
        "a buffer's context and size, for two buffers"));
    out.push_back(time_wall(
        "clSetKernelArg x8 (host cost only)", repeats,
        [&] {
        for (int i = 0; i < 4; ++i) {
            check(touch_.setArg(0, result_), "clSetKernelArg");
            check(touch_.setArg(1, cl_long(value_)), "clSetKernelArg");
        }
        },
        "4 buffers, 4 scalars"));
    out.push_back(time_wall(
        "kernel + clFinish", repeats,
        [&] {
        launch(queue_, touch_);
        queue_.finish();
        },
        "no result read"));
    out.push_back(time_wall(
        "kernel + blocking read (pageable)", repeats,
        [&] {
        launch(queue_, touch_);
        read_pageable(queue_);
        },
        "what clreduce's int32 sum does"));
    out.push_back(time_wall(
        "kernel + clFlush + blocking read (pinned host)", repeats,
        [&] {
        launch(queue_, touch_);
        queue_.flush();
        read_pinned(queue_);
        },
        "the kernel submitted before the read is enqueued"));
    out.push_back(time_wall(
        "kernel + blocking read (pinned host)", repeats,
        [&] {
        launch(queue_, touch_);
        read_pinned(queue_);
        },
        "destination from a mapped CL_MEM_ALLOC_HOST_PTR buffer"));
    out.push_back(time_wall(
        "kernel + polled read (pinned host)", repeats,
        [&] {
        launch(queue_, touch_);
        polled_read(queue_);
        },
        "non-blocking read, clFlush, spin until the pinned word changes"));
    out.push_back(time_wall("kernel + non-blocking read + clFinish", repeats, [&] {
        launch(queue_, touch_);
        check(queue_.enqueueReadBuffer(result_, CL_FALSE, 0, 8, &host_value_), "clEnqueueReadBuffer");
        queue_.finish();
        verify(host_value_);
    }));
    out.push_back(time_wall(
        "kernel + read + flush + spin on event", repeats,
        [&] {
        launch(queue_, touch_);
        cl::Event done;
        check(queue_.enqueueReadBuffer(result_, CL_FALSE, 0, 8, &host_value_, nullptr, &done), "clEnqueueReadBuffer");
        queue_.flush();
        while (done.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>() != CL_COMPLETE) {
        }
        verify(host_value_);
        },
        "busy-wait instead of the driver's blocking wait"));
    out.push_back(time_wall(
        "kernel + blocking map/unmap (pinned buffer)", repeats,
        [&] {
        touch_.setArg(0, pinned_);
        launch(queue_, touch_);
        void* p = queue_.enqueueMapBuffer(pinned_, CL_TRUE, CL_MAP_READ, 0, 8);
        verify(*static_cast<std::int64_t*>(p));
        queue_.enqueueUnmapMemObject(pinned_, p);
        touch_.setArg(0, result_);
        },
        "kernel writes a CL_MEM_ALLOC_HOST_PTR buffer"));
    out.push_back(time_wall(
        "2 kernels + blocking read", repeats,
        [&] {
        launch(queue_, touch2_);
        launch(queue_, touch_);
        read_pageable(queue_);
        },
        "a second pass"));
    out.push_back(time_wall(
        "fill 8 B + kernel + blocking read", repeats,
        [&] {
        check(queue_.enqueueFillBuffer(result_, cl_long(0), 8, 8), "clEnqueueFillBuffer");
        launch(queue_, touch_);
        read_pageable(queue_);
        },
        "zeroing a result word first"));
    out.push_back(time_wall(
        "kernel with event + blocking read", repeats,
        [&] {
        cl::Event event;
        launch(queue_, touch_, &event);
        read_pageable(queue_);
        },
        "an event object per call"));
    out.push_back(time_wall(
        "profiling queue: kernel with event + blocking read", repeats,
        [&] {
        cl::Event event;
        launch(profiling_queue_, touch_, &event);
        read_pageable(profiling_queue_);
        (void)event.getProfilingInfo<CL_PROFILING_COMMAND_END>();
        },
        "as a profiled call"));
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

std::vector<FloorRow> Probe::wait_rows(int repeats, double target_us) {
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
            out.push_back(time_wall(
                fmt::format("{} + flush, {:.0f} us spin, {}", what, delay_us, how), repeats,
                [&] {
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
                },
                "the read starts this long after the enqueue's 5 us"));
        }
    }
    return out;
}

FloorRow Probe::read_bandwidth(std::uint64_t bytes, int repeats, double* gbps) {
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

void Probe::kernel_arg_and_launch() {
    for (int i = 0; i < 4; ++i) touch_.setArg(0, result_);
    launch(queue_, touch_);
}

}  // namespace clreduce::perf::experiments
