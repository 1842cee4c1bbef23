// The one planner on a described (not real) device: defaults, overrides and what they imply,
// tuned buckets, and per operation the accumulators, level-3 strategies, float modes and the
// work-group cap of large states.
#include "test_support.hpp"

#include <catch2/catch.hpp>
#include "plan/planner.hpp"  // src/

using namespace clreduce;

using test::fake_gpu;

TEST_CASE("operation plans: accumulators and level-3 strategies per operation", "[ops][plan]") {
    const DeviceInfo gpu = fake_gpu();
    const std::uint64_t n = 1ull << 24;
    CHECK(make_plan(Operation::sum, ElementType::int8, n, gpu).accumulator == ElementType::int64);
    CHECK(make_plan(Operation::sum, ElementType::uint16, n, gpu).accumulator == ElementType::uint64);
    CHECK(make_plan(Operation::sum, ElementType::int8, n, gpu).vector_width == 16);
    CHECK(make_plan(Operation::sum, ElementType::int16, n, gpu).vector_width == 8);
    CHECK(make_plan(Operation::count_nonzero, ElementType::float32, n, gpu).accumulator == ElementType::uint64);
    CHECK(make_plan(Operation::sum_of_squares, ElementType::int32, n, gpu).accumulator == ElementType::uint64);
    CHECK(make_plan(Operation::norm_inf, ElementType::int16, n, gpu).accumulator == ElementType::uint64);
    CHECK(make_plan(Operation::norm_inf, ElementType::float32, n, gpu).accumulator == ElementType::float32);
    CHECK(make_plan(Operation::min, ElementType::uint8, n, gpu).accumulator == ElementType::uint8);
    CHECK(make_plan(Operation::argmax, ElementType::float64, n, gpu).accumulator == ElementType::float64);
    // Integer additive operations finish atomically; the others store partials that the last
    // group combines (on NVIDIA and CPU devices; a second pass elsewhere, below).
    CHECK(make_plan(Operation::count_nonzero, ElementType::float32, n, gpu).inter_group == InterGroup::atomic);
    // Integer min/max finish with atomic_min/max: 32-bit always, 64-bit with the extension.
    CHECK(make_plan(Operation::min, ElementType::int32, n, gpu).inter_group == InterGroup::atomic);
    CHECK(make_plan(Operation::max, ElementType::uint32, n, gpu).inter_group == InterGroup::atomic);
    CHECK(make_plan(Operation::min, ElementType::int64, n, gpu).inter_group == InterGroup::last_group);
    CHECK(make_plan(Operation::norm_inf, ElementType::int32, n, gpu).inter_group == InterGroup::last_group);
    CHECK(make_plan(Operation::min, ElementType::int8, n, gpu).inter_group == InterGroup::last_group);
    CHECK(make_plan(Operation::max, ElementType::float32, n, gpu).inter_group == InterGroup::last_group);
    DeviceInfo extended = gpu;
    extended.has_int64_min_max_atomics = true;
    CHECK(make_plan(Operation::min, ElementType::int64, n, extended).inter_group == InterGroup::atomic);
    CHECK(make_plan(Operation::norm_inf, ElementType::int32, n, extended).inter_group == InterGroup::atomic);
    CHECK_THROWS_WITH(make_plan(
                          Operation::max, ElementType::int64, n, gpu,
                          [] {
        LaunchParams p;
        p.inter_group = InterGroup::atomic;
        return p;
                          }()),
                      Catch::Contains("cl_khr_int64_extended_atomics"));
    CHECK(make_plan(Operation::product, ElementType::int32, n, gpu).inter_group == InterGroup::last_group);
    // Deterministic float sums add the group results exactly (64-bit integer atomics).
    CHECK(make_plan(Operation::mean, ElementType::float32, n, gpu).inter_group == InterGroup::exact_atomic);
    CHECK(make_plan(Operation::norm_l2, ElementType::float64, n, gpu).inter_group == InterGroup::exact_atomic);
    LaunchParams atomic;
    atomic.inter_group = InterGroup::atomic;
    CHECK_THROWS_WITH(make_plan(Operation::argmin, ElementType::int32, n, gpu, atomic),
                      Catch::Contains("only additive operations, min and max"));
    // Float atomic mode: compare-and-swap, where 64-bit atomics exist for a double accumulator.
    LaunchParams fast;
    fast.float_mode = FloatMode::atomic;
    const LaunchPlan cas = make_plan(Operation::sum, ElementType::float32, n, gpu, fast);
    CHECK(cas.inter_group == InterGroup::atomic);
    CHECK(cas.float_mode == FloatMode::atomic);
    CHECK_THAT(cas.describe(), Catch::Contains("mode=atomic"));
    DeviceInfo no64 = gpu;
    no64.has_int64_atomics = false;
    CHECK(make_plan(Operation::sum, ElementType::float32, n, no64, fast).inter_group == InterGroup::last_group);
    fast.accumulator = ElementType::float32;
    CHECK(make_plan(Operation::sum, ElementType::float32, n, no64, fast).inter_group == InterGroup::atomic);
    CHECK_THAT(make_plan(Operation::argmin, ElementType::int32, n, gpu).describe(), Catch::StartsWith("argmin int32"));
    CHECK(make_plan(ElementType::int32, n, gpu).describe() ==
          make_plan(Operation::sum, ElementType::int32, n, gpu).describe());
}

