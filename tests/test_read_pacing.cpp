// ReadPacing: the wait before a synchronous call's read, learned from how long reads take.
#include <cstdlib>
#include <vector>

#include <catch2/catch.hpp>

#include <reference.hpp>

#include "read_pacing.hpp"  // src/
#include "test_ops_support.hpp"

namespace clreduce::test {
namespace {

TEST_CASE("read pacing: up after reads that slept, down after ones that found the kernel done, held between",
          "[pacing]") {
    ReadPacing p;
    CHECK(p.delay_us() == 0);
    p.observe(500.0);  // the first read (programs loading) teaches nothing
    CHECK(p.delay_us() == 0);
    p.observe(15.5);  // a lone slow read: maybe the host's noise
    p.observe(11.0);  // caught in the driver's spin
    CHECK(p.delay_us() == 0);
    CHECK_FALSE(p.flushes());
    // Reads that keep sleeping: steps of 1, 2, 4, then 4 (the largest step).
    p.observe(15.5);
    p.observe(15.5);
    CHECK(p.delay_us() == Approx(1));
    CHECK(p.flushes());
    p.observe(15.5);
    CHECK(p.delay_us() == Approx(3));
    p.observe(15.5);
    CHECK(p.delay_us() == Approx(7));
    p.observe(15.5);
    CHECK(p.delay_us() == Approx(11));
    for (int k = 0; k < 5; ++k) p.observe(9.0);  // the spin caught the kernel: where it should be
    CHECK(p.delay_us() == Approx(11));
    p.observe(7.4);  // the kernel was done: the turn halves the step
    CHECK(p.delay_us() == Approx(9));
    p.observe(7.4);  // and again: it doubles
    CHECK(p.delay_us() == Approx(5));
    p.observe(15.5);
    p.observe(15.5);  // slept twice: turned, halved
    CHECK(p.delay_us() == Approx(7));
    p.observe(7.4);
    p.observe(15.5);
    p.observe(15.5);
    p.observe(7.4);
    p.observe(15.5);
    p.observe(15.5);  // turns all the time: the step stays at the smallest
    CHECK(p.delay_us() == Approx(7 - 1 + 0.5 - 0.25 + 0.25));
}

TEST_CASE("read pacing is bounded", "[pacing]") {
    ReadPacing p;
    for (int k = 0; k < 1000; ++k) p.observe(40.0);  // a long kernel: the wait stops at the bound
    CHECK(p.delay_us() == Approx(ReadPacing::kMaxDelayUs));
    for (int k = 0; k < 1000; ++k) p.observe(7.0);
    CHECK(p.delay_us() == 0);
    for (int k = 0; k < 1000; ++k) p.observe(7.0);  // it does not go below 0
    CHECK(p.delay_us() == 0);
    CHECK(p.flushes());  // a wait of 0 after a flush
    p.observe(20.0);
    p.observe(20.0);
    CHECK(p.delay_us() > 0);
    CHECK(p.delay_us() <= ReadPacing::kMaxStepUs);
}

TEST_CASE("paced reads (forced on with CLREDUCE_READ_PACING=1) give the same results", "[pacing]") {
    using namespace clreduce::testing;
    ::setenv("CLREDUCE_READ_PACING", "1", 1);
    Reducer r(reducer().queue().getInfo<CL_QUEUE_DEVICE>());
    ::unsetenv("CLREDUCE_READ_PACING");
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
    // Enough calls for the learned wait to move (on a CPU device reads are slow: it climbs to
    // its bound, and every later read goes out after a flush and a spin).
    for (int k = 0; k < 40; ++k) {
        CHECK(r.sum<std::int32_t>(ibuf, 0, ints.size()) == exact_sum(ints.data(), ints.size()));
        CHECK(r.sum<std::int32_t>(ibuf, 7, 33) == exact_sum(ints.data() + 7, 33));
        CHECK(same_bits(r.sum<float>(fbuf, 0, floats.size()), exact_float));
    }
    const Counters after = r.counters();
    CHECK(after.buffers_allocated == before.buffers_allocated);
    // CallInfo reports the wait, within its bound; on a CPU device reads are slow, so it has
    // grown (on a GPU it depends on how soon the kernel ends).
    CallInfo info;
    CHECK(r.sum<std::int32_t>(ibuf, 0, ints.size(), {}, &info) == exact_sum(ints.data(), ints.size()));
    CHECK(info.read_wait_us >= 0);
    CHECK(info.read_wait_us <= ReadPacing::kMaxDelayUs);
    if ((r.device_info().type & CL_DEVICE_TYPE_CPU) != 0) CHECK(info.read_wait_us > 0);
    CHECK(after.kernels_created == before.kernels_created);
}

}  // namespace
}  // namespace clreduce::test
