// The tuning table's lookup rule (nearest bucket on a log scale, tuned before known device)
// and the shipped known-device table, on described (not real) devices.
#include <algorithm>
#include <cstdint>

#include <catch2/catch.hpp>

#include "plan/planner.hpp"  // src/
#include "test_support.hpp"
#include "tuning/tuning_table.hpp"  // src/: the lookup rule, tested directly
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

TEST_CASE("known devices: the shipped H200 table is complete and makes valid plans", "[tuning][plan]") {
    DeviceInfo h200 = fake_gpu();
    CHECK(known_device_entries(h200).empty());
    h200.name = "NVIDIA H200";
    h200.compute_units = 132;
    h200.max_work_group_size = 1024;
    const auto known = known_device_entries(h200);
    REQUIRE(known.size() == 50);  // int8, int32, uint32, float32, float64 x 2^12 .. 2^30 by powers of 4
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
    const auto h100_known = known_device_entries(h100);
    CHECK(h100_known.size() == 30);
    for (const TunedEntry& k : h100_known) {
        INFO("H100 " << type_name(k.type) << " n=" << k.n);
        const LaunchPlan p = make_plan(k.type, k.n, h100, {}, TunedParams{k.params, ParamSource::known_device, k.n});
        CHECK(p.times == *k.params.times);
        CHECK(p.inter_group == *k.params.inter_group);
    }
    const TunedEntry* uint32_2_24 = nullptr;
    for (const TunedEntry& k : known)
        if (k.type == ElementType::uint32 && k.n == (1u << 24)) uint32_2_24 = &k;
    REQUIRE(uint32_2_24 != nullptr);
    CHECK(*uint32_2_24->params.times == 32u);  // the measured inflection point (README)
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