TEST_CASE("operation plans: types the device lacks and large states", "[ops][plan]") {
    DeviceInfo gpu = fake_gpu();
    CHECK_THROWS_WITH(make_plan(Operation::min, ElementType::float16, 100, gpu), Catch::Contains("cl_khr_fp16"));
    gpu.has_fp16 = true;
    CHECK(make_plan(Operation::min, ElementType::float16, 100, gpu).accumulator == ElementType::float32);
    CHECK(make_plan(Operation::sum, ElementType::float16, 100, gpu).accumulator == ElementType::float64);
    gpu.has_fp64 = false;
    CHECK(make_plan(Operation::sum, ElementType::float16, 100, gpu).accumulator == ElementType::float32);
    LaunchParams wide;
    wide.accumulator = ElementType::float64;
    CHECK_THROWS_AS(make_plan(Operation::sum, ElementType::float32, 100, gpu, wide), Unsupported);
    // The correctly rounded sum: where the device has 64-bit atomics and doubles, its expansion
    // path (48-byte states, and a 544-byte sink per group) keeps the usual group size. It ors
    // its flags as 64-bit words: without cl_khr_int64_extended_atomics, the fixed-point states.
    gpu = fake_gpu();
    LaunchParams exact;
    exact.float_mode = FloatMode::correctly_rounded;
    CHECK(make_plan(Operation::sum, ElementType::float64, 1 << 20, gpu, exact).inter_group != InterGroup::exact_atomic);
    gpu.has_int64_min_max_atomics = true;
    const LaunchPlan fast = make_plan(Operation::sum, ElementType::float64, 1 << 20, gpu, exact);
    CHECK(fast.inter_group == InterGroup::exact_atomic);
    CHECK(fast.work_group_size == 256);
    exact.work_group_size = 1024;  // 1024 x 48 + 544 bytes: more than 48 KiB
    CHECK_THROWS_WITH(make_plan(Operation::sum, ElementType::float64, 1 << 20, gpu, exact),
                      Catch::Contains("more local memory"));
    // Its fixed-point state (68 words, the second pass) shrinks the default group to fit.
    exact.work_group_size.reset();
    exact.inter_group = InterGroup::second_pass;
    const LaunchPlan p = make_plan(Operation::sum, ElementType::float64, 1 << 20, gpu, exact);
    CHECK(p.work_group_size < 256);
    CHECK(p.work_group_size * 544 <= gpu.local_mem_size);
    exact.work_group_size = 256;
    CHECK_THROWS_WITH(make_plan(Operation::sum, ElementType::float64, 1 << 20, gpu, exact),
                      Catch::Contains("more local memory"));
    // Without 64-bit atomics there is no expansion path: the fixed-point states.
    gpu.has_int64_atomics = false;
    exact.work_group_size.reset();
    exact.inter_group.reset();
    CHECK(make_plan(Operation::sum, ElementType::float64, 1 << 20, gpu, exact).inter_group != InterGroup::exact_atomic);
    // Extremum operations are exact whatever the mode asks.
    LaunchParams cr;
    cr.float_mode = FloatMode::correctly_rounded;
    CHECK_THROWS_AS(make_plan(Operation::max, ElementType::float32, 100, gpu, cr), Unsupported);  // not offered
}

