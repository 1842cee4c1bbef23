#pragma once
// The Reducer: every call of the library on one device. (One long file: C++ declares a
// class's members in one place, so every entry point, single ranges, images, segments and the
// asynchronous forms, stands here with its documentation; the definitions are split by concern
// under src/api/.)
#include <cstdint>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <clreduce/async_target.hpp>
#include <clreduce/by_key.hpp>
#include <clreduce/device_info.hpp>
#include <clreduce/element_type.hpp>
#include <clreduce/error.hpp>
#include <clreduce/experimental.hpp>
#include <clreduce/host_staging.hpp>
#include <clreduce/image_mask.hpp>
#include <clreduce/launch_params.hpp>
#include <clreduce/opencl.hpp>
#include <clreduce/operation.hpp>
#include <clreduce/operation_result.hpp>
#include <clreduce/partial.hpp>
#include <clreduce/result_delivery.hpp>
#include <clreduce/results.hpp>
#include <clreduce/segments.hpp>
#include <clreduce/tuning.hpp>

namespace clreduce {

template <class Range>
using range_value_t = std::remove_cv_t<std::remove_reference_t<decltype(*std::data(std::declval<const Range&>()))>>;

// transform_reduce()'s result and the type its expression is evaluated in: int64 for integers
// up to 32 bits (signed, so that "x - 150" of uint8 data can be negative), uint64 for uint64,
// double for floats.
template <class T>
using transform_type_t =
    std::conditional_t<std::is_same_v<sum_type_t<T>, double>, double,
                       std::conditional_t<std::is_same_v<T, std::uint64_t>, std::uint64_t, std::int64_t>>;

// What one call did, for callers who ask (the perf tool, tuning).
struct CallInfo {
    LaunchPlan plan;
    // One event per kernel launch, in order. Profiling times are available when the
    // reducer's queue was created with CL_QUEUE_PROFILING_ENABLE.
    std::vector<cl::Event> kernel_events;
    // Paced reads (ResultDelivery::paced, experimental::Delivery::polled_paced): how long the synchronous call waited
    // after its last enqueue before issuing its read; 0 when it read at once.
    double read_wait_us = 0;
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
    Reducer();                                       // default_device()
    explicit Reducer(std::string_view device_spec);  // select_device(spec)
    explicit Reducer(const cl::Device& device);
    // Uses the caller's context and queue (never replaces the queue). The queue must
    // belong to the context. Out-of-order queues are fine.
    Reducer(const cl::Context& context, const cl::CommandQueue& queue);
    ~Reducer();
    // A Reducer that was moved from has no device: every call on it but destruction and
    // assignment throws InvalidArgument.
    Reducer(Reducer&&) noexcept;
    Reducer& operator=(Reducer&&) noexcept;

    const DeviceInfo& device_info() const;
    const cl::Context& context() const;
    const cl::CommandQueue& queue() const;
    Counters counters() const;

    // How synchronous calls bring their result to the host (result_delivery.hpp); the
    // default, ResultDelivery::automatic, reads only as OpenCL defines. Safe to change while
    // other threads call; each call reads it once.
    void set_result_delivery(ResultDelivery delivery);
    ResultDelivery result_delivery() const;

    // How the host-data forms bring host memory to the device (host_staging.hpp): on GPUs,
    // streamed through pinned memory by default. InvalidArgument for a chunk_bytes of 0 or fewer than 2 buffers. Safe
    // to change while other threads call; each call reads it once.
    void set_host_staging(const HostStaging& staging);
    HostStaging host_staging() const;

    // The parameters a sum of `count` elements of `type` would use.
    LaunchPlan plan(ElementType type, std::uint64_t count, const LaunchParams& params = {}) const;
    // The parameters a call of `op` would use: `params` first, then this device's tuned entry
    // for (type, op's family, nearest size bucket), then a known-device entry, then defaults.
    // LaunchPlan::sources says which each value came from.
    // `form` plans the call form: CallForm::async for sum_async/min_async/max_async,
    // CallForm::image for the Image overloads (`count`: its pixels; `channels`: its channels,
    // which share a launch and can change the default shape).
    LaunchPlan plan(ElementType type, Operation op, std::uint64_t count, const LaunchParams& params = {},
                    CallForm form = CallForm::sync, std::uint32_t channels = 1) const;
    // The parameters transform_reduce(..., combine, params) would use.
    LaunchPlan plan_transform(ElementType type, Combine combine, std::uint64_t count,
                              const LaunchParams& params = {}) const;
    // ... and with a combine of the user's own (the expression and its identity are checked
    // as the call checks them).
    LaunchPlan plan_transform(ElementType type, const CombineExpression& combine, std::uint64_t count,
                              const LaunchParams& params = {}) const;

