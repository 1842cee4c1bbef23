#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include <clreduce/device_info.hpp>
#include <clreduce/element_type.hpp>
#include <clreduce/experimental.hpp>
#include <clreduce/operation.hpp>

namespace clreduce {

// Level 1 addressing (the paper's two variants):
//   global: work-item g reads vectors g, g + G, g + 2G, ... (G = all work-items of the launch)
//   local:  work-group w owns the tile [w*L*times, (w+1)*L*times); work-item l reads tile + l + i*L
enum class Stride { global, local };

// Level 3: how the per-group results become one.
//   atomic:      one launch, each group atomically adds into the result (integer accumulators)
//   second_pass: groups store partials, one more single-group launch combines them
//                (deterministic)
//   last_group:  groups store partials and count themselves done with an atomic; the group
//                that counts last combines the partials in the second pass's order (one
//                launch, deterministic, the same bits as second_pass). Needs a device-wide
//                memory fence clreduce knows: NVIDIA (PTX membar.gl) and CPU devices; the
//                default where neither atomic finish fits, on those devices.
//   exact_atomic: floating-point sums in FloatMode::deterministic (sum, mean, sum_of_squares,
//                norm_l1, norm_l2, transform sums): each group adds its result exactly into
//                a fixed-point number with 64-bit integer atomics, and the host rounds the
//                number once. One launch; the result is the correctly rounded sum of the
//                groups' results, so it is the same on every run (not the same bits as
//                second_pass, whose tree rounds at every step). Needs
//                cl_khr_int64_base_atomics; the default for those sums where it is there.
//                Synchronous calls only: an asynchronous call finishes with last_group or
//                second_pass.
enum class InterGroup { atomic, second_pass, last_group, exact_atomic };

// Whether `device` can finish with InterGroup::last_group.
bool has_last_group_finish(const DeviceInfo& device);

// How floating-point additive reductions (sum, mean, sum_of_squares, norm_l1, norm_l2 and
// transform_reduce with Combine::sum) accumulate. Integer reductions are exact whatever the
// mode (IntegerOverflow below).
//   deterministic      (default) fixed order in-thread and in the tree; the group results
//                      added exactly (InterGroup::exact_atomic, with 64-bit integer
//                      atomics), else combined by the last group or a second pass.
//                      Bit-identical run after run on one device with one plan; no float
//                      atomics. Error <= (n - 1) * u * sum|x| (u of the accumulator).
//   atomic             groups add their results into the accumulator with a compare-and-swap
//                      loop on its bits: one launch, but the order of the group results, hence
//                      the last bits, may change from run to run. Needs 64-bit atomics for a
//                      double accumulator.
//   compensated        compensated (Neumaier's, improved Kahan) sums in every vector lane,
//                      work-item, tree step and pass:
//                      deterministic; error about 2u * sum|x| + n * u^2 * sum|x|.
//   correctly_rounded  the exactly rounded true sum (long fixed-point accumulator): identical
//                      on every device and plan. Only where the device can host it.
enum class FloatMode { deterministic, atomic, compensated, correctly_rounded };

std::string_view to_string(FloatMode mode);
FloatMode parse_float_mode(std::string_view name);  // to_string's spelling; throws InvalidArgument

// What an integer result does when its exact value does not fit its type (docs/numerics.md).
//   check (default): integer sums, sums of squares and transform sums are exact. Where the
//          accumulator could overflow for this many elements (64-bit data, or 2^32 and more
//          32-bit ones), they run in a 128-bit state (192-bit for squares of 64-bit data) and
//          the host checks the exact value against the result type: one that does not fit
//          throws Overflow. A float accumulator's result is checked the same way before it
//          becomes an integer.
//   wrap:  those results wrap modulo 2^bits of the accumulator, as C++'s unsigned arithmetic
//          (the previous behaviour; an asynchronous sum of 64-bit integers needs it).
// mean, norm_l1 and norm_l2 of integers are real numbers: they are always exact (the correctly
// rounded double of the exact value), whatever this says.
enum class IntegerOverflow { check, wrap };
std::string_view to_string(IntegerOverflow rule);
IntegerOverflow parse_integer_overflow(std::string_view name);  // "check" or "wrap"

// The forms of a call, planned each its own way: synchronous (the value read back to the
// host), asynchronous (sum_async, min_async, max_async: the value written on the device, so
// level 3 is a last-group finish or a second pass, never atomic), image (pitched
// multi-channel input, read one element at a time: vector_width 1), and host_data
// (synchronous, from host memory: pointer, range or vector; on a CPU device a small one may
// run on the calling thread, LaunchPlan::on_host), and segments (many ranges in one call, one
// result each: Segments in segments.hpp).
enum class CallForm { sync, async, image, host_data, segments };

// What a plan promises about the result's bits.
//   everywhere: the same bits on every device and plan: integer data and accumulators (exact,
//               or modulo 2^bits as C++ defines) and FloatMode::correctly_rounded sums.
//   same_plan:  the same bits run after run on this device with this plan (launch shape and
//               level 3) for the same values, wherever they start in their buffer (element
//               offset, alignment) and whichever entry form (buffer, pointer, range): the other float
//               reductions (FloatMode::deterministic and compensated, products, transforms,
//               and min/max, whose values agree everywhere but whose zero may be -0.0 or +0.0).
//               A different tuning file can change the plan, and with it the last bits.
//   none:       FloatMode::atomic with a float atomic finish: the groups' order, and so the
//               last bits, may change from run to run.
enum class Reproducibility { everywhere, same_plan, none };
std::string_view to_string(Reproducibility reproducibility);
std::string_view to_string(CallForm form);

// Where a plan's value came from, in order of precedence: the caller's LaunchParams, this
// device's tuning-database entry, clreduce's table of measured devices, the device default.
enum class ParamSource { override, tuned, known_device, device_default };

std::string_view to_string(Stride stride);
std::string_view to_string(InterGroup inter_group);
std::string_view to_string(ParamSource source);  // "override", "tuned", "known device", "default"

// Per-call overrides. Every field left empty takes the tuned value (README, "Tuning"), else
// the device default.
struct LaunchParams {
    std::optional<std::uint32_t> times;            // vectors each work-item accumulates, >= 1
    std::optional<std::uint32_t> work_group_size;  // power of two, <= device maximum
    std::optional<Stride> stride;
    std::optional<std::uint32_t> vector_width;  // 1, 2, 4, 8 or 16 elements per load
    std::optional<InterGroup> inter_group;
    std::optional<FloatMode> float_mode;  // floating-point additive reductions only
    // Accumulator type (int32, uint32, int64, uint64, float32 or float64) of additive
    // reductions and product; default: accumulator_for(). An integer one is the type each
    // element is widened to: with IntegerOverflow::check it must hold every element (a signed
    // one for signed data, else InvalidArgument) and the sum stays exact; with
    // IntegerOverflow::wrap it wraps modulo 2^bits. A float one rounds as that type does. The
    // extremum operations (min, max, minmax, argmin, argmax, argminmax) compare in the element
    // type and ignore it.
    std::optional<ElementType> accumulator;
    // Integer results that do not fit (IntegerOverflow above); default check.
    std::optional<IntegerOverflow> overflow;
    // Where host data is reduced (LaunchPlan::on_host): host data of at most this many bytes
    // is reduced by the host's threads where they reproduce the plan (the same bits as the
    // device, without a launch, copy or read; docs/usage.md, "Where host data is reduced"),
    // larger data by the device. 0: always the device; UINT64_MAX: the host wherever it can.
    // Default: the device's tuned crossover, else every size.
    std::optional<std::uint64_t> host_path_bytes;
    // reduce_by_key over device buffers: up to this many keys run in one launch that reads keys
    // and values once, where the operation fits it (LaunchPlan::by_key_one_launch), more keys
    // in the three passes that find the runs first (docs/usage.md, "Reduce by key"). 0: always
    // the passes; UINT64_MAX: one launch wherever it fits. Default: 2^22 keys on GPUs (where
    // the one launch's device and wall times are the lower ones), 0 on CPU devices.
    std::optional<std::uint64_t> by_key_one_launch_keys;
    // reduce_by_key over device buffers beyond by_key_one_launch_keys, where the operation fits
    // the one launch: true: two launches, the keys' mark pass and one pass over the values
    // (LaunchPlan::by_key_marked); false: the three passes. Default: true on GPUs, false on CPU
    // devices (PoCL's: 5 to 7 times the passes' time from 2^22 keys).
    std::optional<bool> by_key_marked;
    // Segmented calls (segments.hpp): the segment mapping. segment_team work-items reduce one
    // segment, a power of two <= work_group_size (1: a work-item per segment; work_group_size:
    // a work-group per segment); groups_per_segment > 1 (with a whole group per segment) has
    // that many groups share each segment and a second launch combine them. Default: from the
    // segments' average length and count (LaunchPlan::describe() says which and why). Columns
    // (Segments::columns) take any team (its lanes split the rows) and any groups_per_segment,
    // and read one element per work-item per row (vector_width 1).
    std::optional<std::uint32_t> segment_team;
    std::optional<std::uint32_t> groups_per_segment;
    // Segmented teams and columns: vectors (rows, for columns) a lane loads before it adds
    // any, so that that many loads are in flight at once; a power of two <= 16. Default: from
    // the vectors a lane reads on average (LaunchPlan::segment_loads). Any value gives the same
    // bits: the lane adds its elements in the same order.
    std::optional<std::uint32_t> segment_loads;
    // Opt-in experiments for segmented calls (experimental.hpp); none by default.
    experimental::SegmentOptions experimental_segments;
};

// Fully resolved parameters for one call: what the kernels were specialised with.
struct LaunchPlan {
    Operation operation = Operation::sum;
    FloatMode float_mode = FloatMode::deterministic;
    ElementType element = ElementType::int32;
    ElementType accumulator = ElementType::int64;
    std::uint32_t times = 1;
    std::uint32_t work_group_size = 1;
    Stride stride = Stride::global;
    std::uint32_t vector_width = 1;
    InterGroup inter_group = InterGroup::second_pass;
    std::uint64_t groups = 1;  // work-groups of the first launch
    CallForm form = CallForm::sync;
    bool transform = false;  // transform_reduce: the user's expression is the element map
    // transform_reduce with a CombineExpression: the user's combine joins the states (planned as
    // a product: `operation` is Operation::product; level 3 last_group or second_pass).
    bool user_combine = false;
    // transform_reduce: the type `x` and the expression compute in (docs/expression-language.md):
    // the accumulator named, else transform_type_t's, also where an exact integer sum is kept
    // in a wider state (exact_integer_bits), which adds the expression's values.
    ElementType expression_type = ElementType::int64;
    Reproducibility reproducibility = Reproducibility::everywhere;
    IntegerOverflow overflow = IntegerOverflow::check;
    // 128 or 192: an integer additive reduction kept exact in a state of that many bits (the
    // accumulator could overflow for this n); 0: the accumulator itself.
    std::uint32_t exact_integer_bits = 0;
    // An asynchronous call (or segmented one into a device buffer) whose 64-bit integer result
    // may not fit its type (an exact sum under IntegerOverflow::check, or a floating-point
    // accumulator over integer data): the kernels check it and set bit 0 of the caller's status
    // word (AsyncTarget::status, which the call then needs) instead of writing it.
    bool result_status = false;
    // reduce_by_key over device buffers in one launch that reads keys and values once
    // (cl_kernels/by_key.cl): integer states that no order changes and that are their results.
    bool by_key_one_launch = false;
    // ... or in two: run_heads.cl's mark pass over the keys, then cl_kernels/by_key_values.cl
    // over the values and the marks (work_group_size and groups: the values pass's).
    bool by_key_marked = false;
    // Host data up to LaunchParams::host_path_bytes of a plan the host reproduces: the host's
    // threads run this plan (the same bits as the kernels), no launch.
    bool on_host = false;
    // Images (CallForm::image): every channel in one launch, each read from the cache lines
    // the one before it read, where level 3 is atomic, the last group's or one group's store
    // (not the correctly rounded sum); else one launch sequence per channel.
    bool channels_at_once = false;
    // Segmented calls: how many segments, and the mapping (LaunchParams::segment_team,
    // groups_per_segment); `groups` counts the first launch's work-groups, `times` is unused.
    std::uint64_t segments = 0;
    std::uint32_t segment_team = 0;
    std::uint32_t groups_per_segment = 1;
    std::uint32_t segment_loads = 1;  // LaunchParams::segment_loads
    // The segments are a matrix's columns (Segments::columns): segment_team lanes per column,
    // work_group_size / segment_team columns per group, read a row at a time.
    bool segment_columns = false;
    // Listed segments (offsets, begin/end arrays) longer than segment_split elements: their
    // team reduces the first segment_split, all groups share the rest in chunks of
    // segment_chunk (two more launches). 0: no split (groups_per_segment > 1).
    std::uint64_t segment_split = 0;
    std::uint64_t segment_chunk = 0;
    // experimental::SegmentOptions::medium: listed segments longer than this are the second launch's
    // (teams of min(32, work_group_size) lanes; segment_split is then theirs). 0: none.
    std::uint64_t segment_medium = 0;

