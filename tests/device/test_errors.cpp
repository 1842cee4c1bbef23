// Bad input gets a clear exception naming the problem.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "plan/planner.hpp"  // src/
#include "test_support.hpp"

using namespace clreduce;
using Catch::Matchers::Contains;

TEST_CASE("a null buffer, a foreign buffer and a range past the end are rejected", "[errors]") {
    Reducer& r = test::reducer();
    const std::vector<std::int32_t> data(100, 7);
    const cl::Buffer buffer = test::device_copy(r, data);

    CHECK_THROWS_WITH(r.sum<std::int32_t>(cl::Buffer(), 0, 10), Contains("buffer is null"));
    CHECK_THROWS_AS(r.sum<std::int32_t>(cl::Buffer(), 0, 0), InvalidArgument);
    CHECK_THROWS_WITH(r.sum<std::int32_t>(buffer, 90, 11), Contains("past the end"));
    CHECK_THROWS_WITH(r.sum<std::int32_t>(buffer, 101, 0), Contains("past the end"));
    CHECK_THROWS_AS(r.sum<std::int32_t>(buffer, ~0ull, 2), InvalidArgument);  // offset + count overflows
    CHECK_THROWS_AS(r.sum<std::int64_t>(buffer, 0, 51), InvalidArgument);     // 400 bytes hold 50 int64
    CHECK(r.sum<std::int32_t>(buffer, 90, 10) == 70);
    CHECK(r.sum<std::int32_t>(buffer, 100, 0) == 0);

    cl::Context other(default_device());
    cl::Buffer foreign(other, CL_MEM_READ_WRITE, 400);
    CHECK_THROWS_WITH(r.sum<std::int32_t>(foreign, 0, 10), Contains("another OpenCL context"));

    CHECK_THROWS_WITH(r.sum(static_cast<const float*>(nullptr), 5), Contains("host pointer is null"));
    CHECK(r.sum(static_cast<const float*>(nullptr), 0) == 0.0);
}

TEST_CASE("launch parameters out of range are rejected before anything runs", "[errors]") {
    Reducer& r = test::reducer();
    const std::vector<std::uint32_t> data(1000, 1);
    auto with = [](auto set) {
        LaunchParams p;
        set(p);
        return p;
    };
    CHECK_THROWS_WITH(r.sum(data, with([](LaunchParams& p) { p.times = 0; })), Contains("times"));
    CHECK_THROWS_WITH(r.sum(data, with([](LaunchParams& p) { p.work_group_size = 48; })), Contains("power of two"));
    CHECK_THROWS_AS(r.sum(data, with([&r](LaunchParams& p) {
                              p.work_group_size = static_cast<std::uint32_t>(2 * r.device_info().max_work_group_size);
                          })),
                    InvalidArgument);
    CHECK_THROWS_WITH(r.sum(data, with([](LaunchParams& p) { p.vector_width = 3; })), Contains("vector_width"));
    CHECK_THROWS_WITH(r.sum(std::vector<float>(10, 1.0f),
                            with([](LaunchParams& p) { p.inter_group = InterGroup::atomic; })),
                      Contains("no float atomics"));
    CHECK_THROWS_AS(r.sum(std::vector<double>(10, 1.0),
                          with([](LaunchParams& p) { p.inter_group = InterGroup::atomic; })),
                    Unsupported);
}

TEST_CASE("a device without fp64 or 64-bit atomics gets a clear Unsupported", "[errors]") {
    DeviceInfo device = test::reducer().device_info();
    device.name = "fp64-less test device";
    device.has_fp64 = false;
    device.has_int64_atomics = false;
    CHECK_THROWS_WITH(require_support(ElementType::float64, device), Contains("cl_khr_fp64"));
    CHECK_THROWS_AS(make_plan(ElementType::float64, 100, device), Unsupported);
    CHECK(accumulator_for(ElementType::float32, device) == ElementType::float32);
    LaunchParams atomic;
    atomic.inter_group = InterGroup::atomic;
    CHECK_THROWS_WITH(make_plan(ElementType::int32, 1 << 20, device, atomic), Contains("cl_khr_int64_base_atomics"));
    CHECK(make_plan(ElementType::int32, 1 << 20, device).inter_group ==
          (has_last_group_finish(device) ? InterGroup::last_group : InterGroup::second_pass));
}

