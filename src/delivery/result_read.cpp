#include "delivery/result_read.hpp"

#include <algorithm>
#include <atomic>

#include <clreduce/error.hpp>

namespace clreduce {
namespace {

// Each lane of `pinned` set to the sentinel (truncated to 32 bits for 4-byte lanes).
template <class Lane>
void write_sentinels(unsigned char* pinned, std::size_t lanes, Lane sentinel) {
    volatile Lane* p = reinterpret_cast<volatile Lane*>(pinned);
    for (std::size_t i = 0; i < lanes; ++i) p[i] = sentinel;
}

// Whether every lane has been overwritten.
template <class Lane>
bool all_written(const unsigned char* pinned, std::size_t lanes, Lane sentinel) {
    const volatile Lane* p = reinterpret_cast<const volatile Lane*>(pinned);
    for (std::size_t i = 0; i < lanes; ++i)
        if (p[i] == sentinel) return false;
    return true;
}

template <class Lane>
void poll(cl::CommandQueue& queue, const cl::Buffer& buffer, std::size_t offset, std::size_t bytes,
          unsigned char* pinned, const std::vector<cl::Event>* wait, Lane sentinel,
          std::chrono::microseconds spin_limit) {
    const std::size_t lanes = bytes / sizeof(Lane);
    write_sentinels(pinned, lanes, sentinel);
    check(queue.enqueueReadBuffer(buffer, CL_FALSE, offset, bytes, pinned, wait), "clEnqueueReadBuffer");
    check(queue.flush(), "clFlush");
    const auto give_up = Clock::now() + spin_limit;
    while (!all_written(pinned, lanes, sentinel)) {
        if (Clock::now() > give_up) {
            check(queue.finish(), "clFinish");
            break;
        }
    }
    std::atomic_thread_fence(std::memory_order_acquire);
}

}  // namespace

void polled_read(cl::CommandQueue& queue, const cl::Buffer& buffer, std::size_t offset, std::size_t bytes,
                 unsigned char* pinned, const std::vector<cl::Event>* wait, std::uint64_t sentinel,
                 std::chrono::microseconds spin_limit) {
    if (bytes % 8 == 0)
        poll<std::uint64_t>(queue, buffer, offset, bytes, pinned, wait, sentinel, spin_limit);
    else if (bytes % 4 == 0)
        poll<std::uint32_t>(queue, buffer, offset, bytes, pinned, wait, static_cast<std::uint32_t>(sentinel),
                            spin_limit);
    else
        throw Error("internal: a polled read of " + std::to_string(bytes) + " bytes (not a multiple of 4)");
}

double read_result(cl::CommandQueue& queue, const cl::Buffer& buffer, std::size_t offset, std::size_t bytes,
                   unsigned char* pinned, const std::vector<cl::Event>* wait, const ReadSchedule& schedule) {
    ReadPacing* pacing = schedule.pacing;
    double waited_us = 0;
    if (pacing != nullptr && pacing->paced()) {
        waited_us = pacing->delay_us();
        check(queue.flush(), "clFlush");
        const auto due = schedule.enqueued + std::chrono::duration_cast<Clock::duration>(Micro(waited_us));
        while (Clock::now() < due) {
        }
    }
    const auto issued = Clock::now();
    if (schedule.polled && bytes % 4 == 0)
        polled_read(queue, buffer, offset, bytes, pinned, wait, schedule.sentinel);
    else
        check(queue.enqueueReadBuffer(buffer, CL_TRUE, offset, bytes, pinned, wait), "clEnqueueReadBuffer");
    if (pacing != nullptr) {
        const auto done = Clock::now();
        const double read_us = Micro(done - issued).count();
        double& fastest = *schedule.fastest_read_us;
        fastest = std::min(fastest, read_us);
        pacing->observe(read_us, Micro(done - schedule.enqueued).count(), fastest);
    }
    return waited_us;
}

}  // namespace clreduce