TEST_CASE("the last-group finish is the default only where clreduce knows a device-wide fence", "[plan]") {
    const std::uint64_t n = 1 << 20;
    DeviceInfo other = test::fake_gpu();
    other.is_nvidia = false;
    other.name = "fake non-NVIDIA GPU";
    CHECK(has_last_group_finish(test::fake_gpu()));
    CHECK_FALSE(has_last_group_finish(other));
    DeviceInfo cpu = other;
    cpu.type = CL_DEVICE_TYPE_CPU;
    CHECK(has_last_group_finish(cpu));
    CHECK(make_plan(Operation::max, ElementType::float32, n, other).inter_group == InterGroup::second_pass);
    CHECK(make_plan(Operation::argmin, ElementType::int32, n, other).inter_group == InterGroup::second_pass);
    CHECK(make_plan(Operation::max, ElementType::float32, n, cpu).inter_group == InterGroup::last_group);
    // Float sums: added exactly wherever 64-bit atomics are, else the same fallbacks.
    CHECK(make_plan(Operation::sum, ElementType::float32, n, other).inter_group == InterGroup::exact_atomic);
    DeviceInfo other_no64 = other;
    other_no64.has_int64_atomics = false;
    CHECK(make_plan(Operation::sum, ElementType::float32, n, other_no64).inter_group == InterGroup::second_pass);
    DeviceInfo cpu_no64 = cpu;
    cpu_no64.has_int64_atomics = false;
    CHECK(make_plan(Operation::sum, ElementType::float32, n, cpu_no64).inter_group == InterGroup::last_group);
    LaunchParams last;
    last.inter_group = InterGroup::last_group;
    CHECK_THROWS_AS(make_plan(Operation::sum, ElementType::int32, n, other, last), Unsupported);
    CHECK_THROWS_WITH(make_plan(Operation::sum, ElementType::int32, n, other, last),
                      Catch::Contains("fake non-NVIDIA GPU") && Catch::Contains("InterGroup::second_pass"));
    CHECK(make_plan(Operation::sum, ElementType::int32, n, test::fake_gpu(), last).inter_group ==
          InterGroup::last_group);
    CHECK_THAT(make_plan(Operation::sum, ElementType::int32, n, test::fake_gpu(), last).describe(),
               Catch::Contains("level3=last_group"));
}

TEST_CASE("GPU defaults: 256 work-items, 16-byte loads, about 8 groups per compute unit", "[plan]") {
    const DeviceInfo gpu = fake_gpu();
    const LaunchPlan p = make_plan(ElementType::int32, 1ull << 30, gpu);
    CHECK(p.work_group_size == 256);
    CHECK(p.vector_width == 4);
    CHECK(p.accumulator == ElementType::int64);
    CHECK(p.stride == Stride::global);
    CHECK(p.inter_group == InterGroup::atomic);
    CHECK(p.times == 64);  // capped: 2^28 vectors would want more
    CHECK(p.groups == (1ull << 28) / (256 * 64));

    const LaunchPlan mid = make_plan(ElementType::int32, 1ull << 24, gpu);
    CHECK(mid.times == 16);
    CHECK(mid.groups == 1024);
    CHECK(mid.groups <= 8 * gpu.compute_units);

    const LaunchPlan d = make_plan(ElementType::float64, 1000, gpu);
    CHECK(d.vector_width == 2);
    CHECK(d.inter_group == InterGroup::exact_atomic);  // group results added exactly (64-bit atomics)
    CHECK(d.times == 1);
    CHECK(d.groups == 2);  // 500 double2 loads over 256 work-items
}