TEST_CASE("OpenCL errors are named, with the call that failed", "[errors]") {
    CHECK(error_name(CL_OUT_OF_RESOURCES) == "CL_OUT_OF_RESOURCES");
    CHECK(error_name(CL_INVALID_WORK_GROUP_SIZE) == "CL_INVALID_WORK_GROUP_SIZE");
    CHECK(error_name(-9999) == "unknown OpenCL error -9999");
    CHECK_NOTHROW(check(CL_SUCCESS, "clFinish"));
    try {
        check(CL_MEM_OBJECT_ALLOCATION_FAILURE, "clCreateBuffer");
        FAIL("check did not throw");
    } catch (const OpenCLError& e) {
        CHECK(e.code() == CL_MEM_OBJECT_ALLOCATION_FAILURE);
        CHECK(e.call() == "clCreateBuffer");
        CHECK_THAT(e.what(), Contains("clCreateBuffer failed: CL_MEM_OBJECT_ALLOCATION_FAILURE (-4)"));
    }
    // A real failing call: a buffer larger than the device allows.
    Reducer& r = test::reducer();
    cl_int err = CL_SUCCESS;
    cl::Buffer too_big(r.context(), CL_MEM_READ_WRITE, 0, nullptr, &err);
    CHECK_THROWS_WITH(check(err, "clCreateBuffer"), Contains("CL_INVALID_BUFFER_SIZE"));
}

