// Many reductions in one call (Segments): every operation per segment against the exact CPU
// references, through every kind of segment list and each mapping forced by LaunchParams (a
// pairwise covering array of type x mapping x list x operation, tests/support/covering_array.hpp);
// empty, single, one-element and huge-among-tiny segments; offsets into the middle of a
// buffer; misaligned row steps (bad input: test_segment_errors.cpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "covering_array.hpp"
#include "plan/planner.hpp"  // src/: the rule without tuning
#include "segment_checks.hpp"
#include "test_ops_support.hpp"

namespace clreduce::test {
namespace {

using namespace clreduce::testing;

// The mappings a test forces, in work-groups of 32: a work-item, a team of 4 and a whole group
// per segment, groups sharing segments; and the default.
std::vector<std::pair<std::string, LaunchParams>> mappings() {
    constexpr std::uint32_t kGroup = 32;
    std::vector<std::pair<std::string, LaunchParams>> out;
    out.emplace_back("default", LaunchParams{});
    for (std::uint32_t team : {1u, 4u, kGroup}) {
        LaunchParams p;
        p.work_group_size = kGroup;
        p.segment_team = team;
        p.groups_per_segment = 1;
        out.emplace_back("team " + std::to_string(team) + " of " + std::to_string(kGroup), p);
    }
    LaunchParams shared;
    shared.work_group_size = kGroup;
    shared.segment_team = kGroup;
    shared.groups_per_segment = 3;
    out.emplace_back("3 groups per segment", shared);
    // Several loads in flight a lane (segment_loads), with vectors short enough that lanes
    // take several: unused load slots, tails, a group's lanes past a segment's end.
    for (auto [team, vec, loads] : {std::tuple{1u, 1u, 16u}, {4u, 4u, 4u}, {kGroup, 2u, 8u}}) {
        LaunchParams p;
        p.work_group_size = kGroup;
        p.segment_team = team;
        p.groups_per_segment = 1;
        p.vector_width = vec;
        p.segment_loads = loads;
        out.emplace_back("team " + std::to_string(team) + ", vec " + std::to_string(vec) + ", " +
                             std::to_string(loads) + " loads",
                         p);
    }
    // Segments longer than the experimental SegmentOptions::medium in a second launch's teams of 32 (listed segments
    // only): a team of 32 in groups of 32, four of them in groups of 128 (the 5,000-element
    // segment's rest past their 2,048 / 4,096 in chunks).
    for (auto [wg, team, vec, medium] : {std::tuple{kGroup, 2u, 2u, 24u}, {128u, 4u, 4u, 40u}}) {
        LaunchParams p;
        p.work_group_size = wg;
        p.segment_team = team;
        p.vector_width = vec;
        p.experimental_segments.medium = medium;
        out.emplace_back("team " + std::to_string(team) + " of " + std::to_string(wg) + ", medium " +
                             std::to_string(medium),
                         p);
    }
    return out;
}

// Mappings that take listed segments only (offsets, begin/end arrays).
bool listed_only(const LaunchParams& p) { return p.experimental_segments.medium != 0; }

// Segment lengths: empty ones, one-element ones, random 0..300, and one of 5,000 among them.
std::vector<std::uint64_t> mixed_offsets(std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<std::uint64_t> offsets{0};
    for (int s = 0; s < 60; ++s) {
        const std::uint64_t length = s == 17 ? 5000 : s % 7 == 0 ? 0 : s % 5 == 0 ? 1 : rng() % 301;
        offsets.push_back(offsets.back() + length);
    }
    return offsets;
}

// The segment lists a call takes its segments from.
enum class ListKind { host_offsets, device_offsets, ranges, batch, rows };
constexpr std::size_t kListKinds = 5;
const char* const kListNames[kListKinds] = {"host CSR offsets", "device CSR offsets", "begin/end arrays",
                                            "a batch of 9 arrays of 250",
                                            "rows: 13 rows of 101, a step of 103 elements (misaligned rows)"};

// Whether a mapping takes a segment list: medium teams take listed segments (CSR offsets,
// begin/end arrays) only (their refusals: test_segment_errors.cpp).
bool takes(const LaunchParams& p, ListKind kind) {
    if (listed_only(p)) return kind != ListKind::batch && kind != ListKind::rows;
    return true;
}

constexpr std::size_t kSweepTypes = std::tuple_size_v<SegmentSweepTypes>;

// Rows of element type x mapping x segment list x operation covering every pair a call takes;
// the same for every type's case (from the run's seed), each case running its own type's rows.
const std::vector<std::size_t>& sweep_levels() {
    static const std::vector<std::size_t> levels{kSweepTypes, mappings().size(), kListKinds,
                                                 segment_operations().size()};
    return levels;
}
const AllowedPair& sweep_allowed() {
    static const AllowedPair allowed = [](std::size_t a, std::size_t x, std::size_t b, std::size_t y) {
        static const auto all = mappings();
        return !(a == 1 && b == 2) || takes(all[x].second, static_cast<ListKind>(y));
    };
    return allowed;
}
const CoveringRows& sweep_rows() {
    static const CoveringRows rows = pairwise_rows(sweep_levels(), seed_for(0x5e6), sweep_allowed());
    return rows;
}

template <class T>
void check_sweep(Reducer& r) {
    const std::size_t type = index_in<T, SegmentSweepTypes>();
    const std::vector<std::uint64_t> offsets = mixed_offsets(seed_for(sizeof(T), 31));
    constexpr std::uint64_t kOffset = 7;  // the segments start in the middle of the buffer
    const std::uint64_t seed = seed_for(sizeof(T), offsets.back(), 3);
    INFO("data seed " << seed << ", covering array seed " << seed_for(0x5e6) << " (run seed " << test::seed() << ")");
    const std::vector<T> host = op_values<T>(kOffset + offsets.back() + 5, seed);
    const cl::Buffer values = device_copy(r, host);
    const cl::Buffer device_offsets = device_copy(r, offsets);
    std::vector<std::uint64_t> begins(offsets.begin(), offsets.end() - 1), ends(offsets.begin() + 1, offsets.end());
    const cl::Buffer device_begins = device_copy(r, begins), device_ends = device_copy(r, ends);
    const auto bounds = bounds_of(offsets);
    std::vector<std::uint64_t> batch(10);
    for (std::size_t s = 0; s < batch.size(); ++s) batch[s] = s * 250;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> rows;
    for (std::uint64_t row = 0; row < 13; ++row) rows.emplace_back(row * 103, row * 103 + 101);
    const auto all = mappings();
    std::size_t checked = 0;
    for (const auto& row : sweep_rows()) {
        if (row[0] != type) continue;
        ++checked;
        const auto& [name, params] = all[row[1]];
        const ListKind kind = static_cast<ListKind>(row[2]);
        const Operation op = segment_operations()[row[3]];
        INFO("mapping " << name << ", " << kListNames[row[2]]);
        switch (kind) {
            case ListKind::host_offsets:
                check_segment_operation(r, values, host, kOffset, Segments::offsets(offsets), bounds, params, op);
                break;
            case ListKind::device_offsets:
                check_segment_operation(r, values, host, kOffset,
                                        Segments::offsets(device_offsets, bounds.size(), offsets.back()), bounds,
                                        params, op);
                break;
            case ListKind::ranges:
                check_segment_operation(r, values, host, kOffset,
                                        Segments::ranges(device_begins, device_ends, bounds.size(), offsets.back()),
                                        bounds, params, op);
                break;
            case ListKind::batch:
                check_segment_operation(r, values, host, kOffset, Segments::batch(9, 250), bounds_of(batch), params,
                                        op);
                break;
            case ListKind::rows:
                check_segment_operation(r, values, host, kOffset, Segments::rows(13, 101, 103 * sizeof(T)), rows,
                                        params, op);
                break;
        }
    }
    CHECK(checked >= segment_operations().size());  // every operation meets every type
}

}  // namespace

TEST_CASE("segmented reductions: the sweep's rows cover every pair of type, mapping, list and operation",
          "[segments]") {
    INFO("covering array seed " << seed_for(0x5e6));
    CHECK(missing_pair(sweep_levels(), sweep_rows(), sweep_allowed()).empty());
}

TEMPLATE_TEST_CASE("segmented reductions: every operation per segment, every segment list, each mapping", "[segments]",
                   std::int32_t, float, std::uint8_t, std::int64_t, double) {
    Reducer& r = reducer();
    if (std::is_same_v<TestType, double> && !r.device_info().has_fp64) return;
    check_sweep<TestType>(r);
}

TEST_CASE("segmented reductions: a huge segment among tiny ones, 10^5 one-element segments, one segment",
          "[segments]") {
    Reducer& r = reducer();
    const std::uint64_t seed = seed_for(41);
    INFO("data seed " << seed);
    const std::uint64_t n = 300000;
    const std::vector<std::int32_t> host = op_values<std::int32_t>(n, seed);
    const cl::Buffer values = device_copy(r, host);
    // The same segments as CSR offsets, for every mapping.
    std::vector<std::uint64_t> one_each(100001);
    std::iota(one_each.begin(), one_each.end(), 0);
    for (const auto& [name, params] : mappings()) {
        INFO("mapping " << name);
        const bool csr_only = listed_only(params);
        // 10^5 one-element segments
        const auto ones =
            r.sum<std::int32_t>(values, 3, csr_only ? Segments::offsets(one_each) : Segments::batch(100000, 1), params);
        for (std::uint64_t s = 0; s < ones.size(); ++s)
            if (ones[s] != host[3 + s]) FAIL("segment " << s << ": " << ones[s] << " != " << host[3 + s]);
        // one huge segment among tiny ones, argmax inside it
        const std::vector<std::uint64_t> offsets{0, 1, 3, 4, 250004, 250005, 250010};
        const auto sums = r.sum<std::int32_t>(values, 11, Segments::offsets(offsets), params);
        const auto maxes = r.argmax<std::int32_t>(values, 11, Segments::offsets(offsets), params);
        for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
            const std::int32_t* data = host.data() + 11 + offsets[s];
            const std::uint64_t len = offsets[s + 1] - offsets[s];
            CHECK(sums[s] == wrapped_sum<std::int64_t>(data, len));
        }
        // 3000 empty and short segments, then a huge one: a tile's work-items close many segments
        // each (empty ones at one position), and the huge one's rest is skipped by its group.
        std::vector<std::uint64_t> dense{0};
        for (std::uint64_t s = 0; s < 3000; ++s) dense.push_back(dense.back() + s % 3);
        dense.push_back(dense.back() + 200000);
        const auto dense_sums = r.sum<std::int32_t>(values, 1, Segments::offsets(dense), params);
        REQUIRE(dense_sums.size() == dense.size() - 1);
        for (std::size_t s = 0; s + 1 < dense.size(); ++s) {
            const std::int32_t* data = host.data() + 1 + dense[s];
            const std::uint64_t len = dense[s + 1] - dense[s];
            if (dense_sums[s] != wrapped_sum<std::int64_t>(data, len))
                FAIL("dense segment " << s << ": " << dense_sums[s] << " != " << wrapped_sum<std::int64_t>(data, len));
        }
        // The same without empty segments, for the index inside each segment.
        std::vector<std::uint64_t> short_then_huge{0};
        for (std::uint64_t s = 0; s < 3000; ++s) short_then_huge.push_back(short_then_huge.back() + 1 + s % 2);
        short_then_huge.push_back(short_then_huge.back() + 200000);
        const auto mins = r.argmin<std::int32_t>(values, 1, Segments::offsets(short_then_huge), params);
        for (std::size_t s = 0; s + 1 < short_then_huge.size(); ++s) {
            const auto expected =
                reference_min(host.data() + 1 + short_then_huge[s], short_then_huge[s + 1] - short_then_huge[s]);
            if (mins[s].index != expected.index || mins[s].value != expected.value)
                FAIL("segment " << s << ": argmin " << mins[s].index << " != " << expected.index);
        }
        CHECK(maxes[3].index == reference_max(host.data() + 11 + 4, 250000).index);
        CHECK(maxes[3].value == reference_max(host.data() + 11 + 4, 250000).value);
        // one segment: the single-range result
        const auto one =
            r.sum<std::int32_t>(values, 0,
                                csr_only ? Segments::offsets(std::vector<std::uint64_t>{0, n}) : Segments::batch(1, n),
                                params);
        REQUIRE(one.size() == 1);
        CHECK(one[0] == r.sum<std::int32_t>(values, 0, n));
    }
    // no segments
    CHECK(r.sum<std::int32_t>(values, 0, Segments::batch(0, 5)).empty());
    CHECK(r.min<std::int32_t>(values, 0, Segments::offsets(std::vector<std::uint64_t>{0})).empty());
}