TEST_CASE("CPU defaults: 64 work-items, 64-byte loads, times capped at 16, small sizes in the host path's shape",
          "[plan]") {
    DeviceInfo cpu = fake_gpu();
    cpu.type = CL_DEVICE_TYPE_CPU;
    cpu.compute_units = 2;
    cpu.is_nvidia = false;
    cpu.wavefront_width = 1;
    const LaunchPlan p = make_plan(ElementType::uint32, 1ull << 24, cpu);
    CHECK(p.work_group_size == 64);
    CHECK(p.vector_width == 16);  // a cache line
    CHECK(p.stride == Stride::global);
    CHECK(p.times == 16);
    CHECK(p.groups == 1024);
    CHECK(make_plan(ElementType::float64, 1ull << 24, cpu).vector_width == 8);
    CHECK(make_plan(ElementType::int8, 1ull << 24, cpu).vector_width == 16);  // at most 16 lanes
    CHECK(make_plan(ElementType::uint32, 1ull << 21, cpu).times == 16);       // 2^17 vectors: 128 groups at the cap
    // Up to 4 MiB: 4 work-items of local stride, 1024 vectors each (one program for all sizes).
    for (std::uint64_t n : {std::uint64_t(1), std::uint64_t(4096), std::uint64_t(1) << 20}) {
        const LaunchPlan small = make_plan(ElementType::uint32, n, cpu);
        CHECK(small.work_group_size == 4);
        CHECK(small.stride == Stride::local);
        CHECK(small.times == 1024);
        CHECK(small.groups == std::max<std::uint64_t>(1, n / 16 / 4096));
    }
    CHECK(make_plan(ElementType::uint32, (1ull << 20) + 1, cpu).work_group_size == 64);
    // Deterministic float sums finish with the last group on CPU devices (the exact atomic on GPUs).
    CHECK(make_plan(ElementType::float32, 1ull << 24, cpu).inter_group == InterGroup::last_group);
    CHECK(make_plan(ElementType::float32, 1ull << 24, fake_gpu()).inter_group == InterGroup::exact_atomic);
    // GPUs keep theirs.
    CHECK(make_plan(ElementType::uint32, 4096, fake_gpu()).vector_width == 4);
}

TEST_CASE("overrides win and the group count follows", "[plan]") {
    LaunchParams params;
    params.times = 3;  // times need not be a power of two
    params.work_group_size = 64;
    params.vector_width = 1;
    params.stride = Stride::local;
    params.inter_group = InterGroup::second_pass;
    const LaunchPlan p = make_plan(ElementType::uint32, 1000, fake_gpu(), params);
    CHECK(p.times == 3);
    CHECK(p.work_group_size == 64);
    CHECK(p.vector_width == 1);
    CHECK(p.stride == Stride::local);
    CHECK(p.inter_group == InterGroup::second_pass);
    CHECK(p.groups == 6);  // ceil(1000 / 192)
    CHECK(make_plan(ElementType::uint32, 0, fake_gpu()).groups == 1);
    CHECK_THAT(p.describe(), Catch::Matchers::Contains("times=3"));
}

TEST_CASE("a plan needing too many work-groups asks for a larger times", "[plan]") {
    LaunchParams params;
    params.times = 1;
    params.work_group_size = 1;
    params.vector_width = 1;
    CHECK_THROWS_WITH(make_plan(ElementType::uint64, 1ull << 32, fake_gpu(), params),
                      Catch::Matchers::Contains("raise times"));
}

