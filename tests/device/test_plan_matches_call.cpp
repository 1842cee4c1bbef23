// Reducer::plan() is what a call launches, for every call form (synchronous, transform,
// asynchronous, image): the plan a call records in CallInfo equals the one plan() returns
// for the same request, and the call enqueued the kernels that plan says (one launch, or two
// with a second pass). And the operation table's state layouts are the plug-ins' own: each
// plug-in compiled on the device reports its state's size and field offsets.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "async_result_checks.hpp"
#include "kernels/kernel_source.hpp"  // src/
#include "kernels/kernel_spec.hpp"    // src/
#include "ops/exact_state.hpp"        // src/
#include "ops/operation_table.hpp"    // src/
#include "ops/state_value.hpp"        // src/
#include "plan/planner.hpp"           // src/
#include "test_ops_support.hpp"

namespace clreduce::test {
namespace {

// Every field a launch depends on, and what the plan reports about it.
void check_same_plan(const LaunchPlan& called, const LaunchPlan& planned) {
    INFO("call:    " << called.describe() << " [" << called.describe_sources() << "]");
    INFO("plan(): " << planned.describe() << " [" << planned.describe_sources() << "]");
    CHECK(called.describe() == planned.describe());
    CHECK(called.describe_sources() == planned.describe_sources());
    CHECK(called.operation == planned.operation);
    CHECK(called.float_mode == planned.float_mode);
    CHECK(called.element == planned.element);
    CHECK(called.accumulator == planned.accumulator);
    CHECK(called.times == planned.times);
    CHECK(called.work_group_size == planned.work_group_size);
    CHECK(called.stride == planned.stride);
    CHECK(called.vector_width == planned.vector_width);
    CHECK(called.inter_group == planned.inter_group);
    CHECK(called.groups == planned.groups);
    CHECK(called.form == planned.form);
    CHECK(called.transform == planned.transform);
    CHECK(called.reproducibility == planned.reproducibility);
    CHECK(called.tuned_n == planned.tuned_n);
}

// Kernels one reduction of `plan` enqueues.
std::size_t launches(const LaunchPlan& plan) {
    return plan.groups > 1 && plan.inter_group == InterGroup::second_pass ? 2 : 1;
}

// Runs `op` over [offset, offset + count) of `buffer` (elements of T), recording the call.
template <class T>
void run_typed(const Reducer& r, Operation op, const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count,
               const LaunchParams& params, CallInfo* info) {
    switch (op) {
        case Operation::sum: r.sum<T>(buffer, offset, count, params, info); return;
        case Operation::product: r.product<T>(buffer, offset, count, params, info); return;
        case Operation::min: r.min<T>(buffer, offset, count, params, info); return;
        case Operation::max: r.max<T>(buffer, offset, count, params, info); return;
        case Operation::minmax: r.minmax<T>(buffer, offset, count, params, info); return;
        case Operation::argmin: r.argmin<T>(buffer, offset, count, params, info); return;
        case Operation::argmax: r.argmax<T>(buffer, offset, count, params, info); return;
        case Operation::count_nonzero: r.count_nonzero<T>(buffer, offset, count, params, info); return;
        case Operation::mean: r.mean<T>(buffer, offset, count, params, info); return;
        case Operation::sum_of_squares: r.sum_of_squares<T>(buffer, offset, count, params, info); return;
        case Operation::norm_l1: r.norm_l1<T>(buffer, offset, count, params, info); return;
        case Operation::norm_l2: r.norm_l2<T>(buffer, offset, count, params, info); return;
        case Operation::norm_inf: r.norm_inf<T>(buffer, offset, count, params, info); return;
    }
}

void run_operation(const Reducer& r, Operation op, ElementType type, const cl::Buffer& buffer, std::uint64_t offset,
                   std::uint64_t count, const LaunchParams& params, CallInfo* info) {
    if (type == ElementType::int32)
        run_typed<std::int32_t>(r, op, buffer, offset, count, params, info);
    else
        run_typed<float>(r, op, buffer, offset, count, params, info);
}

// Parameter sets that move each part of a plan: defaults, each level 3, a local stride, a
// float mode, an accumulator.
std::vector<LaunchParams> parameter_sets(const Reducer& r) {
    std::vector<LaunchParams> sets(1);
    for (InterGroup level3 :
         {InterGroup::second_pass, InterGroup::last_group, InterGroup::atomic, InterGroup::exact_atomic}) {
        LaunchParams p;
        p.inter_group = level3;
        p.times = 2;
        p.work_group_size = 64;
        sets.push_back(p);
    }
    LaunchParams local;
    local.stride = Stride::local;
    local.vector_width = 2;
    sets.push_back(local);
    LaunchParams compensated;
    compensated.float_mode = FloatMode::compensated;
    sets.push_back(compensated);
    LaunchParams atomic_mode;
    atomic_mode.float_mode = FloatMode::atomic;
    sets.push_back(atomic_mode);
    return sets;
}

}  // namespace

TEST_CASE("plan() is what a synchronous call launches, for every operation", "[plan][ops]") {
    const Reducer& r = reducer();
    const std::uint64_t seed = seed_for(91);
    INFO("data seed " << seed);
    const std::uint64_t n = 50001;
    const auto ints = op_values<std::int32_t>(n, seed);
    const auto floats = op_values<float>(n, seed + 1);
    const cl::Buffer ibuf = device_copy(r, ints);
    const cl::Buffer fbuf = device_copy(r, floats);
    for (const LaunchParams& params : parameter_sets(r)) {
        for (Operation op : {Operation::sum, Operation::product, Operation::min, Operation::max, Operation::minmax,
                             Operation::argmin, Operation::argmax, Operation::count_nonzero, Operation::mean,
                             Operation::sum_of_squares, Operation::norm_l1, Operation::norm_l2, Operation::norm_inf}) {
            INFO(operation_name(op));
            for (ElementType type : {ElementType::int32, ElementType::float32}) {
                INFO(type_name(type));
                const cl::Buffer& buffer = type == ElementType::int32 ? ibuf : fbuf;
                LaunchPlan planned;
                try {
                    planned = r.plan(type, op, n - 3, params);
                } catch (const Error&) {
                    // A combination the planner refuses is refused by the call too.
                    CHECK_THROWS_AS(run_operation(r, op, type, buffer, 3, n - 3, params, nullptr), Error);
                    continue;
                }
                CallInfo info;
                run_operation(r, op, type, buffer, 3, n - 3, params, &info);
                check_same_plan(info.plan, planned);
                CHECK(info.kernel_events.size() == launches(planned));
            }
        }
    }
}

TEST_CASE("plan_transform() is what transform_reduce launches, for every combine", "[plan][transform]") {
    const Reducer& r = reducer();
    const std::uint64_t seed = seed_for(92);
    INFO("data seed " << seed);
    const std::uint64_t n = 40000;
    const auto ints = op_values<std::int32_t>(n, seed);
    const cl::Buffer ibuf = device_copy(r, ints);
    for (const LaunchParams& params : parameter_sets(r)) {
        for (Combine combine : {Combine::sum, Combine::product, Combine::min, Combine::max}) {
            INFO("combine " << int(combine));
            LaunchPlan planned;
            try {
                planned = r.plan_transform(ElementType::int32, combine, n, params);
            } catch (const Error&) {
                CHECK_THROWS_AS(r.transform_reduce<std::int32_t>(ibuf, 0, n, "x * 3 - 1", combine, params), Error);
                continue;
            }
            CHECK(planned.transform);
            // The sum's accumulator, whatever the combine.
            CHECK(planned.accumulator == r.plan(ElementType::int32, n).accumulator);
            CallInfo info;
            r.transform_reduce<std::int32_t>(ibuf, 0, n, "x * 3 - 1", combine, params, &info);
            check_same_plan(info.plan, planned);
            CHECK(info.kernel_events.size() == launches(planned));
        }
    }
}

TEST_CASE("plan(..., CallForm::async) is what an asynchronous call launches", "[plan][async]") {
    const Reducer& r = reducer();
    const std::uint64_t seed = seed_for(93);
    INFO("data seed " << seed);
    const std::uint64_t n = 60001;
    const auto floats = op_values<float>(n, seed);
    const auto ints = op_values<std::int32_t>(n, seed + 1);
    const cl::Buffer fbuf = device_copy(r, floats);
    const cl::Buffer ibuf = device_copy(r, ints);
    cl::Buffer result(r.context(), CL_MEM_READ_WRITE, 64);
    for (const LaunchParams& params : parameter_sets(r)) {
        LaunchPlan planned;
        try {
            planned = r.plan(ElementType::float32, Operation::sum, n, params, CallForm::async);
        } catch (const Error&) {
            CHECK_THROWS_AS(r.sum_async<float>(fbuf, 0, n, {result}, params), Error);
            continue;
        }
        CallInfo info;
        r.sum_async<float>(fbuf, 0, n, {result}, params, &info);
        check_same_plan(info.plan, planned);
        CHECK(info.kernel_events.size() == launches(planned));
        // Never an atomic level 3: the value is final on the device.
        CHECK(planned.inter_group != InterGroup::atomic);
        CHECK(planned.inter_group != InterGroup::exact_atomic);
        CHECK(planned.float_mode != FloatMode::atomic);

        CallInfo min_info;
        r.min_async<std::int32_t>(ibuf, 0, n, {result, 2}, params, &min_info);  // bytes 8..11
        check_same_plan(min_info.plan, r.plan(ElementType::int32, Operation::min, n, params, CallForm::async));
    }
    cl::CommandQueue queue = r.queue();
    queue.finish();
    // Asking an asynchronous call for an atomic level 3 is refused, by plan() and by the call.
    for (InterGroup level3 : {InterGroup::atomic, InterGroup::exact_atomic}) {
        LaunchParams p;
        p.inter_group = level3;
        CHECK_THROWS_AS(r.plan(ElementType::float32, Operation::sum, n, p, CallForm::async), Unsupported);
        CHECK_THROWS_AS(r.sum_async<float>(fbuf, 0, n, {result}, p), Unsupported);
    }
}

TEST_CASE("plan(..., CallForm::image) is what an image call launches, channel by channel", "[plan][image]") {
    const Reducer& r = reducer();
    const std::uint64_t seed = seed_for(94);
    INFO("data seed " << seed);
    Image image;
    image.rows = 37;
    image.cols = 301;
    image.channels = 3;
    image.step = (image.cols * image.channels + 5) * sizeof(float);
    const auto floats = op_values<float>(image.rows * image.step / sizeof(float), seed);
    const cl::Buffer fbuf = device_copy(r, floats);
    for (const LaunchParams& params : parameter_sets(r)) {
        const std::uint64_t pixels = image.rows * image.cols;
        LaunchPlan planned;
        try {
            planned = r.plan(ElementType::float32, Operation::sum, pixels, params, CallForm::image, image.channels);
        } catch (const Error&) {
            CHECK_THROWS_AS(r.sum<float>(fbuf, image, params), Error);
            continue;
        }
        CallInfo info;
        r.sum<float>(fbuf, image, params, &info);
        check_same_plan(info.plan, planned);
        CHECK(planned.vector_width == 1);
        // Every channel in one launch where level 3 is atomic, the last group's or one group's
        // store, else a launch sequence per channel.
        const Finish finish = first_finish(planned.inter_group, planned.groups, plan_kernel(planned).op);
        CHECK(planned.channels_at_once ==
              ((finish == Finish::atomic || finish == Finish::store || finish == Finish::last_group) &&
               planned.float_mode != FloatMode::correctly_rounded));
        CHECK(info.kernel_events.size() == (planned.channels_at_once ? 1 : image.channels) * launches(planned));
    }
    // The statistics' default shape depends on the channels (a GPU's multi-channel images aim at
    // half the groups): plan() told them is what the call launches.
    CallInfo statistics;
    r.reduce<Operation::statistics, float>(fbuf, image, {}, &statistics);
    check_same_plan(statistics.plan, r.plan(ElementType::float32, Operation::statistics, image.rows * image.cols, {},
                                            CallForm::image, image.channels));
}

// Segmented calls plan their mapping and their form's refusals in the planner too: a call
// launches what plan(type, op, segments, params) says and refuses what it refuses, and the
// *_async calls into a device buffer what plan(..., CallForm::async) says (no overflow check,
// no correctly rounded sum: those need the host).
TEST_CASE("plan(type, op, segments) is what a segmented call launches, into the host or a device buffer",
          "[plan][segments]") {
    const Reducer& r = reducer();
    const std::uint64_t seed = seed_for(95);
    INFO("data seed " << seed);
    const std::uint64_t n = 30000;
    const auto floats = op_values<float>(n, seed);
    const auto ints = op_values<std::int32_t>(n, seed + 1);
    const cl::Buffer fbuf = device_copy(r, floats);
    const cl::Buffer ibuf = device_copy(r, ints);
    cl::Buffer out(r.context(), CL_MEM_READ_WRITE, 64 * sizeof(double));
    const cl::Buffer status = status_word(r);
    const std::vector<std::pair<std::string, Segments>> lists{
        {"host CSR offsets", Segments::offsets(std::vector<std::uint64_t>{0, 5, 5, 900, 29000})},
        {"a batch of 40 x 700", Segments::batch(40, 700)}};
    std::vector<std::pair<std::string, LaunchParams>> sets(1);
    sets[0].first = "defaults";
    sets.emplace_back("team 4", LaunchParams{});
    sets.back().second.segment_team = 4;
    sets.emplace_back("correctly rounded", LaunchParams{});
    sets.back().second.float_mode = FloatMode::correctly_rounded;
    sets.emplace_back("float64 accumulator", LaunchParams{});
    sets.back().second.accumulator = ElementType::float64;
    std::size_t refused_async = 0;
    for (const auto& [list_name, segments] : lists)
        for (const auto& [set_name, params] : sets)
            for (ElementType type : {ElementType::int32, ElementType::float32}) {
                INFO(list_name << ", " << set_name << ", " << type_name(type));
                const bool ints_in = type == ElementType::int32;
                const cl::Buffer& values = ints_in ? ibuf : fbuf;
                const auto call = [&](CallInfo* info) {
                    if (ints_in)
                        r.sum<std::int32_t>(values, 1, segments, params, info);
                    else
                        r.sum<float>(values, 1, segments, params, info);
                };
                const auto call_async = [&](CallInfo* info) {
                    if (ints_in)
                        r.sum_async<std::int32_t>(values, 1, segments, {out, 0, {}, AsyncEvent::returned, status},
                                                  params, info)
                            .wait();
                    else
                        r.sum_async<float>(values, 1, segments, {out}, params, info).wait();
                };
                LaunchPlan planned;
                try {
                    planned = r.plan(type, Operation::sum, segments, params);
                } catch (const Error&) {
                    CHECK_THROWS_AS(call(nullptr), Error);
                    CHECK_THROWS_AS(r.plan(type, Operation::sum, segments, params, CallForm::async), Error);
                    continue;
                }
                CallInfo info;
                call(&info);
                check_same_plan(info.plan, planned);
                CHECK(info.plan.segment_team == planned.segment_team);
                CHECK(info.plan.groups_per_segment == planned.groups_per_segment);
                LaunchPlan planned_async;
                try {
                    planned_async = r.plan(type, Operation::sum, segments, params, CallForm::async);
                } catch (const Unsupported& e) {
                    INFO(e.what());
                    ++refused_async;
                    CHECK_THROWS_AS(call_async(nullptr), Unsupported);
                    continue;
                }
                CallInfo async_info;
                call_async(&async_info);
                check_same_plan(async_info.plan, planned_async);
                // int32 sums in a float64 accumulator are checked on the device (a status word);
                // otherwise the same launch, results kept on the device.
                CHECK(planned_async.result_status == (ints_in && set_name == "float64 accumulator"));
                LaunchPlan launched = planned_async;
                launched.result_status = false;
                check_same_plan(launched, planned);
            }
    // Nothing refused: correctly rounded float sums are rounded on the device too.
    CHECK(refused_async == 0);
    CHECK_THROWS_AS(r.plan(ElementType::int32, Operation::sum, lists[0].second, {}, CallForm::image), InvalidArgument);
}

namespace {

// The plug-in of `spec` compiled with a probe kernel: sizeof(clreduce_state) and the value of
// the expression `second` (an offset or a size), as the device sees them.
std::array<cl_ulong, 2> plugin_layout(const Reducer& r, const KernelSources& sources, const KernelSpec& spec,
                                      const std::string& second) {
    const std::string source = sources.get("prelude.cl") + sources.get("fixed_point.cl") +
                               sources.get(plugin_info(spec.op).file) +
                               "\n__kernel void layout(__global ulong* out) { out[0] = sizeof(clreduce_state); "
                               "out[1] = " +
                               second + "; }\n";
    cl::Program program(r.context(), source);
    const cl_int built = program.build(spec.build_options().c_str());
    INFO(program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(r.queue().getInfo<CL_QUEUE_DEVICE>()));
    REQUIRE(built == CL_SUCCESS);
    cl::Buffer out(r.context(), CL_MEM_READ_WRITE, 2 * sizeof(cl_ulong));
    cl::Kernel kernel(program, "layout");
    kernel.setArg(0, out);
    cl::CommandQueue queue = r.queue();
    REQUIRE(queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(1), cl::NDRange(1)) == CL_SUCCESS);
    std::array<cl_ulong, 2> got{};
    REQUIRE(queue.enqueueReadBuffer(out, CL_TRUE, 0, sizeof got, got.data()) == CL_SUCCESS);
    return got;
}

}  // namespace

