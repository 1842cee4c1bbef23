#include "exec/run_heads.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include <clreduce/error.hpp>

#include "exec/enqueue.hpp"
#include "kernels/kernel_spec.hpp"

namespace clreduce {
namespace {

// The rows of CLREDUCE_WG vectors of four keys of the mark pass's tile (CLREDUCE_ROWS,
// run_heads.cl): a work-item's loads in flight between two barriers.
constexpr std::uint32_t kRows = 16;
constexpr std::uint64_t kKeysPerWorkItemTile = 4 * kRows;
// The write pass's mask words a work-item (CLREDUCE_WORDS): a scan numbers 128 keys a work-item.
constexpr std::uint32_t kWords = 4;

// The work-group size of the two launches: 256, or the device's largest power of two below.
std::uint32_t heads_work_group(const DeviceInfo& info) {
    std::uint32_t wg = 256;
    while (wg > 1 && wg > info.max_work_group_size) wg /= 2;
    return wg;
}

// Groups for the heads: 8 a compute unit (enough to fill a GPU, few enough that the host adds
// their counts and a group those before its own at once), each reading a chunk of whole tiles.
std::uint64_t heads_groups(const DeviceInfo& info, std::uint64_t count, std::uint32_t wg) {
    const std::uint64_t most = std::clamp<std::uint64_t>(std::uint64_t(info.compute_units) * 8, 1, 8192);
    return std::min(most, ceil_div(count, std::uint64_t(wg) * kKeysPerWorkItemTile));
}

}  // namespace

std::string run_heads_options(std::uint32_t key_size, std::uint32_t wg) {
    return std::string("-D CLREDUCE_KEY=") + run_key_type_name(key_size) + " -D CLREDUCE_WG=" + std::to_string(wg) +
           " -D CLREDUCE_ROWS=" + std::to_string(kRows) + " -D CLREDUCE_WORDS=" + std::to_string(kWords);
}

MarkedHeads mark_run_heads(cl::CommandQueue& queue, const DeviceInfo& info, ExecutionSlot& slot, Chain& chain,
                           const DeviceKeys& keys) {
    using Buffer = ExecutionSlot::SegmentBuffer;
    const std::uint32_t wg = heads_work_group(info);
    const std::uint64_t n = keys.count;
    const std::uint64_t tile = std::uint64_t(wg) * kKeysPerWorkItemTile;
    const std::uint64_t chunk = ceil_div(ceil_div(n, heads_groups(info, n, wg)), tile) * tile;
    const std::uint64_t groups = ceil_div(n, chunk);
    // The groups' counts of heads; a bit a key.
    const cl::Buffer& counts = slot.segment_buffer(Buffer::run_counts, groups * sizeof(cl_ulong));
    const cl::Buffer& mask = slot.segment_buffer(Buffer::run_mask, ceil_div(n, std::uint64_t(32)) * sizeof(cl_uint));

    cl::Kernel& mark_heads =
        slot.helper_kernel("run_heads.cl", run_heads_options(keys.key_size, wg), "clreduce_mark_heads", wg);
    set_args(mark_heads, *keys.buffer, cl_ulong(keys.offset), cl_ulong(n), cl_ulong(chunk), mask, counts);
    enqueue_groups(queue, mark_heads, groups, wg, chain);

    // The number of runs: the counts' sum (reading them costs no more than a launch to add them).
    std::vector<cl_ulong>& group_counts = slot.run_group_counts;
    group_counts.resize(static_cast<std::size_t>(groups));
    check(queue.enqueueReadBuffer(counts, CL_TRUE, 0, static_cast<size_t>(groups * sizeof(cl_ulong)),
                                  group_counts.data(), chain.wait(), chain.event()),
          "clEnqueueReadBuffer");
    chain.done(false);
    std::uint64_t runs = 0;
    for (const cl_ulong c : group_counts) runs += c;
    if (runs == 0 || runs > n)
        throw Error("internal: reduce_by_key found " + std::to_string(runs) + " runs in " + std::to_string(n) +
                    " keys");
    return MarkedHeads{runs, chunk, groups, wg, &counts, &mask};
}

RunHeads find_run_heads(cl::CommandQueue& queue, const DeviceInfo& info, ExecutionSlot& slot, Chain& chain,
                        const DeviceKeys& keys, const std::function<void*(std::uint64_t)>& key_room, bool out_of_order,
                        cl::Event& keys_read) {
    using Buffer = ExecutionSlot::SegmentBuffer;
    const MarkedHeads marked = mark_run_heads(queue, info, slot, chain, keys);
    const std::uint64_t n = keys.count, runs = marked.runs, chunk = marked.chunk, groups = marked.groups;
    const std::uint32_t wg = marked.work_group;
    const std::string options = run_heads_options(keys.key_size, wg);
    const cl::Buffer& counts = *marked.counts;
    const cl::Buffer& mask = *marked.mask;

    const cl::Buffer& offsets = slot.segment_buffer(Buffer::run_offsets, (runs + 1) * sizeof(cl_ulong));
    const cl::Buffer& run_keys = slot.segment_buffer(Buffer::run_keys, runs * keys.key_size);
    cl::Kernel& write_heads = slot.helper_kernel("run_heads.cl", options, "clreduce_write_heads", wg);
    set_args(write_heads, *keys.buffer, cl_ulong(keys.offset), cl_ulong(n), cl_ulong(chunk), mask, counts,
             cl_ulong(runs), offsets, run_keys);
    enqueue_groups(queue, write_heads, groups, wg, chain);

    void* room = key_room(runs);
    check(queue.enqueueReadBuffer(run_keys, CL_FALSE, 0, static_cast<size_t>(runs * keys.key_size), room, chain.wait(),
                                  &keys_read),
          "clEnqueueReadBuffer");
    if (out_of_order) check(keys_read.wait(), "clWaitForEvents");
    return RunHeads{runs, &offsets};
}

}  // namespace clreduce
