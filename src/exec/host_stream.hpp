#pragma once
// Host data streamed into a device buffer through pinned memory (HostStaging): the host copies
// the next chunks into free ones of the execution slot's ring of pinned buffers (several host
// threads, exec/host_pool.hpp) while the device takes earlier chunks from the others. A write
// from pageable memory runs at a fraction of the link's speed (the driver stages it through
// pinned memory of its own, one thread copying); from pinned memory it runs at the link's.
#include <cstddef>
#include <cstdint>

#include <clreduce/host_staging.hpp>
#include <clreduce/opencl.hpp>

#include "exec/chain.hpp"
#include "exec/execution_slot.hpp"

namespace clreduce {

// How a stream of `bytes` (> 0) is cut: chunks of at most settings.chunk_bytes, small enough
// that a stream has about eight to overlap (not below 1 MiB), in whole 4 KiB pages; and the
// pinned buffers it goes through, HostStaging::buffers but no more than there are chunks (a
// small stream allocates only what it uses).
struct StreamLayout {
    std::uint64_t chunk_bytes;  // every chunk's but the last's
    std::uint64_t chunks;
    std::size_t buffers;
};
StreamLayout stream_layout(std::uint64_t bytes, const HostStaging& settings);

// Enqueues the copy of host bytes [0, bytes) into [0, bytes) of `device`, chunk by chunk, and
// returns when the last chunk is enqueued (the host has copied every byte out of `data`; the
// device may still be taking the last chunks). The chain's next command runs after all of them.
void stream_host_data(cl::CommandQueue& queue, ExecutionSlot& slot, Chain& chain, const cl::Buffer& device,
                      const void* data, std::uint64_t bytes, const HostStaging& settings);

}  // namespace clreduce