    // Tuning (README, "Tuning"). The reducer reads its database once, at construction.
    // tune() measures the launch space on this device, uses the best entries at once and, with
    // options.save, merges them into the database file for reducers made later.
    TuneResult tune(const TuneOptions& options = {});
    // Switches to another database (e.g. TuningDatabase("my.json")) and loads its entries.
    void use_tuning_database(const TuningDatabase& database);
    TuningDatabase tuning_database() const;
    std::vector<TunedEntry> tuned_entries() const;  // this device's entries in use

    // The core call: operation Op (operation.hpp) over elements of type T, in each form of
    // input. Every named call below is a thin wrapper of it, and every operation takes every
    // form but where the table in docs/usage.md ("Operations and forms") says otherwise.
    //   reduce<Op, T>(buffer, offset, count)  elements [offset, offset + count) of a cl::Buffer
    //   reduce<Op>(pointer, count)            host data (streamed to the device through pinned
    //                                         memory: set_host_staging; read in place by a CPU
    //                                         device)
    //   reduce<Op>(range)                     a contiguous host range (std::vector, std::array, ...)
    //   reduce<Op, T>(buffer, image)          per channel of a pitched image (Image, results.hpp)
    //   reduce<Op>(pointer, image)            the same from host data
    //   reduce<Op, T>(buffer, offset, segments[, results])   one result per segment (segments.hpp)
    // each with optional LaunchParams (launch shape, FloatMode, accumulator, overflow rule) and
    // CallInfo. All block until the result is on the host. T: int8_t, uint8_t, int16_t,
    // uint16_t, int32_t, uint32_t, int64_t, uint64_t, half (cl_khr_fp16), float, double (fp64).
    // The result is result_t<Op, T> (operation_result.hpp); an empty range gives the
    // operation's identity or, where it has none (min, max, minmax, argmin, argmax, argminmax,
    // mean, statistics), throws InvalidArgument.
    template <Operation Op, class T>
    result_t<Op, T> reduce(const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count,
                           const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <Operation Op, class T>
    result_t<Op, T> reduce(const T* data, std::uint64_t count, const LaunchParams& params = {},
                           CallInfo* info = nullptr) const;
    template <Operation Op, class Range, class T = range_value_t<Range>>
    result_t<Op, T> reduce(const Range& range, const LaunchParams& params = {}, CallInfo* info = nullptr) const {
        return reduce<Op, T>(std::data(range), static_cast<std::uint64_t>(std::size(range)), params, info);
    }
    // Images: channel c reduces element c of every pixel (like cv::sum / cv::mean); argmin
    // and argmax give the pixel's index in row-major order. Host pointers point at pixel
    // (0, 0), and Image::offset must be 0 for them. CallInfo gets the plan every channel runs
    // and the kernel events of all channels.
    template <Operation Op, class T>
    Channels<result_t<Op, T>> reduce(const cl::Buffer& buffer, const Image& image, const LaunchParams& params = {},
                                     CallInfo* info = nullptr) const;
    template <Operation Op, class T>
    Channels<result_t<Op, T>> reduce(const T* data, const Image& image, const LaunchParams& params = {},
                                     CallInfo* info = nullptr) const;
    // Many reductions in one call (Segments, segments.hpp: batches, matrix rows and columns,
    // CSR offsets, begin/end arrays): one result per segment in segment order, from one launch
    // (two where groups share few, huge segments). The segments count elements from `offset`
    // of `values` (a device buffer, or host data that is copied in first). Every element type
    // and float mode as for one range (FloatMode::atomic runs as deterministic); argmin/argmax
    // give the index inside the segment. An empty segment gives the empty range's result; where
    // the operation has none, InvalidArgument names the segment. The mapping
    // (LaunchParams::segment_team, groups_per_segment) follows the segments' average length;
    // CallInfo::plan and plan(type, op, segments) say which.
    // The form with `results` writes them into the caller's vector (resized to one per
    // segment): a vector kept from call to call is written in place, so that a repeated call
    // allocates no host memory (a fresh one costs the host its page faults, which for millions
    // of segments take longer than the kernel). After an exception its contents are
    // unspecified.
    template <Operation Op, class T>
    void reduce(const cl::Buffer& values, std::uint64_t offset, const Segments& segments,
                std::vector<result_t<Op, T>>& results, const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <Operation Op, class T>
    std::vector<result_t<Op, T>> reduce(const cl::Buffer& values, std::uint64_t offset, const Segments& segments,
                                        const LaunchParams& params = {}, CallInfo* info = nullptr) const {
        std::vector<result_t<Op, T>> out;
        reduce<Op, T>(values, offset, segments, out, params, info);
        return out;
    }
    template <Operation Op, class T>
    void reduce(const T* values, const Segments& segments, std::vector<result_t<Op, T>>& results,
                const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <Operation Op, class T>
    std::vector<result_t<Op, T>> reduce(const T* values, const Segments& segments, const LaunchParams& params = {},
                                        CallInfo* info = nullptr) const {
        std::vector<result_t<Op, T>> out;
        reduce<Op, T>(values, segments, out, params, info);
        return out;
    }

    // Reduce by key (like CUB's DeviceReduce::ReduceByKey, Thrust's and Boost.Compute's
    // reduce_by_key): `count` keys and as many values; each run of equal consecutive keys is
    // one segment, whose values reduce to one result (result_t<Op, T>), and `out` gets, per run
    // in order, its key and its result (resized to the runs; kept vectors are written in
    // place). Key: an integer of 8 to 64 bits (is_run_key_v, by_key.hpp). The runs go through
    // the segmented form: the results are, bit for bit, those of reduce<Op, T>(values,
    // value_offset, Segments::offsets(run offsets)), every operation, type, float mode and
    // LaunchParams as there. Device buffers, where each run's state is its result and no order
    // changes it (integer sums kept whole, integer products, min, max, count_nonzero, bitwise):
    // one launch reads keys and values once (cl_kernels/by_key.cl; CallInfo::plan says
    // by_key_one_launch, the launch shape's LaunchParams do not apply). Other device-buffer
    // calls: two launches find the runs on the device (cl_kernels/run_heads.cl) and the host
    // reads the groups' counts of runs between them, to size the offsets and the keys; then the
    // segments' launches (CallInfo::plan is the segmented call's plan; its kernel_events begin
    // with the runs' two launches). Host data: the host
    // finds the runs as it reads the keys, then the host segments form. No keys: no runs.
    // InvalidArgument for ranges past their buffers, null host pointers, key and value ranges
    // of different sizes.
    template <Operation Op, class T, class Key>
    void reduce_by_key(const cl::Buffer& keys, std::uint64_t key_offset, const cl::Buffer& values,
                       std::uint64_t value_offset, std::uint64_t count, KeyedResults<Key, result_t<Op, T>>& out,
                       const LaunchParams& params = {}, CallInfo* info = nullptr) const {
        static_assert(is_run_key_v<Key>, "reduce_by_key: keys are integers of 8 to 64 bits");
        runs_by_key<Op, T>(keys, key_offset, sizeof(Key), values, value_offset, count, detail::run_room(out.keys),
                           out.results, params, info);
    }
    template <Operation Op, class T, class Key>
    KeyedResults<Key, result_t<Op, T>> reduce_by_key(const cl::Buffer& keys, std::uint64_t key_offset,
                                                     const cl::Buffer& values, std::uint64_t value_offset,
                                                     std::uint64_t count, const LaunchParams& params = {},
                                                     CallInfo* info = nullptr) const {
        KeyedResults<Key, result_t<Op, T>> out;
        reduce_by_key<Op, T, Key>(keys, key_offset, values, value_offset, count, out, params, info);
        return out;
    }
    template <Operation Op, class T, class Key>
    void reduce_by_key(const Key* keys, const T* values, std::uint64_t count, KeyedResults<Key, result_t<Op, T>>& out,
                       const LaunchParams& params = {}, CallInfo* info = nullptr) const {
        static_assert(is_run_key_v<Key>, "reduce_by_key: keys are integers of 8 to 64 bits");
        runs_by_key<Op, T>(keys, sizeof(Key), values, count, detail::run_room(out.keys), out.results, params, info);
    }
    template <Operation Op, class T, class Key>
    KeyedResults<Key, result_t<Op, T>> reduce_by_key(const Key* keys, const T* values, std::uint64_t count,
                                                     const LaunchParams& params = {}, CallInfo* info = nullptr) const {
        KeyedResults<Key, result_t<Op, T>> out;
        reduce_by_key<Op, T, Key>(keys, values, count, out, params, info);
        return out;
    }
    template <Operation Op, class KeyRange, class ValueRange, class Key = range_value_t<KeyRange>,
              class T = range_value_t<ValueRange>>
    KeyedResults<Key, result_t<Op, T>> reduce_by_key(const KeyRange& keys, const ValueRange& values,
                                                     const LaunchParams& params = {}, CallInfo* info = nullptr) const {
        if (std::size(keys) != std::size(values))
            throw InvalidArgument("reduce_by_key: " + std::to_string(std::size(keys)) + " keys and " +
                                  std::to_string(std::size(values)) + " values");
        return reduce_by_key<Op, T, Key>(std::data(keys), std::data(values),
                                         static_cast<std::uint64_t>(std::size(keys)), params, info);
    }
    // reduce_by_key with the keys' type known at run time (the C API's and Python's calls):
    // keys of the integer type `key_type` (a floating type: InvalidArgument), the runs' keys
    // written into `run_keys` as their bytes (type_size(key_type) each; resized to the runs),
    // their results into `results`. The same runs, results and launches as the typed calls.
    template <Operation Op, class T>
    void reduce_by_key(const cl::Buffer& keys, std::uint64_t key_offset, ElementType key_type, const cl::Buffer& values,
                       std::uint64_t value_offset, std::uint64_t count, std::vector<unsigned char>& run_keys,
                       std::vector<result_t<Op, T>>& results, const LaunchParams& params = {},
                       CallInfo* info = nullptr) const {
        const std::uint32_t key_size = run_key_size(key_type);
        runs_by_key<Op, T>(keys, key_offset, key_size, values, value_offset, count,
                           detail::run_bytes_room(run_keys, key_size), results, params, info);
    }
    template <Operation Op, class T>
    void reduce_by_key(const void* keys, ElementType key_type, const T* values, std::uint64_t count,
                       std::vector<unsigned char>& run_keys, std::vector<result_t<Op, T>>& results,
                       const LaunchParams& params = {}, CallInfo* info = nullptr) const {
        const std::uint32_t key_size = run_key_size(key_type);
        runs_by_key<Op, T>(keys, key_size, values, count, detail::run_bytes_room(run_keys, key_size), results, params,
                           info);
    }

// The named calls: NAME(...) is reduce<Operation::NAME>(...) in each form above.
#define CLREDUCE_NAMED_OPERATION(NAME)                                                                                 \
    template <class T>                                                                                                 \
    result_t<Operation::NAME, T> NAME(const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count,             \
                                      const LaunchParams& params = {}, CallInfo * info = nullptr) const {              \
        return reduce<Operation::NAME, T>(buffer, offset, count, params, info);                                        \
    }                                                                                                                  \
    template <class T>                                                                                                 \
    result_t<Operation::NAME, T> NAME(const T* data, std::uint64_t count, const LaunchParams& params = {},             \
                                      CallInfo * info = nullptr) const {                                               \
        return reduce<Operation::NAME, T>(data, count, params, info);                                                  \
    }                                                                                                                  \
    template <class Range, class T = range_value_t<Range>>                                                             \
    result_t<Operation::NAME, T> NAME(const Range& range, const LaunchParams& params = {}, CallInfo * info = nullptr)  \
        const {                                                                                                        \
        return reduce<Operation::NAME, T>(std::data(range), static_cast<std::uint64_t>(std::size(range)), params,      \
                                          info);                                                                       \
    }                                                                                                                  \
    template <class T>                                                                                                 \
    Channels<result_t<Operation::NAME, T>> NAME(const cl::Buffer& buffer, const Image& image,                          \
                                                const LaunchParams& params = {}, CallInfo * info = nullptr) const {    \
        return reduce<Operation::NAME, T>(buffer, image, params, info);                                                \
    }                                                                                                                  \
    template <class T>                                                                                                 \
    Channels<result_t<Operation::NAME, T>> NAME(const T* data, const Image& image, const LaunchParams& params = {},    \
                                                CallInfo * info = nullptr) const {                                     \
        return reduce<Operation::NAME, T>(data, image, params, info);                                                  \
    }                                                                                                                  \
    template <class T>                                                                                                 \
    std::vector<result_t<Operation::NAME, T>> NAME(const cl::Buffer& values, std::uint64_t offset,                     \
                                                   const Segments& segments, const LaunchParams& params = {},          \
                                                   CallInfo * info = nullptr) const {                                  \
        return reduce<Operation::NAME, T>(values, offset, segments, params, info);                                     \
    }                                                                                                                  \
    template <class T>                                                                                                 \
    void NAME(const cl::Buffer& values, std::uint64_t offset, const Segments& segments,                                \
              std::vector<result_t<Operation::NAME, T>>& results, const LaunchParams& params = {},                     \
              CallInfo * info = nullptr) const {                                                                       \
        reduce<Operation::NAME, T>(values, offset, segments, results, params, info);                                   \
    }                                                                                                                  \
    template <class T>                                                                                                 \
    std::vector<result_t<Operation::NAME, T>> NAME(const T* values, const Segments& segments,                          \
                                                   const LaunchParams& params = {}, CallInfo * info = nullptr) const { \
        return reduce<Operation::NAME, T>(values, segments, params, info);                                             \
    }                                                                                                                  \
    template <class T>                                                                                                 \
    void NAME(const T* values, const Segments& segments, std::vector<result_t<Operation::NAME, T>>& results,           \
              const LaunchParams& params = {}, CallInfo * info = nullptr) const {                                      \
        reduce<Operation::NAME, T>(values, segments, results, params, info);                                           \
    }

    // Sum (integers exact in the accumulator's 2^bits, or Overflow; docs/numerics.md). Empty: 0.
    CLREDUCE_NAMED_OPERATION(sum)
    // Product, in the accumulator (integers modulo 2^bits of it; from a floating-point
    // accumulator, Overflow outside the result type). Empty: 1.
    CLREDUCE_NAMED_OPERATION(product)
    // Smallest element. Floats: NaN is ignored (like fmin); all-NaN gives NaN. Empty: InvalidArgument.
    CLREDUCE_NAMED_OPERATION(min)
    // Largest element; NaN as for min.
    CLREDUCE_NAMED_OPERATION(max)
    // Both extremes in one pass; NaN as for min.
    CLREDUCE_NAMED_OPERATION(minmax)
    // Smallest element and the lowest index holding it. NaN is ignored; all-NaN gives (NaN, 0).
    CLREDUCE_NAMED_OPERATION(argmin)
    // Largest element and the lowest index holding it; NaN as for argmin.
    CLREDUCE_NAMED_OPERATION(argmax)
    // argmin and argmax of one pass (cv::minMaxLoc's two locations), each by its own rule.
    CLREDUCE_NAMED_OPERATION(argminmax)
    // Elements != 0 (NaN counts, -0.0 does not), like cv::countNonZero.
    CLREDUCE_NAMED_OPERATION(count_nonzero)
    // sum / count, in double. Empty range: InvalidArgument.
    CLREDUCE_NAMED_OPERATION(mean)
    // Sum of x*x: integers exact as a uint64 (Overflow where it does not fit, IntegerOverflow
    // in launch_params.hpp), floats as sum.
    CLREDUCE_NAMED_OPERATION(sum_of_squares)
    // Sum of |x| as a double (integers: the correctly rounded double of the exact sum); like
    // cv::norm(NORM_L1).
    CLREDUCE_NAMED_OPERATION(norm_l1)
    // sqrt(sum_of_squares), like cv::norm(NORM_L2).
    CLREDUCE_NAMED_OPERATION(norm_l2)
    // Largest |x| (NaN ignored), like cv::norm(NORM_INF).
    CLREDUCE_NAMED_OPERATION(norm_inf)
    // Count, extremes, sum, mean and variance in one pass (Statistics, results.hpp): what
    // meanStdDev and a histogram's range need, for one read of the data. Accumulates in double
    // (float without fp64; LaunchParams::accumulator may name float32 or float64); refused for
    // 64-bit integers, whose extremes a double would round, and for an empty range.
    CLREDUCE_NAMED_OPERATION(statistics)
    // Bitwise and, or and xor of integer elements (floats: Unsupported), in the element type:
    // the two's complement bits for signed types. Empty: all bits set (and), 0 (or, xor).
    CLREDUCE_NAMED_OPERATION(bit_and)
    CLREDUCE_NAMED_OPERATION(bit_or)
    CLREDUCE_NAMED_OPERATION(bit_xor)
    // Whether every element / some element is nonzero, as count_nonzero reads it (NaN is
    // nonzero, -0.0 is not). Empty: true (all), false (any).
    CLREDUCE_NAMED_OPERATION(all)
    CLREDUCE_NAMED_OPERATION(any)
#undef CLREDUCE_NAMED_OPERATION

// NAME_by_key(...) is reduce_by_key<Operation::NAME>(...) (sum_by_key, min_by_key, ...).
#define CLREDUCE_NAMED_BY_KEY(NAME)                                                                                 \
    template <class T, class Key>                                                                                   \
    KeyedResults<Key, result_t<Operation::NAME, T>> NAME##_by_key(const cl::Buffer& keys, std::uint64_t key_offset, \
                                                                  const cl::Buffer& values,                         \
                                                                  std::uint64_t value_offset, std::uint64_t count,  \
                                                                  const LaunchParams& params = {},                  \
                                                                  CallInfo * info = nullptr) const {                \
        return reduce_by_key<Operation::NAME, T, Key>(keys, key_offset, values, value_offset, count, params, info); \
    }                                                                                                               \
    template <class T, class Key>                                                                                   \
    void NAME##_by_key(const cl::Buffer& keys, std::uint64_t key_offset, const cl::Buffer& values,                  \
                       std::uint64_t value_offset, std::uint64_t count,                                             \
                       KeyedResults<Key, result_t<Operation::NAME, T>>& out, const LaunchParams& params = {},       \
                       CallInfo * info = nullptr) const {                                                           \
        reduce_by_key<Operation::NAME, T, Key>(keys, key_offset, values, value_offset, count, out, params, info);   \
    }                                                                                                               \
    template <class T, class Key>                                                                                   \
    KeyedResults<Key, result_t<Operation::NAME, T>> NAME##_by_key(const Key* keys, const T* values,                 \
                                                                  std::uint64_t count,                              \
                                                                  const LaunchParams& params = {},                  \
                                                                  CallInfo * info = nullptr) const {                \
        return reduce_by_key<Operation::NAME, T, Key>(keys, values, count, params, info);                           \
    }                                                                                                               \
    template <class KeyRange, class ValueRange, class Key = range_value_t<KeyRange>,                                \
              class T = range_value_t<ValueRange>>                                                                  \
    KeyedResults<Key, result_t<Operation::NAME, T>> NAME##_by_key(const KeyRange& keys, const ValueRange& values,   \
                                                                  const LaunchParams& params = {},                  \
                                                                  CallInfo * info = nullptr) const {                \
        return reduce_by_key<Operation::NAME, KeyRange, ValueRange, Key, T>(keys, values, params, info);            \
    }
#define CLREDUCE_NAMED_BY_KEY_ROW(T_, NAME, R_) CLREDUCE_NAMED_BY_KEY(NAME)
    CLREDUCE_OPERATIONS(CLREDUCE_NAMED_BY_KEY_ROW, void)
#undef CLREDUCE_NAMED_BY_KEY_ROW
#undef CLREDUCE_NAMED_BY_KEY

