// Tuned values used by later calls (observable through plan() and CallInfo), a real tune on the
// device, and sums that stay exact while another thread switches the database. The file itself:
// test_tuning_database.cpp.
#include "tuning_test_support.hpp"

using namespace clreduce;
using namespace clreduce::test;
namespace fs = std::filesystem;

TEST_CASE("tuned values are used by plan() and by later sum calls, explicit parameters win", "[tuning][sum]") {
    Reducer& r = tuning_reducer();
    const DeviceInfo& d = r.device_info();
    const std::uint64_t n = 1 << 16;
    const TunedEntry tuned = unusual_entry(d, n);
    const fs::path file = fresh_file("tuning.json");
    TuningDatabase(file).store(d, {tuned});

    r.use_tuning_database(TuningDatabase(file));
    REQUIRE(r.tuned_entries().size() == 1);
    const LaunchPlan plan = r.plan(ElementType::int32, Operation::sum, n);
    CHECK(plan.times == 3);
    CHECK(plan.work_group_size == *tuned.params.work_group_size);
    CHECK(plan.stride == *tuned.params.stride);
    CHECK(plan.vector_width == *tuned.params.vector_width);
    CHECK(plan.inter_group == *tuned.params.inter_group);
    CHECK(plan.sources.times == ParamSource::tuned);
    CHECK(plan.sources.inter_group == ParamSource::tuned);
    CHECK(plan.tuned_n == n);
    CHECK_THAT(plan.describe_sources(), Catch::Matchers::Contains("times=tuned(n=65536)"));
    CHECK(r.plan(ElementType::int32, n).describe() == plan.describe());  // plan(type, n) means sum

    // The nearest bucket serves other sizes of the same type and family: larger ones with its
    // times, smaller ones that would not fill the device (8 groups per compute unit) with as
    // many groups as the bucket had (times scaled down to a power of two, at least 1).
    for (std::uint64_t size :
         {std::uint64_t(40), std::uint64_t(1000), std::uint64_t(1 << 16) + 1, std::uint64_t(1 << 18)}) {
        CallInfo info;
        check_sum_exact<std::int32_t>(r, size, {}, info);
        const std::uint64_t vectors = n / *tuned.params.vector_width, wg = *tuned.params.work_group_size;
        const std::uint64_t bucket_groups = (vectors + wg * 3 - 1) / (wg * 3);
        std::uint64_t wanted = (size / *tuned.params.vector_width + wg * bucket_groups - 1) / (wg * bucket_groups);
        std::uint32_t expected = 1;
        while (expected * 2 <= wanted && expected * 2 <= 3) expected *= 2;
        // A launch that still fills the device at the tuned times keeps them.
        const std::uint64_t groups_at_tuned = (size / *tuned.params.vector_width + wg * 3 - 1) / (wg * 3);
        if (groups_at_tuned >= std::max<std::uint64_t>(1, d.compute_units) * 8) expected = 3;
        CHECK(info.plan.times == (size >= n ? 3u : expected));
        CHECK(info.plan.sources.times == ParamSource::tuned);
        CHECK(info.plan.sources.work_group_size == ParamSource::tuned);
        CHECK(info.plan.describe() ==
              r.plan(ElementType::int32, Operation::sum, size, {}, CallForm::host_data).describe());
    }
    // Other types and other families have no entry: defaults.
    CHECK(r.plan(ElementType::uint32, Operation::sum, n).sources.times ==
          untuned_plan(ElementType::uint32, Operation::sum, n, r.device_info()).sources.times);
    CHECK(r.plan(ElementType::int32, Operation::max, n).sources.times == ParamSource::device_default);
    CHECK(r.plan(ElementType::int32, Operation::mean, n).sources.times == ParamSource::tuned);  // additive too

    // Explicit parameters win field by field.
    LaunchParams params;
    params.times = 5;
    params.stride = make_plan(ElementType::int32, n, d).stride;
    CallInfo info;
    check_sum_exact<std::int32_t>(r, n, params, info);
    CHECK(info.plan.times == 5);
    CHECK(info.plan.sources.times == ParamSource::override);
    CHECK(info.plan.stride == *params.stride);
    CHECK(info.plan.sources.stride == ParamSource::override);
    CHECK(info.plan.work_group_size == *tuned.params.work_group_size);
    CHECK(info.plan.sources.work_group_size == ParamSource::tuned);
    CHECK(info.plan.tuned_n == n);
    const LaunchParams all = [&] {
        LaunchParams p;
        const LaunchPlan defaults = make_plan(ElementType::int32, n, d);
        p.times = defaults.times;
        p.work_group_size = defaults.work_group_size;
        p.stride = defaults.stride;
        p.vector_width = defaults.vector_width;
        p.inter_group = defaults.inter_group;
        return p;
    }();
    const LaunchPlan overridden = r.plan(ElementType::int32, n, all);
    CHECK(overridden.describe() == make_plan(ElementType::int32, n, d).describe());
    CHECK(overridden.sources.vector_width == ParamSource::override);
    CHECK(overridden.tuned_n == 0);  // nothing of the entry was used

    // A reducer made later reads the default file: tuned there, tuned for it.
    const fs::path folder = fresh_file("unused").parent_path();
    TuningDatabase(folder / "tuning.json").store(d, {tuned});
    set_cache_directory(folder);
    const WithoutEnv no_file("CLREDUCE_TUNING_FILE");  // it would name another file
    Reducer later(default_device());
    set_cache_directory(std::nullopt);
    CHECK(later.tuning_database().file() == folder / "tuning.json");
    CHECK(later.plan(ElementType::int32, n).describe() == plan.describe());
    check_sum_exact<std::int32_t>(later, n, {}, info);
    CHECK(info.plan.sources.times == ParamSource::tuned);

    r.use_tuning_database(TuningDatabase(fresh_file("none.json")));
    CHECK(r.plan(ElementType::int32, n).sources.times ==
          untuned_plan(ElementType::int32, Operation::sum, n, r.device_info()).sources.times);
}