TEST_CASE(
    "segmented reductions: correctly rounded float sums are the same bits under every mapping and equal the "
    "single-range sums",
    "[segments]") {
    Reducer& r = reducer();
    const std::uint64_t seed = seed_for(43);
    INFO("data seed " << seed);
    const std::vector<float> host = wide_values<float>(40000, seed, 60);
    const cl::Buffer values = device_copy(r, host);
    const std::vector<std::uint64_t> offsets = mixed_offsets(seed_for(44));
    LaunchParams exact;
    exact.float_mode = FloatMode::correctly_rounded;
    std::vector<double> first;
    for (auto [name, params] : mappings()) {
        INFO("mapping " << name);
        params.float_mode = FloatMode::correctly_rounded;
        const auto sums = r.sum<float>(values, 5, Segments::offsets(offsets), params);
        for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
            INFO("segment " << s);
            const double single = r.sum<float>(values, 5 + offsets[s], offsets[s + 1] - offsets[s], exact);
            CHECK(same_bits(sums[s], single));
        }
        if (first.empty()) first = sums;
        CHECK(sums == first);
    }
    // The deterministic mode: the same bits run after run for one mapping.
    const auto once = r.sum<float>(values, 5, Segments::offsets(offsets));
    for (int run = 0; run < 3; ++run) CHECK(r.sum<float>(values, 5, Segments::offsets(offsets)) == once);
}

