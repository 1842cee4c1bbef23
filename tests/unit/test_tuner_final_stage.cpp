// The tuner's final stage without a device: the `times` it sweeps, and the choice among
// candidates from injected timings (noisy first times, interleaved re-timing, failures, stop).
#include <catch2/catch.hpp>

#include <cmath>
#include <map>

#include "test_support.hpp"
#include "tuning/tuner_final_stage.hpp"  // src/

using namespace clreduce;
using Catch::Matchers::Equals;

namespace {

LaunchParams fixed(std::uint32_t wg, std::uint32_t vec) {
    LaunchParams p;
    p.work_group_size = wg;
    p.vector_width = vec;
    p.stride = Stride::global;
    p.inter_group = InterGroup::atomic;
    return p;
}

using Times = std::vector<std::uint32_t>;

}  // namespace

TEST_CASE("times_sweep: powers of two from 1 up to a single work-group, capped at 1024", "[tuning][final]") {
    const DeviceInfo gpu = test::fake_gpu();
    // 2^12 uint32 in vectors of 4: 1024 vectors, 4 groups of 256 at times=1, one group at 4.
    CHECK_THAT(times_sweep(ElementType::uint32, 1 << 12, gpu, fixed(256, 4)), Equals(Times{1, 2, 4}));
    // 2^20: 1024 groups at times=1, the last power (1024) leaves one.
    CHECK_THAT(times_sweep(ElementType::uint32, 1 << 20, gpu, fixed(256, 4)),
               Equals(Times{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}));
    // 2^30: still 1024 groups at times=1024; the sweep stops at its cap.
    CHECK(times_sweep(ElementType::uint32, 1ull << 30, gpu, fixed(256, 4)).back() == kTimesSweepMax);
    // The fixed times plays no part.
    LaunchParams p = fixed(256, 4);
    p.times = 4096;
    CHECK(times_sweep(ElementType::uint32, 1ull << 30, gpu, p).back() == kTimesSweepMax);
    p.times = 3;
    CHECK_THAT(times_sweep(ElementType::uint32, 1 << 12, gpu, p), Equals(Times{1, 2, 4}));
    // Sizes where small times need more than 2^31 - 1 work-groups start where the plan is valid.
    CHECK(times_sweep(ElementType::uint8, 1ull << 40, gpu, fixed(32, 1)).front() == 32);
    // A small n: one group at once.
    CHECK_THAT(times_sweep(ElementType::int32, 31, gpu, fixed(256, 4)), Equals(Times{1}));
    // Parameters that make no plan at all (float data, atomic finish outside FloatMode::atomic).
    CHECK(times_sweep(ElementType::float32, 1 << 20, gpu, fixed(256, 4)).empty());
}

TEST_CASE("final stage: fastest, interleaved rounds and the lowest median", "[tuning][final]") {
    CHECK_THAT(fastest({5.0, std::nullopt, 3.0, 4.0, 3.0}, 3), Equals(std::vector<std::size_t>{2, 4, 3}));
    CHECK_THAT(fastest({std::nullopt, 1.0}, 5), Equals(std::vector<std::size_t>{1}));
    CHECK(fastest({}, 3).empty());

    // Each round starts one candidate further on; every candidate is timed once a round.
    std::vector<std::size_t> calls;
    const auto samples = interleaved_samples(3, 4, [&](std::size_t c) {
        calls.push_back(c);
        return std::optional<double>(double(10 * c + calls.size()));
    });
    CHECK_THAT(calls, Equals(std::vector<std::size_t>{0, 1, 2, 1, 2, 0, 2, 0, 1, 0, 1, 2}));
    REQUIRE(samples.size() == 3);
    for (const auto& s : samples) CHECK(s.size() == 4);

    // A candidate that fails once loses its samples and is timed no more.
    int failing_calls = 0;
    const auto with_failure = interleaved_samples(2, 5, [&](std::size_t c) -> std::optional<double> {
        if (c == 1 && ++failing_calls == 3) return std::nullopt;
        return 1.0;
    });
    CHECK(with_failure[0].size() == 5);
    CHECK(with_failure[1].empty());
    CHECK(failing_calls == 3);

    // Stopped inside the third round: the incomplete round is dropped for everyone.
    int timed = 0;
    const auto stopped = interleaved_samples(
        3, 10, [&](std::size_t) { return std::optional<double>(double(++timed)); }, [&] { return timed == 7; });
    for (const auto& s : stopped) CHECK(s.size() == 2);

    // Medians, not means: one outlier does not lose the race; ties go to the earlier.
    CHECK(lowest_median({{5, 5, 5}, {4, 4, 100}, {4.5, 4.5, 4.5}}) == std::size_t(1));
    CHECK(lowest_median({{}, {2, 2}, {2, 2}}) == std::size_t(1));
    CHECK_FALSE(lowest_median({{}, {}}).has_value());
    CHECK(median_of({3, 1, 2, 10}) == 2.5);
}

