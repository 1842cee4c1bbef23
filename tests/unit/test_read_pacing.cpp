// ReadPacing: the wait before a synchronous call's read, learned from how long reads take,
// on simulated kernels and reads (the paced reads on a device: device/test_paced_read.cpp).
#include <algorithm>
#include <cstdlib>
#include <limits>
#include <vector>

#include <catch2/catch.hpp>

#include "delivery/read_pacing.hpp"  // src/
#include "test_support.hpp"

namespace clreduce::test {
namespace {

// A kernel's pacing and, as an execution slot keeps it, the fastest read seen.
struct Pacer {
    ReadPacing pacing;
    double fastest_us = std::numeric_limits<double>::infinity();

    bool paced() const { return pacing.paced(); }
    double delay_us() const { return pacing.delay_us(); }
    // A read of `read_us`; the call took `call_us` from the enqueue's return (default: the
    // wait, if paced, and the read).
    void read(double read_us, double call_us = -1) {
        fastest_us = std::min(fastest_us, read_us);
        pacing.observe(read_us, call_us >= 0 ? call_us : (paced() ? delay_us() : 0) + read_us, fastest_us);
    }
};

TEST_CASE("read pacing starts after two reads in a row that slept", "[pacing]") {
    Pacer p;
    p.read(500.0);  // the first read (programs loading) teaches nothing
    p.read(500.0);  // but two do
    CHECK_FALSE(p.paced());
    p = Pacer();
    p.read(500.0);
    p.read(10.0);
    p.read(15.5);  // a lone slow read: maybe the host's noise
    p.read(11.0);  // caught in the driver's spin
    p.read(15.5);
    p.read(9.0);
    CHECK_FALSE(p.paced());
    CHECK(p.delay_us() == 0);
    p.read(15.5);
    p.read(15.5);
    CHECK(p.paced());
    // The first wait: the unpaced calls' average (13.3 us) less the fastest read (9) and the margin.
    CHECK(p.delay_us() >= ReadPacing::kFirstUpStepUs);
    CHECK(p.delay_us() < 13.3 - 9 - ReadPacing::kStartMarginUs + 0.1);
}

TEST_CASE("read pacing starts where the unpaced calls put the kernel's end", "[pacing]") {
    Pacer p;
    p.fastest_us = 4.5;  // a short kernel's read through the same slot
    p.read(500.0);
    p.read(930.0, 935.0);  // 2^30 floats: the read went out at once and slept
    p.read(930.0, 935.0);
    REQUIRE(p.paced());
    CHECK(p.delay_us() == Approx(935.0 - 4.5 - ReadPacing::kStartMarginUs));
    p.read(4.5);  // found the kernel done: down from there
    CHECK(p.delay_us() < 935.0 - 4.5 - ReadPacing::kStartMarginUs);
}

TEST_CASE(
    "read pacing: the wait goes up in doubling steps while reads sleep, down in doubling steps from 1/8 us "
    "while they find the kernel done",
    "[pacing]") {
    Pacer p;
    p.read(500.0);
    p.read(200.0);  // unpaced calls take 200 us: every paced call below is cheaper
    p.read(200.0);
    REQUIRE(p.paced());
    double expected = ReadPacing::kFirstUpStepUs;
    CHECK(p.delay_us() == Approx(expected));
    for (double step : {2.0, 4.0, 8.0, 16.0, 16.0}) {  // the largest step is kMaxStepUs
        p.read(15.5);
        CHECK(p.delay_us() == Approx(expected += step));
    }
    for (double step : {0.125, 0.25, 0.5}) {
        p.read(7.3);
        CHECK(p.delay_us() == Approx(expected -= step));
    }
    p.read(9.0);  // well above the fastest read: the spin caught the kernel; kept
    CHECK(p.delay_us() == Approx(expected));
    p.read(7.3);
    CHECK(p.delay_us() == Approx(expected -= 1.0));
    p.read(15.5);  // a turn: the steps start again
    CHECK(p.delay_us() == Approx(expected += 1.0));
    p.read(15.5);
    CHECK(p.delay_us() == Approx(expected += 2.0));
    p.read(7.4);
    CHECK(p.delay_us() == Approx(expected -= 0.125));
    CHECK(p.paced());
}

// How reads of a kernel take: `done_us` when it has ended, `slept_us` when the driver slept.
// Blocking reads on one H200 machine, and polled ones (`floor`'s rows).
struct ReadProfile {
    const char* name;
    double done_us;
    double slept_us;
};
constexpr ReadProfile kBlocking{"blocking", 7.3, 15.5};
constexpr ReadProfile kPolled{"polled", 4.5, 13.0};

// A kernel whose reads sleep when issued before `spin_from` us after the enqueue, are caught
// by the driver's spin up to `done_at` (a little slower than a read of a finished kernel),
// and find it done after that.
double simulated_read(const ReadProfile& reads, double delay, double spin_from, double done_at) {
    if (delay < spin_from) return reads.slept_us;
    if (delay < done_at) return reads.done_us + 0.4 * (done_at - delay) / (done_at - spin_from);
    return reads.done_us;
}

TEST_CASE("read pacing settles near the best wait, blocking or polled", "[pacing]") {
    for (const ReadProfile& reads : {kBlocking, kPolled}) {
        for (const double spin_from : {3.0, 9.0, 21.0, 40.0, 63.0, 90.0}) {
            INFO(reads.name << " reads that sleep when issued before " << spin_from << " us");
            const double done_at = spin_from + 1.5;
            const double best_us = spin_from + reads.done_us + 0.4;  // the call issuing its read at spin_from
            Pacer p;
            p.read(500.0);
            // A paced call costs its wait and its read; an unpaced one sleeps past the kernel's end.
            const double unpaced_us = done_at + reads.done_us + reads.slept_us;
            std::vector<double> calls;
            for (int k = 0; k < 400; ++k) {
                if (!p.paced()) {
                    p.read(reads.slept_us, unpaced_us);
                    calls.push_back(unpaced_us);
                } else {
                    const double r = simulated_read(reads, p.delay_us(), spin_from, done_at);
                    calls.push_back(p.delay_us() + r);
                    p.read(r);
                }
            }
            // The last 200 calls: all paced, the median within 1 us of the best, the mean
            // within 3 (a sleep now and then).
            std::vector<double> last(calls.end() - 200, calls.end());
            CHECK(p.paced());
            double sum = 0;
            for (double c : last) sum += c;
            std::sort(last.begin(), last.end());
            CHECK(last[100] <= best_us + 1.0);
            CHECK(sum / 200 <= best_us + 3.0);
            CHECK(last.back() < unpaced_us);
        }
    }
}

TEST_CASE("read pacing: what slept and what found the kernel done is relative to the fastest read", "[pacing]") {
    Pacer p;
    p.read(500.0);
    for (int k = 0; k < 5; ++k) p.read(4.5);  // polled reads of a finished kernel
    p.read(10.0);
    p.read(10.0);  // 5.5 us slower than the fastest: slept, though under kSleptUs
    REQUIRE(p.paced());
    const double first = p.delay_us();
    p.read(10.0);
    CHECK(p.delay_us() > first);
    const double high = p.delay_us();
    p.read(6.0);  // caught by the spin: kept
    CHECK(p.delay_us() == Approx(high));
    p.read(4.6);  // done: down
    CHECK(p.delay_us() < high);
}

TEST_CASE("read pacing stops when paced calls cost more than unpaced ones, and keeps its wait", "[pacing]") {
    Pacer p;
    p.read(500.0);
    for (int k = 0; k < 10; ++k) p.read(10.0);  // unpaced calls of 10 us
    p.read(12.5);
    p.read(12.5);  // two slow ones by chance
    REQUIRE(p.paced());
    for (int k = 0; k < 3; ++k) p.read(10.0, 13.0);  // paced calls of 13 us: judged after kTrialReads
    CHECK(p.paced());
    p.read(10.0, 13.0);
    CHECK_FALSE(p.paced());
    const double learned = p.delay_us();
    CHECK(learned > 0);
    // Unpaced for kFirstBackoff calls, whatever the reads.
    for (int k = 0; k < ReadPacing::kFirstBackoff - 1; ++k) {
        p.read(13.0);
        CHECK_FALSE(p.paced());
    }
    p.read(13.0);  // slept twice in a row after the pause: paced again, from the wait it had
    CHECK(p.paced());
    CHECK(p.delay_us() == Approx(learned));
    // Paced calls that pay stay paced.
    for (int k = 0; k < 20; ++k) p.read(9.0, 9.5);
    CHECK(p.paced());
}

TEST_CASE("read pacing: not paying again pauses it twice as long", "[pacing]") {
    Pacer p;
    p.read(500.0);
    int pause = ReadPacing::kFirstBackoff;
    for (int round = 0; round < 4; ++round) {
        int unpaced = 0;
        while (!p.paced()) {
            p.read(13.0, 10.0);  // unpaced calls of 10 us, their reads "slept"
            ++unpaced;
            REQUIRE(unpaced < 10000);
        }
        if (round == 0) {
            CHECK(unpaced == 2);
        } else {
            CHECK(unpaced == pause);
            pause *= 2;
        }
        while (p.paced()) p.read(13.0, 20.0);  // paced calls of 20 us
    }
}

TEST_CASE("read pacing: a read as fast as the fastest paced one found the kernel done, on a slow host too",
          "[pacing]") {
    Pacer p;
    p.read(500.0);
    p.read(60.0);
    p.read(60.0);
    for (int k = 0; k < 4; ++k) p.read(17.0);  // this host's sleeps
    const double high = p.delay_us();
    REQUIRE(high > 10);
    p.read(9.5);  // the fastest read yet (this host's done read): the wait comes down
    CHECK(p.delay_us() < high);
    const double lower = p.delay_us();
    p.read(11.0);  // well above the fastest: the spin caught it; kept
    CHECK(p.delay_us() == Approx(lower));
    p.read(10.0);  // within kDoneMarginUs of the fastest: done, down again
    CHECK(p.delay_us() < lower);
}

TEST_CASE("read pacing is bounded", "[pacing]") {
    Pacer p;
    // A kernel longer than the bound: the call takes as long whenever the read goes out; the
    // wait stops at the bound.
    for (int k = 0; k < 1000; ++k) p.read(3000.0, 3000.0);
    CHECK(p.paced());
    CHECK(p.delay_us() == Approx(ReadPacing::kMaxDelayUs));
    for (int k = 0; k < 1000; ++k) p.read(7.0);
    CHECK(p.delay_us() == 0);
    CHECK(p.paced());  // cheaper all the way down than the unpaced 3000 us
}

}  // namespace
}  // namespace clreduce::test