TEST_CASE("segmented reductions: transform_reduce and product per segment", "[segments]") {
    Reducer& r = reducer();
    const std::uint64_t seed = seed_for(47);
    INFO("data seed " << seed);
    const std::vector<std::int16_t> host = op_values<std::int16_t>(5000, seed);
    const cl::Buffer values = device_copy(r, host);
    const std::vector<std::uint64_t> offsets = mixed_offsets(seed_for(48));
    const std::vector<std::uint64_t> small(offsets.begin(), offsets.begin() + 18);  // before the 5,000 one
    const auto squares =
        r.transform_reduce<std::int16_t>(values, 0, Segments::offsets(small), "x * x - 3", Combine::sum);
    const auto products = r.product<std::int16_t>(values, 0, Segments::batch(50, 3));
    for (std::size_t s = 0; s + 1 < small.size(); ++s) {
        std::int64_t expected = 0;
        for (std::uint64_t i = small[s]; i < small[s + 1]; ++i) expected += std::int64_t(host[i]) * host[i] - 3;
        CHECK(squares[s] == expected);
    }
    for (std::size_t s = 0; s < 50; ++s) CHECK(products[s] == wrapped_product<std::int64_t>(host.data() + 3 * s, 3));
}

TEST_CASE("segmented reductions: results into a host vector the caller keeps", "[segments]") {
    Reducer& r = reducer();
    const std::uint64_t seed = seed_for(59);
    INFO("data seed " << seed);
    const std::vector<std::int32_t> host = op_values<std::int32_t>(3000, seed);
    const cl::Buffer values = device_copy(r, host);
    const std::vector<std::uint64_t> offsets = mixed_offsets(seed_for(60));
    const std::vector<std::uint64_t> small(offsets.begin(), offsets.begin() + 18);
    const Segments rows = Segments::rows(20, 100);
    // Written in place where the size is right (no new allocation), resized where not.
    std::vector<std::int64_t> sums(20, -1);
    const std::int64_t* storage = sums.data();
    r.sum<std::int32_t>(values, 0, rows, sums);
    CHECK(sums.data() == storage);
    CHECK(sums == r.sum<std::int32_t>(values, 0, rows));
    r.sum<std::int32_t>(values, 3, Segments::offsets(small), sums);
    REQUIRE(sums.size() == small.size() - 1);
    for (std::size_t s = 0; s + 1 < small.size(); ++s)
        CHECK(sums[s] == wrapped_sum<std::int64_t>(host.data() + 3 + small[s], small[s + 1] - small[s]));
    std::vector<ArgResult<std::int32_t>> maxes(1);
    r.argmax<std::int32_t>(values, 0, rows, maxes);
    REQUIRE(maxes.size() == 20);
    for (std::size_t s = 0; s < 20; ++s) CHECK(maxes[s].index == reference_max(host.data() + s * 100, 100).index);
    std::vector<std::int64_t> squares;
    r.transform_reduce<std::int32_t>(values, 0, rows, "x * x", Combine::sum, squares);
    REQUIRE(squares.size() == 20);
    CHECK(squares == r.transform_reduce<std::int32_t>(values, 0, rows, "x * x", Combine::sum));
    // An empty segment's refusal leaves the call's error, as the returning form's.
    std::vector<std::int32_t> mins;
    CHECK_THROWS_WITH(r.min<std::int32_t>(values, 0, Segments::offsets(small), mins),
                      Catch::Contains("which is empty"));
}

