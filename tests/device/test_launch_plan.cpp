// Launch parameters come from one place: device defaults, overrides, and what they imply.
#include <catch2/catch.hpp>

#include "test_support.hpp"
#include "plan/planner.hpp"  // src/

using namespace clreduce;

using test::fake_gpu;

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

TEST_CASE("CPU defaults: 64 work-items, times capped at 16", "[plan]") {
    DeviceInfo cpu = fake_gpu();
    cpu.type = CL_DEVICE_TYPE_CPU;
    cpu.compute_units = 2;
    cpu.is_nvidia = false;
    cpu.wavefront_width = 1;
    const LaunchPlan p = make_plan(ElementType::uint32, 1ull << 24, cpu);
    CHECK(p.work_group_size == 64);
    CHECK(p.times == 16);
    CHECK(p.groups == 4096);
    CHECK(make_plan(ElementType::uint32, 4096, cpu).times == 1);  // 1024 vectors: 16 groups of 64
    CHECK(make_plan(ElementType::uint32, 8192, cpu).times == 2);  // 2048 vectors: still 16 groups
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
    CHECK_THROWS_WITH(make_plan(ElementType::uint64, 1ull << 32, fake_gpu(), params), Catch::Matchers::Contains("raise times"));
}

TEST_CASE("times != power of two and the reducer's plan() agree with what sum uses", "[plan][sum]") {
    Reducer& r = test::reducer();
    LaunchParams params;
    params.times = 3;
    params.work_group_size = 8;
    const std::vector<std::int32_t> data(10007, -3);
    CallInfo info;
    CHECK(r.sum(data, params, &info) == -30021);
    const LaunchPlan planned = r.plan(ElementType::int32, data.size(), params);
    CHECK(info.plan.describe() == planned.describe());
    CHECK(info.kernel_events.size() == (planned.inter_group == InterGroup::second_pass ? 2u : 1u));
}

TEST_CASE("devices are found by index, platform:device and name", "[devices]") {
    const auto devices = all_devices();
    REQUIRE_FALSE(devices.empty());
    CHECK(select_device("0")() == devices[0]());
    CHECK(select_device("0:0")() == devices[0]());
    const DeviceInfo info = DeviceInfo::query(devices[0]);
    CHECK(select_device(info.name)() == devices[0]());
    std::string shouted = info.name;
    for (auto& c : shouted) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    CHECK(select_device(shouted)() == devices[0]());

    const char* previous = std::getenv("CLREDUCE_DEVICE");
    const std::string saved = previous ? previous : "";
    ::setenv("CLREDUCE_DEVICE", "0:0", 1);
    CHECK(default_device()() == devices[0]());
    ::setenv("CLREDUCE_DEVICE", "no-such-device-anywhere", 1);
    CHECK_THROWS_AS(default_device(), InvalidArgument);
    if (previous) ::setenv("CLREDUCE_DEVICE", saved.c_str(), 1); else ::unsetenv("CLREDUCE_DEVICE");
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
    CHECK(make_plan(ElementType::int32, 3000, gpu, {}, bucket).times == 8);  // rounded down to a power of two
    CHECK(make_plan(ElementType::int32, 1u << 14, gpu, {}, bucket).times == 16);  // larger sizes keep it
    LaunchParams explicit_times;
    explicit_times.times = 16;
    CHECK(make_plan(ElementType::int32, 1u << 10, gpu, explicit_times, bucket).times == 16);  // overrides are kept
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