    // Asynchronous reductions of a cl::Buffer range, every operation: they enqueue and return,
    // the host waits for nothing and nothing is read back. The reduction's last kernel finishes
    // the result on the device (a mean's division, a norm's root, argmin's index, the
    // statistics' structure: cl_kernels/result.cl) and writes it, result_t<Op, T>, where `target`
    // says (AsyncTarget, async_target.hpp), after the events it lists: the same bits as the
    // synchronous call with the same parameters. The returned event completes when the value is
    // there (an empty event with AsyncEvent::none on an in-order queue); on the reducer's in-order
    // queue, later commands see the value without waiting on it. Level 3 is the last-group finish
    // (one launch), or a second pass where the device lacks it, so the result is deterministic in
    // every float mode. Refused (Unsupported, saying why): what only the host can finish, that is
    // FloatMode::correctly_rounded of floats (rounded on the host) and an integer sum or product
    // whose overflow is checked (IntegerOverflow::wrap gives it modulo 2^64); InterGroup::atomic;
    // a mean, norm_l2 or statistics on a device without doubles. An operation that is undefined
    // for no element (min, max, minmax, arg*, mean, statistics) throws InvalidArgument for an
    // empty range; the others write their empty value (sum 0, all true, ...).
    template <Operation Op, class T>
    cl::Event reduce_async(const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count,
                           const AsyncTarget& target, const LaunchParams& params = {}, CallInfo* info = nullptr) const {
        return enqueue_async<T>(Op, buffer, offset, count, target, params, info);
    }
    // Per segment, one result each, written from target.result_offset on in segment order.
    // An empty segment of an operation undefined there (min, max, minmax, arg*, mean,
    // statistics) gets what its empty state stands for (the identity, e.g. the type's
    // largest value or NaN for min; an index of 2^64 - 1; a NaN mean), and device offsets
    // that are out of order cannot be reported (those segments read as empty).
    template <Operation Op, class T>
    cl::Event reduce_async(const cl::Buffer& values, std::uint64_t offset, const Segments& segments,
                           const AsyncTarget& target, const LaunchParams& params = {}, CallInfo* info = nullptr) const {
        return enqueue_async<T>(Op, values, offset, segments, target, params, info);
    }
#define CLREDUCE_NAMED_ASYNC(NAME)                                                                                \
    template <class T>                                                                                            \
    cl::Event NAME##_async(const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count,                   \
                           const AsyncTarget& target, const LaunchParams& params = {}, CallInfo * info = nullptr) \
        const {                                                                                                   \
        return reduce_async<Operation::NAME, T>(buffer, offset, count, target, params, info);                     \
    }                                                                                                             \
    template <class T>                                                                                            \
    cl::Event NAME##_async(const cl::Buffer& values, std::uint64_t offset, const Segments& segments,              \
                           const AsyncTarget& target, const LaunchParams& params = {}, CallInfo * info = nullptr) \
        const {                                                                                                   \
        return reduce_async<Operation::NAME, T>(values, offset, segments, target, params, info);                  \
    }
    CLREDUCE_NAMED_ASYNC(sum)
    CLREDUCE_NAMED_ASYNC(min)
    CLREDUCE_NAMED_ASYNC(max)