TEST_CASE("the operation table's state layouts are the plug-ins' own", "[plan][layout]") {
    const Reducer& r = reducer();
    const KernelSources sources = KernelSources::load();
    const bool fp64 = r.device_info().has_fp64;
    for (KernelOp op :
         {KernelOp::add, KernelOp::add_compensated, KernelOp::add_exact, KernelOp::multiply, KernelOp::min,
          KernelOp::max, KernelOp::minmax, KernelOp::argmin, KernelOp::argmax, KernelOp::moments}) {
        const PluginInfo& plugin = plugin_info(op);
        for (ElementType acc : {ElementType::int32, ElementType::uint32, ElementType::int64, ElementType::uint64,
                                ElementType::float32, ElementType::float64}) {
            if (acc == ElementType::float64 && !fp64) continue;
            const bool floating_only = plugin.layout == StateLayout::exact ||
                                       plugin.layout == StateLayout::compensated ||
                                       plugin.layout == StateLayout::moments;
            if (floating_only && !is_floating(acc)) continue;
            INFO(plugin.file << " with " << type_name(acc));
            KernelSpec spec;
            spec.op = op;
            spec.element = acc;
            spec.accumulator = acc;
            spec.finish = Finish::store;
            // The field whose offset the host reads second (the first is at 0 in every layout).
            std::string second = "0";
            if (plugin.layout == StateLayout::compensated) second = "(ulong)&((clreduce_state*)0)->c";
            if (plugin.layout == StateLayout::pair) second = "(ulong)&((clreduce_state*)0)->hi";
            if (plugin.layout == StateLayout::indexed) second = "(ulong)&((clreduce_state*)0)->value";
            if (plugin.layout == StateLayout::exact) second = "(ulong)&((clreduce_state*)0)->flags";
            if (plugin.layout == StateLayout::moments) second = "(ulong)&((clreduce_state*)0)->hi";
            const auto got = plugin_layout(r, sources, spec, second);
            CHECK(got[0] == state_size(op, acc));
            const std::size_t a = type_size(acc);
            switch (plugin.layout) {
                case StateLayout::value: break;
                case StateLayout::compensated:
                case StateLayout::pair: CHECK(got[1] == a); break;
                case StateLayout::indexed: CHECK(got[1] == kIndexedValueOffset); break;
                case StateLayout::exact: CHECK(got[1] == state_size(op, acc) - 8); break;
                case StateLayout::moments: CHECK(got[1] == 8 + 4 * a); break;  // state_moments' offsets
                default: FAIL("a layout this test does not know");
            }
        }
    }
    // The correctly rounded sum's expansion route (the exact atomic finish): its tree's state
    // and its group sink are the sizes the planner counts against local memory.
    const DeviceInfo& info = r.device_info();
    if (!has_exact_atomic_finish(KernelOp::add_exact, ElementType::float32, FloatMode::correctly_rounded, info)) return;
    for (ElementType acc : {ElementType::float32, ElementType::float64})
        for (ExactLanePasses passes :
             {ExactLanePasses::tested, ExactLanePasses::untested_first, ExactLanePasses::anchored}) {
            INFO("add_exact.cl expansions with " << type_name(acc) << ", level 1 " << to_string(passes));
            KernelSpec spec;
            spec.op = KernelOp::add_exact;
            spec.element = acc;
            spec.accumulator = acc;
            spec.finish = Finish::exact_atomic;
            spec.exact_passes = passes;
            const auto got = plugin_layout(r, sources, spec, "CLREDUCE_SINK_WORDS * sizeof(long)");
            CHECK(got[0] == exact_expansion_size(acc));
            // The sink holds a number like the result's; the GPUs' passes add two words, which
            // the planner counts for every expansion route.
            CHECK(got[1] == (passes == ExactLanePasses::anchored ? exact_sink_size(acc) : exact_state_size(acc)));
            CHECK(got[1] <= exact_sink_size(acc));
        }
}