    struct Sources {
        ParamSource times = ParamSource::device_default;
        ParamSource work_group_size = ParamSource::device_default;
        ParamSource stride = ParamSource::device_default;
        ParamSource vector_width = ParamSource::device_default;
        ParamSource inter_group = ParamSource::device_default;
        ParamSource segment_team = ParamSource::device_default;  // segmented calls
    } sources;
    // Size bucket of the tuned or known-device entry used (segmented calls: the segment length
    // of the entry whose team they use); 0: none.
    std::uint64_t tuned_n = 0;

    std::string describe() const;          // one line, for logs and the perf tool
    std::string describe_sources() const;  // "times=tuned(4096) wg=override ..."
};

// A plan's launch shape (times, work-group size, stride, vector width, level 3) as explicit
// overrides: a later call with them runs that shape whatever is tuned.
LaunchParams launch_shape(const LaunchPlan& plan);

// Accumulator the sum of `element` uses on this device.
ElementType accumulator_for(ElementType element, const DeviceInfo& device);
// Accumulator (kernel state's value type) of `op` over `element` on this device, by default.
ElementType accumulator_for(Operation op, ElementType element, const DeviceInfo& device);

// Throws Unsupported if the device cannot reduce `element` (e.g. float64 without fp64,
// float16 without cl_khr_fp16).
void require_support(ElementType element, const DeviceInfo& device);

}  // namespace clreduce