#undef CLREDUCE_NAMED_ASYNC

    // The partial result of `op` over a range (partial.hpp): merged with the partials of the
    // ranges around it (other devices, processes, files), it gives the value of the whole.
    // Every operation but transform_reduce; a count of 0 gives a partial that merges as nothing.
    template <class T>
    Partial partial(Operation op, const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count,
                    const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class T>
    Partial partial(Operation op, const T* data, std::uint64_t count, const LaunchParams& params = {},
                    CallInfo* info = nullptr) const;
    template <class Range, class T = range_value_t<Range>>
    Partial partial(Operation op, const Range& range, const LaunchParams& params = {}, CallInfo* info = nullptr) const {
        return partial<T>(op, std::data(range), static_cast<std::uint64_t>(std::size(range)), params, info);
    }

    // transform_reduce: `expression`, one expression in `x` of the transform language
    // (docs/expression-language.md), e.g. "x > 0 ? x : 0" or "(x - 3.5f) * (x - 3.5f)", is
    // evaluated for every element and combined with `combine`. `x` is the element converted to
    // the accumulator first, as numpy's dtype= promotes before it operates: long for integers up
    // to 32 bits (so "x * x" of int32 data is exact, and "x - 150" of uint8 data negative),
    // ulong for uint64, double for floats (float without fp64), or LaunchParams::accumulator
    // (also where the sum is kept exact in a wider state). The result is transform_type_t<T>.
    // It is compiled and cached like the built-in operations. Text that is not one expression
    // of the language, a float-only built-in over integers (exp(x) of integer x) and a literal
    // outside its type's range throw InvalidArgument naming the column; another expression the
    // compiler rejects throws BuildError with the build log. Min/max ignore NaN as min() does.
    template <class T>
    transform_type_t<T> transform_reduce(const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count,
                                         std::string_view expression, Combine combine, const LaunchParams& params = {},
                                         CallInfo* info = nullptr) const;
    template <class T>
    transform_type_t<T> transform_reduce(const T* data, std::uint64_t count, std::string_view expression,
                                         Combine combine, const LaunchParams& params = {},
                                         CallInfo* info = nullptr) const;
    template <class Range, class T = range_value_t<Range>>
    transform_type_t<T> transform_reduce(const Range& range, std::string_view expression, Combine combine,
                                         const LaunchParams& params = {}, CallInfo* info = nullptr) const {
        return transform_reduce<T>(std::data(range), static_cast<std::uint64_t>(std::size(range)), expression, combine,
                                   params, info);
    }

    // transform_reduce with a combine of the user's own (CombineExpression, results.hpp): the
    // map expression's values combined by the user's expression in a and b, starting from its
    // identity (which an empty range returns). The combine is parsed and typed like the map,
    // in the accumulation type, and refused (InvalidArgument naming the column) where it is not
    // one expression in a and b, not commutative by the written rule of
    // docs/expression-language.md, or where the identity is not a literal of that type. It runs
    // on the device, host data included, finishing with a last group or a second pass (never
    // atomically: InterGroup::atomic and exact_atomic, and float modes other than
    // deterministic, throw InvalidArgument).
    template <class T>
    transform_type_t<T> transform_reduce(const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count,
                                         std::string_view expression, const CombineExpression& combine,
                                         const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class T>
    transform_type_t<T> transform_reduce(const T* data, std::uint64_t count, std::string_view expression,
                                         const CombineExpression& combine, const LaunchParams& params = {},
                                         CallInfo* info = nullptr) const;
    template <class Range, class T = range_value_t<Range>>
    transform_type_t<T> transform_reduce(const Range& range, std::string_view expression,
                                         const CombineExpression& combine, const LaunchParams& params = {},
                                         CallInfo* info = nullptr) const {
        return transform_reduce<T>(std::data(range), static_cast<std::uint64_t>(std::size(range)), expression, combine,
                                   params, info);
    }

    // The norm of a whole image, all channels together, like cv::norm.
    // norm_op: Operation::norm_l1, norm_l2 or norm_inf (else InvalidArgument).
    template <class T>
    double norm(const cl::Buffer& buffer, const Image& image, Operation norm_op, const LaunchParams& params = {},
                CallInfo* info = nullptr) const;
    template <class T>
    double norm(const T* data, const Image& image, Operation norm_op, const LaunchParams& params = {},
                CallInfo* info = nullptr) const;

    // transform_reduce per segment (the segmented forms of reduce<Op, T> above).
    template <class T>
    std::vector<transform_type_t<T>> transform_reduce(const cl::Buffer& values, std::uint64_t offset,
                                                      const Segments& segments, std::string_view expression,
                                                      Combine combine, const LaunchParams& params = {},
                                                      CallInfo* info = nullptr) const;
    template <class T>
    void transform_reduce(const cl::Buffer& values, std::uint64_t offset, const Segments& segments,
                          std::string_view expression, Combine combine, std::vector<transform_type_t<T>>& results,
                          const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    // ... with a combine of the user's own: an empty segment gives the identity.
    template <class T>
    std::vector<transform_type_t<T>> transform_reduce(const cl::Buffer& values, std::uint64_t offset,
                                                      const Segments& segments, std::string_view expression,
                                                      const CombineExpression& combine, const LaunchParams& params = {},
                                                      CallInfo* info = nullptr) const;
    // The plan of a segmented call of `op` over `segments` of `type` values; `form`
    // CallForm::async plans the segmented reduce_async/sum_async/min_async/max_async (results
    // into a device buffer), which refuse what needs the host (an overflow check, a correctly
    // rounded sum).
    LaunchPlan plan(ElementType type, Operation op, const Segments& segments, const LaunchParams& params = {},
                    CallForm form = CallForm::segments) const;

private:
    // reduce_by_key's input, its key and value types erased: keys and values in device
    // buffers (from their offsets) or host memory, `count` of each.
    struct RunInput {
        const cl::Buffer* keys;
        const void* host_keys;
        std::uint64_t key_offset;
        std::uint32_t key_size;
        const cl::Buffer* values;
        const void* host_values;
        std::uint64_t value_offset;
        std::uint32_t value_size;
        std::uint64_t count;
        Operation op;
        ElementType element;
        std::optional<ElementType> result;  // where results are plain numbers (detail::result_room)
    };
    // reduce_by_key's steps but the typed call (by_key.cpp): checks the input; where the plan
    // fits reduce_by_key's one launch (exec/fused_by_key.hpp), runs it, writing the runs' keys
    // to key_room(runs) and their results to result_room(runs); else finds the runs, writes
    // their keys to key_room(runs) and calls reduce_runs with the runs as segments.
    void find_runs(const RunInput& input, const std::function<void*(std::uint64_t)>& key_room,
                   const std::function<void*(std::uint64_t)>& result_room,
                   const std::function<void(const Segments&, CallInfo*)>& reduce_runs, const LaunchParams& params,
                   CallInfo* info) const;
    // reduce_by_key's forms around find_runs, keys of `key_size` bytes in device buffers or host
    // memory: the runs' keys into key_room(runs), their results, the segmented call's, into
    // `results`.
    template <Operation Op, class T>
    void runs_by_key(const cl::Buffer& keys, std::uint64_t key_offset, std::uint32_t key_size, const cl::Buffer& values,
                     std::uint64_t value_offset, std::uint64_t count,
                     const std::function<void*(std::uint64_t)>& key_room, std::vector<result_t<Op, T>>& results,
                     const LaunchParams& params, CallInfo* info) const {
        find_runs(
            RunInput{&keys, nullptr, key_offset, key_size, &values, nullptr, value_offset, sizeof(T), count, Op,
                     element_traits<T>::type, detail::plain_result_type<result_t<Op, T>>()},
            key_room, detail::result_room(results),
            [&](const Segments& runs, CallInfo* call) {
            reduce<Op, T>(values, value_offset, runs, results, params, call);
            },
            params, info);
    }
    template <Operation Op, class T>
    void runs_by_key(const void* keys, std::uint32_t key_size, const T* values, std::uint64_t count,
                     const std::function<void*(std::uint64_t)>& key_room, std::vector<result_t<Op, T>>& results,
                     const LaunchParams& params, CallInfo* info) const {
        find_runs(
            RunInput{nullptr, keys, 0, key_size, nullptr, values, 0, sizeof(T), count, Op, element_traits<T>::type,
                     detail::plain_result_type<result_t<Op, T>>()},
            key_room, detail::result_room(results),
            [&](const Segments& runs, CallInfo* call) { reduce<Op, T>(values, runs, results, params, call); }, params,
            info);
    }

    friend void experimental::set_result_delivery(Reducer& reducer, experimental::Delivery delivery);
    friend std::optional<experimental::Delivery> experimental::result_delivery(const Reducer& reducer);
    // reduce_async's two forms.
    template <class T>
    cl::Event enqueue_async(Operation op, const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count,
                            const AsyncTarget& target, const LaunchParams& params, CallInfo* info) const;
    template <class T>
    cl::Event enqueue_async(Operation op, const cl::Buffer& values, std::uint64_t offset, const Segments& segments,
                            const AsyncTarget& target, const LaunchParams& params, CallInfo* info) const;

    struct State;
    std::unique_ptr<State> state_;
    // The state, or InvalidArgument for a Reducer that was moved from.
    State& state() const;
};

}  // namespace clreduce