TEST_CASE("a kernel that does not compile gives BuildError with the build log", "[errors][build]") {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("clreduce-broken-kernels-" + std::to_string(test::seed()));
    fs::create_directories(dir);
    {
        // The source tree's kernels; $CLREDUCE_SOURCE_KERNEL_DIR where the tests run elsewhere.
        const char* moved = std::getenv("CLREDUCE_SOURCE_KERNEL_DIR");
        const fs::path source_dir = moved ? moved : CLREDUCE_SOURCE_KERNEL_DIR;
        fs::copy(source_dir, dir, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
        std::ifstream in(source_dir / "reduce.cl");
        REQUIRE(in.good());
        std::stringstream text;
        text << in.rdbuf();
        std::string source = text.str();
        const std::string anchor = "clreduce_state acc = clreduce_vfinish(vs CLREDUCE_SINK_ARG);";
        REQUIRE(source.find(anchor) != std::string::npos);
        source.replace(source.find(anchor), anchor.size(), "clreduce_state acc = clreduce_no_such_function(vs);");
        std::ofstream(dir / "reduce.cl") << source;
    }
    ::setenv("CLREDUCE_KERNEL_DIR", dir.c_str(), 1);
    Reducer broken(default_device());
    ::unsetenv("CLREDUCE_KERNEL_DIR");
    try {
        LaunchParams launched;  // not the CPU devices' host path, which compiles nothing
        launched.host_path_bytes = 0;
        broken.sum(std::vector<std::int32_t>(100, 1), launched);
        FAIL("a broken kernel compiled");
    } catch (const BuildError& e) {
        CHECK(e.code() == CL_BUILD_PROGRAM_FAILURE);
        CHECK_THAT(e.log(), Contains("clreduce_no_such_function"));
        CHECK_THAT(e.what(), Contains("build log"));
        CHECK_THAT(e.options(), Contains("-DCLREDUCE_T=int"));
    }
    CHECK(broken.counters().programs_built == 1);

    ::setenv("CLREDUCE_KERNEL_DIR", (dir / "missing").c_str(), 1);
    CHECK_THROWS_WITH(Reducer(default_device()), Contains("cannot read kernel source"));
    ::unsetenv("CLREDUCE_KERNEL_DIR");
    fs::remove_all(dir);
}

TEST_CASE("device specs that match nothing list the devices", "[errors][devices]") {
    CHECK_THROWS_WITH(select_device("no-such-device-anywhere"), Contains("available devices"));
    CHECK_THROWS_AS(select_device("99:0"), InvalidArgument);
    CHECK_THROWS_AS(select_device("12345"), InvalidArgument);
    CHECK_THROWS_AS(Reducer("no-such-device-anywhere"), InvalidArgument);
    CHECK_THROWS_WITH(parse_type("int7"), Contains("unknown element type"));

    const cl::Device device = default_device();
    cl::Context one(device), two(device);
    cl::CommandQueue queue_of_two(two, device);
    CHECK_THROWS_WITH(Reducer(one, queue_of_two), Contains("another context"));
    CHECK_THROWS_AS(Reducer(one, cl::CommandQueue()), InvalidArgument);
}

TEST_CASE("a moved-from Reducer throws InvalidArgument on every call, and works again once assigned",
          "[errors][moved]") {
    Reducer from(test::reducer().context(), test::reducer().queue());
    Reducer to(std::move(from));
    const std::vector<std::int32_t> v{1, 2, 3};
    const cl::Buffer buffer = test::device_copy(to, v);
    cl::Buffer result(to.context(), CL_MEM_READ_WRITE, 8);
    const Image image{1, 3, 1, 3 * sizeof(std::int32_t), 0};
    const auto moved = Catch::Contains("moved from");
    // NOLINTBEGIN(bugprone-use-after-move): calling a moved-from Reducer is the point.
    CHECK_THROWS_WITH(from.device_info(), moved);
    CHECK_THROWS_AS(from.context(), InvalidArgument);
    CHECK_THROWS_AS(from.queue(), InvalidArgument);
    CHECK_THROWS_AS(from.counters(), InvalidArgument);
    CHECK_THROWS_AS(from.plan(ElementType::int32, 3), InvalidArgument);
    CHECK_THROWS_AS(from.set_result_delivery(ResultDelivery::blocking), InvalidArgument);
    CHECK_THROWS_AS(from.result_delivery(), InvalidArgument);
    CHECK_THROWS_AS(from.tuned_entries(), InvalidArgument);
    CHECK_THROWS_AS(from.tuning_database(), InvalidArgument);
    CHECK_THROWS_WITH(from.sum(v), moved);
    CHECK_THROWS_AS(from.sum<std::int32_t>(buffer, 0, 3), InvalidArgument);
    CHECK_THROWS_AS(from.sum_async<std::int32_t>(buffer, 0, 3, {result}), InvalidArgument);
    CHECK_THROWS_AS(from.min(v), InvalidArgument);
    CHECK_THROWS_AS(from.argmax(v), InvalidArgument);
    CHECK_THROWS_AS(from.mean(v), InvalidArgument);
    CHECK_THROWS_AS(from.transform_reduce(v, "x * 2", Combine::sum), InvalidArgument);
    CHECK_THROWS_AS(from.sum(v.data(), image), InvalidArgument);
    CHECK_THROWS_AS(from.tune(), InvalidArgument);
    from = std::move(to);
    CHECK(from.sum(v) == 6);
    CHECK_THROWS_AS(to.sum(v), InvalidArgument);
    // NOLINTEND(bugprone-use-after-move)
}

TEST_CASE("the reported crash: a correctly rounded double sum in work-groups of 1024 returns or refuses cleanly",
          "[errors][resources]") {
    // 1024 work-items, each with the 544-byte correctly rounded double state: 557 KiB of states,
    // which crashed PoCL's worker thread. Refused there (a CPU device holds 320 KiB of states)
    // and wherever local memory is smaller; run where the device has room.
    Reducer& r = test::reducer();
    if (!r.device_info().has_fp64) return;
    const std::vector<double> v(4096, 0.5);
    LaunchParams p;
    p.work_group_size = 1024;
    p.float_mode = FloatMode::correctly_rounded;
    if (r.device_info().has_int64_atomics && r.device_info().has_int64_min_max_atomics && r.device_info().has_fp64) {
        // The expansion path keeps 48-byte states in its tree: 1024 of them run where local
        // memory holds them, else the refusal names the limit, from the plan itself where the
        // states and the group's sink pass the device's local memory (48 KiB on NVIDIA GPUs),
        // or from the built kernel's own size.
        try {
            const InterGroup level3 = r.plan(ElementType::float64, Operation::sum, v.size(), p).inter_group;
            CHECK(level3 == InterGroup::exact_atomic);
            const double sum = r.sum(v, p);
            CHECK(sum == 2048.0);
        } catch (const InvalidArgument& e) {
            CHECK(std::string(e.what()).find("local memory") != std::string::npos);
        }
    }
    p.inter_group = InterGroup::second_pass;  // the fixed-point states in the tree
    try {
        const double sum = r.sum(v, p);  // outside CHECK, which would catch the refusal itself
        CHECK(sum == 2048.0);
    } catch (const InvalidArgument& e) {
        // Refused by a resource the message names: a CPU device's room for states, or a GPU's
        // local memory (48 KiB holds 88 such states on an H100).
        CHECK(std::string(e.what()).find("work_group_size 1024") != std::string::npos);
    }
    // The default plan fits: the same sum without a work-group size runs everywhere.
    p.work_group_size.reset();
    p.inter_group.reset();
    CHECK(r.sum(v, p) == 2048.0);
}
