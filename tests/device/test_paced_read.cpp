// Paced reads on the device: ResultDelivery::paced gives the same results as a plain read,
// each wait within its bound, and a paced call allocates and creates nothing.
#include <catch2/catch.hpp>

#include <algorithm>

#include <reference/sum_reference.hpp>

#include "delivery/read_pacing.hpp"  // src/: the wait's bound
#include "test_ops_support.hpp"

namespace clreduce::test {
namespace {

TEST_CASE("paced reads (ResultDelivery::paced) give the same results", "[pacing]") {
    using namespace clreduce::testing;
    const auto paced = reducer_delivering(ResultDelivery::paced);
    Reducer& r = *paced;
    const std::uint64_t seed = seed_for(4, 61);
    INFO("data seed " << seed);
    const auto ints = op_values<std::int32_t>(100003, seed);
    const auto floats = op_values<float>(100003, seed + 1);
    const cl::Buffer ibuf = device_copy(r, ints);
    const cl::Buffer fbuf = device_copy(r, floats);
    const auto exact_float = r.sum<float>(fbuf, 0, floats.size());
    check_approx(reference_sum(floats.data(), floats.size(), unit_roundoff(ElementType::float64)), exact_float, "sum");
    CHECK(r.sum<std::int32_t>(ibuf, 0, ints.size()) == exact_sum(ints.data(), ints.size()));
    CHECK(r.sum<std::int32_t>(ibuf, 7, 33) == exact_sum(ints.data() + 7, 33));
    const Counters before = r.counters();
    // Enough calls for the pacing to start and its wait to move. CallInfo reports each wait,
    // within its bound. Whether a call waits depends on how long this host's reads take (on a
    // CPU device they are slow and "sleep", so pacing usually starts within a few calls; on a
    // loaded machine it may not), so it is reported, not asserted: ReadPacing's decisions are
    // asserted with simulated kernels in tests/unit/test_read_pacing.cpp.
    int waited = 0;
    for (int k = 0; k < 40; ++k) {
        CallInfo info;
        CHECK(r.sum<std::int32_t>(ibuf, 0, ints.size(), {}, &info) == exact_sum(ints.data(), ints.size()));
        CHECK(info.read_wait_us >= 0);
        CHECK(info.read_wait_us <= ReadPacing::kMaxDelayUs);
        if (info.read_wait_us > 0) ++waited;
        CHECK(r.sum<std::int32_t>(ibuf, 7, 33) == exact_sum(ints.data() + 7, 33));
        CHECK(same_bits(r.sum<float>(fbuf, 0, floats.size()), exact_float));
    }
    if (waited == 0) WARN("no paced call waited in 40 calls on this device (timing-dependent)");
    const Counters after = r.counters();
    CHECK(after.buffers_allocated == before.buffers_allocated);
    CHECK(after.kernels_created == before.kernels_created);
}

TEST_CASE("host data copied in ahead of the kernels is read unpaced and teaches the pacing nothing", "[pacing]") {
    using namespace clreduce::testing;
    const auto paced = reducer_delivering(ResultDelivery::paced);
    Reducer& r = *paced;
    const std::uint64_t seed = seed_for(4, 62);
    INFO("data seed " << seed);
    const auto ints = op_values<std::int32_t>(std::uint64_t(1) << 20, seed);
    const std::int64_t exact = exact_sum(ints.data(), ints.size());
    const cl::Buffer ibuf = device_copy(r, ints);
    LaunchParams kernels;  // not a CPU device's host path
    kernels.host_path_bytes = 0;
    // A CPU device reads host data in place; elsewhere it is copied into a staging buffer first.
    const bool copied = (r.device_info().type & CL_DEVICE_TYPE_CPU) == 0;
    for (int k = 0; k < 20; ++k) {
        CallInfo info;
        CHECK(r.sum(ints, kernels, &info) == exact);
        if (copied) CHECK(info.read_wait_us == 0);
    }
    // The same kernel on a buffer: its wait is its own, not the copy's (4 MiB from pageable
    // memory take hundreds of microseconds; the kernel a few).
    double longest = 0;
    for (int k = 0; k < 20; ++k) {
        CallInfo info;
        CHECK(r.sum<std::int32_t>(ibuf, 0, ints.size(), kernels, &info) == exact);
        longest = std::max(longest, info.read_wait_us);
    }
    INFO("longest paced wait of a buffer call " << longest << " us");
    if (copied) CHECK(longest < 100);
    CHECK(longest <= ReadPacing::kMaxDelayUs);
}

}  // namespace
}  // namespace clreduce::test
