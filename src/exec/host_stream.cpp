#include "exec/host_stream.hpp"

#include <algorithm>
#include <vector>

#include <clreduce/error.hpp>

#include "exec/host_pool.hpp"

namespace clreduce {

StreamLayout stream_layout(std::uint64_t bytes, const HostStaging& settings) {
    constexpr std::uint64_t page = 4096;
    const std::uint64_t floor = std::min<std::uint64_t>(settings.chunk_bytes, std::uint64_t(1) << 20);
    const std::uint64_t eighth = (bytes / 8 + page - 1) / page * page;
    const std::uint64_t chunk =
        std::min(bytes, std::max<std::uint64_t>(1, std::clamp(eighth, floor, settings.chunk_bytes)));
    const std::uint64_t chunks = (bytes + chunk - 1) / chunk;
    return {chunk, chunks, static_cast<std::size_t>(std::min<std::uint64_t>(std::max(settings.buffers, 2u), chunks))};
}

void stream_host_data(cl::CommandQueue& queue, ExecutionSlot& slot, Chain& chain, const cl::Buffer& device,
                      const void* data, std::uint64_t bytes, const HostStaging& settings) {
    if (bytes == 0) return;
    const StreamLayout layout = stream_layout(bytes, settings);
    const std::uint64_t chunk = layout.chunk_bytes;
    const std::size_t ring = layout.buffers;
    std::vector<MappedBuffer>& pinned = slot.pinned_staging(ring, chunk);
    const auto* source = static_cast<const unsigned char*>(data);
    // The last write from each pinned buffer: the host waits for it before copying into that
    // buffer again. On an out-of-order queue every write's event, which the kernel waits for.
    // Both lists are the slot's, so that a repeated call allocates nothing.
    std::vector<cl::Event>& last = slot.stream_last;
    last.assign(ring, cl::Event());
    std::vector<cl::Event>& writes = slot.stream_writes;
    writes.clear();
    // What the first command waits for (the chain is not changed until the last write).
    const std::vector<cl::Event>* first_wait = chain.wait();
    try {
        for (std::uint64_t at = 0, k = 0; at < bytes; at += chunk, ++k) {
            const std::uint64_t n = std::min(chunk, bytes - at);
            const std::size_t b = static_cast<std::size_t>(k % ring);
            if (last[b]() != nullptr) check(last[b].wait(), "clWaitForEvents");
            parallel_copy(pinned[b].host, source + at, static_cast<std::size_t>(n), settings.copy_threads);
            check(queue.enqueueWriteBuffer(device, CL_FALSE, static_cast<size_t>(at), static_cast<size_t>(n),
                                           pinned[b].host, first_wait, &last[b]),
                  "clEnqueueWriteBuffer");
            // Start the copy now: the host copies the next chunk meanwhile.
            check(queue.flush(), "clFlush");
            writes.push_back(last[b]);
        }
    } catch (...) {
        queue.finish();  // no write left reading the pinned buffers
        throw;
    }
    chain.after(writes);
    // The events are released; the lists keep their room for the next call.
    last.clear();
    writes.clear();
}

}  // namespace clreduce