TEST_CASE("a tuned times serves smaller sizes with as many work-groups as its bucket had", "[plan][tuning]") {
    const DeviceInfo gpu = clreduce::test::fake_gpu();
    LaunchParams p;
    p.times = 16;
    p.work_group_size = 128;
    p.vector_width = 1;
    p.stride = Stride::global;
    p.inter_group = InterGroup::atomic;
    const TunedParams bucket{p, ParamSource::known_device, 1u << 12};  // 2 groups at 2^12
    CHECK(make_plan(ElementType::int32, 1u << 12, gpu, {}, bucket).times == 16);
    CHECK(make_plan(ElementType::int32, 1u << 12, gpu, {}, bucket).groups == 2);
    const LaunchPlan small = make_plan(ElementType::int32, 1u << 10, gpu, {}, bucket);
    CHECK(small.times == 4);  // 1024 elements over 2 groups of 128
    CHECK(small.groups == 2);
    CHECK(small.sources.times == ParamSource::known_device);
    CHECK(make_plan(ElementType::int32, 100, gpu, {}, bucket).times == 1);
    CHECK(make_plan(ElementType::int32, 3000, gpu, {}, bucket).times == 8);       // rounded down to a power of two
    CHECK(make_plan(ElementType::int32, 1u << 14, gpu, {}, bucket).times == 16);  // larger sizes keep it
    LaunchParams explicit_times;
    explicit_times.times = 16;
    CHECK(make_plan(ElementType::int32, 1u << 10, gpu, explicit_times, bucket).times == 16);  // overrides are kept

    // Below a large bucket, a launch that still fills the device (8 groups per compute unit)
    // keeps the tuned times: half of the 2^28 bucket's size at times 8, not 4.
    LaunchParams large = p;
    large.times = 8;
    large.work_group_size = 256;
    large.vector_width = 4;
    const TunedParams large_bucket{large, ParamSource::known_device, 1u << 28};
    const LaunchPlan half = make_plan(ElementType::int32, 1u << 27, gpu, {}, large_bucket);
    CHECK(half.times == 8);
    CHECK(half.groups == (1u << 27) / 4 / 256 / 8);
    // Where keeping it would leave the device short of 8 groups per compute unit, the times
    // comes down to keep the bucket's groups.
    const std::uint64_t few = std::uint64_t(gpu.compute_units) * 8 * 256 * 4 * 8 / 2;
    CHECK(make_plan(ElementType::int32, few, gpu, {}, large_bucket).times == 1);
}

TEST_CASE("the fused statistics and compensated sums keep their own default shape, not a sum's tuned one",
          "[plan][tuning]") {
    const DeviceInfo gpu = clreduce::test::fake_gpu();
    LaunchParams p;
    p.times = 2;
    p.work_group_size = 256;
    p.vector_width = 4;
    p.stride = Stride::global;
    p.inter_group = InterGroup::last_group;
    const TunedParams bucket{p, ParamSource::known_device, 1u << 28};
    const std::uint64_t n = 1u << 28;
    CHECK(make_plan(PlanRequest{Operation::sum, ElementType::float32, n}, gpu, {}, &bucket).times == 2);
    const LaunchPlan statistics =
        make_plan(PlanRequest{Operation::statistics, ElementType::float32, n}, gpu, {}, &bucket);
    CHECK(statistics.sources.times == ParamSource::device_default);
    CHECK(statistics.times > 2);
    CHECK(statistics.times <= 64);
    CHECK(statistics.groups <= std::uint64_t(gpu.compute_units) * 8 * 4);
    // On a GPU an image of them (and of argmin/argmax) takes the correctly rounded sum's default:
    // longer work-items, about 4 groups per compute unit, where a sum's takes up to 64 vectors
    // (the image form reads a pixel per vector) and 8 groups per compute unit.
    LaunchParams pixels;
    pixels.vector_width = 1;
    const std::uint64_t image_n = 7680ull * 4320;
    const auto image_plan = [&](Operation op, ElementType element, const DeviceInfo& device) {
        PlanRequest request{op, element, image_n};
        request.form = CallForm::image;
        return make_plan(request, device, pixels);
    };
    const LaunchPlan image = image_plan(Operation::statistics, ElementType::uint8, gpu);
    CHECK(image.times > 64);
    CHECK(image.times <= 512);
    CHECK(image.groups <= std::uint64_t(gpu.compute_units) * 4);
    CHECK(image_plan(Operation::argminmax, ElementType::float32, gpu).groups <= std::uint64_t(gpu.compute_units) * 4);
    CHECK(image_plan(Operation::sum, ElementType::uint8, gpu).times <= 64);
    // Ranges keep the sum's rule; 8/16-bit statistics load 8 bytes per vector there.
    CHECK(make_plan(PlanRequest{Operation::statistics, ElementType::float32, image_n}, gpu).times <= 64);
    CHECK(make_plan(PlanRequest{Operation::statistics, ElementType::float32, image_n}, gpu).vector_width == 4);
    CHECK(make_plan(PlanRequest{Operation::statistics, ElementType::uint16, image_n}, gpu).vector_width == 4);
    CHECK(make_plan(PlanRequest{Operation::statistics, ElementType::int8, image_n}, gpu).vector_width == 8);
    CHECK(make_plan(PlanRequest{Operation::sum, ElementType::uint16, image_n}, gpu).vector_width == 8);
    // CPU devices keep a sum's default.
    DeviceInfo cpu = gpu;
    cpu.type = CL_DEVICE_TYPE_CPU;
    CHECK(image_plan(Operation::statistics, ElementType::uint8, cpu).times ==
          image_plan(Operation::sum, ElementType::uint8, cpu).times);
    CHECK(make_plan(PlanRequest{Operation::statistics, ElementType::uint16, image_n}, cpu).vector_width ==
          make_plan(PlanRequest{Operation::sum, ElementType::uint16, image_n}, cpu).vector_width);
    LaunchParams compensated;
    compensated.float_mode = FloatMode::compensated;
    const LaunchPlan pairs = make_plan(PlanRequest{Operation::sum, ElementType::float32, n}, gpu, compensated, &bucket);
    CHECK(pairs.sources.times == ParamSource::device_default);
    CHECK(pairs.times > 2);
}