TEST_CASE("Reducer::tune measures, verifies, stores and uses the best parameters at once", "[tuning][tune]") {
    Reducer& r = tuning_reducer();
    const fs::path file = fresh_file("tuning.json");
    r.use_tuning_database(TuningDatabase(file));

    TuneOptions options;
    options.types = {ElementType::uint32};
    options.min_n = 1 << 12;
    options.max_n = 1 << 14;
    options.quick = true;
    options.repeats = 2;
    options.segments = false;  // size buckets only, no segment stage
    std::vector<TuneProgress> progress;
    options.progress = [&](const TuneProgress& p) { progress.push_back(p); };
    const TuneResult result = r.tune(options);
    CHECK(result.complete);
    CHECK(result.rejected == 0);
    REQUIRE(result.entries.size() == 2);
    CHECK(result.saved_to == file);
    CHECK(result.save_error.empty());
    REQUIRE_FALSE(progress.empty());
    CHECK(progress.size() == result.measurements);
    CHECK(progress.back().done + 1 == result.measurements);
    CHECK(progress.back().total >= progress.back().done);

    for (const TunedEntry& e : result.entries) {
        CHECK(e.type == ElementType::uint32);
        CHECK(e.family == OperationFamily::additive);
        CHECK((e.n == (1u << 12) || e.n == (1u << 14)));
        CHECK(e.kernel_us > 0);
        CHECK(e.kernel_us <= e.default_kernel_us);  // the default is a candidate
        REQUIRE(e.params.times.has_value());
        REQUIRE(e.params.inter_group.has_value());
        // The final stage's choice: one of the times it sweeps with the other parameters, or
        // beyond the sweep's cap the descent's winner (which still has several groups), or the
        // defaults, which are re-timed beside them (a CPU device's small-size shape lies beyond the cap).
        const auto swept = times_sweep(e.type, e.n, r.device_info(), e.params);
        const LaunchParams defaults = launch_shape(make_plan(e.type, e.n, r.device_info()));  // the tuner's start
        const bool chose_defaults = e.params.times == defaults.times &&
                                    e.params.work_group_size == defaults.work_group_size &&
                                    e.params.vector_width == defaults.vector_width &&
                                    e.params.stride == defaults.stride && e.params.inter_group == defaults.inter_group;
        CHECK((std::find(swept.begin(), swept.end(), *e.params.times) != swept.end() || chose_defaults ||
               (*e.params.times > kTimesSweepMax && make_plan(e.type, e.n, r.device_info(), e.params).groups > 1)));
        // Used at once, by plan() and by a sum.
        const LaunchPlan plan = r.plan(ElementType::uint32, e.n);
        CHECK(plan.times == *e.params.times);
        CHECK(plan.work_group_size == *e.params.work_group_size);
        CHECK(plan.vector_width == *e.params.vector_width);
        CHECK(plan.stride == *e.params.stride);
        CHECK(plan.inter_group == *e.params.inter_group);
        CHECK(plan.sources.times == ParamSource::tuned);
        CallInfo info;
        check_sum_exact<std::uint32_t>(r, e.n, {}, info);  // host data: planned as such
        CHECK(info.plan.describe() ==
              r.plan(ElementType::uint32, Operation::sum, e.n, {}, CallForm::host_data).describe());
        CHECK(launch_shape(info.plan).times == launch_shape(plan).times);
        // The placement stage: host data of this size timed on both sides, the faster kept and
        // used by plan() for host data (every uint32 sum plan is one the host reproduces).
        REQUIRE(e.params.host_path_bytes.has_value());
        CHECK(e.host_data_us > 0);
        CHECK(e.device_data_us > 0);
        CHECK((*e.params.host_path_bytes != 0) == (e.host_data_us <= e.device_data_us));
        CHECK(r.plan(ElementType::uint32, Operation::sum, e.n, {}, CallForm::host_data).on_host ==
              (*e.params.host_path_bytes != 0));
    }
    // A tuned placement against the host gives way to the caller's.
    {
        const TunedEntry& e = result.entries.front();
        LaunchParams host;
        host.host_path_bytes = std::numeric_limits<std::uint64_t>::max();
        CHECK(r.plan(ElementType::uint32, Operation::sum, e.n, host, CallForm::host_data).on_host);
    }
    const TuningLoad stored = TuningDatabase(file).load(r.device_info());
    CHECK(stored.entries.size() == 2);
    for (const TunedEntry& e : result.entries) CHECK(holds(stored.entries, e));

    // Stopped before the first measurement: nothing measured, nothing stored, no error.
    std::atomic<bool> stop{true};
    options.stop = &stop;
    options.progress = nullptr;
    options.types = {ElementType::int64};
    const TuneResult stopped = r.tune(options);
    CHECK_FALSE(stopped.complete);
    CHECK(stopped.entries.empty());
    CHECK(TuningDatabase(file).load(r.device_info()).entries.size() == 2);

    // Stopped (as by Ctrl-C) after three measurements: the best of those is kept and stored.
    stop = false;
    options.progress = [&](const TuneProgress& p) {
        if (p.done == 2) stop = true;  // the third measurement is the last
    };
    const TuneResult partial = r.tune(options);
    CHECK_FALSE(partial.complete);
    CHECK(partial.measurements == 3);
    REQUIRE(partial.entries.size() == 1);
    CHECK(partial.entries[0].type == ElementType::int64);
    CHECK(partial.entries[0].n == (1u << 12));
    CHECK(TuningDatabase(file).load(r.device_info()).entries.size() == 3);
    CHECK(r.plan(ElementType::int64, 1 << 12).sources.times == ParamSource::tuned);

    // Out of time at once: nothing measured.
    options.stop = nullptr;
    options.progress = nullptr;
    options.time_budget_s = 1e-9;
    const TuneResult budget = r.tune(options);
    CHECK_FALSE(budget.complete);
    CHECK(budget.measurements == 0);

    CHECK_THROWS_AS(r.tune([] {
        TuneOptions o;
        o.families = {OperationFamily::extremum};
        return o;
    }()),
                    Unsupported);
    r.use_tuning_database(TuningDatabase(fresh_file("none.json")));
}