TEST_CASE("times != power of two and the reducer's plan() agree with what sum uses", "[plan][sum]") {
    Reducer& r = test::reducer();
    LaunchParams params;
    params.times = 3;
    params.work_group_size = 8;
    const std::vector<std::int32_t> data(10007, -3);
    CallInfo info;
    CHECK(r.sum(data, params, &info) == -30021);
    // Host data: plan it as such (on a CPU device this small sum runs on the host, no launch).
    const LaunchPlan planned = r.plan(ElementType::int32, Operation::sum, data.size(), params, CallForm::host_data);
    CHECK(info.plan.describe() == planned.describe());
    CHECK(info.kernel_events.size() == (planned.on_host                                  ? 0u
                                        : planned.inter_group == InterGroup::second_pass ? 2u
                                                                                         : 1u));
    // The same sum from a buffer launches the same shape.
    const cl::Buffer buffer(r.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, data.size() * sizeof(std::int32_t),
                            const_cast<std::int32_t*>(data.data()));
    CallInfo launched;
    CHECK(r.sum<std::int32_t>(buffer, 0, data.size(), params, &launched) == -30021);
    CHECK(launched.plan.describe() == r.plan(ElementType::int32, data.size(), params).describe());
    CHECK(launched.kernel_events.size() == (planned.inter_group == InterGroup::second_pass ? 2u : 1u));
    CHECK(launch_shape(launched.plan).times == launch_shape(planned).times);
}

}  // namespace clreduce::test