TEST_CASE("GPU argmin/argmax ranges and multi-channel statistics images take shapes of their own", "[plan]") {
    const DeviceInfo gpu = clreduce::test::fake_gpu();
    const std::uint64_t n = 7680ull * 4320;
    const std::uint64_t units = gpu.compute_units;
    // Ranges of argmin/argmax of 2- and 4-byte elements: long work-items, about 4 groups per
    // compute unit; float32 in 32-byte vectors, others in the device's 16 bytes.
    const LaunchPlan floats = make_plan(Operation::argminmax, ElementType::float32, n, gpu);
    CHECK(floats.vector_width == 8);
    CHECK(floats.groups <= units * 4);
    CHECK(floats.groups > units * 2);
    CHECK(make_plan(Operation::argmin, ElementType::float32, n, gpu).vector_width == 8);
    const LaunchPlan words = make_plan(Operation::argmax, ElementType::uint16, n, gpu);
    CHECK(words.vector_width == 8);
    CHECK(words.groups <= units * 4);
    CHECK(words.times > 16);
    // Other widths keep a sum's rule: up to 64 vectors, about 8 groups per compute unit.
    const LaunchPlan bytes = make_plan(Operation::argminmax, ElementType::uint8, n, gpu);
    CHECK(bytes.vector_width == 16);
    CHECK(bytes.groups > units * 4);
    CHECK(make_plan(Operation::argminmax, ElementType::float64, n, gpu).groups > units * 4);
    // CPU devices keep a sum's shape.
    DeviceInfo cpu = gpu;
    cpu.type = CL_DEVICE_TYPE_CPU;
    CHECK(make_plan(Operation::argminmax, ElementType::float32, n, cpu).times ==
          make_plan(Operation::sum, ElementType::float32, n, cpu).times);
    CHECK(make_plan(Operation::argminmax, ElementType::float32, n, cpu).vector_width ==
          make_plan(Operation::sum, ElementType::float32, n, cpu).vector_width);
    // Statistics images of several channels aim at 2 groups per compute unit, one channel at 4.
    LaunchParams pixels;
    pixels.vector_width = 1;
    PlanRequest image{Operation::statistics, ElementType::uint8, n, CallForm::image};
    const LaunchPlan one = make_plan(image, gpu, pixels);
    image.channels = 3;
    const LaunchPlan three = make_plan(image, gpu, pixels);
    CHECK(one.groups > units * 2);
    CHECK(one.groups <= units * 4);
    CHECK(three.groups <= units * 2);
    CHECK(three.times == 2 * one.times);
    image.op = Operation::argminmax;  // only the statistics
    CHECK(make_plan(image, gpu, pixels).groups > units * 2);
    image.op = Operation::statistics;
    CHECK(make_plan(image, cpu, pixels).times ==
          make_plan(PlanRequest{Operation::statistics, ElementType::uint8, n, CallForm::image}, cpu, pixels).times);
}

