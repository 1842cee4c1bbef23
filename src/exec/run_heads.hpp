#pragma once
// reduce_by_key's first step on the device (cl_kernels/run_heads.cl): the runs of equal
// consecutive keys as CSR offsets, which the segments engine then reduces, and each run's key.
#include <cstdint>
#include <functional>
#include <string>

#include <clreduce/device_info.hpp>
#include <clreduce/opencl.hpp>

#include "exec/chain.hpp"
#include "exec/execution_slot.hpp"

namespace clreduce {

// Where `count` keys of `key_size` bytes (1, 2, 4 or 8) lie: from element `offset` of `buffer`.
struct DeviceKeys {
    const cl::Buffer* buffer = nullptr;
    std::uint64_t offset = 0;
    std::uint32_t key_size = 4;
    std::uint64_t count = 0;
};

// The runs found: `runs` of them, run r being [offsets[r], offsets[r + 1]) of the keys, in the
// slot's run_offsets buffer (valid while the slot is held).
struct RunHeads {
    std::uint64_t runs = 0;
    const cl::Buffer* offsets = nullptr;
};

// The mark pass's result: `runs` runs in `groups` chunks of `chunk` keys (a multiple of 64
// work-groups' sizes), chunk g holding counts[g] heads, key i heading one where bit i % 32 of
// mask[i / 32] is set (both in the slot's buffers, valid while it is held); `work_group`: the
// launch's work-group size.
struct MarkedHeads {
    std::uint64_t runs = 0;
    std::uint64_t chunk = 0;
    std::uint64_t groups = 0;
    std::uint32_t work_group = 0;
    const cl::Buffer* counts = nullptr;
    const cl::Buffer* mask = nullptr;
};

// The build options of run_heads.cl for keys of `key_size` bytes in work-groups of `wg` (also
// for the tests that compile the library's kernels for other devices).
std::string run_heads_options(std::uint32_t key_size, std::uint32_t wg);

// Enqueues the mark pass (count > 0), then reads the chunks' counts of heads (blocking): the
// host sizes the runs' outputs from their sum.
MarkedHeads mark_run_heads(cl::CommandQueue& queue, const DeviceInfo& info, ExecutionSlot& slot, Chain& chain,
                           const DeviceKeys& keys);

// Enqueues the two launches of run_heads.cl (count > 0): the keys' head bits and the groups'
// counts of heads, then, after a blocking read of those counts (the host sizes the offsets and
// keys from their sum), the offsets and the runs' keys. Then enqueues a read of the runs' keys
// into key_room(runs), whose completion `keys_read` signals; on an out-of-order queue it is
// waited for here, so that any command enqueued after the return sees the offsets.
RunHeads find_run_heads(cl::CommandQueue& queue, const DeviceInfo& info, ExecutionSlot& slot, Chain& chain,
                        const DeviceKeys& keys, const std::function<void*(std::uint64_t)>& key_room, bool out_of_order,
                        cl::Event& keys_read);

}  // namespace clreduce
