#pragma once
// The host path's float sums (sum, mean, sum_of_squares, norm_l1, norm_l2 of float and double
// data into a double accumulator, FloatMode::deterministic): the host adds in the plan's own
// order, so that host data gets the bits the kernels give the same values in a buffer. Level 1
// (each work-item's `times` vectors added lane by lane, then its lanes as ops/add.cl's tree of
// halves, the scalar tail in group 0), level 2 (reduce.cl's tree in local memory) and level 3
// (the exact atomic finish's fixed-point sum of the groups' values, rounded once, or the last
// group's loop and tree) are as cl_kernels/ do them. Groups are independent until level 3, so
// the host's threads take whole groups; the exact finish's sums are merged exactly.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include <clreduce/error.hpp>
#include <clreduce/launch_params.hpp>

#include "exec/host_pool.hpp"
#include "ops/operation_table.hpp"

namespace clreduce {

// Work-items of a group the host emulates at most, and their lanes.
constexpr std::uint32_t kMaxHostGroupSize = 1024;
constexpr std::size_t kMaxHostLanes = 4096;

// A plan's geometry over `count` elements: work-item lid of group g reads vectors
// first(g) + lid + t * step() for t < times while below `vectors`; group 0's work-item lid
// then takes the scalar tail, elements vectors * vector_width + lid + k * wg. A piece of it
// (piece()) is work-items [item0, item0 + items) of each group, whose level 1 is theirs alone.
struct PlanGeometry {
    std::uint32_t wg;
    std::uint32_t vector_width;
    std::uint32_t times;
    std::uint64_t groups;
    std::uint64_t vectors;
    std::uint64_t count;
    bool local;
    std::uint32_t item0 = 0;
    std::uint32_t items;
    PlanGeometry(const LaunchPlan& plan, std::uint64_t count)
        : wg(plan.work_group_size),
          vector_width(plan.vector_width),
          times(plan.times),
          groups(plan.groups),
          vectors(count / plan.vector_width),
          count(count),
          local(plan.stride == Stride::local),
          items(plan.work_group_size) {}
    // Work-item item0's first vector in group g.
    std::uint64_t first(std::uint64_t g) const { return (local ? g * wg * times : g * wg) + item0; }
    std::uint64_t step() const { return local ? wg : groups * wg; }
    // The parts of the groups for the host's threads, for elements of `element_size` bytes.
    std::size_t parts(std::size_t element_size) const;
    // The pieces each group's work-items are split into for the host's threads: 1 where the
    // groups are at least the threads, else a power of two up to wg, each of 32 lanes or more
    // (fewer made the loops' calls, not their additions, the cost), so that a call of one group
    // or a few (a small one on a CPU device) still runs on several threads.
    std::uint32_t pieces(std::size_t element_size) const;
    // Piece k of `pieces`: work-items [k * wg / pieces, (k + 1) * wg / pieces).
    PlanGeometry piece(std::uint32_t k, std::uint32_t pieces) const {
        PlanGeometry p = *this;
        p.items = wg / pieces;
        p.item0 = k * p.items;
        return p;
    }
};

// pick(std::integral_constant<std::uint32_t, V>{}) for V the plan's vector width (1, 2, 4, 8 or
// 16): the instantiation of a width's loops, chosen once per call.
template <class Pick>
auto for_vector_width(std::uint32_t vector_width, Pick&& pick) {
    switch (vector_width) {
        case 1: return pick(std::integral_constant<std::uint32_t, 1>{});
        case 2: return pick(std::integral_constant<std::uint32_t, 2>{});
        case 4: return pick(std::integral_constant<std::uint32_t, 4>{});
        case 8: return pick(std::integral_constant<std::uint32_t, 8>{});
        case 16: return pick(std::integral_constant<std::uint32_t, 16>{});
        default: break;
    }
    throw Error("internal: no plan-order host loops for vector width " + std::to_string(vector_width));
}

// Steps of level 1 the host takes at once for the same lanes where their runs are whole: one
// load and store of a lane per kFusedSteps elements (a store per element kept the store queue
// full and the loads from memory waiting).
constexpr std::uint32_t kFusedSteps = 8;

// Steps a sum's level 1 also takes at once after the kFusedSteps ones (plans of 2 to 7 steps a
// work-item, which small GPU calls have): a quarter, then half of the lanes' loads and stores.
// A plan of two steps took as long as one of four over twice the data.
constexpr std::uint32_t kFusedFewSteps = 4;
constexpr std::uint32_t kFusedTwoSteps = 2;

// Level 1 over groups [b0, b1) in the kernels' order of steps: from step 0, kFusedSteps steps
// at once while every group has whole runs in all of them, then (with `few`) kFusedFewSteps
// and kFusedTwoSteps at once while they do, then one step at a time while any group has a
// vector there. For each group with a vector at step t: run(g, t, steps, v0, n), its `steps`
// runs (kFusedSteps, kFusedFewSteps, kFusedTwoSteps or 1) from vector v0, step() apart, each
// of n elements (whole runs where
// steps > 1; a single step's ends at the data's last whole vector). With a global stride the
// groups' whole runs at a step are neighbours, as are their lanes: one run(b0, ...) for all of
// them, of n = their lanes (a group's own, 128 lanes on a small GPU plan, would make the call's
// cost, not its additions, the bound). Of a piece (PlanGeometry::piece), the runs are its
// work-items' and a group's lanes its own.
template <class Run>
void walk_level1(const PlanGeometry& geo, std::uint64_t b0, std::uint64_t b1, Run&& run, bool few = false) {
    const std::uint64_t lanes_per_group = std::uint64_t(geo.items) * geo.vector_width;
    const std::uint64_t last_group_end = geo.first(b1 - 1) + geo.items;  // its run's end at step 0
    std::uint32_t t = 0;
    for (const std::uint32_t fused :
         {kFusedSteps, few ? kFusedFewSteps : kFusedSteps, few ? kFusedTwoSteps : kFusedSteps}) {
        for (; t + fused <= geo.times; t += fused) {
            if (last_group_end + std::uint64_t(t + fused - 1) * geo.step() > geo.vectors) break;
            if (!geo.local && geo.items == geo.wg) {
                run(b0, t, fused, geo.first(b0) + std::uint64_t(t) * geo.step(), (b1 - b0) * lanes_per_group);
                continue;
            }
            for (std::uint64_t g = b0; g < b1; ++g)
                run(g, t, fused, geo.first(g) + std::uint64_t(t) * geo.step(), lanes_per_group);
        }
    }
    for (; t < geo.times; ++t) {
        bool any = false;
        for (std::uint64_t g = b0; g < b1; ++g) {
            const std::uint64_t v = geo.first(g) + std::uint64_t(t) * geo.step();
            if (v >= geo.vectors) continue;
            any = true;
            run(g, t, 1u, v, std::min<std::uint64_t>(geo.items, geo.vectors - v) * geo.vector_width);
        }
        if (!any) break;
    }
}

// Level 1's loops for one element type, map and vector width V (float or double data into
// doubles), which the rows' and columns' plan order (host_plan_segments.cpp) shares:
// run(lanes, in, n) adds element k of the run at `in` to lanes[k]; first_run does so to lanes
// it starts at +0.0; runs(lanes, in, n) does so for the kFusedSteps runs in[0], in[1], ... in
// turn; element(in, i) is element i as the accumulator sees it (prelude.cl's clreduce_map);
// in_turn(in, n) adds elements 0 to n - 1 one after the other from +0.0 (a lane's scalar tail);
// item_trees(out, lanes, items) sets out[w] to work-item w's V lanes lanes[w * V ...] as
// ops/add.cl's tree of halves.
using ItemTrees = void (*)(double* out, const double* lanes, std::uint64_t items);
struct LevelOneAdds {
    void (*first_run)(double* lanes, const unsigned char* in, std::uint64_t n);
    void (*run)(double* lanes, const unsigned char* in, std::uint64_t n);
    void (*runs)(double* lanes, const unsigned char* const* in, std::uint64_t n);
    double (*element)(const unsigned char* in, std::uint64_t i);
    double (*in_turn)(const unsigned char* in, std::uint64_t n);
    ItemTrees item_trees;
};
LevelOneAdds level1_adds(ElementType element, ElementMap map, std::uint32_t vector_width);

// Level 2's tree in local memory (reduce.cl's, and segments.cl's teams', whose warp shuffles
// add the same pairs): n values (a power of two), sequential addressing; the first.
double level2_tree(double* scratch, std::uint32_t n);

// Whether `plan`'s operation, types, float mode, vector width and work-group size are ones
// the host adds in the kernels' order, whatever its level 3.
bool plan_order_sum_shape(const LaunchPlan& plan, const OpKernel& kernel);

// Whether `plan` is one of these (its level 3 too).
bool plan_order_on_host(const LaunchPlan& plan, const OpKernel& kernel);

// The double the kernels' launch sequence would leave for `plan` over `count` elements at
// `data` (any address).
double reduce_in_plan_order(const LaunchPlan& plan, const OpKernel& kernel, const unsigned char* data,
                            std::uint64_t count);

}  // namespace clreduce