TEST_CASE("launch_shape gives a plan's shape back as overrides", "[plan]") {
    const DeviceInfo gpu = clreduce::test::fake_gpu();
    const LaunchPlan planned = make_plan(ElementType::float32, 1u << 20, gpu);
    const LaunchParams shape = launch_shape(planned);
    CHECK_FALSE(shape.float_mode.has_value());
    CHECK_FALSE(shape.accumulator.has_value());
    const LaunchPlan again = make_plan(ElementType::float32, 1u << 20, gpu, shape);
    CHECK(again.describe() == planned.describe());
    CHECK(again.sources.times == ParamSource::override);
    CHECK(again.sources.inter_group == ParamSource::override);
}

TEST_CASE("an image's channels share one launch where level 3 is atomic, the last group's or one group's store",
          "[plan][image]") {
    const DeviceInfo gpu = clreduce::test::fake_gpu();
    PlanRequest image{Operation::sum, ElementType::uint8, 1u << 20, CallForm::image};
    LaunchParams atomic, second_pass, last_group;
    atomic.inter_group = InterGroup::atomic;
    second_pass.inter_group = InterGroup::second_pass;
    last_group.inter_group = InterGroup::last_group;
    CHECK(make_plan(image, gpu, atomic).channels_at_once);
    CHECK_FALSE(make_plan(image, gpu, second_pass).channels_at_once);
    CHECK(make_plan(image, gpu, last_group).channels_at_once);
    // One group stores its result whatever the level 3 asked for.
    image.n = 1000;
    second_pass.work_group_size = 256;
    second_pass.times = 4;
    CHECK(make_plan(image, gpu, second_pass).groups == 1);
    CHECK(make_plan(image, gpu, second_pass).channels_at_once);
    // Other forms have no channels.
    CHECK_FALSE(make_plan(Operation::sum, ElementType::uint8, 1u << 20, gpu, atomic).channels_at_once);
    // Nor the correctly rounded sum, whatever its finish.
    PlanRequest floats{Operation::sum, ElementType::float32, 1u << 20, CallForm::image};
    LaunchParams exact;
    exact.float_mode = FloatMode::correctly_rounded;
    CHECK_FALSE(make_plan(floats, gpu, exact).channels_at_once);
}

TEST_CASE("host data: a tuned placement decides where the caller sets none", "[plan][tuning]") {
    const DeviceInfo gpu = clreduce::test::fake_gpu();
    PlanRequest request;
    request.op = Operation::sum;
    request.element = ElementType::float32;
    request.n = 1u << 16;
    request.form = CallForm::host_data;
    LaunchParams shape;
    shape.times = 4;
    shape.work_group_size = 128;
    shape.vector_width = 4;
    shape.stride = Stride::global;
    shape.inter_group = InterGroup::exact_atomic;
    TunedParams device_faster{shape, ParamSource::tuned, 1u << 16};
    device_faster.params.host_path_bytes = 0;
    TunedParams host_faster = device_faster;
    host_faster.params.host_path_bytes = std::numeric_limits<std::uint64_t>::max();
    CHECK(make_plan(request, gpu).on_host);  // no entry: the default, every size
    CHECK_FALSE(make_plan(request, gpu, {}, &device_faster).on_host);
    CHECK(make_plan(request, gpu, {}, &host_faster).on_host);
    LaunchParams host;
    host.host_path_bytes = std::numeric_limits<std::uint64_t>::max();
    CHECK(make_plan(request, gpu, host, &device_faster).on_host);  // the caller's word wins
    LaunchParams device;
    device.host_path_bytes = 0;
    CHECK_FALSE(make_plan(request, gpu, device, &host_faster).on_host);
}
