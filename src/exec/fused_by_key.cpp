#include "exec/fused_by_key.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>

#include <clreduce/error.hpp>

#include "device/vendor.hpp"
#include "exec/enqueue.hpp"

namespace clreduce {

bool fused_by_key_fits(const LaunchPlan& plan, const OpKernel& kernel, ElementType result) {
    if (plan.transform || plan.user_combine || kernel.op == KernelOp::user_combine) return false;
    if (plugin_info(kernel.op).layout != StateLayout::value || plan.accumulator != result) return false;
    if (is_floating(plan.accumulator) || state_size(kernel.op, plan.accumulator) > 8) return false;
    const OperationInfo& row = operation_info(plan.operation);
    if (row.identity_is_result && row.finalize == Finalize::none && !row.real_result) return true;
    return plan.operation == Operation::min || plan.operation == Operation::max;
}

std::uint64_t default_by_key_one_launch_keys(const DeviceInfo& device) {
    return device.is_gpu() ? std::uint64_t(1) << 22 : 0;
}

namespace {

// The local memory by_key.cl's tile takes: a count and a state a vector (and a gap a row), a
// count and a state a work-item for the scan, the look-back's window of a kind and a pair a
// work-item, and the tile's number and pair before it.
std::uint64_t by_key_local_bytes(std::uint32_t wg, std::size_t state_bytes) {
    return std::uint64_t(kByKeyRows + 1) * wg * (4 + state_bytes) + std::uint64_t(wg) * (8 + state_bytes) +
           std::uint64_t(wg) * (4 + 32) + 128;
}

// The work-group size: 256, or the device's largest power of two below whose tile fits its
// local memory.
std::uint32_t by_key_work_group(const DeviceInfo& info, std::size_t state_bytes) {
    std::uint32_t wg = 256;
    while (wg > 1 && (wg > info.max_work_group_size || by_key_local_bytes(wg, state_bytes) > info.local_mem_size))
        wg /= 2;
    return wg;
}

}  // namespace

KernelSpec by_key_spec(const LaunchPlan& plan, const OpKernel& kernel, const DeviceInfo& device, std::uint32_t key_size,
                       bool aligned) {
    KernelSpec spec;
    spec.op = kernel.op;
    spec.map = kernel.map;
    spec.element = plan.element;
    spec.accumulator = plan.accumulator;
    spec.work_group_size = by_key_work_group(device, state_size(kernel.op, plan.accumulator));
    spec.nvidia = takes_inline_ptx(device);
    spec.by_key = key_size;
    spec.by_key_aligned = aligned;
    return spec;
}

void fused_by_key(cl::CommandQueue& queue, const DeviceInfo& info, LaunchPlan& plan, const OpKernel& kernel,
                  ExecutionSlot& slot, Chain& chain, const FusedInput& input,
                  const std::function<void*(std::uint64_t)>& key_room,
                  const std::function<void*(std::uint64_t)>& result_room) {
    using Buffer = ExecutionSlot::SegmentBuffer;
    const KernelSpec spec =
        by_key_spec(plan, kernel, info, input.key_size, input.key_offset % 4 == 0 && input.value_offset % 4 == 0);
    const std::size_t state_bytes = state_size(kernel.op, plan.accumulator);
    const std::uint64_t n = input.count;
    const std::uint64_t tile = 4ull * kByKeyRows * spec.work_group_size;
    const std::uint64_t tiles = ceil_div(n, tile);
    if (tiles >= (1ull << 32))
        throw Error("internal: reduce_by_key's one launch over " + std::to_string(tiles) + " tiles");
    plan.work_group_size = spec.work_group_size;
    plan.groups = tiles;
    cl::Kernel& k = slot.kernel(spec);

    // Room for the runs: what the slot has, at least 2^16 runs, at most one a key; more (and
    // the launch again) where the runs need it.
    std::uint64_t capacity = std::min(n, std::max<std::uint64_t>(slot.by_key_capacity, 1u << 16));
    cl_ulong runs = 0;
    for (int attempt = 0; attempt < 2; ++attempt) {
        const cl::Buffer& run_keys = slot.segment_buffer(Buffer::run_keys, capacity * input.key_size);
        const cl::Buffer& states = slot.segment_buffer(Buffer::states, capacity * state_bytes);
        slot.by_key_capacity = std::max(slot.by_key_capacity, capacity);
        const ExecutionSlot::ByKeyTiles words = slot.by_key_tiles(tiles);
        set_args(k, *input.keys, cl_ulong(input.key_offset), *input.values, cl_ulong(input.value_offset), cl_ulong(n),
                 run_keys, states, cl_ulong(capacity), *words.words, cl_ulong(words.room), words.generation);
        enqueue_groups(queue, k, tiles, spec.work_group_size, chain);
        // The count and the first `ahead` runs' keys and results come back together into the
        // slot's pinned memory, in one wait (as many runs as the slot's last call found, at
        // least 1,024); where there are more, the rest go straight into the caller's vectors.
        const std::uint64_t ahead = std::min(capacity, std::max<std::uint64_t>(slot.by_key_last_runs, 1024));
        const std::uint64_t keys_at = 16, states_at = keys_at + (ahead * input.key_size + 7) / 8 * 8;
        unsigned char* pinned = slot.host_result(states_at + ahead * state_bytes);
        // Each read after the one before (an out-of-order queue), the last one blocking.
        const auto read = [&](const cl::Buffer& from, std::uint64_t at, std::uint64_t bytes, void* to, bool last) {
            check(queue.enqueueReadBuffer(from, last ? CL_TRUE : CL_FALSE, static_cast<size_t>(at),
                                          static_cast<size_t>(bytes), to, chain.wait(), chain.event()),
                  "clEnqueueReadBuffer");
            chain.done(false);
        };
        read(*words.words, 0, 16, pinned, false);
        read(run_keys, 0, ahead * input.key_size, pinned + keys_at, false);
        read(states, 0, ahead * state_bytes, pinned + states_at, true);
        std::array<cl_uint, 4> control{};
        std::memcpy(control.data(), pinned, sizeof control);
        runs = cl_ulong(control[2]) | cl_ulong(control[3]) << 32;
        if (runs == 0 || runs > n)
            throw Error("internal: reduce_by_key found " + std::to_string(runs) + " runs in " + std::to_string(n) +
                        " keys");
        if (runs <= capacity) {
            auto* keys_out = static_cast<unsigned char*>(key_room(runs));
            auto* results_out = static_cast<unsigned char*>(result_room(runs));
            const std::uint64_t first = std::min(runs, ahead);
            std::memcpy(keys_out, pinned + keys_at, static_cast<std::size_t>(first * input.key_size));
            std::memcpy(results_out, pinned + states_at, static_cast<std::size_t>(first * state_bytes));
            if (runs > first) {
                const std::uint64_t rest = runs - first;
                read(run_keys, first * input.key_size, rest * input.key_size, keys_out + first * input.key_size, false);
                read(states, first * state_bytes, rest * state_bytes, results_out + first * state_bytes, true);
            }
            // The next call reads this many ahead: its pinned room, made now, so that a
            // repeated call allocates nothing.
            slot.by_key_last_runs = runs;
            if (runs > ahead) slot.host_result(16 + (runs * input.key_size + 7) / 8 * 8 + runs * state_bytes);
            return;
        }
        capacity = runs;
    }
    throw Error("internal: reduce_by_key's one launch found more runs on its second launch");
}

}  // namespace clreduce
