#pragma once
// How the host-data forms (pointer, range, host images) bring host memory to a device that does
// not read it in place (Reducer::set_host_staging).
#include <cstdint>

namespace clreduce {

struct HostStaging {
    enum class Mode {
        // GPUs and other devices with memory of their own: data of at least min_bytes is
        // streamed through pinned memory, smaller data written straight from the caller's
        // memory. CPU devices read the caller's memory in place (CL_MEM_USE_HOST_PTR).
        automatic,
        // Every device, CPU devices too, and any size: streamed through pinned memory.
        always,
        // Never streamed: one write straight from the caller's memory (a CPU device still
        // reads in place).
        never,
    };
    Mode mode = Mode::automatic;
    // Streaming copies the data in chunks of at most this many bytes, into `buffers` pinned
    // (CL_MEM_ALLOC_HOST_PTR, mapped) buffers by turns: the host copies the next chunks into
    // free buffers while the device takes earlier ones, and the reduction starts after the last
    // chunk, over the device buffer that holds the whole. Each call in flight holds its own
    // buffers, up to buffers x chunk_bytes, kept for later calls.
    std::uint64_t chunk_bytes = std::uint64_t(16) << 20;
    // How many pinned buffers a call streams through by turns (at least 2): the host copies up
    // to buffers - 1 chunks ahead of the device. With two, the device idles while the host
    // learns that a write finished and copies the next chunk; a third hides that wait
    // (docs/performance.md, "Host data").
    unsigned buffers = 3;
    // Automatic mode: smaller data is written in one command from the caller's memory (the
    // driver stages it; a few chunks' copies cost more than they save).
    std::uint64_t min_bytes = std::uint64_t(4) << 20;
    // Host threads that copy each chunk into pinned memory, the calling thread included
    // (a process-wide pool, started on first use); 0: up to 16, at most the host's cores.
    unsigned copy_threads = 0;
};

}  // namespace clreduce
