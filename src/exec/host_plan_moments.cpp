#include "exec/host_plan_moments.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <type_traits>
#include <vector>

#include "exec/host_doubles.hpp"
#include "exec/host_extremes.hpp"
#include "exec/host_plan_order.hpp"
#include "exec/host_pool.hpp"
#include "exec/unaligned.hpp"

namespace clreduce {
namespace {

using host_moments::Converted;
using host_moments::Extremes;
using host_moments::kNativeExtremes;
using host_moments::Native;

// The sums of a moments state (the extremes are kept apart: they depend on no order).
struct Moments {
    std::uint64_t count = 0;
    double shift = 0, s1 = 0, s2 = 0;
};

// moments.cl's clreduce_combine: b's sums moved to a's shift; a holds the lower indices.
inline Moments combine(Moments a, const Moments& b) {
    if (b.count == 0) return a;
    if (a.count == 0) return b;
    const double d = b.shift - a.shift;
    const double nb = static_cast<double>(b.count);
    const double nbd = nb * d;
    a.s1 = a.s1 + (b.s1 + nbd);
    a.s2 = a.s2 + (b.s2 + d * (2.0 * b.s1 + nbd));
    a.count += b.count;
    return a;
}

// moments.cl's clreduce_accumulate (the scalar tail).
inline Moments accumulate(Moments s, double x) {
    if (s.count == 0) s.shift = std::isfinite(x) ? x : 0.0;
    const double d = x - s.shift;
    s.s1 = s.s1 + d;
    s.s2 = s.s2 + d * d;
    s.count += 1;
    return s;
}

// The lanes of a batch of groups: lane i of a group is lane i % vector_width of its work-item
// i / vector_width, as in a run of its vectors. They hold the sums only: the extremes depend on
// no order, so each pass of level 1 keeps them in registers (take_steps), and a pass loads and
// stores three arrays, not five.
struct Lanes {
    double* shift;
    double* s1;
    double* s2;
    Lanes at(std::size_t i) const { return {shift + i, s1 + i, s2 + i}; }
};

// The fewest elements a work-item of a plan the host runs takes (moments_on_host).
constexpr std::uint64_t kMinElementsPerItem = 16;
// Lanes of a batch (three doubles each: 192 KiB, in the core's L2), whole groups of at most
// kMaxHostLanes lanes each. A step of the batch reads a run of 8,192 elements from each of
// kFusedSteps places (global stride: a step's runs lie the plan's step apart). The loads wait on
// memory at the start of each run, before the prefetcher is ahead of it; the longer the runs,
// the fewer the starts.
constexpr std::size_t kBatchLanes = 8192;
static_assert(kMaxHostLanes <= kBatchLanes);

// Work-items whose states are formed at a time where they took the same vectors: a Doubles'
// lanes (two Doubles4 where the host has no 64-byte vectors).
constexpr std::uint64_t kWidth = kDoublesWidth;

// A lane's sums over its values so far (V: double, or Doubles for eight lanes).
template <class V>
struct Lane {
    V shift, s1, s2;
    // moments.cl's clreduce_vaccumulate of the lane's first value: the shift (the value where
    // finite, which is where x - x == 0; else 0) and the sums from 0.
    static CLREDUCE_INLINE Lane first(V x) {
        const V none = V{} + 0.0;
        Lane a;
        a.shift = x - x == 0 ? x : none;
        const V d = x - a.shift;
        a.s1 = none + d;
        a.s2 = none + d * d;
        return a;
    }
    // ... of a later value.
    CLREDUCE_INLINE void take(V x) {
        const V d = x - shift;
        s1 = s1 + d;
        s2 = s2 + d * d;
    }
};

// Lanes [k, k + Count x width of V) of `at`: load, take element k... of in[0], in[1], ...
// (kFusedSteps runs, or one where not Fused), store; First: in[0] holds the lanes' first
// vector. The values to ext (Converted or Native).
template <class T, class V, bool Fused, bool First, std::uint32_t Count, class E>
CLREDUCE_INLINE void take_lanes(const Lanes& at, const unsigned char* const* in, std::uint64_t k, E& ext) {
    constexpr std::uint64_t w = kLanesOf<V>;
    Lane<V> a[Count];
    for (std::uint32_t c = 0; c < Count; ++c) {
        const V x0 = load_as<T, V>(in[0], k + c * w);
        ext.see(x0);
        if constexpr (First) {
            a[c] = Lane<V>::first(x0);
        } else {
            std::memcpy(&a[c].shift, at.shift + k + c * w, sizeof(V));
            std::memcpy(&a[c].s1, at.s1 + k + c * w, sizeof(V));
            std::memcpy(&a[c].s2, at.s2 + k + c * w, sizeof(V));
            a[c].take(x0);
        }
    }
    ext.see_run(in[0], k);
    // Unrolled (kFusedSteps, at most 8), so that the steps' loads are issued ahead of the
    // additions that wait for them; GCC kept the loop for 4-byte integer elements, whose
    // conversion it folds into the load, and the core then waited on each step's load in turn.
    static_assert(kFusedSteps <= 8);
    if constexpr (Fused)
#pragma GCC unroll 8
        for (std::uint32_t j = 1; j < kFusedSteps; ++j) {
            for (std::uint32_t c = 0; c < Count; ++c) {
                const V x = load_as<T, V>(in[j], k + c * w);
                a[c].take(x);
                ext.see(x);
            }
            ext.see_run(in[j], k);
        }
    for (std::uint32_t c = 0; c < Count; ++c) {
        std::memcpy(at.shift + k + c * w, &a[c].shift, sizeof(V));
        std::memcpy(at.s1 + k + c * w, &a[c].s1, sizeof(V));
        std::memcpy(at.s2 + k + c * w, &a[c].s2, sizeof(V));
    }
}

// Steps of level 1 for lanes [0, n) of `at`, as clreduce_vaccumulate does vector by vector:
// V's lanes at a time (Doubles, or Doubles4 where the host has no 64-byte vectors:
// host_vectors_512), two V's at a time where the extremes are Native, then one by one. One load
// and store of a lane per kFusedSteps elements (see host_plan_order.cpp's add_steps). The
// values' extremes into `part`.
template <class T, bool Fused, bool First, class V>
CLREDUCE_HOST_CLONES void take_steps(Lanes at, const unsigned char* const* in, std::uint64_t n,
                                     Extremes<double>& part) {
    constexpr std::uint64_t width = kLanesOf<V>;
    Converted<double> rest{part};  // the values' extremes, after the lanes' and the native ones
    std::uint64_t k = 0;
    if constexpr (kNativeExtremes<T>) {
        Native<T, typename ElementsOf<T, 2 * width>::type> native;
        for (; k + 2 * width <= n; k += 2 * width) take_lanes<T, V, Fused, First, 2>(at, in, k, native);
        if (k > 0) {  // where it took elements: its starting values are no element's
            T lo[2 * width], hi[2 * width];
            std::memcpy(lo, &native.lo, sizeof lo);
            std::memcpy(hi, &native.hi, sizeof hi);
            for (std::uint32_t i = 0; i < 2 * width; ++i) rest.ext.take(lo[i], hi[i]);
        }
    }
    Converted<V> lanes;
    for (; k + width <= n; k += width) take_lanes<T, V, Fused, First, 1>(at, in, k, lanes);
    for (; k < n; ++k) take_lanes<T, double, Fused, First, 1>(at, in, k, rest);
    for (std::uint32_t i = 0; i < width; ++i) rest.ext.take(lanes.ext.lo[i], lanes.ext.hi[i]);
    part = rest.ext;
}
using TakeSteps = void (*)(Lanes, const unsigned char* const*, std::uint64_t, Extremes<double>&);
// take_steps for the host's vectors.
template <class T, bool Fused, bool First>
TakeSteps take_steps_here() {
    return host_vectors_512() ? take_steps<T, Fused, First, Doubles> : take_steps<T, Fused, First, Doubles4>;
}

// Level 2: reduce.cl's tree in local memory (sequential addressing); the group's state.
inline Moments level2_tree(Moments* scratch, std::uint32_t wg) {
    for (std::uint32_t s = wg / 2; s >= 1; s >>= 1)
        for (std::uint32_t lid = 0; lid < s; ++lid) scratch[lid] = combine(scratch[lid], scratch[lid + s]);
    return scratch[0];
}

// A group's work-item states side by side (counts as doubles: exact below 2^53, as every count
// here is), so that combines run eight work-items at a time.
struct MomentsRows {
    std::array<double, kMaxHostGroupSize> count, shift, s1, s2;
    CLREDUCE_INLINE void put(std::uint32_t i, const Moments& m) {
        count[i] = static_cast<double>(m.count);
        shift[i] = m.shift;
        s1[i] = m.s1;
        s2[i] = m.s2;
    }
    Moments get(std::uint32_t i) const { return Moments{static_cast<std::uint64_t>(count[i]), shift[i], s1[i], s2[i]}; }
};

// The calling thread's MomentsRows, allocated on its first use: 32 KiB kept off the stack and
// out of the static thread-local block, which every thread's stack must also hold (a thread
// started with a small stack, 128 KiB, could not start with it there).
MomentsRows& thread_rows() {
    thread_local std::unique_ptr<MomentsRows> rows;
    if (!rows) rows = std::make_unique<MomentsRows>();
    return *rows;
}

// V's lanes of states at once.
template <class V>
struct MomentsV {
    V count, shift, s1, s2;
    static CLREDUCE_INLINE MomentsV load(const MomentsRows& r, std::uint32_t i) {
        MomentsV m;
        std::memcpy(&m.count, &r.count[i], sizeof(V));
        std::memcpy(&m.shift, &r.shift[i], sizeof(V));
        std::memcpy(&m.s1, &r.s1[i], sizeof(V));
        std::memcpy(&m.s2, &r.s2[i], sizeof(V));
        return m;
    }
    CLREDUCE_INLINE void store(MomentsRows& r, std::uint32_t i) const {
        std::memcpy(&r.count[i], &count, sizeof(V));
        std::memcpy(&r.shift[i], &shift, sizeof(V));
        std::memcpy(&r.s1[i], &s1, sizeof(V));
        std::memcpy(&r.s2[i], &s2, sizeof(V));
    }
};

// combine() on V's lanes of pairs of states that are not empty: the same operations in the
// same order.
template <class V>
CLREDUCE_INLINE MomentsV<V> combine_nonempty(const MomentsV<V>& a, const MomentsV<V>& b) {
    const V d = b.shift - a.shift;
    const V nbd = b.count * d;
    MomentsV<V> c;
    c.s1 = a.s1 + (b.s1 + nbd);
    c.s2 = a.s2 + (b.s2 + d * (2.0 * b.s1 + nbd));
    c.count = a.count + b.count;
    c.shift = a.shift;
    return c;
}

// ... of any pairs: then the empty sides' rules by selection (what the arithmetic gave an
// empty side is dropped).
template <class V>
CLREDUCE_INLINE MomentsV<V> combine_lanes(const MomentsV<V>& a, const MomentsV<V>& b) {
    MomentsV<V> c = combine_nonempty(a, b);
    const auto b_empty = b.count == 0.0;
    const auto a_empty = a.count == 0.0;
    c.shift = a_empty ? b.shift : c.shift;
    c.s1 = b_empty ? a.s1 : (a_empty ? b.s1 : c.s1);
    c.s2 = b_empty ? a.s2 : (a_empty ? b.s2 : c.s2);
    c.count = b_empty ? a.count : (a_empty ? b.count : c.count);
    return c;
}

// The states of Chains x V's lanes of consecutive work-items from their lanes (each took
// `taken` > 0 vectors) into rows from lid: lane 0, then lanes 1 ... VW - 1 combined in order,
// as the work-item does. `at` points to the first work-item's lane 0. A combine waits for the
// one before (four additions deep), so the chains of several V's of work-items go side by side.
template <std::uint32_t VW, class V, std::uint32_t Chains>
CLREDUCE_INLINE void work_items(const Lanes& at, double taken, MomentsRows& rows, std::uint32_t lid) {
    constexpr std::uint32_t w = kLanesOf<V>;
    V shift[Chains][VW], s1[Chains][VW], s2[Chains][VW];  // lane_vectors sets each
    for (std::uint32_t c = 0; c < Chains; ++c) {
        const Lanes items = at.at(std::size_t(c) * w * VW);
        lane_vectors<VW>(items.shift, shift[c]);
        lane_vectors<VW>(items.s1, s1[c]);
        lane_vectors<VW>(items.s2, s2[c]);
    }
    const V count = V{} + taken;
    MomentsV<V> acc[Chains];
    for (std::uint32_t c = 0; c < Chains; ++c) acc[c] = MomentsV<V>{count, shift[c][0], s1[c][0], s2[c][0]};
    for (std::uint32_t k = 1; k < VW; ++k)
        for (std::uint32_t c = 0; c < Chains; ++c)  // every lane took `taken` > 0
            acc[c] = combine_nonempty(acc[c], MomentsV<V>{count, shift[c][k], s1[c][k], s2[c][k]});
    for (std::uint32_t c = 0; c < Chains; ++c) acc[c].store(rows, lid + c * w);
}

// Level 2's tree over a group's states in `rows` (wg of them), V's lanes of combines at a time
// where the tree's level is that wide; the group's state.
template <class V>
CLREDUCE_HOST_CLONES Moments level2_rows(MomentsRows& rows, std::uint32_t wg) {
    constexpr std::uint32_t w = kLanesOf<V>;
    for (std::uint32_t s = wg / 2; s >= 1; s >>= 1) {
        std::uint32_t lid = 0;
        for (; lid + w <= s; lid += w)
            combine_lanes(MomentsV<V>::load(rows, lid), MomentsV<V>::load(rows, lid + s)).store(rows, lid);
        for (; lid < s; ++lid) rows.put(lid, combine(rows.get(lid), rows.get(lid + s)));
    }
    return rows.get(0);
}
using Level2Rows = Moments (*)(MomentsRows&, std::uint32_t);
Level2Rows level2_rows_here() { return host_vectors_512() ? level2_rows<Doubles> : level2_rows<Doubles4>; }

// Work-items [lid, lid + kWidth * blocks) of a group whose lanes start at `at`, each having
// taken `taken` vectors: their states into rows, V's lanes of work-items at a time.
template <std::uint32_t VW, class V>
CLREDUCE_HOST_CLONES void full_work_items(const Lanes& at, std::uint64_t taken, MomentsRows& rows, std::uint32_t lid,
                                          std::uint32_t blocks) {
    constexpr std::uint32_t w = kLanesOf<V>;
    const double n = static_cast<double>(taken);
    std::uint32_t i = 0;
    for (; i + 2 * kWidth <= blocks * kWidth; i += 2 * kWidth)
        work_items<VW, V, 2 * kWidth / w>(at.at(std::size_t(i) * VW), n, rows, lid + i);
    for (; i < blocks * kWidth; i += w) work_items<VW, V, 1>(at.at(std::size_t(i) * VW), n, rows, lid + i);
}
using FullWorkItems = void (*)(const Lanes&, std::uint64_t, MomentsRows&, std::uint32_t, std::uint32_t);
FullWorkItems full_work_items_of(std::uint32_t vector_width) {
    return for_vector_width(vector_width, [](auto v) -> FullWorkItems {
        constexpr std::uint32_t VW = decltype(v)::value;
        return host_vectors_512() ? full_work_items<VW, Doubles> : full_work_items<VW, Doubles4>;
    });
}

// The states of groups [begin, end) into values[g - begin], and their extremes into `ext`.
template <class T>
void group_states(const PlanGeometry& geo, const unsigned char* in, std::uint64_t begin, std::uint64_t end,
                  Moments* values, Extremes<double>& ext) {
    const std::size_t lanes_per_group = std::size_t(geo.wg) * geo.vector_width;
    const std::uint64_t batch = kBatchLanes / lanes_per_group;
    thread_local std::vector<double> kept;  // grown once per thread
    if (kept.empty()) kept.resize(3 * kBatchLanes);
    const Lanes lanes{kept.data(), kept.data() + kBatchLanes, kept.data() + 2 * kBatchLanes};
    MomentsRows& rows = thread_rows();
    const FullWorkItems full_items = full_work_items_of(geo.vector_width);
    const Level2Rows level2 = level2_rows_here();
    const TakeSteps take_fused_first = take_steps_here<T, true, true>(), take_fused = take_steps_here<T, true, false>(),
                    take_first = take_steps_here<T, false, true>(), take = take_steps_here<T, false, false>();
    for (std::uint64_t b0 = begin; b0 < end; b0 += batch) {
        const std::uint64_t b1 = std::min(end, b0 + batch);
        walk_level1(geo, b0, b1,
                    [&](std::uint64_t g, std::uint32_t t, std::uint32_t steps, std::uint64_t v, std::uint64_t n) {
            std::array<const unsigned char*, kFusedSteps> runs;
            for (std::uint32_t j = 0; j < steps; ++j)
                runs[j] = in + (v + std::uint64_t(j) * geo.step()) * geo.vector_width * sizeof(T);
            const Lanes at = lanes.at((g - b0) * lanes_per_group);
            if (steps > 1)
                (t == 0 ? take_fused_first : take_fused)(at, runs.data(), n, ext);
            else
                (t == 0 ? take_first : take)(at, runs.data(), n, ext);
        });
        for (std::uint64_t g = b0; g < b1; ++g) {
            const std::size_t o = (g - b0) * lanes_per_group;
            // This work-item's vectors: all its lanes took that many.
            const auto taken_by = [&](std::uint32_t lid) -> std::uint64_t {
                const std::uint64_t f = geo.first(g) + lid;
                return f < geo.vectors ? std::min<std::uint64_t>(geo.times, (geo.vectors - 1 - f) / geo.step() + 1) : 0;
            };
            const bool tail = g == 0 && geo.vectors * geo.vector_width < geo.count;
            for (std::uint32_t lid = 0; lid < geo.wg;) {
                // Eight work-items at a time where they took the same number of vectors (all but
                // a group at the data's end) and have no scalar tail.
                const std::uint64_t taken = taken_by(lid);
                std::uint32_t blocks = 0;
                while (!tail && taken > 0 && lid + (blocks + 1) * kWidth <= geo.wg &&
                       taken_by(lid + (blocks + 1) * kWidth - 1) == taken)
                    ++blocks;
                if (blocks > 0) {
                    full_items(lanes.at(o + std::size_t(lid) * geo.vector_width), taken, rows, lid, blocks);
                    lid += blocks * kWidth;
                    continue;
                }
                // One work-item: its lanes in order, then its scalar tail.
                Moments acc;
                for (std::uint32_t k = 0; k < geo.vector_width && taken > 0; ++k) {
                    const std::size_t i = o + std::size_t(lid) * geo.vector_width + k;
                    acc = combine(acc, Moments{taken, lanes.shift[i], lanes.s1[i], lanes.s2[i]});
                }
                if (g == 0)  // the scalar tail, work-item lid taking elements lid, lid + wg, ...
                    for (std::uint64_t j = geo.vectors * geo.vector_width + lid; j < geo.count; j += geo.wg) {
                        const double x = static_cast<double>(load_at<T>(in, j));
                        acc = accumulate(acc, x);
                        ext.take(x, x);
                    }
                rows.put(lid, acc);
                ++lid;
            }
            values[g - begin] = level2(rows, geo.wg);
        }
    }
}

// Whether the data holds a zero of each sign: {negative, positive}.
template <class T>
std::array<bool, 2> zero_signs(const unsigned char* in, std::uint64_t count) {
    std::array<bool, 2> seen{false, false};
    for (std::uint64_t i = 0; i < count && !(seen[0] && seen[1]); ++i) {
        const T x = load_at<T>(in, i);
        if (x == T(0)) seen[std::signbit(x) ? 0 : 1] = true;
    }
    return seen;
}

template <class T>
bool moments_of(const LaunchPlan& plan, const unsigned char* in, std::uint64_t count, unsigned char* out) {
    const PlanGeometry geo(plan, count);
    const std::size_t parts = geo.parts(sizeof(T));
    const std::uint64_t per_part = (geo.groups + parts - 1) / parts;
    thread_local std::vector<Moments> kept;  // the groups' states, grown once per calling thread
    if (kept.size() < geo.groups) kept.resize(geo.groups);
    Moments* values = kept.data();
    std::array<Extremes<double>, kMaxHostParts> extremes;
    auto part = [&](std::size_t k) {
        const std::uint64_t begin = k * per_part, end = std::min(geo.groups, begin + per_part);
        if (begin < end) group_states<T>(geo, in, begin, end, values + begin, extremes[k]);
    };
    parallel_for(parts, part);
    // reduce.cl's last group: work-item lid combines states lid, lid + wg, ... in order, then
    // level 2's tree.
    std::array<Moments, kMaxHostGroupSize> scratch;
    for (std::uint32_t lid = 0; lid < geo.wg; ++lid) {
        Moments s;
        for (std::uint64_t j = lid; j < geo.groups; j += geo.wg) s = combine(s, values[j]);
        scratch[lid] = s;
    }
    const Moments m = level2_tree(scratch.data(), geo.wg);
    Extremes<double> ext;
    for (std::size_t k = 0; k < parts; ++k) ext.take(extremes[k].lo, extremes[k].hi);
    double lo = ext.lo, hi = ext.hi;
    if (lo > hi) return false;  // no number: which NaN fmin leaves is the device's
    if constexpr (std::is_floating_point_v<T>) {
        if (lo == 0 || hi == 0) {  // the zero's sign from the data; the device's choice if both
            const auto [negative, positive] = zero_signs<T>(in, count);
            if (negative && positive) return false;
            if (lo == 0) lo = negative ? -0.0 : 0.0;
            if (hi == 0) hi = negative ? -0.0 : 0.0;
        }
    }
    std::memcpy(out, &m.count, 8);
    std::memcpy(out + 8, &m.shift, 8);
    std::memcpy(out + 16, &m.s1, 8);
    std::memcpy(out + 24, &m.s2, 8);
    std::memcpy(out + 32, &lo, 8);
    std::memcpy(out + 40, &hi, 8);
    return true;
}

}  // namespace

bool moments_on_host(const LaunchPlan& plan, const OpKernel& kernel) {
    if (kernel.op != KernelOp::moments || plan.transform || kernel.map != ElementMap::identity) return false;
    // Each lane's first value and every combine after (its lanes', the trees') cost the host
    // several times an element's sums, eight work-items at a time: where a work-item takes
    // fewer than kMinElementsPerItem they outweigh the reads, and the link is faster
    // (docs/performance.md, "Where host data is reduced"): the device runs the call.
    if (std::uint64_t(plan.times) * plan.vector_width < kMinElementsPerItem) return false;
    if (plan.element != ElementType::int32 && plan.element != ElementType::uint32 &&
        plan.element != ElementType::float32 && plan.element != ElementType::float64)
        return false;
    if (plan.accumulator != ElementType::float64 || plan.inter_group != InterGroup::last_group) return false;
    const std::uint32_t v = plan.vector_width;
    if (v == 0 || v > 16 || (v & (v - 1)) != 0) return false;
    return plan.work_group_size != 0 && plan.work_group_size <= kMaxHostGroupSize &&
           (plan.work_group_size & (plan.work_group_size - 1)) == 0 &&
           std::size_t(plan.work_group_size) * v <= kMaxHostLanes;
}

bool reduce_moments_on_host(const LaunchPlan& plan, const unsigned char* data, std::uint64_t count,
                            unsigned char* state_bits) {
    switch (plan.element) {
        case ElementType::int32: return moments_of<std::int32_t>(plan, data, count, state_bits);
        case ElementType::uint32: return moments_of<std::uint32_t>(plan, data, count, state_bits);
        case ElementType::float32: return moments_of<float>(plan, data, count, state_bits);
        default: return moments_of<double>(plan, data, count, state_bits);
    }
}

}  // namespace clreduce
