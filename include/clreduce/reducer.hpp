#pragma once
#include <cstdint>
#include <iterator>
#include <memory>
#include <string_view>
#include <type_traits>
#include <vector>

#include <clreduce/device_info.hpp>
#include <clreduce/element_type.hpp>
#include <clreduce/error.hpp>
#include <clreduce/launch_params.hpp>
#include <clreduce/opencl.hpp>
#include <clreduce/operation.hpp>
#include <clreduce/tuning.hpp>

namespace clreduce {

// What one call did, for callers who ask (the perf tool, tuning).
struct CallInfo {
    LaunchPlan plan;
    // One event per kernel launch, in order. Profiling times are available when the
    // reducer's queue was created with CL_QUEUE_PROFILING_ENABLE.
    std::vector<cl::Event> kernel_events;
};

// Work the reducer did on the device side, counted since construction. A repeated call
// with the same type and plan leaves all of them unchanged.
struct Counters {
    std::uint64_t programs_built = 0;   // compiled from source
    std::uint64_t programs_loaded = 0;  // from the binaries on disk (see cache.hpp), not compiled
    std::uint64_t kernels_created = 0;
    std::uint64_t buffers_allocated = 0;
};

// Reduces arrays on one OpenCL device. Safe to call from several host threads at once;
// reuse one Reducer: its compiled programs, kernels and scratch buffers are cached.
class Reducer {
public:
    Reducer();                                   // default_device()
    explicit Reducer(std::string_view device_spec);  // select_device(spec)
    explicit Reducer(const cl::Device& device);
    // Uses the caller's context and queue (never replaces the queue). The queue must
    // belong to the context. Out-of-order queues are fine.
    Reducer(const cl::Context& context, const cl::CommandQueue& queue);
    ~Reducer();
    Reducer(Reducer&&) noexcept;
    Reducer& operator=(Reducer&&) noexcept;

    const DeviceInfo& device_info() const;
    const cl::Context& context() const;
    const cl::CommandQueue& queue() const;
    Counters counters() const;

    // The parameters a sum of `count` elements of `type` would use.
    LaunchPlan plan(ElementType type, std::uint64_t count, const LaunchParams& params = {}) const;
    // The parameters a call of `op` would use: `params` first, then this device's tuned entry
    // for (type, op's family, nearest size bucket), then a known-device entry, then defaults.
    // LaunchPlan::sources says which each value came from.
    LaunchPlan plan(ElementType type, Operation op, std::uint64_t count, const LaunchParams& params = {}) const;

    // Tuning (README, "Tuning"). The reducer reads its database once, at construction.
    // tune() measures the launch space on this device, uses the best entries at once and, with
    // options.save, merges them into the database file for reducers made later.
    TuneResult tune(const TuneOptions& options = {});
    // Switches to another database (e.g. TuningDatabase("my.json")) and loads its entries.
    void use_tuning_database(const TuningDatabase& database);
    TuningDatabase tuning_database() const;
    std::vector<TunedEntry> tuned_entries() const;  // this device's entries in use

    // Sum of `count` elements of T starting at element `offset` of `buffer`.
    // count == 0 returns 0. Blocks until the result is on the host.
    template <class T>
    sum_type_t<T> sum(const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count,
                      const LaunchParams& params = {}, CallInfo* info = nullptr) const;

    // Sum of host data; it is uploaded to a scratch buffer first.
    template <class T>
    sum_type_t<T> sum(const T* data, std::uint64_t count, const LaunchParams& params = {},
                      CallInfo* info = nullptr) const;

    // Sum of a contiguous host range (std::vector, std::array, std::span, ...).
    template <class Range,
              class T = std::remove_cv_t<std::remove_reference_t<decltype(*std::data(std::declval<const Range&>()))>>>
    sum_type_t<T> sum(const Range& range, const LaunchParams& params = {},
                      CallInfo* info = nullptr) const {
        return sum<T>(std::data(range), static_cast<std::uint64_t>(std::size(range)), params, info);
    }

private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace clreduce
