#pragma once
// The raw OpenCL side of clreduce-floor: what a synchronous call costs on a device before any
// reduction work (an enqueue's host cost, a launch waited for, the ways of bringing 8 bytes
// back, a second launch, a fill, a profiling queue), how the blocking read's wait depends on
// the kernel's length, and how fast the device reads memory at all. Kernels:
// perf/experiments/call_floor.cl and perf/measure/read_only.cl.
#include <cstdint>
#include <vector>

#include <clreduce/opencl.hpp>

#include "experiments/floor_rows.hpp"
#include "measure/read_only_kernel.hpp"

namespace clreduce::perf::experiments {

class Probe {
public:
    explicit Probe(const cl::Device& device);
    ~Probe();
    Probe(const Probe&) = delete;
    Probe& operator=(const Probe&) = delete;

    // The launch and read rows, each timed `repeats` times.
    std::vector<FloorRow> rows(int repeats);
    // The blocking read's wait against the kernel's length: a one-work-item kernel busy for
    // about `target_us` of device time, read at once, or after the host spins `delay_us`
    // (the kernel flushed first), so that the read starts nearer the kernel's end.
    std::vector<FloorRow> wait_rows(int repeats, double target_us);
    // Device time of one read-only pass over `bytes`, median of `repeats`; *gbps its bandwidth.
    FloorRow read_bandwidth(std::uint64_t bytes, int repeats, double* gbps);

private:
    // A one-work-group launch of `kernel` that writes a new value into the result word.
    void launch(cl::CommandQueue& queue, cl::Kernel& kernel, cl::Event* event = nullptr);
    void read_pageable(cl::CommandQueue& queue);
    // The word read blocking into pinned memory (a mapped CL_MEM_ALLOC_HOST_PTR buffer).
    void read_pinned(cl::CommandQueue& queue);
    // The same word read without blocking, watched until it is no longer the sentinel (the
    // previous launch's value: each launch writes a new one).
    void polled_read(cl::CommandQueue& queue);
    void verify(std::int64_t seen);  // throws unless `seen` is the last launch's value
    void kernel_arg_and_launch();

    cl::Context context_;
    cl::CommandQueue queue_, profiling_queue_;
    cl::Kernel touch_, touch2_, busy_;
    ReadOnlyKernel read_;
    cl::Buffer result_, pinned_;
    std::int64_t* pinned_host_ = nullptr;
    std::int64_t host_value_ = 0;
    cl_long value_ = 0;
};

}  // namespace clreduce::perf::experiments
