#include "exec/host_plan_segments.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <utility>
#include <vector>

#include "exec/host_plan_order.hpp"
#include "exec/host_pool.hpp"

namespace clreduce {
namespace {

// The columns a host thread adds side by side, per lane of its team: a team's running sums of
// a block stay within the first two levels of cache (16384 doubles), and a row's block is read
// in runs of 64 elements or more.
constexpr std::uint64_t kColumnBlockLanes = 16384;
constexpr std::uint64_t kMinColumnBlock = 64;
// A team's lanes that the first level of cache holds (a segment's steps then run one by one).
constexpr std::uint64_t kFirstLevelLanesBytes = std::uint64_t(16) << 10;
// Columns a thread finishes side by side (their groups' trees and combining launch).
constexpr std::uint64_t kFinishColumns = 64;

// The plan's segment mapping (segments.cl): `parts` groups of `team` lanes per segment.
struct SegmentShape {
    std::uint32_t wg;
    std::uint32_t vector_width;
    std::uint32_t team;
    std::uint32_t parts;
    explicit SegmentShape(const LaunchPlan& plan)
        : wg(plan.work_group_size),
          vector_width(plan.vector_width),
          team(plan.segment_team),
          parts(plan.groups_per_segment) {}
    std::uint64_t lanes() const { return std::uint64_t(parts) * team; }
};

void store_state(unsigned char* states, std::uint64_t s, double value) {
    std::memcpy(states + s * sizeof(double), &value, sizeof value);
}

// A thread's buffer of at least n doubles, grown once to the largest call's.
double* kept_doubles(std::vector<double>& kept, std::size_t n) {
    if (kept.size() < n) kept.resize(n);
    return kept.data();
}

// The combining launch's values of n segments side by side (values[j * stride + c]: group j's
// value of segment c) into out[c]: work-item k adds values k, k + wg, ... from zero, then the
// group's tree. The work-items past the values hold +0.0, and a level of the tree whose upper
// half is all theirs adds +0.0 to each value below it, which leaves it as it is: no value is
// -0.0, each being a sum that starts from +0.0. scratch: room for wg * n doubles.
void combine_parts(const double* values, std::uint64_t stride, std::uint32_t parts, std::uint32_t wg, std::size_t n,
                   double* scratch, double* out) {
    const std::uint32_t used = std::min(parts, wg);
    std::uint32_t width = 1;
    while (width < used) width *= 2;
    for (std::uint32_t k = 0; k < width; ++k)
        for (std::size_t c = 0; c < n; ++c) {
            double sum = 0.0;
            for (std::uint64_t j = k; j < parts; j += wg) sum = sum + values[j * stride + c];
            scratch[k * n + c] = sum;
        }
    for (std::uint32_t s = width / 2; s >= 1; s >>= 1)
        for (std::size_t i = 0; i < s * n; ++i) scratch[i] = scratch[i] + scratch[i + s * n];
    std::copy_n(scratch, n, out);
}

// Level 2's tree over the `count` rows (a power of two) of n values at `first`, `stride` apart,
// value by value: the result in the first row.
void tree_of_rows(double* first, std::uint64_t stride, std::uint32_t count, std::size_t n) {
    for (std::uint32_t s = count / 2; s >= 1; s >>= 1)
        for (std::uint32_t i = 0; i < s; ++i) {
            double* to = first + i * stride;
            const double* from = first + (i + s) * stride;
            for (std::size_t c = 0; c < n; ++c) to[c] = to[c] + from[c];
        }
}

// Group `part`'s value of one segment of `count` elements at `in` (clreduce_segment_level1 for
// its team's lanes, then clreduce_team_level2). `lanes` holds team * vector_width doubles,
// `items` team doubles.
double segment_part(const SegmentShape& shape, const LevelOneAdds& adds, std::size_t element_size,
                    const unsigned char* in, std::uint64_t count, std::uint32_t part, double* lanes, double* items) {
    const std::uint64_t team_width = std::uint64_t(shape.team) * shape.vector_width;
    const std::uint64_t stride = shape.lanes() * shape.vector_width;  // a lane's vectors apart, in elements
    const std::uint64_t body = count / shape.vector_width * shape.vector_width;
    // Step k reads elements [base + k * stride, + team_width) of the body. Lanes that fit the
    // first level of cache take one step at a time: the steps of a group a segment are one run
    // of memory, read in order (taking kFusedSteps at once reads that many pages side by side,
    // each a stream the prefetcher must find: 4096² float32 rows took 1.4 times as long). More
    // lanes take kFusedSteps whole steps at once (a lane's components are independent), so that
    // a lane is loaded and stored once per kFusedSteps elements.
    std::uint64_t base = std::uint64_t(part) * team_width;
    const bool fuse = team_width * sizeof(double) > kFirstLevelLanesBytes;
    if (!fuse && base < body) {  // step 0 sets the lanes it reads
        const std::uint64_t n = std::min(team_width, body - base);
        adds.first_run(lanes, in + base * element_size, n);
        std::fill(lanes + n, lanes + team_width, 0.0);
        base += stride;
    } else {
        std::fill_n(lanes, team_width, 0.0);
    }
    for (; fuse && base + (kFusedSteps - 1) * stride + team_width <= body; base += kFusedSteps * stride) {
        std::array<const unsigned char*, kFusedSteps> runs;
        for (std::uint32_t j = 0; j < kFusedSteps; ++j) runs[j] = in + (base + j * stride) * element_size;
        adds.runs(lanes, runs.data(), team_width);
    }
    for (; base < body; base += stride) adds.run(lanes, in + base * element_size, std::min(team_width, body - base));
    // Each lane's components as ops/add.cl's tree of halves, then its scalar tail: elements
    // body + L, body + L + lanes, ... for the segment's lane L.
    adds.item_trees(items, lanes, shape.team);
    if (body < count) {
        for (std::uint32_t l = 0; l < shape.team; ++l) {
            const std::uint64_t lane = std::uint64_t(part) * shape.team + l;
            for (std::uint64_t j = body + lane; j < count; j += shape.lanes())
                items[l] = items[l] + adds.element(in, j);
        }
    }
    return level2_tree(items, shape.team);
}

}  // namespace

bool segments_plan_order_on_host(const LaunchPlan& plan, const OpKernel& kernel) {
    if (!plan_order_sum_shape(plan, kernel) || plan.segment_medium != 0 || plan.groups_per_segment == 0) return false;
    const std::uint32_t team = plan.segment_team;
    return team != 0 && (team & (team - 1)) == 0 && team <= plan.work_group_size;
}

bool segments_fit_plan_order(const LaunchPlan& plan, const HostSegments& segments) {
    if (segments.offsets == nullptr || plan.segment_split == 0) return true;
    for (std::uint64_t s = 0; s < segments.count; ++s)
        if (segments.end(s) - segments.begin(s) > plan.segment_split) return false;
    return true;
}

void reduce_segments_in_plan_order(const LaunchPlan& plan, const OpKernel& kernel, const unsigned char* data,
                                   const HostSegments& segments, unsigned char* states) {
    const SegmentShape shape(plan);
    const LevelOneAdds adds = level1_adds(plan.element, kernel.map, plan.vector_width);
    const std::size_t element_size = type_size(plan.element);
    // Job j is group j % parts of segment j / parts; with several groups a segment, their values
    // wait in `values` for the combining launch's order.
    const std::uint64_t jobs = segments.count * shape.parts;
    thread_local std::vector<double> kept_values;
    double* values = shape.parts > 1 ? kept_doubles(kept_values, static_cast<std::size_t>(jobs)) : nullptr;
    const std::uint64_t bytes = segments.count == 0 ? 0 : segments.end(segments.count - 1) * element_size;
    const std::size_t pieces = host_parts(jobs, bytes);
    const std::uint64_t per_piece = pieces == 0 ? 0 : (jobs + pieces - 1) / pieces;
    const std::size_t team_width = std::size_t(shape.team) * shape.vector_width;
    const bool one_item = shape.lanes() == 1;  // a work-item a segment
    auto piece = [&](std::size_t k) {
        thread_local std::vector<double> kept_lanes;
        double* lanes = kept_doubles(kept_lanes, team_width + shape.team);
        const std::uint64_t first = k * per_piece, last = std::min(jobs, first + per_piece);
        for (std::uint64_t j = first; j < last; ++j) {
            const std::uint64_t s = j / shape.parts;
            const std::uint64_t b = segments.begin(s), count = segments.end(s) - b;
            // A segment shorter than a vector, one work-item's alone, is that work-item's scalar
            // tail after lanes of +0.0: its elements added in turn from +0.0.
            const double value =
                one_item && count < shape.vector_width
                    ? adds.in_turn(data + b * element_size, count)
                    : segment_part(shape, adds, element_size, data + b * element_size, count,
                                   static_cast<std::uint32_t>(j % shape.parts), lanes, lanes + team_width);
            if (values != nullptr)
                values[j] = value;
            else
                store_state(states, s, value);
        }
    };
    parallel_for(pieces, piece);
    if (values == nullptr) return;
    thread_local std::vector<double> kept_scratch;
    double* scratch = kept_doubles(kept_scratch, shape.wg);
    for (std::uint64_t s = 0; s < segments.count; ++s) {
        double value = 0.0;
        combine_parts(values + s * shape.parts, 1, shape.parts, shape.wg, 1, scratch, &value);
        store_state(states, s, value);
    }
}

bool columns_fit_plan_order(const LaunchPlan& plan, const HostColumns& columns) {
    const SegmentShape shape(plan);
    return shape.lanes() <= std::max<std::uint64_t>(columns.rows, 1) || shape.lanes() * columns.columns <= (1u << 20);
}

void reduce_columns_in_plan_order(const LaunchPlan& plan, const OpKernel& kernel, const unsigned char* data,
                                  const HostColumns& columns, unsigned char* states) {
    const SegmentShape shape(plan);
    const LevelOneAdds adds = level1_adds(plan.element, kernel.map, plan.vector_width);
    const std::size_t element_size = type_size(plan.element);
    const std::uint64_t lanes_all = shape.lanes(), width = columns.columns, rows = columns.rows;
    // A job's block of columns: at most kColumnBlockLanes sums (a column's team of lanes each),
    // rows read at least kMinColumnBlock elements wide, and blocks enough for two jobs a host
    // thread (with one group a column, the blocks alone split the pass among the threads).
    const std::uint64_t blocks_wanted = (2 * std::uint64_t(host_pool_threads()) + shape.parts - 1) / shape.parts;
    const std::uint64_t block =
        std::min({width, std::max(kMinColumnBlock, kColumnBlockLanes / std::max<std::uint32_t>(shape.team, 1)),
                  std::max(kMinColumnBlock, (width + blocks_wanted - 1) / blocks_wanted)});
    const std::uint64_t blocks = block == 0 ? 0 : (width + block - 1) / block;
    // Lane L's sum of column c waits in lane_values[L * width + c] until every group is done;
    // with one lane a column that sum is the column's state, which the jobs write at once.
    const bool one_lane = lanes_all == 1;
    thread_local std::vector<double> kept_lanes;
    double* lane_values = one_lane ? nullptr : kept_doubles(kept_lanes, static_cast<std::size_t>(lanes_all * width));
    const auto row = [&](std::uint64_t r, std::uint64_t c0) { return data + (r * columns.step + c0) * element_size; };
    // Job j: group j / blocks (its team's lanes), columns block j % blocks. Lane l of group p
    // adds rows p * team + l + k * lanes_all, k = 0, 1, ...
    const std::uint64_t jobs = std::uint64_t(shape.parts) * blocks;
    const std::size_t pieces = host_parts(jobs, rows * width * element_size);
    const std::uint64_t per_piece = pieces == 0 ? 0 : (jobs + pieces - 1) / pieces;
    auto piece = [&](std::size_t k) {
        thread_local std::vector<double> kept_sums;
        double* sums = kept_doubles(kept_sums, static_cast<std::size_t>(shape.team * block));
        const std::uint64_t first = k * per_piece, last = std::min(jobs, first + per_piece);
        for (std::uint64_t j = first; j < last; ++j) {
            const std::uint64_t p = j / blocks, c0 = (j % blocks) * block, n = std::min(block, width - c0);
            const std::uint64_t lane0 = p * shape.team;
            std::fill_n(sums, shape.team * n, 0.0);
            std::uint64_t k0 = 0;
            for (; lane0 + shape.team - 1 + (k0 + kFusedSteps - 1) * lanes_all < rows; k0 += kFusedSteps) {
                for (std::uint32_t l = 0; l < shape.team; ++l) {
                    std::array<const unsigned char*, kFusedSteps> runs;
                    for (std::uint32_t i = 0; i < kFusedSteps; ++i) runs[i] = row(lane0 + l + (k0 + i) * lanes_all, c0);
                    adds.runs(sums + l * n, runs.data(), n);
                }
            }
            for (; lane0 + k0 * lanes_all < rows; ++k0)
                for (std::uint32_t l = 0; l < shape.team; ++l) {
                    const std::uint64_t r = lane0 + l + k0 * lanes_all;
                    if (r < rows) adds.run(sums + l * n, row(r, c0), n);
                }
            if (one_lane)
                std::memcpy(states + c0 * sizeof(double), sums, n * sizeof(double));
            else
                for (std::uint32_t l = 0; l < shape.team; ++l)
                    std::copy_n(sums + l * n, n, lane_values + (lane0 + l) * width + c0);
        }
    };
    parallel_for(pieces, piece);
    if (one_lane) return;
    // Each column: each group's team tree, then the combining launch where groups share it; the
    // host's threads take pieces of whole blocks of kFinishColumns columns (host_parts: with a
    // part a block, a wide matrix's finish would be mostly the pool's hand-overs), value by value.
    const std::uint64_t finish_blocks = (width + kFinishColumns - 1) / kFinishColumns;
    const std::size_t finish_pieces = host_parts(finish_blocks, lanes_all * width * sizeof(double));
    const std::uint64_t blocks_per_piece = finish_pieces == 0 ? 0 : (finish_blocks + finish_pieces - 1) / finish_pieces;
    const std::uint64_t group_stride = std::uint64_t(shape.team) * width;  // a group's first lane to the next's
    auto finish = [&](std::size_t k) {
        thread_local std::vector<double> kept_scratch;
        double* scratch = kept_doubles(kept_scratch, std::size_t(shape.wg) * kFinishColumns + kFinishColumns);
        double* out = scratch + std::size_t(shape.wg) * kFinishColumns;
        const std::uint64_t end = std::min(width, (k + 1) * blocks_per_piece * kFinishColumns);
        for (std::uint64_t c0 = k * blocks_per_piece * kFinishColumns; c0 < end; c0 += kFinishColumns) {
            const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(kFinishColumns, width - c0));
            for (std::uint32_t p = 0; p < shape.parts; ++p)
                tree_of_rows(lane_values + p * group_stride + c0, width, shape.team, n);
            if (shape.parts > 1)
                combine_parts(lane_values + c0, group_stride, shape.parts, shape.wg, n, scratch, out);
            else
                std::copy_n(lane_values + c0, n, out);
            for (std::size_t c = 0; c < n; ++c) store_state(states, c0 + c, out[c]);
        }
    };
    parallel_for(finish_pieces, finish);
}

}  // namespace clreduce
