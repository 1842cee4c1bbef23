#pragma once
// How a synchronous call brings its result from the device into the slot's pinned host memory.
//
// A blocking read returns when the driver has seen the read complete. On NVIDIA's OpenCL that
// is a few microseconds after the copy has landed in pinned memory (`clreduce-perf floor`'s
// polled rows): its in-order queue starts the copy when the kernel ends, but the blocking call
// wakes up later. A polled read enqueues the same copy without blocking, flushes, and spins on the
// pinned words until each differs from the sentinel the call wrote there first. Each word is
// written once by the copy, so when none holds its sentinel all hold the result. A result that
// happens to equal its sentinel (a 64-bit or 32-bit random value per call) is still right: the
// spin gives up after kSpinLimit and clFinish waits for the copy to complete.
#include <chrono>
#include <cstdint>
#include <vector>

#include <clreduce/opencl.hpp>

#include "delivery/read_pacing.hpp"

namespace clreduce {

using Clock = std::chrono::steady_clock;
using Micro = std::chrono::duration<double, std::micro>;

// Where a polled read stops spinning and waits in clFinish instead: far beyond any result's
// arrival after its kernel, short against a kernel that runs this long.
constexpr std::chrono::microseconds kSpinLimit{2000};

// What a call knows about its read: how to read, when the last kernel's enqueue returned, and
// (when pacing) the kernel's pacing and the fastest read seen through the slot.
struct ReadSchedule {
    bool polled = false;
    Clock::time_point enqueued;
    ReadPacing* pacing = nullptr;
    double* fastest_read_us = nullptr;
    std::uint64_t sentinel = 0;  // polled reads
};

// Reads [offset, offset + bytes) of `buffer` into `pinned` after the commands in `wait`, as
// `schedule` says (results of 1 or 2 bytes blocking); with pacing, issued as it has learned and timed for it to learn
// from. Returns how long it waited before the read.
double read_result(cl::CommandQueue& queue, const cl::Buffer& buffer, std::size_t offset, std::size_t bytes,
                   unsigned char* pinned, const std::vector<cl::Event>* wait, const ReadSchedule& schedule);

// A polled read (above) of `bytes`, a multiple of 4, into pinned host memory.
void polled_read(cl::CommandQueue& queue, const cl::Buffer& buffer, std::size_t offset, std::size_t bytes,
                 unsigned char* pinned, const std::vector<cl::Event>* wait, std::uint64_t sentinel,
                 std::chrono::microseconds spin_limit = kSpinLimit);

}  // namespace clreduce
