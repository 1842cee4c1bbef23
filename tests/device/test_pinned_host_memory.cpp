// PinnedHostMemory (include/clreduce/pinned_host_memory.hpp): host data inside it goes to the
// device in one write, without the streaming's pinned ring, and gives the bits of the same
// values in a device buffer; data only partly inside, or in another context, is streamed as
// any host data; the ranges are forgotten when the memory goes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

#include "exec/pinned_ranges.hpp"  // src/
#include "partial_outcome.hpp"
#include "test_ops_support.hpp"

namespace clreduce::test {
namespace {

// Always streamed, in chunks of 4 KiB: data outside pinned memory takes the ring of pinned
// buffers (HostStaging::buffers of them, allocated on the first call), data inside does not.
HostStaging streamed_in_small_chunks() {
    HostStaging s;
    s.mode = HostStaging::Mode::always;
    s.chunk_bytes = 4096;
    return s;
}

LaunchParams no_host_path() {
    LaunchParams params;
    params.host_path_bytes = 0;
    return params;
}

}  // namespace

TEST_CASE("host data in PinnedHostMemory: one write, no staging ring, the resident bits", "[host_staging][pinned]") {
    const Reducer& resident = reducer();
    const std::uint64_t n = 50000;
    const std::uint64_t seed = seed_for(77, n);
    INFO("data seed " << seed);
    const std::vector<float> values = op_values<float>(n, seed);
    PinnedHostMemory pinned(resident, n * sizeof(float));
    REQUIRE(pinned.size() == n * sizeof(float));
    std::memcpy(pinned.data(), values.data(), n * sizeof(float));
    const cl::Buffer buffer = device_copy(resident, values);
    const LaunchParams params = no_host_path();

    // Two fresh reducers of the same context, the same call: the one given pinned data
    // allocates the ring's buffers fewer.
    Reducer from_pinned(resident.context(), resident.queue());
    Reducer from_vector(resident.context(), resident.queue());
    from_pinned.set_host_staging(streamed_in_small_chunks());
    from_vector.set_host_staging(streamed_in_small_chunks());
    const double want = resident.sum<float>(buffer, 0, n, params);
    CHECK(same_bits(from_pinned.sum(pinned.as<float>(), n, params), want));
    CHECK(same_bits(from_vector.sum(values.data(), n, params), want));
    CHECK(from_vector.counters().buffers_allocated - from_pinned.counters().buffers_allocated == HostStaging{}.buffers);

    // Every operation, over a part that starts and ends inside.
    for (const Operation op : every_operation()) {
        INFO(operation_name(op));
        const std::string got =
            outcome<float>([&] { return from_pinned.partial<float>(op, pinned.as<float>() + 7, n - 20, params); });
        const std::string resident_value =
            outcome<float>([&] { return resident.partial<float>(op, buffer, 7, n - 20, params); });
        CHECK(got == resident_value);
    }
    // A repeated call allocates nothing.
    const Counters warm = from_pinned.counters();
    CHECK(same_bits(from_pinned.sum(pinned.as<float>(), n, params), want));
    CHECK(from_pinned.counters().buffers_allocated == warm.buffers_allocated);
}

// docs/usage.md's example, as written there.
TEST_CASE("PinnedHostMemory: filled once, then reduced (the usage.md example)", "[pinned]") {
    Reducer& reducer = clreduce::test::reducer();
    const std::uint64_t n = 10000;
    const auto fill = [](float* values, std::uint64_t count) {
        for (std::uint64_t k = 0; k < count; ++k) values[k] = static_cast<float>(k % 7);
    };
    clreduce::PinnedHostMemory pinned(reducer, n * sizeof(float));  // InvalidArgument for 0 bytes
    float* values = pinned.as<float>();
    fill(values, n);
    const double s = reducer.sum(values, n);  // one clEnqueueWriteBuffer from pinned memory, then the sum
    CHECK(s == 3.0 * (n - n % 7) + (n % 7) * (n % 7 - 1) / 2.0);
}

TEST_CASE("PinnedHostMemory: partly inside or another context streams, ranges end with the memory, 0 bytes refused",
          "[host_staging][pinned]") {
    const Reducer& r = reducer();
    CHECK_THROWS_WITH(PinnedHostMemory(r, 0), Catch::Contains("bytes must be positive"));
    const std::uint64_t n = 4096;
    std::vector<std::int32_t> values = op_values<std::int32_t>(2 * n, seed_for(77, 2));
    PinnedHostMemory pinned(r, n * sizeof(std::int32_t));
    std::memcpy(pinned.data(), values.data(), n * sizeof(std::int32_t));
    const void* begin = pinned.data();
    CHECK(in_pinned_range(r.context()(), begin, n * sizeof(std::int32_t)));
    CHECK(in_pinned_range(r.context()(), pinned.as<std::int32_t>() + 1, (n - 1) * sizeof(std::int32_t)));
    CHECK_FALSE(in_pinned_range(r.context()(), pinned.as<std::int32_t>() + 1, n * sizeof(std::int32_t)));
    CHECK_FALSE(in_pinned_range(r.context()(), values.data(), 4));
    const cl::Context other(r.context().getInfo<CL_CONTEXT_DEVICES>());
    CHECK_FALSE(in_pinned_range(other(), begin, 4));

    // Moved, the memory and its range stay; destroyed, the range goes.
    PinnedHostMemory moved = std::move(pinned);
    CHECK(moved.data() == begin);
    CHECK(pinned.data() == nullptr);
    Reducer staged(r.context(), r.queue());
    staged.set_host_staging(streamed_in_small_chunks());
    const std::int64_t want = std::accumulate(values.begin(), values.begin() + n, std::int64_t(0));
    CHECK(staged.sum(moved.as<std::int32_t>(), n, no_host_path()) == want);
    { PinnedHostMemory gone = std::move(moved); }
    CHECK_FALSE(in_pinned_range(r.context()(), begin, 4));
}

}  // namespace clreduce::test
