// The error table of docs/usage.md ("## Errors"), walked row by row: each InvalidArgument,
// Unsupported and Overflow row has one call here that must throw that exception, and every
// call here names a row the table has. A refusal added without a row, or a row no call
// reaches, fails this test. Conditions that depend on what a device lacks (fp64, a fence the
// library knows, local memory) are planned for a described device. One long file: the calls
// follow the table's rows in one list, as the table is one list.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "device/described_device.hpp"  // src/
#include "exec/kernel_resources.hpp"    // src/
#include "partial_checksum.hpp"
#include "plan/planner.hpp"  // src/
#include "source_dir.hpp"
#include "test_ops_support.hpp"
#include "test_support.hpp"

namespace clreduce::test {
namespace {

struct Refusal {
    std::string exception;  // as the table writes it: InvalidArgument, Unsupported, Overflow
    std::string condition;  // the row's "when" text, exactly
    std::function<void()> call;
    bool reachable = true;  // false: this device cannot meet the condition (reported, not passed)
};

// The table's (exception, condition) rows for the three exceptions walked here.
std::set<std::pair<std::string, std::string>> table_rows() {
    std::ifstream file(source_dir() + "/docs/usage.md");
    REQUIRE(file);
    std::set<std::pair<std::string, std::string>> rows;
    std::string line;
    while (std::getline(file, line)) {
        for (const std::string name : {"InvalidArgument", "Unsupported", "Overflow"}) {
            const std::string head = "| `" + name + "` | ";
            if (line.rfind(head, 0) == 0 && line.size() > head.size() + 2)
                rows.insert({name, line.substr(head.size(), line.size() - head.size() - 2)});
        }
    }
    return rows;
}

// Whether call() throws the exception the row names; `what` says what happened.
bool throws(const std::string& exception, const std::function<void()>& call, std::string& what) {
    try {
        call();
    } catch (const Overflow& e) {
        what = std::string("Overflow: ") + e.what();
        return exception == "Overflow";
    } catch (const InvalidArgument& e) {
        what = std::string("InvalidArgument: ") + e.what();
        return exception == "InvalidArgument";
    } catch (const Unsupported& e) {
        what = std::string("Unsupported: ") + e.what();
        return exception == "Unsupported";
    } catch (const std::exception& e) {
        what = std::string("another exception: ") + e.what();
        return false;
    }
    what = "nothing was thrown";
    return false;
}

LaunchParams with(void (*set)(LaunchParams&)) {
    LaunchParams p;
    set(p);
    return p;
}

std::vector<Refusal> refusals(Reducer& r) {
    const DeviceInfo gpu = described_gpu("Table Platform", "table GPU", 8);
    DeviceInfo no_fp64 = gpu;
    no_fp64.has_fp64 = false;
    const auto plan_on = [](const DeviceInfo& d, ElementType type, std::uint64_t n, LaunchParams p) {
        return [=] { make_plan(PlanRequest{Operation::sum, type, n}, d, p); };
    };
    static const std::vector<std::int32_t> ints{1, 2, 3};
    static const std::vector<float> floats{1.5f, -2.0f, 4.0f};
    static const std::vector<std::int64_t> big{std::numeric_limits<std::int64_t>::max(), 1};
    const cl::Buffer int_buffer = device_copy(r, ints);
    const cl::Buffer float_buffer = device_copy(r, floats);
    const cl::Buffer long_buffer = device_copy(r, big);
    const cl::Buffer result(r.context(), CL_MEM_READ_WRITE, 8);
    const Image row{1, 3, 1, 3 * sizeof(std::int32_t), 0};
    const auto sum_with = [&r](LaunchParams p) { return [&r, p] { r.sum(ints, p); }; };
    return {
        {"InvalidArgument", "a `Reducer` that was moved from (any call)",
         [&r] {
        Reducer from(r.context(), r.queue());
        Reducer to(std::move(from));
        from.sum(ints);  // NOLINT(bugprone-use-after-move): the point
         }},
        {"InvalidArgument", "a null device, context or queue for a `Reducer`, or a queue of another context",
         [] { Reducer(cl::Device()); }},
        {"InvalidArgument", "a null buffer, or a buffer of another context",
         [&r] { r.sum<std::int32_t>(cl::Buffer(), 0, 1); }},
        {"InvalidArgument", "`offset + count` past the buffer's end",
         [&r, int_buffer] { r.sum<std::int32_t>(int_buffer, 2, 2); }},
        {"InvalidArgument",
         "an asynchronous call's `result_offset` (counted in results) past the end of its result buffer",
         [&r, int_buffer, result] {
        r.sum_async<std::int32_t>(int_buffer, 0, 3, {result, 1});
         }},
        {"InvalidArgument",
         "an asynchronous call whose 64-bit integer result may not fit its type (a sum, product or sum of squares "
         "checked for overflow, or a float accumulator on integer data: `LaunchPlan::result_status`) without a "
         "status buffer (`AsyncTarget::status`) of at least 4 bytes",
         [&r, long_buffer, result] {
        r.reduce_async<Operation::sum_of_squares, std::int64_t>(long_buffer, 0, 2, {result});
         }},
        {"InvalidArgument", "a null host pointer with `count > 0`",
         [&r] { r.sum(static_cast<const std::int32_t*>(nullptr), 5); }},
        {"InvalidArgument",
         "host images or segments larger than the device's largest buffer, where the device reduces them",
         // Refused before anything is read from the pointer: its 3 elements are never passed (the
         // host path, which would read them, kept off).
         [&r] {
        const std::uint64_t cols = 1024, rows = r.device_info().max_alloc_size / sizeof(std::int32_t) / cols + 1;
        LaunchParams device;
        device.host_path_bytes = 0;
        r.sum<std::int32_t>(ints.data(), Image{rows, cols, 1, 0, 0}, device);
         }},
        {"InvalidArgument",
         "`HostStaging` with a `chunk_bytes` of 0 or fewer than 2 `buffers`; a `PinnedHostMemory` of 0 bytes",
         [&r] {
        HostStaging one_buffer;
        one_buffer.buffers = 1;
        Reducer(r.context(), r.queue()).set_host_staging(one_buffer);
         }},
        {"InvalidArgument", "`times` outside [1, 2^20]", sum_with(with([](LaunchParams& p) { p.times = 0; }))},
        {"InvalidArgument", "a work-group size that is not a power of two or is above the device's maximum",
         sum_with(with([](LaunchParams& p) { p.work_group_size = 48; }))},
        {"InvalidArgument",
         "a work-group size whose states need more local memory than the device has, or on a CPU device more than "
         "320 KiB of states (one worker thread's stack holds them)",
         plan_on(gpu, ElementType::float64, 1000, with([](LaunchParams& p) {
                     p.work_group_size = 1024;  // 1024 fixed-point double states: 544 KiB of 48
                     p.float_mode = FloatMode::correctly_rounded;
                     p.inter_group = InterGroup::second_pass;  // the fixed-point states in the tree
                 }))},
        {"InvalidArgument",
         "a work-group size the built kernel cannot run: its `CL_KERNEL_LOCAL_MEM_SIZE` above the device's local "
         "memory, or on a CPU device above its `CL_KERNEL_WORK_GROUP_SIZE` or with `CL_KERNEL_PRIVATE_MEM_SIZE` × "
         "the work-group size above 2 MiB (one worker thread's stack holds them)",
         [&r] {
        // Checked on every kernel the library creates, once; here on a kernel of its own.
        const cl::Device device = r.queue().getInfo<CL_QUEUE_DEVICE>();
        cl::Program program(r.context(), "kernel void k(global int* a) { a[get_global_id(0)] = 1; }");
        check(program.build(std::vector<cl::Device>{device}), "clBuildProgram");
        const cl::Kernel kernel(program, "k");
        std::size_t most = 0;
        check(kernel.getWorkGroupInfo(device, CL_KERNEL_WORK_GROUP_SIZE, &most), "clGetKernelWorkGroupInfo");
        check_kernel_resources(kernel, device, static_cast<std::uint32_t>(most));  // fits: no throw
        check_kernel_resources(kernel, device, static_cast<std::uint32_t>(most) * 2);
         },
         r.device_info().type == CL_DEVICE_TYPE_CPU},
        {"InvalidArgument", "a vector width other than 1, 2, 4, 8 and 16",
         sum_with(with([](LaunchParams& p) { p.vector_width = 3; }))},
        {"InvalidArgument", "a plan needing more than 2^31 − 1 work-groups",
         plan_on(gpu, ElementType::int32, 1ull << 40, with([](LaunchParams& p) {
                     p.times = 1;
                     p.work_group_size = 1;
                     p.vector_width = 1;
                 }))},
        {"InvalidArgument",
         "an empty device spec (`Reducer(\"\")`), or one that matches nothing (the message lists the devices)",
         [] { Reducer(""); }},
        {"InvalidArgument",
         "min, max, minmax, argmin, argmax, argminmax, mean, statistics, or `transform_reduce` with min or max, of "
         "an empty range",
         [&r] { r.min(std::vector<float>{}); }},
        {"InvalidArgument",
         "min, max, minmax, argmin, argmax, argminmax, mean or statistics of an empty segment (the message names "
         "it)",
         [&r, int_buffer] {
        r.max<std::int32_t>(int_buffer, 0, Segments::offsets(std::vector<std::uint64_t>{0, 2, 2}));
         }},
        {"InvalidArgument", "host CSR offsets (`Segments::offsets`) that are empty or descend",
         [] {
        Segments::offsets(std::vector<std::uint64_t>{0, 3, 2});
         }},
        {"InvalidArgument",
         "device CSR offsets or begin/end arrays of a synchronous segmented call that descend or pass the values "
         "the segments may address (the message names the first such segment), or that pass their own buffer's end",
         [&r, int_buffer] {
        const std::vector<std::uint64_t> offsets{0, 2, 1};
        r.sum<std::int32_t>(int_buffer, 0, Segments::offsets(device_copy(r, offsets), 2, 3));
         }},
        {"InvalidArgument",
         "a matrix's (`Segments::rows`, `Segments::columns`) row step smaller than a row or not a multiple of the "
         "element size",
         [&r, int_buffer] { r.sum<std::int32_t>(int_buffer, 0, Segments::columns(1, 3, 6)); }},
        {"InvalidArgument",
         "segments past the values' buffer (checked before anything is allocated: `Segments::batch(2^63, 1)` over 100 "
         "elements), a matrix whose rows × step passes 2^64, or more segments than a vector of results can hold",
         [&r, int_buffer] { r.sum<std::int32_t>(int_buffer, 0, Segments::batch(std::uint64_t(1) << 63, 1)); }},
        {"InvalidArgument",
         "a `segment_team` that is not a power of two or is above the work-group size; a `segment_loads` that is "
         "not a power of two up to 16; an experimental `SegmentOptions::medium` with batches, rows or columns, with "
         "teams of 32 lanes or more, or at or past 32 vectors a lane of 32; `groups_per_segment` 0, or above 1 with "
         "fewer lanes than a "
         "work-group per contiguous segment",
         [&r, int_buffer] {
        LaunchParams p;
        p.segment_team = 3;
        r.sum<std::int32_t>(int_buffer, 0, Segments::batch(3, 1), p);
         }},
        {"InvalidArgument",
         "a `vector_width` above 4 for column reductions (`Segments::columns`), above 1 where the operation's "
         "state is larger than 16 bytes",
         [&r, int_buffer] {
        LaunchParams p;
        p.vector_width = 8;
        r.sum<std::int32_t>(int_buffer, 0, Segments::columns(1, 3), p);
         }},
        {"InvalidArgument", "an accumulator other than int32, uint32, int64, uint64, float32 and float64",
         sum_with(with([](LaunchParams& p) { p.accumulator = ElementType::int8; }))},
        {"InvalidArgument", "a floating-point accumulator for `count_nonzero`, `all` or `any`",
         [&r] { r.any(ints, with([](LaunchParams& p) { p.accumulator = ElementType::float32; })); }},
        {"InvalidArgument", "an integer accumulator for `statistics`",
         [&r] { r.statistics(ints, with([](LaunchParams& p) { p.accumulator = ElementType::int64; })); }},
        {"InvalidArgument",
         "an integer accumulator for floating-point data (but for a transform, whose expression computes the values)",
         [&r] { r.sum(floats, with([](LaunchParams& p) { p.accumulator = ElementType::int64; })); }},
        {"InvalidArgument",
         "an integer accumulator that cannot hold every term (unsigned for signed data, narrower than the data) "
         "under `IntegerOverflow::check`, and always for `mean`, `norm_l1` and `norm_l2`",
         sum_with(with([](LaunchParams& p) { p.accumulator = ElementType::uint64; }))},
        {"InvalidArgument", "`FloatMode::correctly_rounded` of float64 data with a float32 accumulator",
         plan_on(gpu, ElementType::float64, 1000, with([](LaunchParams& p) {
                     p.float_mode = FloatMode::correctly_rounded;
                     p.accumulator = ElementType::float32;
                 }))},
        {"InvalidArgument",
         "a transform expression that is not one expression of the language (the message names the column and "
         "the token)",
         [&r] { r.transform_reduce(ints, "x = 1", Combine::sum); }},
        {"InvalidArgument",
         "a transform expression calling a float-only built-in (`exp`, `pow`, `mad`, `fma`, …) whose arguments are all "
         "integers, or holding a floating literal outside its type's range (`1e999`); the message names the function "
         "or literal, its column and the fix",
         [&r] { r.transform_reduce(ints, "exp(x)", Combine::sum); }},
        {"InvalidArgument",
         "a transform expression dividing integers by a constant 0 (`x / 0`, `x % (1 - 1)` where `x` is an integer); "
         "the message names the operator and its column",
         [&r] { r.transform_reduce(ints, "x % (1 - 1)", Combine::sum); }},
        {"InvalidArgument",
         "a combine expression (`CombineExpression`) that is not one expression in `a` and `b` of the language, is "
         "not symmetric in `a` and `b` by the written rule, or builds a state of several values; or its identity is "
         "not one literal of the accumulation type within its range (the message names the column)",
         [&r] {
        r.transform_reduce(ints, "x", CombineExpression{"a - b", "0"});
         }},
        {"InvalidArgument",
         "a combine expression with `InterGroup::atomic` or `exact_atomic`, or with a float mode other than "
         "`deterministic`",
         [&r] {
        LaunchParams p;
        p.inter_group = InterGroup::atomic;
        r.plan_transform(ElementType::int32, CombineExpression{"a + b", "0"}, 1000, p);
         }},
        {"InvalidArgument",
         "an image with channels outside 1–4, a step smaller than a row or not a multiple of the element size, data "
         "past the buffer's end, or a non-zero `offset` for host data",
         [&r, row] {
        Image five = row;
        five.channels = 5;
        r.sum(ints.data(), five);
         }},
        {"InvalidArgument", "an image `norm` whose `norm_op` is not `norm_l1`, `norm_l2` or `norm_inf`",
         [&r, row] { r.norm(ints.data(), row, Operation::sum); }},
        {"InvalidArgument",
         "an image mask with a step smaller than `cols`, bytes past its buffer's end, no buffer for a buffer image, "
         "neither buffer nor data for host data, or a non-zero `offset` for host data",
         [&r, row] {
        Image masked = row;
        const ImageMask none;
        masked.mask = &none;
        r.sum(ints.data(), masked);
         }},
        {"InvalidArgument",
         "a name that no `parse_*` function knows (element type, operation, family, float mode, integer overflow "
         "rule, result delivery)",
         [] { parse_float_mode("kahan"); }},
        {"InvalidArgument", "`tune()` with `repeats` below 1, or `min_n` outside [1, `max_n`]",
         [&r] {
        TuneOptions o;
        o.min_n = 0;
        o.save = false;
        r.tune(o);
         }},
        {"InvalidArgument",
         "`Partial::merge` of partials of different operations, element types, float modes, overflow rules or "
         "accumulators",
         [&r] {
        Partial p = r.partial(Operation::sum, ints);
        p.merge(r.partial(Operation::max, ints));
         }},
        {"InvalidArgument",
         "a `Partial`'s value read for another operation or element type, or from a `Partial` of nothing",
         [&r] { r.partial(Operation::sum, ints).min<std::int32_t>(); }},
        {"InvalidArgument",
         "`Partial::from_bytes` of bytes that are not a partial in a format version this library reads, or whose "
         "CRC-32C checksum does not match them (a record changed on its way); the message says what is wrong",
         [&r] {
        std::vector<std::uint8_t> bytes = r.partial(Operation::sum, ints).to_bytes();
        bytes[partial_state_at()] ^= 1;  // a bit of the state flipped on its way
        Partial::from_bytes(bytes.data(), bytes.size());
         }},
        {"InvalidArgument",
         "`Partial::from_bytes` of a state that no reduction of its operation leaves (an index past its count, a "
         "count other than the header's, a sum its elements cannot make); `Partial::merge` of partials of more than "
         "2^64 − 1 elements in all",
         [&r] {
        std::vector<std::uint8_t> bytes = r.partial(Operation::argmin, ints).to_bytes();
        bytes[partial_state_at()] = 3;  // the index, of 3 elements, under a checksum that matches
        reseal(bytes);
        Partial::from_bytes(bytes.data(), bytes.size());
         }},
        {"InvalidArgument",
         "a `MultiReducer` of no devices, a null device or an empty device spec; a `Piece` naming a device it does "
         "not have; `set_weights` with a weight per device that is not positive and finite",
         [] { MultiReducer(std::vector<cl::Device>{}); }},
        {"InvalidArgument", "`MultiReducer::calibrate` with `n = 0` or of `half` data",
         [&r] {
        MultiReducer(std::vector<cl::Device>{r.queue().getInfo<CL_QUEUE_DEVICE>()}).calibrate(ElementType::float16);
         }},
        {"InvalidArgument", "a `MultiReducer` that was moved from (any call)",
         [&r] {
        MultiReducer from(std::vector<cl::Device>{r.queue().getInfo<CL_QUEUE_DEVICE>()});
        const MultiReducer to(std::move(from));
        (void)from.size();  // NOLINT(bugprone-use-after-move): the point
         }},
        {"Unsupported", "a segmented call with an `InterGroup` other than `second_pass`",
         [&r, int_buffer] {
        LaunchParams p;
        p.inter_group = InterGroup::last_group;
        r.sum<std::int32_t>(int_buffer, 0, Segments::batch(3, 1), p);
         }},
        {"Unsupported", "`double` data on a device without `cl_khr_fp64`; `half` data without `cl_khr_fp16`",
         plan_on(no_fp64, ElementType::float64, 1000, {})},
        {"Unsupported", "`bit_and`, `bit_or` or `bit_xor` of floating-point data",
         [&r] {
        r.bit_or(std::vector<float>{1.0f, 2.0f});
         }},
        {"Unsupported", "`statistics` of int64 or uint64 data (its double accumulator would round their extremes)",
         [&r] {
        r.statistics(std::vector<std::uint64_t>{1, 2});
         }},
        {"Unsupported",
         "`InterGroup::atomic` where the plan has no atomic finish: statistics, operations other than the "
         "additive ones, 32/64-bit integer min, max, bit_and, bit_or and bit_xor, and integer norm_inf (8/16-bit "
         "min, max and bit operations have none), 64-bit min, max and bit operations and integer norm_inf without "
         "`cl_khr_int64_extended_atomics`, a floating-point accumulator outside `FloatMode::atomic`, a 64-bit add "
         "without `cl_khr_int64_base_atomics`",
         [&r] { r.min(floats, with([](LaunchParams& p) { p.inter_group = InterGroup::atomic; })); }},
        {"Unsupported",
         "`InterGroup::exact_atomic` outside the floating-point additive operations in `FloatMode::deterministic`, "
         "or without `cl_khr_int64_base_atomics`",
         sum_with(with([](LaunchParams& p) { p.inter_group = InterGroup::exact_atomic; }))},
        {"Unsupported", "`InterGroup::last_group` on a device without a device-wide fence clreduce knows",
         plan_on(gpu, ElementType::int32, 1 << 20,
                 with([](LaunchParams& p) { p.inter_group = InterGroup::last_group; }))},
        {"Unsupported",
         "`FloatMode::correctly_rounded` for operations other than sum, mean, norm_l1 and transform-sum, whatever "
         "the element type",
         [&r] { r.min(floats, with([](LaunchParams& p) { p.float_mode = FloatMode::correctly_rounded; })); }},
        {"Unsupported", "an asynchronous call with `InterGroup::atomic` or `exact_atomic`",
         [&r, float_buffer, result] {
        r.sum_async<float>(float_buffer, 0, 3, {result},
                           with([](LaunchParams& p) { p.inter_group = InterGroup::atomic; }));
         }},
        {"Unsupported",
         "an asynchronous mean, norm, statistics or sum of floats (their results are doubles) on a device without "
         "`cl_khr_fp64`",
         [no_fp64] {
        make_plan(PlanRequest{Operation::mean, ElementType::int32, 1000, CallForm::async}, no_fp64, {});
         }},
        {"Unsupported", "`tune()` of `half` data or of an operation family it cannot measure yet",
         [&r] {
        TuneOptions o;
        o.families = {OperationFamily::extremum};
        o.save = false;
        r.tune(o);
         }},
        {"Overflow",
         "an integer result whose exact value does not fit its type under `IntegerOverflow::check` (the default): "
         "`sum`, `sum_of_squares` and `transform_reduce` with `Combine::sum` of integer data, also from a float "
         "accumulator ([numerics.md](numerics.md#integers-exact-or-refused)); `what()` names the operation, the "
         "value and the type",
         [&r] { r.sum(big); }},
        {"Overflow",
         "a `product` of integer data in a named floating-point accumulator whose value is outside int64 (or uint64), "
         "whatever `IntegerOverflow` says: there is no modulo of a rounded product",
         [&r] {
        LaunchParams p;
        p.accumulator = ElementType::float64;
        r.product(std::vector<std::int32_t>(4, 1 << 30), p);  // 2^120
         }},
        };
}

TEST_CASE("every row of the error table is a refusal the library makes, and every refusal has its row",
          "[errors][error-table]") {
    Reducer& r = reducer();
    const auto rows = table_rows();
    REQUIRE(rows.size() >= 30);
    std::set<std::pair<std::string, std::string>> walked;
    for (const Refusal& refusal : refusals(r)) {
        INFO(refusal.exception << " | " << refusal.condition);
        CHECK(rows.count({refusal.exception, refusal.condition}) == 1);
        walked.insert({refusal.exception, refusal.condition});
        if (!refusal.reachable) {
            WARN("not reachable on this device, not checked here: " << refusal.condition);
            continue;
        }
        std::string what;
        const bool thrown = throws(refusal.exception, refusal.call, what);
        INFO(what);
        CHECK(thrown);
        walked.insert({refusal.exception, refusal.condition});
    }
    for (const auto& row : rows) {
        INFO("docs/usage.md row with no call here: " << row.first << " | " << row.second);
        CHECK(walked.count(row) == 1);
    }
}

}  // namespace
}  // namespace clreduce::test