TEST_CASE("Reducer::tune learns a segment shape per kind and average length, and segmented calls use it",
          "[tuning][tune][segments]") {
    Reducer& r = tuning_reducer();
    const DeviceInfo& d = r.device_info();
    const fs::path file = fresh_file("tuning.json");
    r.use_tuning_database(TuningDatabase(file));
    TuneOptions options;
    options.types = {ElementType::int32};
    options.min_n = options.max_n = 1 << 14;
    options.quick = true;
    options.repeats = 2;
    std::vector<std::string> labels;
    options.progress = [&](const TuneProgress& p) { labels.push_back(p.current); };
    const TuneResult result = r.tune(options);
    CHECK(result.complete);
    CHECK(result.rejected == 0);
    std::vector<TunedEntry> shapes;
    for (const TunedEntry& e : result.entries)
        if (e.segment_length != 0) shapes.push_back(e);
    // Lengths 4, 8, .. 1024 (at least 16 segments of the stage's 2^14 elements), equal then varying.
    REQUIRE(shapes.size() == 18);
    REQUIRE(result.entries.size() == 19);
    CHECK(std::count_if(labels.begin(), labels.end(), [](const std::string& l) {
              return l.find("varying segments of ~") != std::string::npos;
          }) >= 9);
    for (std::size_t i = 0; i < shapes.size(); ++i) {
        const TunedEntry& e = shapes[i];
        INFO("segment length " << e.segment_length << (e.equal_lengths ? " equal" : " varying"));
        CHECK(e.equal_lengths == (i < 9));
        CHECK(e.segment_length == (4u << (i % 9)));
        CHECK(e.type == ElementType::int32);
        CHECK(e.n <= (1u << 14));
        REQUIRE(e.params.segment_team.has_value());
        REQUIRE(e.params.work_group_size.has_value());
        CHECK(*e.params.segment_team <= *e.params.work_group_size);
        CHECK(e.kernel_us > 0);
        CHECK(e.kernel_us <= e.default_kernel_us);  // the rule's shape is re-timed beside it
        // Segments of about that length and of that kind now plan with it (their sources say
        // so), the other kind and columns do not; the sums stay exact.
        // Varying lengths come in pairs L/2 + r, 3L/2 - r: their average is the entry's length
        // exactly (independent draws of a few segments could average nearer the next entry's).
        const std::uint64_t segments = (3000 / e.segment_length + 2) / 2 * 2;
        std::vector<std::uint64_t> offsets{5};
        std::mt19937_64 lengths(test::seed_for(e.segment_length, 79));
        for (std::uint64_t s = 0; s < segments; s += 2) {
            const std::uint64_t r = e.equal_lengths ? e.segment_length / 2 : lengths() % (e.segment_length + 1);
            offsets.push_back(offsets.back() + e.segment_length / 2 + r);
            offsets.push_back(offsets.back() + e.segment_length / 2 + (e.segment_length - r));
        }
        const auto data =
            testing::random_values<std::int32_t>(offsets.back() + 3, test::seed_for(e.segment_length, 80));
        const cl::Buffer values = device_copy(r, data);
        const Segments chosen =
            e.equal_lengths ? Segments::batch(segments, e.segment_length) : Segments::offsets(offsets);
        const Segments other =
            e.equal_lengths ? Segments::offsets(offsets) : Segments::batch(segments, e.segment_length);
        const LaunchPlan plan = r.plan(ElementType::int32, Operation::sum, chosen);
        INFO("entry measured at n " << e.n << "; the call: " << segments << " segments, " << offsets.back() - offsets[0]
                                    << " elements, plan " << plan.describe() << ", " << plan.describe_sources());
        CHECK(plan.segment_team == *e.params.segment_team);
        CHECK(plan.work_group_size == *e.params.work_group_size);
        CHECK(plan.sources.segment_team == ParamSource::tuned);
        CHECK(plan.sources.work_group_size == ParamSource::tuned);
        CHECK_THAT(plan.describe_sources(),
                   Catch::Matchers::Contains("team=tuned(segment length " + std::to_string(e.segment_length) + ")"));
        CallInfo info;
        const std::vector<std::int64_t> sums = r.sum<std::int32_t>(values, 0, chosen, {}, &info);
        CHECK(info.plan.describe() == plan.describe());
        REQUIRE(sums.size() == segments);
        for (std::uint64_t s = 0; s < segments; ++s) {
            const std::uint64_t begin = e.equal_lengths ? s * e.segment_length : offsets[s];
            const std::uint64_t end = e.equal_lengths ? (s + 1) * e.segment_length : offsets[s + 1];
            CHECK(sums[s] == testing::exact_sum(data.data() + begin, end - begin));
        }
        const LaunchPlan other_plan = r.plan(ElementType::int32, Operation::sum, other);
        if (other_plan.sources.segment_team == ParamSource::tuned)  // the other kind's own entry
            CHECK(std::any_of(shapes.begin(), shapes.end(), [&](const TunedEntry& o) {
                return o.equal_lengths != e.equal_lengths && o.params.segment_team == other_plan.segment_team;
            }));
        CHECK(r.plan(ElementType::int32, Operation::sum, Segments::columns(segments, e.segment_length))
                  .sources.segment_team == ParamSource::device_default);
    }
    // Stored beside the single-range entry, each under its own kind and length.
    const TuningLoad stored = TuningDatabase(file).load(d);
    CHECK(stored.entries.size() == 19);
    for (const TunedEntry& e : result.entries) CHECK(holds(stored.entries, e));
    r.use_tuning_database(TuningDatabase(fresh_file("none.json")));
}