TEST_CASE("segmented reductions: values into a device buffer, asynchronously", "[segments]") {
    Reducer& r = reducer();
    const std::uint64_t seed = seed_for(53);
    INFO("data seed " << seed);
    const std::vector<float> host = op_values<float>(20000, seed);
    const cl::Buffer values = device_copy(r, host);
    using S = sum_type_t<float>;
    for (const auto& [name, params] : mappings()) {
        INFO("mapping " << name);
        // Medium teams take listed segments: 19 segments of 1000 back to back, else rows
        // 1024 apart.
        const bool csr_only = listed_only(params);
        const std::uint64_t step = csr_only ? 1000 : 1024;
        std::vector<std::uint64_t> csr(20);
        for (std::uint64_t s = 0; s < csr.size(); ++s) csr[s] = s * step;
        const Segments rows = csr_only ? Segments::offsets(csr) : Segments::rows(19, 1000, step * sizeof(float));
        const cl::Buffer sums_out(r.context(), CL_MEM_READ_WRITE, 21 * sizeof(S));
        const cl::Buffer mins_out(r.context(), CL_MEM_READ_WRITE, 19 * sizeof(float));
        cl::Event sums_done = r.sum_async<float>(values, 1, rows, {sums_out, 2}, params);
        cl::Event mins_done = r.min_async<float>(values, 1, rows, {mins_out}, params);
        sums_done.wait();
        mins_done.wait();
        std::vector<S> got_sums(21);
        std::vector<float> got_mins(19);
        check(r.queue().enqueueReadBuffer(sums_out, CL_TRUE, 0, got_sums.size() * sizeof(S), got_sums.data()),
              "clEnqueueReadBuffer");
        check(r.queue().enqueueReadBuffer(mins_out, CL_TRUE, 0, got_mins.size() * sizeof(float), got_mins.data()),
              "clEnqueueReadBuffer");
        const auto sums = r.sum<float>(values, 1, rows, params);
        const auto mins = r.min<float>(values, 1, rows, params);
        for (std::size_t s = 0; s < 19; ++s) {
            INFO("segment " << s);
            CHECK(same_bits(got_sums[2 + s], sums[s]));
            CHECK(got_mins[s] == mins[s]);
            CHECK(mins[s] == reference_min(host.data() + 1 + s * step, 1000).value);
        }
    }
}