TEST_CASE("final stage: the re-timed best wins over a lucky first time", "[tuning][final]") {
    // True kernel times of a sweep over times 1 .. 1024: a valley at index 4 (times=16).
    const std::vector<double> truth = {30, 20, 14, 10.4, 10.0, 10.3, 12, 15, 22, 35, 60};
    // First times with noise: index 6 (truly 12 us) looked fastest by luck; the true best (4)
    // looked slow enough to miss the three finalists.
    std::vector<std::optional<double>> first(truth.begin(), truth.end());
    first[6] = 9.0;
    first[3] = 10.1;
    first[5] = 10.15;
    first[4] = 10.2;
    const std::size_t defaults = truth.size();
    first.push_back(25.0);  // the defaults: another work-group size, 25 us
    // Re-timing: the truth plus a spike every fifth call, on each candidate in turn.
    std::map<std::size_t, int> calls_of;
    const auto time_once = [&](std::size_t i) -> std::optional<double> {
        const double base = i == defaults ? 25.0 : truth[i];
        return ++calls_of[i] % 5 == 0 ? base * 3 : base;
    };
    auto choice = choose_final(first, 3, {defaults}, 15, time_once);
    REQUIRE(choice.has_value());
    // Finalists 6, 3 and 5 (the three fastest first times) and the defaults; 5 is the best
    // of them (10.3 us), not the lucky 6.
    CHECK(calls_of.size() == 4);
    CHECK(calls_of.count(4) == 0);
    for (const auto& [i, calls] : calls_of) CHECK(calls == 15);
    CHECK(choice->index == 5);
    CHECK(choice->us == 10.3);
    REQUIRE(choice->retimed[defaults].has_value());
    CHECK(*choice->retimed[defaults] == 25.0);
    CHECK_FALSE(choice->retimed[0].has_value());

    // With the true best among the first three it is found whatever its first time.
    first[4] = 9.5;
    calls_of.clear();
    choice = choose_final(first, 3, {defaults}, 15, time_once);
    REQUIRE(choice.has_value());
    CHECK(choice->index == 4);
    CHECK(choice->us == 10.0);

    // The fastest finalist gives a wrong result while re-timed: it never wins.
    calls_of.clear();
    choice = choose_final(first, 3, {defaults}, 15, [&](std::size_t i) -> std::optional<double> {
        if (i == 4 && ++calls_of[i] == 2) return std::nullopt;
        return i == defaults ? 25.0 : truth[i];
    });
    REQUIRE(choice.has_value());
    CHECK(choice->index == 3);  // of 6 (12 us) and 3 (10.4 us), once 4 is out
    CHECK_FALSE(choice->retimed[4].has_value());

    // No re-timing (no rounds, or stopped at once): the fastest first time.
    choice = choose_final(first, 3, {defaults}, 0, time_once);
    REQUIRE(choice.has_value());
    CHECK(choice->index == 6);
    CHECK(choice->us == 9.0);
    choice = choose_final(first, 3, {defaults}, 15, time_once, [] { return true; });
    REQUIRE(choice.has_value());
    CHECK(choice->index == 6);

    // Nothing measured at all.
    CHECK_FALSE(choose_final({std::nullopt, std::nullopt}, 3, {0}, 15, time_once).has_value());
}