TEST_CASE("sums on several threads stay exact while another thread switches the tuning database", "[tuning][threads]") {
    Reducer& r = tuning_reducer();
    const DeviceInfo& d = r.device_info();
    const std::uint64_t n = 1 << 16;
    TunedEntry a = unusual_entry(d, n);
    TunedEntry b = a;
    b.params.times = 5;
    const fs::path file_a = fresh_file("a.json"), file_b = fresh_file("b.json");
    TuningDatabase(file_a).store(d, {a});
    TuningDatabase(file_b).store(d, {b});
    const auto data = testing::random_values<std::int32_t>(n, test::seed_for(n, 78));
    const std::int64_t expected = testing::exact_sum(data.data(), n);
    r.use_tuning_database(TuningDatabase(file_a));

    std::atomic<bool> done{false};
    std::atomic<int> wrong{0}, odd_plans{0}, calls{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&] {
            while (!done || calls < 40) {
                CallInfo info;
                if (r.sum(data, {}, &info) != expected) ++wrong;
                if (info.plan.times != 3 && info.plan.times != 5) ++odd_plans;
                ++calls;
            }
        });
    }
    for (int i = 0; i < 60; ++i) r.use_tuning_database(TuningDatabase(i % 2 ? file_a : file_b));
    done = true;
    for (auto& thread : threads) thread.join();
    INFO("data seed " << test::seed_for(n, 78));
    CHECK(wrong == 0);
    CHECK(odd_plans == 0);
    r.use_tuning_database(TuningDatabase(fresh_file("none.json")));
}
