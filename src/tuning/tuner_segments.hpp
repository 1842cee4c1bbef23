#pragma once
// The tuner's segment stage: which team of work-items per segment and which work-group size
// reduce segments fastest, per element type, average segment length and kind (equal lengths:
// batches and rows; varying: listed segments, CSR offsets or begin/end arrays). The rule of
// segment_plan.cpp picks a team from the average alone and the device's work-group size; real
// offsets vary in length, and which shape then wins, work-group size included, depends on the
// device (docs/tuning.md, "Segment shapes"). Each length is measured
// over the tuner's data (tuning_data.hpp), equal or uniform in [0, 2 * length]: every team from
// an eighth of the rule's to eight times it, then work-group sizes for the fastest, each result
// of every segment checked; all are then re-timed in 15 interleaved rounds with the rule's and
// the lowest median wins (tuner_final_stage.hpp) if it beats the rule's by 10 %.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <clreduce/error.hpp>
#include <clreduce/reducer.hpp>
#include <clreduce/segments.hpp>
#include <clreduce/tuning.hpp>

#include "plan/planner.hpp"
#include "tuning/tuner_final_stage.hpp"
#include "tuning/tuning_data.hpp"

namespace clreduce {

// The average lengths the stage measures, every power of 2 (with powers of 4, calls halfway
// between two would take the longer one's team, which can be much slower); teams for lengths
// outside [2, 8192] come from the rule.
constexpr std::uint64_t kTunedSegmentLengths[] = {4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096};
// A shape replaces the rule's only when its re-timed median is 10 % lower: the stage measures
// uniform lengths, and a shape a little faster there can be slower on other lengths of the
// same average (power-law lengths, say); a smaller margin keeps shapes within the noise.
constexpr double kSegmentTeamMargin = 0.90;
// The stage's size: the largest tuning bucket, at most this many elements. Its entries serve
// calls up to twice that size (tuning_table.hpp): the best shape moves with the size (a shape
// that wins at 2^26 elements can lose at 2^28 and more; docs/tuning.md, "Segment shapes").
constexpr std::uint64_t kSegmentStageMaxN = 1ull << 28;

// What the segment stage needs of the search: a stop test, and bookkeeping around each
// measurement (progress, counts).
struct SegmentStageHooks {
    std::function<bool()> stop;
    std::function<void(const std::string&)> started;
    std::function<void(bool accepted)> finished;
    int repeats = 5;  // timed calls per candidate after one warm-up
    bool quick = false;
};

// CSR offsets covering [0, n): equal lengths (n / length segments, the rest left out), or
// random lengths uniform in [0, 2 * length] from the seed (the last one cut at n).
std::vector<std::uint64_t> segment_stage_offsets(std::uint64_t n, std::uint64_t length, bool equal, std::uint64_t seed);

// The teams the stage tries around `rule_team` (the planner's choice without tuning).
std::vector<std::uint32_t> segment_stage_teams(std::uint32_t rule_team, std::uint32_t work_group_size);

// Whether each segment's sum matches its reference (tuning_data.hpp's rule).
template <class T>
bool segment_sums_correct(const std::vector<sum_type_t<T>>& got, const std::vector<std::uint64_t>& offsets,
                          const std::vector<TuningReference>& refs, ElementType accumulator) {
    if (got.size() != refs.size()) return false;
    for (std::size_t s = 0; s < refs.size(); ++s)
        if (!tuning_result_correct<T>(got[s], refs[s], offsets[s + 1] - offsets[s], accumulator)) return false;
    return true;
}

// The reference of each segment of the tuner's data (values i = tuning_value<T>(seed, i)).
template <class T>
std::vector<TuningReference> segment_stage_references(const std::vector<std::uint64_t>& offsets, std::uint64_t seed) {
    std::vector<TuningReference> refs(offsets.size() - 1);
    for (std::size_t s = 0; s + 1 < offsets.size(); ++s)
        for (std::uint64_t i = offsets[s]; i < offsets[s + 1]; ++i) add_to_reference(refs[s], tuning_value<T>(seed, i));
    return refs;
}

// The candidate the stage keeps: the fastest, unless the rule's (rule_index) was re-timed and
// the fastest is not below kSegmentTeamMargin of it.
std::size_t segment_team_choice(const FinalChoice& choice, std::size_t rule_index);

// Kernel time of one profiled call (the sum of its kernels' device times).
double kernel_us_of(const CallInfo& info);

// A segment stage candidate: a team and a work-group size.
struct SegmentShape {
    std::uint32_t team = 1;
    std::uint32_t work_group_size = 1;
};

// The best team and work-group size for segments averaging `length` elements of `values` (the
// tuner's data from element 0, at least n of them), equal or varying, or nullopt when stopped
// or nothing ran correctly. Teams first at the rule's work-group size, then the work-group
// sizes 64 .. 1024 for the fastest team (the work-group size alone can move a shape by 10 %).
template <class T>
std::optional<TunedEntry> tune_segment_team(const Reducer& r, const cl::Buffer& values, std::uint64_t n,
                                            std::uint64_t length, bool equal, std::uint64_t seed,
                                            const SegmentStageHooks& hooks) {
    const ElementType type = element_traits<T>::type;
    const std::vector<std::uint64_t> offsets = segment_stage_offsets(n, length, equal, seed ^ length);
    const std::vector<TuningReference> refs = segment_stage_references<T>(offsets, seed);
    const std::uint64_t count = offsets.size() - 1;
    cl_int err = CL_SUCCESS;
    cl::Buffer device_offsets(r.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                              static_cast<size_t>(offsets.size() * 8), const_cast<std::uint64_t*>(offsets.data()),
                              &err);
    check(err, "clCreateBuffer");
    const Segments segments =
        equal ? Segments::batch(count, length) : Segments::offsets(device_offsets, count, offsets.back());
    // The rule's shape: the plan without tuning.
    PlanRequest request{Operation::sum, type, offsets.back(), CallForm::segments};
    request.segments = count;
    request.listed = !equal;
    const LaunchPlan rule_plan = make_plan(request, r.device_info());
    const SegmentShape rule{rule_plan.segment_team, rule_plan.work_group_size};
    std::vector<sum_type_t<T>> results;
    // One verified call's kernel time, or nullopt when it fails or is wrong.
    const auto time_once = [&](const SegmentShape& shape) -> std::optional<double> {
        LaunchParams p;
        p.segment_team = shape.team;
        p.work_group_size = shape.work_group_size;
        try {
            CallInfo info;
            r.sum<T>(values, 0, segments, results, p, &info);
            if (segment_sums_correct<T>(results, offsets, refs, info.plan.accumulator)) return kernel_us_of(info);
        } catch (const Error&) {
        }
        return std::nullopt;
    };

    std::vector<SegmentShape> shapes;
    std::vector<std::optional<double>> first_us;
    const auto measure = [&](const SegmentShape& shape) {
        hooks.started(std::string(type_name(type)) + (equal ? " equal" : " varying") + " segments of ~" +
                      std::to_string(length) + " team=" + std::to_string(shape.team) +
                      " wg=" + std::to_string(shape.work_group_size));
        std::vector<double> samples;
        bool ok = time_once(shape).has_value();  // warm-up: builds the program
        for (int run = 0; run < hooks.repeats && ok; ++run) {
            const auto us = time_once(shape);
            ok = us.has_value();
            if (ok) samples.push_back(*us);
        }
        hooks.finished(ok);
        shapes.push_back(shape);
        first_us.push_back(ok ? std::optional<double>(median_of(samples)) : std::nullopt);
    };
    for (std::uint32_t team : segment_stage_teams(rule.team, rule.work_group_size)) {
        if (hooks.stop()) return std::nullopt;
        measure({team, rule.work_group_size});
    }
    const std::vector<std::size_t> best = fastest(first_us, 1);
    if (best.empty()) return std::nullopt;
    const std::uint32_t best_team = shapes[best[0]].team;
    for (std::uint32_t wg = 64; wg <= std::min<std::uint32_t>(1024, r.device_info().max_work_group_size); wg *= 2) {
        if (hooks.stop()) return std::nullopt;
        if (wg != rule.work_group_size && wg >= best_team) measure({best_team, wg});
    }
    const std::size_t rule_index = static_cast<std::size_t>(
        std::find_if(
            shapes.begin(), shapes.end(),
            [&](const SegmentShape& c) { return c.team == rule.team && c.work_group_size == rule.work_group_size; }) -
        shapes.begin());
    // 15 rounds: a call's host check of every segment (millions of them) costs more than its
    // kernel, so the single-range stage's up to 201 rounds of short kernels would take minutes.
    const int rounds = hooks.quick ? hooks.repeats : std::max(15, hooks.repeats);
    const auto choice = choose_final(
        first_us, shapes.size(), {rule_index}, rounds, [&](std::size_t i) { return time_once(shapes[i]); }, hooks.stop);
    if (!choice || hooks.stop()) return std::nullopt;
    TunedEntry entry;
    entry.type = type;
    entry.family = OperationFamily::additive;
    entry.n = offsets.back();
    entry.segment_length = length;
    entry.equal_lengths = equal;
    const std::size_t kept = segment_team_choice(*choice, rule_index);
    entry.params.segment_team = shapes[kept].team;
    entry.params.work_group_size = shapes[kept].work_group_size;
    entry.kernel_us = kept == choice->index ? choice->us : choice->retimed[rule_index].value_or(choice->us);
    entry.default_kernel_us = choice->retimed[rule_index].value_or(first_us[rule_index].value_or(0));
    return entry;
}

}  // namespace clreduce
