// ReadPacing: the wait before a synchronous call's read, learned from how long reads take.
#include <catch2/catch.hpp>

#include "read_pacing.hpp"  // src/

namespace clreduce {
namespace {

TEST_CASE("read pacing: up after reads that slept, down after prompt ones, bounded", "[pacing]") {
    ReadPacing p;
    CHECK(p.delay_us() == 0);
    p.observe(500.0);  // the first read (programs loading) teaches nothing
    CHECK(p.delay_us() == 0);
    p.observe(7.5);  // the kernel was done: nothing to wait for
    CHECK(p.delay_us() == 0);
    for (int k = 0; k < 3; ++k) p.observe(15.5);  // three reads that slept
    CHECK(p.delay_us() == Approx(3 * ReadPacing::kStepUpUs));
    p.observe(11.0);  // neither: kept
    CHECK(p.delay_us() == Approx(3 * ReadPacing::kStepUpUs));
    p.observe(9.0);  // caught in the driver's spin: nearly right
    CHECK(p.delay_us() == Approx(3 * ReadPacing::kStepUpUs - ReadPacing::kStepDownUs));
    p.observe(7.4);  // done well before: a bigger step down
    CHECK(p.delay_us() == Approx(3 * ReadPacing::kStepUpUs - ReadPacing::kStepDownUs - ReadPacing::kIdleStepDownUs));
    for (int k = 0; k < 1000; ++k) p.observe(40.0);  // a long kernel: the wait stops at the bound
    CHECK(p.delay_us() == Approx(ReadPacing::kMaxDelayUs));
    for (int k = 0; k < 1000; ++k) p.observe(7.0);
    CHECK(p.delay_us() == 0);
}

}  // namespace
}  // namespace clreduce
