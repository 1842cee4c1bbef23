#pragma once
// The Reducer: every call of the library on one device. (One file of over 500 lines: C++
// declares a class's members in one place, so every entry point, single ranges, images,
// segments and the asynchronous forms, stands here with its documentation; the definitions
// are split by concern under src/api/.)
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
    // Paced reads (ResultDelivery::paced, polled_paced): how long the synchronous call waited
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

    // The parameters a sum of `count` elements of `type` would use.
    LaunchPlan plan(ElementType type, std::uint64_t count, const LaunchParams& params = {}) const;
    // The parameters a call of `op` would use: `params` first, then this device's tuned entry
    // for (type, op's family, nearest size bucket), then a known-device entry, then defaults.
    // LaunchPlan::sources says which each value came from.
    // `form` plans the call form: CallForm::async for sum_async/min_async/max_async,
    // CallForm::image for the Image overloads.
    LaunchPlan plan(ElementType type, Operation op, std::uint64_t count, const LaunchParams& params = {},
                    CallForm form = CallForm::sync) const;
    // The parameters transform_reduce(..., combine, params) would use.
    LaunchPlan plan_transform(ElementType type, Combine combine, std::uint64_t count,
                              const LaunchParams& params = {}) const;

    // Tuning (README, "Tuning"). The reducer reads its database once, at construction.
    // tune() measures the launch space on this device, uses the best entries at once and, with
    // options.save, merges them into the database file for reducers made later.
    TuneResult tune(const TuneOptions& options = {});
    // Switches to another database (e.g. TuningDatabase("my.json")) and loads its entries.
    void use_tuning_database(const TuningDatabase& database);
    TuningDatabase tuning_database() const;
    std::vector<TunedEntry> tuned_entries() const;  // this device's entries in use

    // Every operation comes in three forms:
    //   op<T>(buffer, offset, count)  elements [offset, offset + count) of a cl::Buffer
    //   op<T>(pointer, count)         host data, uploaded to a scratch buffer first
    //   op(range)                     a contiguous host range (std::vector, std::array, ...)
    // each with optional LaunchParams (launch shape, FloatMode, accumulator) and CallInfo.
    // All block until the result is on the host. Supported T: int8_t, uint8_t, int16_t,
    // uint16_t, int32_t, uint32_t, int64_t, uint64_t, half (cl_khr_fp16), float, double (fp64).

    // Sum. count == 0 returns 0.
    template <class T>
    sum_type_t<T> sum(const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count,
                      const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class T>
    sum_type_t<T> sum(const T* data, std::uint64_t count, const LaunchParams& params = {},
                      CallInfo* info = nullptr) const;
    template <class Range, class T = range_value_t<Range>>
    sum_type_t<T> sum(const Range& range, const LaunchParams& params = {}, CallInfo* info = nullptr) const {
        return sum<T>(std::data(range), static_cast<std::uint64_t>(std::size(range)), params, info);
    }

    // Asynchronous sum, min and max of a cl::Buffer range: they enqueue and return, the host
    // waits for nothing and nothing is read back. The reduction's last kernel writes the
    // value, of the type the synchronous call returns (R = sum: sum_type_t<T>, min/max: T),
    // into element `result_offset` of `result` read as an array of R (bytes
    // [result_offset * sizeof(R), (result_offset + 1) * sizeof(R)), like every other offset in
    // elements). The returned event completes when the value is there. The
    // reduction first waits for `wait` (say, the upload of `buffer`); on the reducer's
    // in-order queue, later commands see the value without waiting on the event. Level 3 is
    // the last-group finish (one launch), or a second pass where the device lacks it, so the
    // result is deterministic in every float mode but correctly_rounded, which is refused
    // (its rounding is done on the host); asking for InterGroup::atomic is refused too. Sum
    // of an empty range writes 0; min/max of one throw InvalidArgument. With make_event false
    // (an in-order queue only; out of order it is ignored) the call returns an empty event and
    // spares the driver one (about 2 µs on NVIDIA): for chains ordered by the queue itself.
    template <class T>
    cl::Event sum_async(const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count, const cl::Buffer& result,
                        std::uint64_t result_offset = 0, const LaunchParams& params = {},
                        const std::vector<cl::Event>& wait = {}, bool make_event = true,
                        CallInfo* info = nullptr) const;
    template <class T>
    cl::Event min_async(const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count, const cl::Buffer& result,
                        std::uint64_t result_offset = 0, const LaunchParams& params = {},
                        const std::vector<cl::Event>& wait = {}, bool make_event = true,
                        CallInfo* info = nullptr) const;
    template <class T>
    cl::Event max_async(const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count, const cl::Buffer& result,
                        std::uint64_t result_offset = 0, const LaunchParams& params = {},
                        const std::vector<cl::Event>& wait = {}, bool make_event = true,
                        CallInfo* info = nullptr) const;

    // Product, in the accumulator (integers wrap around modulo 2^bits; empty range: 1).
    template <class T>
    sum_type_t<T> product(const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count,
                          const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class T>
    sum_type_t<T> product(const T* data, std::uint64_t count, const LaunchParams& params = {},
                          CallInfo* info = nullptr) const;
    template <class Range, class T = range_value_t<Range>>
    sum_type_t<T> product(const Range& range, const LaunchParams& params = {}, CallInfo* info = nullptr) const {
        return product<T>(std::data(range), static_cast<std::uint64_t>(std::size(range)), params, info);
    }

    // Smallest element. Floats: NaN is ignored (like fmin); all-NaN gives NaN. Empty range: InvalidArgument.
    template <class T>
    T min(const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count, const LaunchParams& params = {},
          CallInfo* info = nullptr) const;
    template <class T>
    T min(const T* data, std::uint64_t count, const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class Range, class T = range_value_t<Range>>
    T min(const Range& range, const LaunchParams& params = {}, CallInfo* info = nullptr) const {
        return min<T>(std::data(range), static_cast<std::uint64_t>(std::size(range)), params, info);
    }

    // Largest element; NaN as for min.
    template <class T>
    T max(const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count, const LaunchParams& params = {},
          CallInfo* info = nullptr) const;
    template <class T>
    T max(const T* data, std::uint64_t count, const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class Range, class T = range_value_t<Range>>
    T max(const Range& range, const LaunchParams& params = {}, CallInfo* info = nullptr) const {
        return max<T>(std::data(range), static_cast<std::uint64_t>(std::size(range)), params, info);
    }

    // Both extremes in one pass; NaN as for min.
    template <class T>
    MinMax<T> minmax(const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count,
                     const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class T>
    MinMax<T> minmax(const T* data, std::uint64_t count, const LaunchParams& params = {},
                     CallInfo* info = nullptr) const;
    template <class Range, class T = range_value_t<Range>>
    MinMax<T> minmax(const Range& range, const LaunchParams& params = {}, CallInfo* info = nullptr) const {
        return minmax<T>(std::data(range), static_cast<std::uint64_t>(std::size(range)), params, info);
    }

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

    // Count, extremes, sum, mean and variance in one pass (Statistics, results.hpp): what
    // meanStdDev and a histogram's range need, for one read of the data. Accumulates in double
    // (float without fp64; LaunchParams::accumulator may name float32 or float64); refused for
    // 64-bit integers, whose extremes a double would round, and for an empty range.
    template <class T>
    Statistics<T> statistics(const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count,
                             const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class T>
    Statistics<T> statistics(const T* data, std::uint64_t count, const LaunchParams& params = {},
                             CallInfo* info = nullptr) const;
    template <class Range, class T = range_value_t<Range>>
    Statistics<T> statistics(const Range& range, const LaunchParams& params = {}, CallInfo* info = nullptr) const {
        return statistics<T>(std::data(range), static_cast<std::uint64_t>(std::size(range)), params, info);
    }

    // Smallest element and the lowest index holding it. NaN is ignored; all-NaN gives (NaN, 0).
    template <class T>
    ArgResult<T> argmin(const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count,
                        const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class T>
    ArgResult<T> argmin(const T* data, std::uint64_t count, const LaunchParams& params = {},
                        CallInfo* info = nullptr) const;
    template <class Range, class T = range_value_t<Range>>
    ArgResult<T> argmin(const Range& range, const LaunchParams& params = {}, CallInfo* info = nullptr) const {
        return argmin<T>(std::data(range), static_cast<std::uint64_t>(std::size(range)), params, info);
    }

    // Largest element and the lowest index holding it; NaN as for argmin.
    template <class T>
    ArgResult<T> argmax(const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count,
                        const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class T>
    ArgResult<T> argmax(const T* data, std::uint64_t count, const LaunchParams& params = {},
                        CallInfo* info = nullptr) const;
    template <class Range, class T = range_value_t<Range>>
    ArgResult<T> argmax(const Range& range, const LaunchParams& params = {}, CallInfo* info = nullptr) const {
        return argmax<T>(std::data(range), static_cast<std::uint64_t>(std::size(range)), params, info);
    }

    // Elements != 0 (NaN counts, -0.0 does not), like cv::countNonZero.
    template <class T>
    std::uint64_t count_nonzero(const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count,
                                const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class T>
    std::uint64_t count_nonzero(const T* data, std::uint64_t count, const LaunchParams& params = {},
                                CallInfo* info = nullptr) const;
    template <class Range, class T = range_value_t<Range>>
    std::uint64_t count_nonzero(const Range& range, const LaunchParams& params = {}, CallInfo* info = nullptr) const {
        return count_nonzero<T>(std::data(range), static_cast<std::uint64_t>(std::size(range)), params, info);
    }

    // sum / count, in double. Empty range: InvalidArgument.
    template <class T>
    double mean(const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count, const LaunchParams& params = {},
                CallInfo* info = nullptr) const;
    template <class T>
    double mean(const T* data, std::uint64_t count, const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class Range, class T = range_value_t<Range>>
    double mean(const Range& range, const LaunchParams& params = {}, CallInfo* info = nullptr) const {
        return mean<T>(std::data(range), static_cast<std::uint64_t>(std::size(range)), params, info);
    }

    // Sum of x*x: integers exact as a uint64 (Overflow where it does not fit, IntegerOverflow
    // in launch_params.hpp), floats as sum.
    template <class T>
    square_sum_t<T> sum_of_squares(const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count,
                                   const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class T>
    square_sum_t<T> sum_of_squares(const T* data, std::uint64_t count, const LaunchParams& params = {},
                                   CallInfo* info = nullptr) const;
    template <class Range, class T = range_value_t<Range>>
    square_sum_t<T> sum_of_squares(const Range& range, const LaunchParams& params = {},
                                   CallInfo* info = nullptr) const {
        return sum_of_squares<T>(std::data(range), static_cast<std::uint64_t>(std::size(range)), params, info);
    }

    // Sum of |x|: integers the correctly rounded double of the exact sum, floats as sum; like
    // cv::norm(NORM_L1).
    template <class T>
    double norm_l1(const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count, const LaunchParams& params = {},
                   CallInfo* info = nullptr) const;
    template <class T>
    double norm_l1(const T* data, std::uint64_t count, const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class Range, class T = range_value_t<Range>>
    double norm_l1(const Range& range, const LaunchParams& params = {}, CallInfo* info = nullptr) const {
        return norm_l1<T>(std::data(range), static_cast<std::uint64_t>(std::size(range)), params, info);
    }

    // sqrt(sum_of_squares), like cv::norm(NORM_L2).
    template <class T>
    double norm_l2(const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count, const LaunchParams& params = {},
                   CallInfo* info = nullptr) const;
    template <class T>
    double norm_l2(const T* data, std::uint64_t count, const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class Range, class T = range_value_t<Range>>
    double norm_l2(const Range& range, const LaunchParams& params = {}, CallInfo* info = nullptr) const {
        return norm_l2<T>(std::data(range), static_cast<std::uint64_t>(std::size(range)), params, info);
    }

    // Largest |x| (NaN ignored), like cv::norm(NORM_INF).
    template <class T>
    double norm_inf(const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count,
                    const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class T>
    double norm_inf(const T* data, std::uint64_t count, const LaunchParams& params = {},
                    CallInfo* info = nullptr) const;
    template <class Range, class T = range_value_t<Range>>
    double norm_inf(const Range& range, const LaunchParams& params = {}, CallInfo* info = nullptr) const {
        return norm_inf<T>(std::data(range), static_cast<std::uint64_t>(std::size(range)), params, info);
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

    // Images (2-D, pitched, 1-4 interleaved channels; see Image): per-channel results like
    // cv::sum / cv::mean, and norms over all channels like cv::norm. Host pointers point at
    // pixel (0, 0) and Image::offset must be 0 for them. CallInfo gets the plan every channel
    // runs and the kernel events of all channels.
    template <class T>
    Channels<sum_type_t<T>> sum(const cl::Buffer& buffer, const Image& image, const LaunchParams& params = {},
                                CallInfo* info = nullptr) const;
    template <class T>
    Channels<sum_type_t<T>> sum(const T* data, const Image& image, const LaunchParams& params = {},
                                CallInfo* info = nullptr) const;
    template <class T>
    Channels<double> mean(const cl::Buffer& buffer, const Image& image, const LaunchParams& params = {},
                          CallInfo* info = nullptr) const;
    template <class T>
    Channels<double> mean(const T* data, const Image& image, const LaunchParams& params = {},
                          CallInfo* info = nullptr) const;
    template <class T>
    Channels<T> min(const cl::Buffer& buffer, const Image& image, const LaunchParams& params = {},
                    CallInfo* info = nullptr) const;
    template <class T>
    Channels<T> min(const T* data, const Image& image, const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class T>
    Channels<T> max(const cl::Buffer& buffer, const Image& image, const LaunchParams& params = {},
                    CallInfo* info = nullptr) const;
    template <class T>
    Channels<T> max(const T* data, const Image& image, const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class T>
    Channels<std::uint64_t> count_nonzero(const cl::Buffer& buffer, const Image& image, const LaunchParams& params = {},
                                          CallInfo* info = nullptr) const;
    template <class T>
    Channels<std::uint64_t> count_nonzero(const T* data, const Image& image, const LaunchParams& params = {},
                                          CallInfo* info = nullptr) const;
    // norm_op: Operation::norm_l1, norm_l2 or norm_inf (else InvalidArgument).
    template <class T>
    double norm(const cl::Buffer& buffer, const Image& image, Operation norm_op, const LaunchParams& params = {},
                CallInfo* info = nullptr) const;
    template <class T>
    double norm(const T* data, const Image& image, Operation norm_op, const LaunchParams& params = {},
                CallInfo* info = nullptr) const;

    // Many reductions in one call (Segments, segments.hpp: batches, matrix rows, CSR offsets,
    // begin/end arrays): one result per segment in segment order, from one launch (two where
    // groups share few, huge segments). The segments count elements from `offset` of `values`.
    // Every element type and float mode as for one range (FloatMode::atomic runs as
    // deterministic); argmin/argmax give the index inside the segment. An empty segment gives
    // the empty range's result (sum 0, product 1, count 0, norms 0); min, max, minmax, argmin,
    // argmax, mean and transform min/max of one throw InvalidArgument naming it. The mapping
    // (LaunchParams::segment_team, groups_per_segment) follows the segments' average length;
    // CallInfo::plan and plan(type, op, segments) say which.
    template <class T>
    std::vector<sum_type_t<T>> sum(const cl::Buffer& values, std::uint64_t offset, const Segments& segments,
                                   const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class T>
    std::vector<sum_type_t<T>> product(const cl::Buffer& values, std::uint64_t offset, const Segments& segments,
                                       const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class T>
    std::vector<T> min(const cl::Buffer& values, std::uint64_t offset, const Segments& segments,
                       const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class T>
    std::vector<T> max(const cl::Buffer& values, std::uint64_t offset, const Segments& segments,
                       const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class T>
    std::vector<MinMax<T>> minmax(const cl::Buffer& values, std::uint64_t offset, const Segments& segments,
                                  const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class T>
    std::vector<Statistics<T>> statistics(const cl::Buffer& values, std::uint64_t offset, const Segments& segments,
                                          const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class T>
    std::vector<ArgResult<T>> argmin(const cl::Buffer& values, std::uint64_t offset, const Segments& segments,
                                     const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class T>
    std::vector<ArgResult<T>> argmax(const cl::Buffer& values, std::uint64_t offset, const Segments& segments,
                                     const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class T>
    std::vector<std::uint64_t> count_nonzero(const cl::Buffer& values, std::uint64_t offset, const Segments& segments,
                                             const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class T>
    std::vector<double> mean(const cl::Buffer& values, std::uint64_t offset, const Segments& segments,
                             const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class T>
    std::vector<square_sum_t<T>> sum_of_squares(const cl::Buffer& values, std::uint64_t offset,
                                                const Segments& segments, const LaunchParams& params = {},
                                                CallInfo* info = nullptr) const;
    template <class T>
    std::vector<double> norm_l1(const cl::Buffer& values, std::uint64_t offset, const Segments& segments,
                                const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class T>
    std::vector<double> norm_l2(const cl::Buffer& values, std::uint64_t offset, const Segments& segments,
                                const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class T>
    std::vector<double> norm_inf(const cl::Buffer& values, std::uint64_t offset, const Segments& segments,
                                 const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class T>
    std::vector<transform_type_t<T>> transform_reduce(const cl::Buffer& values, std::uint64_t offset,
                                                      const Segments& segments, std::string_view expression,
                                                      Combine combine, const LaunchParams& params = {},
                                                      CallInfo* info = nullptr) const;
    // The same, each result written into `results` (resized to one per segment): a vector kept
    // from call to call is written in place, so that a repeated call allocates no host memory.
    // A fresh vector costs the host its page faults, which for millions of segments take
    // longer than the kernel (H100, 2^22 int32 rows of 64: a 0.37 ms kernel, 3.1 ms for the
    // call into a kept vector, 19.7 ms into a fresh one). Where each segment's final state is
    // its result (sums, products, counts, sums of squares; min and max of non-empty regular
    // segments), the states are read straight into `results`. After an exception the
    // contents of `results` are unspecified.
    template <class T>
    void sum(const cl::Buffer& values, std::uint64_t offset, const Segments& segments,
             std::vector<sum_type_t<T>>& results, const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class T>
    void product(const cl::Buffer& values, std::uint64_t offset, const Segments& segments,
                 std::vector<sum_type_t<T>>& results, const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class T>
    void min(const cl::Buffer& values, std::uint64_t offset, const Segments& segments, std::vector<T>& results,
             const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class T>
    void max(const cl::Buffer& values, std::uint64_t offset, const Segments& segments, std::vector<T>& results,
             const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class T>
    void minmax(const cl::Buffer& values, std::uint64_t offset, const Segments& segments,
                std::vector<MinMax<T>>& results, const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class T>
    void statistics(const cl::Buffer& values, std::uint64_t offset, const Segments& segments,
                    std::vector<Statistics<T>>& results, const LaunchParams& params = {},
                    CallInfo* info = nullptr) const;
    template <class T>
    void argmin(const cl::Buffer& values, std::uint64_t offset, const Segments& segments,
                std::vector<ArgResult<T>>& results, const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class T>
    void argmax(const cl::Buffer& values, std::uint64_t offset, const Segments& segments,
                std::vector<ArgResult<T>>& results, const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class T>
    void count_nonzero(const cl::Buffer& values, std::uint64_t offset, const Segments& segments,
                       std::vector<std::uint64_t>& results, const LaunchParams& params = {},
                       CallInfo* info = nullptr) const;
    template <class T>
    void mean(const cl::Buffer& values, std::uint64_t offset, const Segments& segments, std::vector<double>& results,
              const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class T>
    void sum_of_squares(const cl::Buffer& values, std::uint64_t offset, const Segments& segments,
                        std::vector<square_sum_t<T>>& results, const LaunchParams& params = {},
                        CallInfo* info = nullptr) const;
    template <class T>
    void norm_l1(const cl::Buffer& values, std::uint64_t offset, const Segments& segments, std::vector<double>& results,
                 const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class T>
    void norm_l2(const cl::Buffer& values, std::uint64_t offset, const Segments& segments, std::vector<double>& results,
                 const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class T>
    void norm_inf(const cl::Buffer& values, std::uint64_t offset, const Segments& segments,
                  std::vector<double>& results, const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    template <class T>
    void transform_reduce(const cl::Buffer& values, std::uint64_t offset, const Segments& segments,
                          std::string_view expression, Combine combine, std::vector<transform_type_t<T>>& results,
                          const LaunchParams& params = {}, CallInfo* info = nullptr) const;
    // The segments' values written into `result` from element `result_offset` on (one per
    // segment, in order), as the single-range *_async calls do: nothing waited for or read
    // back; the event of the last command returned. min/max of an empty segment write the
    // identity there (the type's largest/smallest value; NaN for floats), and device offsets
    // that are out of order cannot be reported (those segments read as empty).
    template <class T>
    cl::Event sum_async(const cl::Buffer& values, std::uint64_t offset, const Segments& segments,
                        const cl::Buffer& result, std::uint64_t result_offset = 0, const LaunchParams& params = {},
                        const std::vector<cl::Event>& wait = {}, bool make_event = true,
                        CallInfo* info = nullptr) const;
    template <class T>
    cl::Event min_async(const cl::Buffer& values, std::uint64_t offset, const Segments& segments,
                        const cl::Buffer& result, std::uint64_t result_offset = 0, const LaunchParams& params = {},
                        const std::vector<cl::Event>& wait = {}, bool make_event = true,
                        CallInfo* info = nullptr) const;
    template <class T>
    cl::Event max_async(const cl::Buffer& values, std::uint64_t offset, const Segments& segments,
                        const cl::Buffer& result, std::uint64_t result_offset = 0, const LaunchParams& params = {},
                        const std::vector<cl::Event>& wait = {}, bool make_event = true,
                        CallInfo* info = nullptr) const;
    // The plan of a segmented call of `op` over `segments` of `type` values.
    LaunchPlan plan(ElementType type, Operation op, const Segments& segments, const LaunchParams& params = {}) const;

private:
    struct State;
    std::unique_ptr<State> state_;
    // The state, or InvalidArgument for a Reducer that was moved from.
    State& state() const;
};

}  // namespace clreduce
