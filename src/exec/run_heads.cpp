#include "exec/run_heads.hpp"

#include <algorithm>
#include <string>

#include <clreduce/error.hpp>

#include "exec/enqueue.hpp"

namespace clreduce {
namespace {

const char* key_type_name(std::uint32_t key_size) {
    switch (key_size) {
        case 1: return "uchar";
        case 2: return "ushort";
        case 4: return "uint";
        case 8: return "ulong";
        default: throw Error("internal: reduce_by_key's keys are 1, 2, 4 or 8 bytes, not " + std::to_string(key_size));
    }
}

// The rows of CLREDUCE_WG keys of a tile (CLREDUCE_ROWS, run_heads.cl): a work-item's loads in
// flight, and the keys a work-item numbers between two scans of its group (the scan's barriers
// are paid once for that many).
constexpr std::uint32_t kRows = 8;

// The work-group size of the three launches: 256, or the device's largest power of two below.
std::uint32_t heads_work_group(const DeviceInfo& info) {
    std::uint32_t wg = 256;
    while (wg > 1 && wg > info.max_work_group_size) wg /= 2;
    return wg;
}

// Groups for the heads: 8 a compute unit (enough to fill a GPU, few enough that one group
// scans their counts at once), each reading a chunk of whole tiles.
std::uint64_t heads_groups(const DeviceInfo& info, std::uint64_t count, std::uint32_t wg) {
    const std::uint64_t most = std::clamp<std::uint64_t>(std::uint64_t(info.compute_units) * 8, 1, 8192);
    return std::min(most, ceil_div(count, std::uint64_t(wg) * kRows));
}

}  // namespace

std::string run_heads_options(std::uint32_t key_size, std::uint32_t wg) {
    return std::string("-D CLREDUCE_KEY=") + key_type_name(key_size) + " -D CLREDUCE_WG=" + std::to_string(wg) +
           " -D CLREDUCE_ROWS=" + std::to_string(kRows);
}

RunHeads find_run_heads(cl::CommandQueue& queue, const DeviceInfo& info, ExecutionSlot& slot, Chain& chain,
                        const DeviceKeys& keys, const std::function<void*(std::uint64_t)>& key_room, bool out_of_order,
                        cl::Event& keys_read) {
    using Buffer = ExecutionSlot::SegmentBuffer;
    const std::uint32_t wg = heads_work_group(info);
    const std::string options = run_heads_options(keys.key_size, wg);
    const std::uint64_t n = keys.count;
    const std::uint64_t tile = std::uint64_t(wg) * kRows;
    const std::uint64_t chunk = ceil_div(ceil_div(n, heads_groups(info, n, wg)), tile) * tile;
    const std::uint64_t groups = ceil_div(n, chunk);
    // The groups' counts, then the number of runs.
    const cl::Buffer& counts = slot.segment_buffer(Buffer::run_counts, (groups + 1) * sizeof(cl_ulong));

    cl::Kernel& count_heads = slot.helper_kernel("run_heads.cl", options, "clreduce_count_heads", wg);
    set_args(count_heads, *keys.buffer, cl_ulong(keys.offset), cl_ulong(n), cl_ulong(chunk), counts);
    enqueue_groups(queue, count_heads, groups, wg, chain);

    // The scan leaves each group's first run in counts[g] and the number of runs in counts[groups].
    cl::Kernel& scan_heads = slot.helper_kernel("run_heads.cl", options, "clreduce_scan_heads", wg);
    set_args(scan_heads, counts, cl_ulong(groups));
    enqueue_groups(queue, scan_heads, 1, wg, chain);

    cl_ulong runs = 0;
    check(queue.enqueueReadBuffer(counts, CL_TRUE, static_cast<size_t>(groups * sizeof(cl_ulong)), sizeof runs, &runs,
                                  chain.wait(), chain.event()),
          "clEnqueueReadBuffer");
    chain.done(false);
    if (runs == 0 || runs > n)
        throw Error("internal: reduce_by_key found " + std::to_string(runs) + " runs in " + std::to_string(n) +
                    " keys");

    const cl::Buffer& offsets = slot.segment_buffer(Buffer::run_offsets, (runs + 1) * sizeof(cl_ulong));
    const cl::Buffer& run_keys = slot.segment_buffer(Buffer::run_keys, runs * keys.key_size);
    cl::Kernel& write_heads = slot.helper_kernel("run_heads.cl", options, "clreduce_write_heads", wg);
    set_args(write_heads, *keys.buffer, cl_ulong(keys.offset), cl_ulong(n), cl_ulong(chunk), counts, cl_ulong(runs),
             offsets, run_keys);
    enqueue_groups(queue, write_heads, groups, wg, chain);

    void* room = key_room(runs);
    check(queue.enqueueReadBuffer(run_keys, CL_FALSE, 0, static_cast<size_t>(runs * keys.key_size), room, chain.wait(),
                                  &keys_read),
          "clEnqueueReadBuffer");
    if (out_of_order) check(keys_read.wait(), "clWaitForEvents");
    return RunHeads{runs, &offsets};
}

}  // namespace clreduce
