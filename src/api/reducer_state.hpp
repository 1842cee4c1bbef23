#pragma once
// What a Reducer holds (its context, queue, caches, slots and tuning) and how one call runs
// through it: plan, kernel spec, slot, launches, result. The entry points are in reducer.cpp
// and operations.cpp.
#include <array>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <clreduce/cache.hpp>
#include <clreduce/reducer.hpp>

#include "delivery/result_delivery.hpp"
#include "exec/chain.hpp"
#include "exec/execution_slot.hpp"
#include "exec/host_pool.hpp"
#include "exec/launch_sequence.hpp"
#include "kernels/kernel_source.hpp"
#include "kernels/kernel_spec.hpp"
#include "kernels/program_cache.hpp"
#include "ops/integer_result.hpp"
#include "ops/state_value.hpp"
#include "plan/planner.hpp"
#include "transform/combine.hpp"
#include "tuning/reducer_tuning.hpp"

namespace clreduce {

// Where a synchronous segmented call's results go on the host (the caller's vector of `type`).
struct HostResults {
    unsigned char* data = nullptr;
    ElementType type = ElementType::int64;
};

// The values a segmented call reads: `offset` elements into a device buffer, or host data
// (copied in by the call, or read in place by a CPU device).
struct SegmentValues {
    const cl::Buffer* buffer = nullptr;
    const void* host = nullptr;
    std::uint64_t offset = 0;  // elements; device buffers only
};

// One final state as the value it stands for: `count` elements of a plan reduced by `kernel`.
// (A call's Outcome, or one segment's state among a segmented call's.)
struct StateView {
    const LaunchPlan& plan;
    const OpKernel& kernel;
    std::uint64_t count = 0;
    const unsigned char* bits = nullptr;

    // Whether the state is an integer sum (exact, or modulo 2^bits under IntegerOverflow::wrap).
    bool integer_sum() const {
        return operation_family(plan.operation) == OperationFamily::additive && !is_floating(plan.accumulator);
    }
    // The value of a one-value state: integer sums exact and checked (integer_result.hpp) or
    // correctly rounded to a double; a float accumulator's sum or product of integers checked
    // likewise.
    template <class R>
    R value() const {
        if constexpr (std::is_same_v<R, std::int64_t> || std::is_same_v<R, std::uint64_t>) {
            // An accumulator of R's own type holds the exact value (the kernel checked it):
            // read as is. Segmented calls take millions of these; the exact path costs ~20x.
            if (plan.accumulator == element_traits<R>::type && plugin_info(kernel.op).layout == StateLayout::value) {
                R v;
                std::memcpy(&v, bits, sizeof v);
                return v;
            }
            if (integer_sum() && (plan.exact_integer_bits != 0 || plan.overflow == IntegerOverflow::check))
                return checked_integer<R>(state_integer(kernel.op, plan.accumulator, bits), plan.operation,
                                          plan.element);
            // Sums and products alike: the Overflow names the operation and the element type.
            if (!is_floating(plan.element) && is_floating(plan.accumulator))
                return integer_from_float<R>(state_value<double>(kernel.op, plan.accumulator, bits), plan.overflow,
                                             plan.operation, plan.element);
        } else if constexpr (std::is_floating_point_v<R>) {
            if (integer_sum()) return static_cast<R>(state_integer(kernel.op, plan.accumulator, bits).rounded());
        }
        return state_value<R>(kernel.op, plan.accumulator, bits);
    }
    // Throws for an empty range where the operation has no identity (its table row says).
    void require_elements() const {
        const OperationInfo& row = operation_info(plan.operation);
        if (count == 0 && !row.empty_has_identity)
            throw InvalidArgument(std::string(row.name) + " of an empty range is undefined");
    }
    // The value of a one-value state after the operation's Finalize.
    double finalized() const {
        if (integer_sum()) {  // the correctly rounded double of the exact mean or root
            const ExactInteger exact = state_integer(kernel.op, plan.accumulator, bits);
            switch (operation_info(plan.operation).finalize) {
                case Finalize::divide_by_count: return exact.rounded_quotient(count);
                case Finalize::square_root: return exact.rounded_sqrt();
                case Finalize::none: return exact.rounded();
            }
        }
        const double v = value<double>();
        switch (operation_info(plan.operation).finalize) {
            case Finalize::divide_by_count: return v / static_cast<double>(count);
            case Finalize::square_root: return std::sqrt(v);
            case Finalize::none: break;
        }
        return v;
    }
};

// What a segmented call does with each segment's state: take(segment, view).
using SegmentTake = std::function<void(std::uint64_t, const StateView&)>;

// What the kernels computed for one call: the plan, the plug-in and its final state.
struct Outcome {
    LaunchPlan plan;
    OpKernel kernel;
    std::uint64_t count = 0;
    unsigned char bits[kMaxStateBytes] = {};

