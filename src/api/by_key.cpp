// reduce_by_key (reducer.hpp): keys and values in buffers in one launch where the plan fits it
// (exec/fused_by_key.hpp: states no order changes, the same bits as the segments'), or two
// beyond its size (exec/marked_by_key.hpp); else the
// runs of equal consecutive keys found, on the device for keys in a buffer
// (exec/run_heads.hpp) or on the host for host keys, then reduced as segments by the typed
// call the header passes in, so that every operation and type takes the segments engine's
// path and gives its bits.
#include <clreduce/reducer.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "api/reducer_state.hpp"
#include "exec/fused_by_key.hpp"
#include "exec/marked_by_key.hpp"
#include "exec/run_heads.hpp"
#include "plan/planner.hpp"

namespace clreduce {
namespace {

// The runs of `count` host keys of type U (the unsigned integer of the keys' size: integer keys
// are equal exactly when their bits are), read with memcpy so that they may be misaligned:
// the CSR offsets of the runs, and each run's key into key_room(runs).
template <class U>
std::vector<std::uint64_t> host_runs(const void* keys, std::uint64_t count,
                                     const std::function<void*(std::uint64_t)>& key_room) {
    const auto* bytes = static_cast<const unsigned char*>(keys);
    const auto key = [bytes](std::uint64_t i) {
        U k;
        std::memcpy(&k, bytes + i * sizeof(U), sizeof(U));
        return k;
    };
    std::vector<std::uint64_t> offsets{0};
    U previous = key(0);
    for (std::uint64_t i = 1; i < count; ++i) {
        const U k = key(i);
        if (k != previous) offsets.push_back(i);
        previous = k;
    }
    const std::uint64_t runs = offsets.size();
    offsets.push_back(count);
    auto* out = static_cast<unsigned char*>(key_room(runs));
    for (std::uint64_t r = 0; r < runs; ++r)
        std::memcpy(out + r * sizeof(U), bytes + offsets[r] * sizeof(U), sizeof(U));
    return offsets;
}

std::vector<std::uint64_t> host_runs(const void* keys, std::uint32_t key_size, std::uint64_t count,
                                     const std::function<void*(std::uint64_t)>& key_room) {
    switch (key_size) {
        case 1: return host_runs<std::uint8_t>(keys, count, key_room);
        case 2: return host_runs<std::uint16_t>(keys, count, key_room);
        case 4: return host_runs<std::uint32_t>(keys, count, key_room);
        default: return host_runs<std::uint64_t>(keys, count, key_room);
    }
}

}  // namespace

std::uint32_t run_key_size(ElementType key_type) {
    if (is_floating(key_type))
        throw InvalidArgument("reduce_by_key: keys are integers of 8 to 64 bits; got " +
                              std::string(type_name(key_type)));
    return static_cast<std::uint32_t>(type_size(key_type));
}

void Reducer::find_runs(const RunInput& input, const std::function<void*(std::uint64_t)>& key_room,
                        const std::function<void*(std::uint64_t)>& result_room,
                        const std::function<void(const Segments&, CallInfo*)>& reduce_runs, const LaunchParams& params,
                        CallInfo* info) const {
    State& s = state();
    const std::uint64_t count = input.count;
    const bool on_device = input.keys != nullptr;
    if (on_device) {
        s.check_buffer(*input.keys, input.key_offset, count, input.key_size);
        s.check_buffer(*input.values, input.value_offset, count, input.value_size);
    } else if (count > 0 && (input.host_keys == nullptr || input.host_values == nullptr)) {
        throw InvalidArgument(std::string("reduce_by_key: the host pointer to the ") +
                              (input.host_keys == nullptr ? "keys" : "values") + " is null");
    }
    if (info != nullptr) *info = CallInfo{};
    if (count == 0) {  // no runs: the typed call still checks the operation and type
        key_room(0);
        reduce_runs(Segments::offsets(std::vector<std::uint64_t>{0}), info);
        return;
    }
    if (!on_device) {
        reduce_runs(Segments::offsets(host_runs(input.host_keys, input.key_size, count, key_room)), info);
        return;
    }

    // Where no order changes the runs' states and they are their results: one launch up to
    // LaunchParams::by_key_one_launch_keys (below 2^40 keys: the tiles' counter is 32-bit), else
    // the mark pass and one over the values (LaunchParams::by_key_marked).
    const bool one_launch = count < (std::uint64_t(1) << 40) &&
                            count <= params.by_key_one_launch_keys.value_or(default_by_key_one_launch_keys(s.info));
    if (input.result && result_room && (one_launch || params.by_key_marked.value_or(s.info.is_gpu()))) {
        LaunchPlan plan = this->plan(input.element, input.op, Segments::offsets(*input.keys, count, count), params,
                                     CallForm::segments);
        const OpKernel kernel = plan_kernel(plan);
        if (fused_by_key_fits(plan, kernel, *input.result)) {
            plan.by_key_one_launch = one_launch;
            auto slot = s.slots.acquire();
            Chain chain = s.chain_for(*slot, info);
            const FusedInput fused{input.keys,         input.key_offset, input.key_size, input.values,
                                   input.value_offset, input.value_size, count};
            try {
                if (one_launch)
                    fused_by_key(s.queue, s.info, plan, kernel, *slot, chain, fused, key_room, result_room);
                else
                    marked_by_key(s.queue, s.info, plan, kernel, *slot, chain, fused, key_room, result_room);
                if (info != nullptr) info->plan = plan;
            } catch (...) {
                s.queue.finish();  // the reads write into the caller's vectors
                throw;
            }
            return;
        }
    }

    // The runs' offsets stay in this slot's buffers while the segments' call, through a slot
    // of its own, reads them.
    auto slot = s.slots.acquire();
    Chain chain = s.chain_for(*slot, info);
    cl::Event keys_read;
    try {
        const RunHeads heads = find_run_heads(s.queue, s.info, *slot, chain,
                                              DeviceKeys{input.keys, input.key_offset, input.key_size, count}, key_room,
                                              s.out_of_order, keys_read);
        CallInfo segments_call;
        reduce_runs(Segments::offsets(*heads.offsets, heads.runs, count), info != nullptr ? &segments_call : nullptr);
        if (info != nullptr) {
            info->plan = segments_call.plan;
            info->kernel_events.insert(info->kernel_events.end(), segments_call.kernel_events.begin(),
                                       segments_call.kernel_events.end());
        }
        check(keys_read.wait(), "clWaitForEvents");
    } catch (...) {
        s.queue.finish();  // the keys' read writes into the caller's vector
        throw;
    }
}

}  // namespace clreduce
