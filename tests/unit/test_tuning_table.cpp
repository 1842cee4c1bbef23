// The tuning table's lookup rule (nearest bucket on a log scale, tuned before known device)
// and the shipped known-device table, on described (not real) devices.
#include <algorithm>
#include <cstdint>

#include <catch2/catch.hpp>

#include "plan/planner.hpp"  // src/
#include "test_support.hpp"
#include "tuning/tuner_segments.hpp"  // src/: the segment stage's margin
#include "tuning/tuning_table.hpp"    // src/: the lookup rule, tested directly
#include "tuning_support.hpp"

using namespace clreduce;

namespace {

using test::entry;
using test::fake_gpu;

TEST_CASE("tuning lookup: nearest bucket on a log scale, ties to the larger, tuned before known device",
          "[tuning][plan]") {
    const auto e = [](std::uint64_t n, std::uint32_t times) {
        return entry(ElementType::uint32, n, times, 256, Stride::global, 4, InterGroup::atomic);
    };
    const TuningTable table({e(1 << 12, 1), e(1 << 16, 2), e(1 << 24, 3)}, {e(1 << 20, 9)});
    const auto times_for = [&](std::uint64_t n) {
        return *table.lookup(ElementType::uint32, OperationFamily::additive, n)->params.times;
    };
    CHECK(times_for(0) == 1);
    CHECK(times_for(100) == 1);
    CHECK(times_for(1 << 13) == 1);  // 1 away from 2^12, 3 from 2^16
    CHECK(times_for(1 << 14) == 2);  // a tie goes to the larger bucket
    CHECK(times_for(1 << 20) == 3);  // tie again; the known entry at exactly 2^20 is not used
    CHECK(times_for(1ull << 34) == 3);
    CHECK(table.lookup(ElementType::uint32, OperationFamily::additive, 1 << 16)->source == ParamSource::tuned);
    CHECK_FALSE(table.lookup(ElementType::int32, OperationFamily::additive, 1 << 16).has_value());
    CHECK_FALSE(table.lookup(ElementType::uint32, OperationFamily::extremum, 1 << 16).has_value());

    const TuningTable known_only({}, {e(1 << 20, 9)});
    const auto k = known_only.lookup(ElementType::uint32, OperationFamily::additive, 1 << 12);
    REQUIRE(k.has_value());
    CHECK(k->source == ParamSource::known_device);
    CHECK(k->n == (1u << 20));
}

// A device's shipped segment shapes: one per type, kind and length, each a team and work-group
// size the planner takes for segments of that kind and average.
void check_shipped_teams(const std::vector<TunedEntry>& teams, const DeviceInfo& device) {
    const TuningTable shipped({}, teams);
    for (const TunedEntry& k : teams) {
        INFO(device.name << " " << type_name(k.type) << " segment length " << k.segment_length);
        CHECK((k.type == ElementType::int32 || k.type == ElementType::float32 || k.type == ElementType::float64));
        REQUIRE(k.params.segment_team.has_value());
        REQUIRE(k.params.work_group_size.has_value());
        CHECK_FALSE(k.params.times.has_value());
        CHECK(std::count_if(teams.begin(), teams.end(), [&](const TunedEntry& o) {
                  return o.type == k.type && o.segment_length == k.segment_length && o.equal_lengths == k.equal_lengths;
              }) == 1);
        PlanRequest listed{Operation::sum, k.type, k.n, CallForm::segments};
        listed.segments = k.n / k.segment_length;
        listed.listed = !k.equal_lengths;
        const auto team = shipped.lookup_segment_team(k.type, k.segment_length, k.equal_lengths, k.n);
        REQUIRE(team.has_value());
        const LaunchPlan p = make_plan(listed, device, {}, &*team);
        CHECK(p.segment_team == *k.params.segment_team);
        CHECK(p.work_group_size == *k.params.work_group_size);
        CHECK(p.sources.segment_team == ParamSource::known_device);
    }
}

TEST_CASE("known devices: the shipped H200 table is complete and makes valid plans", "[tuning][plan]") {
    DeviceInfo h200 = fake_gpu();
    CHECK(known_device_entries(h200).empty());
    h200.name = "NVIDIA H200";
    h200.compute_units = 132;
    h200.max_work_group_size = 1024;
    std::vector<TunedEntry> known, teams;
    for (const TunedEntry& k : known_device_entries(h200)) (k.segment_length != 0 ? teams : known).push_back(k);
    REQUIRE(known.size() == 50);  // int8, int32, uint32, float32, float64 x 2^12 .. 2^30 by powers of 4
    // Segment shapes: int32, float32 and float64 x equal and varying lengths x averages 4 .. 4096
    // by powers of 2, each a team and work-group size the planner takes for segments of that
    // kind and average.
    REQUIRE(teams.size() == 66);
    check_shipped_teams(teams, h200);
    for (ElementType t :
         {ElementType::int8, ElementType::int32, ElementType::uint32, ElementType::float32, ElementType::float64})
        CHECK(std::count_if(known.begin(), known.end(), [&](const TunedEntry& k) { return k.type == t; }) == 10);
    for (const TunedEntry& k : known) {
        INFO(type_name(k.type) << " n=" << k.n);
        CHECK(k.family == OperationFamily::additive);
        CHECK((k.params.times && k.params.work_group_size && k.params.stride && k.params.vector_width &&
               k.params.inter_group));
        const LaunchPlan p = make_plan(k.type, k.n, h200, {}, TunedParams{k.params, ParamSource::known_device, k.n});
        CHECK(p.times == *k.params.times);
        CHECK(p.work_group_size == *k.params.work_group_size);
        CHECK(p.sources.times == ParamSource::known_device);
        // The measured level 3 (deterministic float sums included: tuning measures that mode)...
        CHECK(p.sources.inter_group == ParamSource::known_device);
        CHECK(p.inter_group == *k.params.inter_group);
        if (is_floating(k.type)) {
            // ... but another float mode decides its own; FloatMode::atomic's compare-and-swap
            // finish also takes the default shape (few groups), not the tuned one.
            LaunchParams atomic_mode;
            atomic_mode.float_mode = FloatMode::atomic;
            const LaunchPlan a = make_plan(Operation::sum, k.type, k.n, h200, atomic_mode,
                                           TunedParams{k.params, ParamSource::known_device, k.n});
            CHECK(a.inter_group == InterGroup::atomic);
            const LaunchPlan untuned = make_plan(Operation::sum, k.type, k.n, h200, atomic_mode);
            CHECK(a.times == untuned.times);
            CHECK(a.groups == untuned.groups);
            CHECK(a.sources.times == ParamSource::device_default);
        }
    }
    // The H100's rows (float32, int32, float64) make plans with their measured values too.
    DeviceInfo h100 = h200;
    h100.name = "NVIDIA H100 80GB HBM3";
    std::vector<TunedEntry> h100_known, h100_teams;
    for (const TunedEntry& k : known_device_entries(h100))
        (k.segment_length != 0 ? h100_teams : h100_known).push_back(k);
    CHECK(h100_known.size() == 30);
    for (const TunedEntry& k : h100_known) {
        INFO("H100 " << type_name(k.type) << " n=" << k.n);
        const LaunchPlan p = make_plan(k.type, k.n, h100, {}, TunedParams{k.params, ParamSource::known_device, k.n});
        CHECK(p.times == *k.params.times);
        CHECK(p.inter_group == *k.params.inter_group);
    }
    // Its segment shapes (int32 every length and kind; float32 equal lengths and varying ones of
    // 4 to 16) plan as measured.
    CHECK(h100_teams.size() == 36);
    check_shipped_teams(h100_teams, h100);
    const TunedEntry* uint32_2_24 = nullptr;
    for (const TunedEntry& k : known)
        if (k.type == ElementType::uint32 && k.n == (1u << 24)) uint32_2_24 = &k;
    REQUIRE(uint32_2_24 != nullptr);
    CHECK(*uint32_2_24->params.times == 32u);  // the measured inflection point (README)
}

TEST_CASE("segment shapes: the nearest measured length of the same kind within a factor of 2",
          "[tuning][plan][segments]") {
    const auto team_entry = [](std::uint64_t length, std::uint32_t team) {
        TunedEntry e;
        e.type = ElementType::int32;
        e.n = 1 << 26;
        e.segment_length = length;
        e.params.segment_team = team;
        return e;
    };
    const TunedEntry range = entry(ElementType::int32, 1 << 26, 7, 256, Stride::global, 4, InterGroup::atomic);
    TunedEntry equal = team_entry(64, 2);
    equal.equal_lengths = true;
    equal.params.work_group_size = 128;
    const TuningTable table({range, team_entry(16, 2), team_entry(64, 1), team_entry(256, 16), equal},
                            {team_entry(4096, 32)});
    const auto team_for = [&](std::uint64_t length) -> std::optional<std::uint32_t> {
        const auto t = table.lookup_segment_team(ElementType::int32, length, false, 1 << 20);
        return t ? t->params.segment_team : std::nullopt;
    };
    CHECK_FALSE(team_for(7).has_value());  // more than a factor of 2 below the shortest measured
    CHECK(team_for(8) == 2u);
    CHECK(team_for(31) == 2u);
    CHECK(team_for(32) == 1u);  // a tie goes to the longer length
    CHECK(team_for(100) == 1u);
    CHECK(team_for(512) == 16u);
    CHECK_FALSE(team_for(1000).has_value());  // the known 4096 is 2.03 binades away
    CHECK(team_for(2048) == 32u);
    CHECK(table.lookup_segment_team(ElementType::int32, 2048, false, 1 << 20)->source == ParamSource::known_device);
    CHECK(table.lookup_segment_team(ElementType::int32, 64, false, 1 << 20)->source == ParamSource::tuned);
    CHECK(table.lookup_segment_team(ElementType::int32, 64, false, 1 << 20)->n == 64);
    CHECK_FALSE(table.lookup_segment_team(ElementType::float32, 64, false, 1 << 20).has_value());
    // Segment entries are not single-range entries, nor the other way round.
    CHECK(*table.lookup(ElementType::int32, OperationFamily::additive, 64)->params.times == 7u);
    // Equal lengths have their own entries.
    const auto same_length = table.lookup_segment_team(ElementType::int32, 64, true, 1 << 20);
    REQUIRE(same_length.has_value());
    CHECK(same_length->params.segment_team == 2u);
    CHECK(same_length->params.work_group_size == 128u);
    CHECK_FALSE(table.lookup_segment_team(ElementType::int32, 16, true, 1 << 20).has_value());
    CHECK(table.lookup_segment_team(ElementType::int32, 64, false, 1 << 20)->params.segment_team == 1u);
    // Entries serve calls up to twice the size they were measured at (2^26 here).
    CHECK(table.lookup_segment_team(ElementType::int32, 64, false, 1ull << 27).has_value());
    CHECK_FALSE(table.lookup_segment_team(ElementType::int32, 64, false, (1ull << 27) + 2).has_value());
    const TuningTable only_range({range}, {});
    CHECK_FALSE(only_range.lookup_segment_team(ElementType::int32, 64, false, 1 << 20).has_value());

    // The planner: segments take the team (and a work-group size where the entry has one), the
    // caller's team wins, columns keep their rule, a team the plan cannot use (wider than the
    // work-group) gives way to the rule.
    const DeviceInfo gpu = fake_gpu();
    PlanRequest listed{Operation::sum, ElementType::int32, 1 << 20, CallForm::segments};
    listed.segments = (1 << 20) / 64;
    listed.listed = true;
    const TunedParams tuned = *table.lookup_segment_team(ElementType::int32, 64, false, 1 << 20);
    const LaunchPlan rule = make_plan(listed, gpu);
    CHECK(rule.segment_team != 1u);  // (else the test below proves nothing)
    CHECK(rule.sources.segment_team == ParamSource::device_default);
    const LaunchPlan plan = make_plan(listed, gpu, {}, &tuned);
    CHECK(plan.segment_team == 1u);
    CHECK(plan.sources.segment_team == ParamSource::tuned);
    CHECK(plan.tuned_n == 64);
    CHECK_THAT(plan.describe_sources(), Catch::Matchers::Contains("team=tuned(segment length 64)"));
    CHECK(plan.groups == (listed.segments + plan.work_group_size - 1) / plan.work_group_size);
    LaunchParams mine;
    mine.segment_team = 4;
    const LaunchPlan overridden = make_plan(listed, gpu, mine, &tuned);
    CHECK(overridden.segment_team == 4u);
    CHECK(overridden.sources.segment_team == ParamSource::override);
    CHECK(overridden.tuned_n == 0);
    PlanRequest batch = listed;
    batch.listed = false;
    const LaunchPlan batch_rule = make_plan(batch, gpu);
    CHECK(batch_rule.work_group_size != 128u);  // (else the next checks prove nothing)
    const LaunchPlan batch_plan = make_plan(batch, gpu, {}, &*same_length);
    CHECK(batch_plan.segment_team == 2u);
    CHECK(batch_plan.work_group_size == 128u);
    CHECK(batch_plan.sources.work_group_size == ParamSource::tuned);
    CHECK(batch_plan.describe_sources() == "team=tuned(segment length 64) wg=tuned vec=default");
    CHECK(batch_plan.groups == (batch.segments + 63) / 64);
    PlanRequest columns{Operation::sum, ElementType::int32, 1 << 20, CallForm::segments};
    columns.segments = 1 << 10;
    columns.columns = true;
    columns.column_rows = 1 << 10;
    const LaunchPlan column_plan = make_plan(columns, gpu, {}, &tuned);
    CHECK(column_plan.describe() == make_plan(columns, gpu).describe());
    CHECK(column_plan.sources.segment_team == ParamSource::device_default);
    TunedParams too_wide = tuned;
    too_wide.params.segment_team = gpu.max_work_group_size * 2;
    const LaunchPlan fallback = make_plan(listed, gpu, {}, &too_wide);
    CHECK(fallback.segment_team == rule.segment_team);
    CHECK(fallback.sources.segment_team == ParamSource::device_default);
}

TEST_CASE("segment stage: a shape replaces the rule's only 10 % faster", "[tuning][segments]") {
    FinalChoice choice;
    choice.retimed = {100.0, 92.0, std::nullopt};
    choice.index = 1;
    choice.us = 92.0;
    CHECK(segment_team_choice(choice, 0) == 0);  // 8 % faster: the rule stays
    choice.retimed[1] = choice.us = 89.0;
    CHECK(segment_team_choice(choice, 0) == 1);  // 11 %
    choice.index = 0;
    CHECK(segment_team_choice(choice, 0) == 0);
    choice.index = 1;
    CHECK(segment_team_choice(choice, 2) == 1);  // the rule's was not re-timed: the fastest
}

TEST_CASE("tuned values that make no plan for a size far from their bucket fall back to the defaults",
          "[tuning][plan]") {
    const DeviceInfo gpu = fake_gpu();
    LaunchParams tiny;
    tiny.times = 1;
    tiny.work_group_size = 32;
    tiny.vector_width = 1;
    const std::uint64_t n = 1ull << 40;  // 2^35 groups with the tuned values
    const LaunchPlan p = make_plan(ElementType::uint32, n, gpu, {}, TunedParams{tiny, ParamSource::tuned, 1 << 12});
    CHECK(p.describe() == make_plan(ElementType::uint32, n, gpu).describe());
    CHECK(p.sources.times == ParamSource::device_default);
    // Overrides still throw as without tuning.
    CHECK_THROWS_AS(make_plan(ElementType::uint32, n, gpu, tiny, TunedParams{tiny, ParamSource::tuned, 1 << 12}),
                    InvalidArgument);
}

}  // namespace