    std::size_t acc_size() const { return type_size(plan.accumulator); }
    StateView view() const { return StateView{plan, kernel, count, bits}; }
    bool integer_sum() const { return view().integer_sum(); }
    template <class R>
    R value() const {
        return view().template value<R>();
    }
    void require_elements() const { view().require_elements(); }
    double finalized() const { return view().finalized(); }
};

// What to reduce: the operation it is planned as, and transform_reduce's expression and combine
// (a built-in one, or the user's: its printed source and its identity).
struct Job {
    Operation op = Operation::sum;
    std::optional<Combine> combine;  // transform_reduce with a built-in combine
    std::string transform;
    std::string user_combine;  // transform_reduce with a CombineExpression (op: product)
    CombineIdentity user_identity;

    bool is_transform() const { return combine.has_value() || !user_combine.empty(); }
    PlanRequest request(ElementType element, std::uint64_t n, CallForm form, std::uint32_t channels = 1) const {
        PlanRequest r{op, element, n, form, is_transform()};
        r.user_combine = !user_combine.empty();
        r.channels = channels;
        return r;
    }
};

struct Reducer::State {
    State(cl::Context context_, cl::CommandQueue queue_, cl::Device device_)
        : sources(KernelSources::load()),
          context(std::move(context_)),
          queue(std::move(queue_)),
          device(std::move(device_)),
          info(DeviceInfo::query(device)),
          programs(context, device, cache_directory(), counters.programs_built, counters.programs_loaded),
          slots(context, queue, programs, sources, counters) {
        host_pool_spin();  // a bad CLREDUCE_HOST_SPIN_US is reported here, not by a later call's thread
        cl_command_queue_properties properties = 0;
        check(queue.getInfo(CL_QUEUE_PROPERTIES, &properties), "clGetCommandQueueInfo");
        out_of_order = (properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0;
        tuning.load(TuningDatabase(), info);
    }

    // The caller's params, then this device's tuned entry for the operation's family, then defaults.
    LaunchPlan plan(const PlanRequest& request, const LaunchParams& params) const {
        // Segmented calls plan their own mapping; segments other than columns take a tuned team
        // and work-group size for their kind and average length, where one was measured near it.
        if (request.form == CallForm::segments) {
            std::optional<TunedParams> team;
            if (!request.columns && request.segments != 0)
                team = tuning.lookup_segment_team(request.element, request.n / request.segments, !request.listed,
                                                  request.n);
            return make_plan(request, info, params, team ? &*team : nullptr);
        }
        const auto tuned = tuning.lookup(request.element, operation_family(request.op), request.n);
        return make_plan(request, info, params, tuned ? &*tuned : nullptr);
    }

    void check_buffer(const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count,
                      std::size_t element_size) const;
    // transform_reduce's job: the expression parsed and checked where x is of the type it
    // computes in (the accumulator named, else transform_type_t's; operations.cpp).
    Job transform_job(std::string_view expression, Combine combine, ElementType element,
                      const LaunchParams& params) const;
    // ... with a combine of the user's own, parsed, typed and checked in the same type.
    Job transform_job(std::string_view expression, const CombineExpression& combine, ElementType element,
                      const LaunchParams& params) const;
    std::uint64_t buffer_bytes(const cl::Buffer& buffer) const;
    // A segmented call's description against its buffers (segment_operations.cpp), with
    // overflow-safe arithmetic, before anything is allocated or enqueued: the segments' extent
    // within `values` from `offset`, device offsets or ranges within their buffers, and no more
    // segments than a vector of `result_size`-byte results can hold. Returns the extent.
    std::uint64_t check_segments(const SegmentValues& values, const Segments& segments, std::size_t element_size,
                                 std::size_t result_size) const;
    // The plan and kernel of one call, recorded in `call` when asked for (`channels`: an
    // image's).
    Outcome prepare(const Job& job, ElementType element, std::uint64_t count, const LaunchParams& params, CallForm form,
                    CallInfo* call, std::uint32_t channels = 1) const;
    KernelSpec first_spec(const Job& job, const Outcome& out) const;
    // The launch sequence (exec/launch_sequence.hpp) on this reducer's queue and delivery.
    // `after_copy`: the launch waits for host data being copied in. Such a call reads unpaced:
    // its read wait would include the copy, and a paced read learns it for the kernel's next
    // calls, which would then wait far longer than their kernel.
    void reduce(const LaunchPlan& plan, const KernelSpec& first, const cl::Buffer& input, std::uint64_t offset,
                std::uint64_t count, ExecutionSlot& slot, Chain& chain, unsigned char* result_bits,
                const Pitch* pitch = nullptr, const DeviceResult* device = nullptr, bool after_copy = false) {
        DeliveryWay way = delivery_way(delivery.load(std::memory_order_relaxed), info);
        if (after_copy) way.paced = false;
        launch_reduction(queue, info, way, plan, first, input, offset, count, slot, chain, result_bits, pitch, device);
    }
    HostInput upload(ExecutionSlot& slot, Chain& chain, const void* data, std::uint64_t bytes,
                     std::uint32_t element_bytes) {
        return host_data_buffer(context, queue, info, slot, chain, data, bytes, element_bytes, host_staging());
    }

    template <class T>
    Outcome run(const Job& job, const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count,
                const LaunchParams& params, CallInfo* info);
    template <class T>
    Outcome run(const Job& job, const T* data, std::uint64_t count, const LaunchParams& params, CallInfo* info);
    template <class T, class R>
    cl::Event run_async(const Job& job, const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count,
                        const AsyncTarget& target, const LaunchParams& params, CallInfo* call);
    // The status word the kernels of an asynchronous call get: the caller's (AsyncTarget::status,
    // which must then be there) where the plan checks the result (LaunchPlan::result_status);
    // else null.
    const cl::Buffer* result_status(const LaunchPlan& plan, const cl::Buffer* status) const;
    // The chain of one call through `slot`: on an out-of-order queue it starts after the
    // slot's previous asynchronous call.
    Chain chain_for(ExecutionSlot& slot, CallInfo* call, bool keep_last = false) const {
        Chain chain(out_of_order, call, keep_last);
        if (out_of_order) chain.wait_for({slot.pending});
        return chain;
    }
    // A segmented call (segment_operations.cpp): `take(segment, view)` for each segment's state
    // in order (synchronous, device == nullptr), or the values into *device. Where `direct`
    // is given and each state's bits are its result, the states are read straight into it
    // and `take` is not called. Returns the plan. One function for every element type and
    // operation (the element type is a value, `take` a std::function): written per type and
    // per result, this file took minutes of a build.
    LaunchPlan run_segments(const Job& job, const SegmentValues& values, const Segments& segments, ElementType element,
                            const LaunchParams& params, CallInfo* call, const SegmentTake& take,
                            const DeviceResult* device = nullptr, const std::vector<cl::Event>& wait = {},
                            bool make_event = false, cl::Event* last = nullptr, const HostResults* direct = nullptr);
    // A synchronous segmented call of Op: each segment's value into `results` (resized).
    template <Operation Op, class T>
    void run_segments_into(const SegmentValues& values, const Segments& segments, std::vector<result_t<Op, T>>& results,
                           const LaunchParams& params, CallInfo* call);
    template <class T>
    std::array<Outcome, 4> run_image(const Job& job, const cl::Buffer* buffer, const T* data, const Image& image,
                                     const LaunchParams& params, CallInfo* call);

    KernelSources sources;
    cl::Context context;
    cl::CommandQueue queue;
    cl::Device device;
    AtomicCounters counters;
    DeviceInfo info;
    ProgramCache programs;
    SlotPool slots;
    bool out_of_order = false;
    std::atomic<DeliverySetting> delivery{DeliverySetting{}};
    // How host data reaches the device (set_host_staging); each call reads it once.
    HostStaging host_staging() const {
        const std::lock_guard<std::mutex> lock(staging_mutex);
        return staging;
    }
    mutable std::mutex staging_mutex;
    HostStaging staging;
    ReducerTuning tuning;
};

}  // namespace clreduce