TEST_CASE("segmented reductions: plan() names the mapping it chooses from the segments' shape", "[segments]") {
    Reducer& r = reducer();
    const LaunchPlan tiny = r.plan(ElementType::float32, Operation::sum, Segments::batch(1 << 20, 1));
    CHECK(tiny.segment_team == 1);
    CHECK(tiny.describe().find("a work-item per segment") != std::string::npos);
    const LaunchPlan huge = r.plan(ElementType::float32, Operation::sum, Segments::batch(2, 1ull << 26));
    CHECK(huge.segment_team == huge.work_group_size);
    CHECK(huge.groups_per_segment > 1);
    CHECK(huge.describe().find("a group per segment") != std::string::npos);
    const Segments offsets = Segments::offsets(std::vector<std::uint64_t>{0, 3, 3, 900, 1000});
    // Medium teams only where asked; their teams of 32 keep 32 vectors a lane of a segment.
    CHECK(r.plan(ElementType::int32, Operation::sum, offsets).segment_medium == 0);
    LaunchParams medium;
    medium.work_group_size = 64;
    medium.segment_team = 4;
    medium.vector_width = 4;
    medium.experimental_segments.medium = 128;
    const LaunchPlan split = r.plan(ElementType::int32, Operation::sum, offsets, medium);
    CHECK(split.segment_medium == 128);
    CHECK(split.segment_split == 32 * 4 * 32);
    CHECK_THAT(split.describe(), Catch::Contains("medium=128 (longer segments: teams of 32)"));
    // The rule, without tuned or known-device shapes (a device with shipped segment shapes, such
    // as the H200, plans batches with those): half as many lanes as vectors per short segment
    // (two from two vectors on), about 2 sqrt(vectors) in between, a quarter for long ones.
    const std::uint64_t vec = tiny.vector_width;
    const auto rule = [&](std::uint64_t length) {
        PlanRequest request{Operation::sum, ElementType::float32, (1u << 16) * length, CallForm::segments};
        request.segments = 1u << 16;
        const LaunchPlan plan = make_plan(request, r.device_info());
        const LaunchPlan called = r.plan(ElementType::float32, Operation::sum, Segments::batch(1u << 16, length));
        if (called.sources.segment_team == ParamSource::device_default)
            CHECK(called.describe() == plan.describe());
        else
            CHECK((called.sources.segment_team == ParamSource::known_device ||
                   called.sources.segment_team == ParamSource::tuned));
        return plan;
    };
    CHECK(rule(2 * vec).segment_team == 2);
    CHECK(rule(4 * vec).segment_team == 2);
    const LaunchPlan middle = rule(16 * vec);
    CHECK(middle.segment_team == std::min<std::uint32_t>(8, middle.work_group_size));
    const LaunchPlan longer = rule(64 * vec);
    CHECK(longer.segment_team == std::min<std::uint32_t>(16, longer.work_group_size));
    // Loads in flight a lane: one where a lane reads two vectors or fewer, two below four, four
    // from four on (floats summed in doubles, in segments of equal length: one up to four
    // vectors); at most 16 elements a lane; the caller's where set.
    LaunchParams four_wide;
    four_wide.vector_width = 4;
    four_wide.segment_team = 4;
    const auto loads = [&](std::uint64_t length, const LaunchParams& p, ElementType type = ElementType::int32) {
        const LaunchPlan plan = r.plan(type, Operation::sum, Segments::batch(1u << 12, length), p);
        CHECK_THAT(plan.describe(), Catch::Contains("loads=" + std::to_string(plan.segment_loads)));
        return plan.segment_loads;
    };
    CHECK(loads(4 * 4 * 2, four_wide) == 1);
    CHECK(loads(4 * 4 * 3, four_wide) == 2);
    CHECK(loads(4 * 4 * 4, four_wide) == 4);
    CHECK(loads(4 * 4 * 64, four_wide) == 4);
    if (r.device_info().has_fp64) {
        CHECK(loads(4 * 4 * 3, four_wide, ElementType::float32) == 1);
        CHECK(loads(4 * 4 * 4, four_wide, ElementType::float32) == 1);
        CHECK(loads(4 * 4 * 5, four_wide, ElementType::float32) == 4);
        CHECK(loads(4 * 4 * 4, four_wide, ElementType::float64) == 4);
        std::vector<std::uint64_t> listed(1u << 12);
        for (std::size_t s = 0; s < listed.size(); ++s) listed[s] = s * 4 * 4 * 4;
        CHECK(r.plan(ElementType::float32, Operation::sum, Segments::offsets(listed), four_wide).segment_loads == 4);
    }
    LaunchParams sixteen_wide = four_wide;
    sixteen_wide.vector_width = 16;
    CHECK(loads(16 * 4 * 64, sixteen_wide) == 1);
    LaunchParams eight_loads = four_wide;
    eight_loads.segment_loads = 8;
    CHECK(loads(16, eight_loads) == 8);
    CHECK(r.plan(ElementType::int32, Operation::sum, Segments::columns(1u << 14, 64), four_wide).segment_loads == 4);
    CallInfo info;
    const cl::Buffer values = device_copy(r, std::vector<float>(64, 1.0f));
    r.sum<float>(values, 0, Segments::batch(16, 4), {}, &info);
    CHECK(info.plan.describe() == r.plan(ElementType::float32, Operation::sum, Segments::batch(16, 4)).describe());
    CHECK(info.plan.form == CallForm::segments);
}

}  // namespace clreduce::test
