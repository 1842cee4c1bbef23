#include "exec/host_plan_order.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <clreduce/error.hpp>

#include "exec/host_doubles.hpp"
#include "exec/host_pool.hpp"
#include "exec/unaligned.hpp"
#include "ops/exact_state.hpp"

namespace clreduce {
namespace {

// Lanes of the groups a thread adds side by side (doubles, 64 KiB: the first two levels of
// cache). With a global stride the groups' vectors at one step are neighbours in memory, so a
// batch reads one run of (groups x work-group x vector) elements per step.
constexpr std::size_t kBatchLanes = 8192;

// The host's copy of the exact atomic finish's fixed-point number (cl_kernels/fixed_point.cl,
// double accumulator): 67 carry-saved limbs of 2^(32k) units of 2^-1074, then the flags. Two
// numbers merge limb by limb (carry-saved limbs of at most 2^31 values cannot overflow). A
// number also keeps the range of limbs its values reached (a few, for values of similar size),
// so that a merge reads only those: the parts' numbers lie in other cores' caches.
class alignas(64) ExactDoubleSum {
public:
    static constexpr int kLimbs = 67;
    void add(double x) {
        std::uint64_t bits = 0;
        std::memcpy(&bits, &x, sizeof bits);
        const auto biased = static_cast<std::uint32_t>(bits >> 52) & 0x7ffu;
        std::uint64_t m = bits & 0xfffffffffffffull;
        const bool negative = (bits >> 63) != 0;
        if (biased == 0x7ffu) {  // NaN 1, +inf 2, -inf 4, as the kernel's flags
            words_[kLimbs] |= m != 0 ? 1 : negative ? 4 : 2;
            return;
        }
        std::uint32_t p = 0;  // the significand's lowest bit, in units of 2^-1074
        if (biased != 0) {
            m |= 0x10000000000000ull;
            p = biased - 1;
        }
        const std::uint32_t shift = p & 31u;
        const std::uint64_t low = m << shift;
        const std::int64_t sign = negative ? -1 : 1;
        const std::uint32_t k = p >> 5;
        words_[k] += sign * static_cast<std::int64_t>(low & 0xffffffffull);
        words_[k + 1] += sign * static_cast<std::int64_t>(low >> 32);
        words_[k + 2] += sign * static_cast<std::int64_t>(shift != 0 ? m >> (64 - shift) : 0);
        lowest_ = std::min(lowest_, k);
        highest_ = std::max(highest_, k + 2);
    }
    // Adds `other`'s limbs (those it reached) and flags.
    void merge(const ExactDoubleSum& other) {
        for (std::uint32_t k = other.lowest_; k <= other.highest_; ++k) words_[k] += other.words_[k];
        words_[kLimbs] |= other.words_[kLimbs];
        lowest_ = std::min(lowest_, other.lowest_);
        highest_ = std::max(highest_, other.highest_);
    }
    // Makes this number `other` where only other's reached limbs and flags are read; the limbs
    // outside that range keep what they held, which no merge reads.
    void take_reached(const ExactDoubleSum& other) {
        lowest_ = other.lowest_;
        highest_ = other.highest_;
        words_[kLimbs] = other.words_[kLimbs];
        for (std::uint32_t k = lowest_; k <= highest_; ++k) words_[k] = other.words_[k];
    }
    double rounded() const {
        unsigned char bytes[sizeof words_];
        std::memcpy(bytes, words_.data(), sizeof bytes);
        return round_exact_state(bytes, ElementType::float64);
    }

private:
    std::array<std::int64_t, kLimbs + 1> words_{};
    std::uint32_t lowest_ = kLimbs;  // the limbs reached: [lowest_, highest_] (none: lowest_ > highest_)
    std::uint32_t highest_ = 0;
};

// The element as the double accumulator sees it (prelude.cl's clreduce_map).
template <class T, ElementMap M>
inline double mapped(T x) {
    const double d = static_cast<double>(x);
    if constexpr (M == ElementMap::square) return d * d;
    if constexpr (M == ElementMap::abs) return std::fabs(d);
    return d;
}

// Elements [k, k + width of V) of `in` as the accumulator sees them (mapped, V's lanes at a time).
template <class T, ElementMap M, class V>
CLREDUCE_INLINE V mapped_lanes(const unsigned char* in, std::uint64_t k) {
    const V d = load_as<T, V>(in, k);
    if constexpr (M == ElementMap::square) return d * d;
    if constexpr (M == ElementMap::abs) {
        typedef std::uint64_t Words __attribute__((vector_size(sizeof(V))));
        return (V)((Words)d & 0x7fffffffffffffffull);  // fabs: the sign bit cleared
    }
    return d;
}

// Steps of level 1 for the same lanes: lane k adds element k of the run at in[0], then of
// in[1], ... (Steps runs), V's lanes at a time (Doubles, or Doubles4 where the host has no
// 64-byte vectors: GCC's clones without them keep a 64-byte value on the stack and store it by
// pieces that the next load cannot forward, about three times the AVX2 clone's time), then one
// by one. First: the lanes' first steps, from +0.0. One load and store of a lane per Steps
// elements.
template <class T, ElementMap M, std::uint32_t Steps, bool First, class V>
CLREDUCE_HOST_CLONES void add_steps(double* __restrict lanes, const unsigned char* const* in, std::uint64_t n) {
    constexpr std::uint64_t width = kLanesOf<V>;
    std::array<const unsigned char*, Steps> r;
    for (std::uint32_t j = 0; j < Steps; ++j) r[j] = in[j];
    std::uint64_t k = 0;
    for (; k + width <= n; k += width) {
        V a = V{} + 0.0;
        if constexpr (!First) std::memcpy(&a, lanes + k, sizeof a);
        for (std::uint32_t j = 0; j < Steps; ++j) a = a + mapped_lanes<T, M, V>(r[j], k);
        std::memcpy(lanes + k, &a, sizeof a);
    }
    for (; k < n; ++k) {
        double a = First ? 0.0 : lanes[k];
        for (std::uint32_t j = 0; j < Steps; ++j) a += mapped<T, M>(load_at<T>(r[j], k));
        lanes[k] = a;
    }
}

using AddSteps = void (*)(double* lanes, const unsigned char* const* in, std::uint64_t n);
// add_steps for the host's vectors (unaligned.hpp's host_vectors_512).
template <class T, ElementMap M, std::uint32_t Steps, bool First = false>
AddSteps add_steps_here() {
    return host_vectors_512() ? add_steps<T, M, Steps, First, Doubles> : add_steps<T, M, Steps, First, Doubles4>;
}

// One step of level 1 for the work-items of a group that read a vector in it: lane k adds
// element k of the run at `in`.
template <class T, ElementMap M>
void add_run(double* lanes, const unsigned char* in, std::uint64_t n) {
    static const AddSteps add = add_steps_here<T, M, 1>();
    add(lanes, &in, n);
}

// Step 0 of level 1 for the work-items that read a vector in it: lane k starts from +0.0 and
// adds element k of the run at `in` (as add_run after the lanes were set to +0.0).
template <class T, ElementMap M>
void first_run(double* lanes, const unsigned char* in, std::uint64_t n) {
    static const AddSteps add = add_steps_here<T, M, 1, true>();
    add(lanes, &in, n);
}

// A work-item's V lanes as ops/add.cl's tree of halves: (l0 + l1) + (l2 + l3), ...
template <std::uint32_t V>
inline double tree_of_halves(const double* l) {
    if constexpr (V == 1) {
        return l[0];
    } else {
        return tree_of_halves<V / 2>(l) + tree_of_halves<V / 2>(l + V / 2);
    }
}

// out[w] = the tree of halves of work-item w's lanes lanes[w * V ...], w < items.
template <std::uint32_t V>
CLREDUCE_HOST_CLONES void item_trees(double* __restrict out, const double* __restrict lanes, std::uint64_t items) {
    for (std::uint64_t w = 0; w < items; ++w) out[w] = tree_of_halves<V>(lanes + w * V);
}

// item_trees for the plan's vector width.
ItemTrees item_trees_of(std::uint32_t vector_width) {
    return for_vector_width(vector_width, [](auto v) -> ItemTrees { return item_trees<decltype(v)::value>; });
}

// Level 1 of groups [begin, end) over geo's work-items (all of them, or a piece's): each
// work-item's lanes as ops/add.cl's tree of halves; then done(g, values), values[w] the value
// of work-item geo.item0 + w (w < geo.items; kMaxHostGroupSize of them, for the caller to use).
template <class T, ElementMap M, class Done>
void level1_items(const PlanGeometry& geo, const unsigned char* in, std::uint64_t begin, std::uint64_t end,
                  Done&& done) {
    const std::size_t lanes_per_group = std::size_t(geo.items) * geo.vector_width;
    const std::uint64_t batch = std::max<std::uint64_t>(1, kBatchLanes / lanes_per_group);
    const ItemTrees trees = item_trees_of(geo.vector_width);
    const AddSteps fused_first = add_steps_here<T, M, kFusedSteps, true>();
    const AddSteps fused = add_steps_here<T, M, kFusedSteps>();
    const AddSteps few_first = add_steps_here<T, M, kFusedFewSteps, true>();
    const AddSteps few = add_steps_here<T, M, kFusedFewSteps>();
    const AddSteps two_first = add_steps_here<T, M, kFusedTwoSteps, true>();
    const AddSteps two = add_steps_here<T, M, kFusedTwoSteps>();
    alignas(64) std::array<double, kBatchLanes> lanes;
    std::array<double, kMaxHostGroupSize> scratch;
    for (std::uint64_t b0 = begin; b0 < end; b0 += batch) {
        const std::uint64_t b1 = std::min(end, b0 + batch);
        // Step 0 writes the lanes it reaches (from +0.0); the rest start at +0.0: those of
        // work-items past the data's end, and of groups with no vector at all.
        for (std::uint64_t g = b0; g < b1; ++g)
            if (geo.first(g) >= geo.vectors)
                std::fill_n(lanes.data() + (g - b0) * lanes_per_group, lanes_per_group, 0.0);
        walk_level1(
            geo, b0, b1,
            [&](std::uint64_t g, std::uint32_t t, std::uint32_t steps, std::uint64_t v, std::uint64_t n) {
            double* at = lanes.data() + (g - b0) * lanes_per_group;
            const unsigned char* first = in + v * geo.vector_width * sizeof(T);
            if (t == 0 && n < lanes_per_group) std::fill_n(at + n, lanes_per_group - n, 0.0);
            if (steps == 1) return (t == 0 ? first_run<T, M> : add_run<T, M>)(at, first, n);
            std::array<const unsigned char*, kFusedSteps> runs;
            for (std::uint32_t j = 0; j < steps; ++j)
                runs[j] = first + std::uint64_t(j) * geo.step() * geo.vector_width * sizeof(T);
            const AddSteps add = steps == kFusedSteps      ? (t == 0 ? fused_first : fused)
                                 : steps == kFusedFewSteps ? (t == 0 ? few_first : few)
                                                           : (t == 0 ? two_first : two);
            add(at, runs.data(), n);
            },
            true);
        for (std::uint64_t g = b0; g < b1; ++g) {
            trees(scratch.data(), lanes.data() + (g - b0) * lanes_per_group, geo.items);
            done(g, scratch.data());
        }
    }
}

// Group g's value from its work-items' level-1 values (all wg of them, which this changes):
// group 0's scalar tail, work-item lid taking elements lid, lid + wg, ..., then level 2.
template <class T, ElementMap M>
double group_value(const PlanGeometry& geo, const unsigned char* in, std::uint64_t g, double* items) {
    if (g == 0)
        for (std::uint32_t lid = 0; lid < geo.wg; ++lid)
            for (std::uint64_t j = geo.vectors * geo.vector_width + lid; j < geo.count; j += geo.wg)
                items[lid] += mapped<T, M>(load_at<T>(in, j));
    return level2_tree(items, geo.wg);
}

// The values of groups [begin, end) into values[g - begin].
template <class T, ElementMap M>
void group_values(const PlanGeometry& geo, const unsigned char* in, std::uint64_t begin, std::uint64_t end,
                  double* values) {
    level1_items<T, M>(geo, in, begin, end, [&](std::uint64_t g, double* items) {
        values[g - begin] = group_value<T, M>(geo, in, g, items);
    });
}

// The values of all geo.groups groups, each group's work-items split into `pieces` for the
// host's threads (PlanGeometry::pieces); in the calling thread's storage, grown once to the
// largest call's (a repeated call allocates nothing).
template <class T, ElementMap M>
const double* values_by_pieces(const PlanGeometry& geo, const unsigned char* in, std::uint32_t pieces) {
    thread_local std::vector<double> kept_items, kept_values;
    if (kept_items.size() < geo.groups * geo.wg) kept_items.resize(geo.groups * geo.wg);
    if (kept_values.size() < geo.groups) kept_values.resize(geo.groups);
    double* items = kept_items.data();
    auto part = [&](std::size_t k) {
        const std::uint64_t g = k / pieces;
        const PlanGeometry piece = geo.piece(static_cast<std::uint32_t>(k % pieces), pieces);
        level1_items<T, M>(piece, in, g, g + 1, [&](std::uint64_t, const double* values) {
            std::copy_n(values, piece.items, items + g * geo.wg + piece.item0);
        });
    };
    parallel_for(geo.groups * pieces, part);
    for (std::uint64_t g = 0; g < geo.groups; ++g) kept_values[g] = group_value<T, M>(geo, in, g, items + g * geo.wg);
    return kept_values.data();
}

// Level 3 of reduce.cl's last group over the groups' values: work-item lid adds values lid,
// lid + wg, ... in order, from the identity; then level 2's tree.
double last_group(const PlanGeometry& geo, const double* values) {
    std::array<double, kMaxHostGroupSize> scratch;
    for (std::uint32_t lid = 0; lid < geo.wg; ++lid) {
        double s = 0.0;
        for (std::uint64_t j = lid; j < geo.groups; j += geo.wg) s = s + values[j];
        scratch[lid] = s;
    }
    return level2_tree(scratch.data(), geo.wg);
}

template <class T, ElementMap M>
double plan_order_sum(const LaunchPlan& plan, const unsigned char* in, std::uint64_t count) {
    const PlanGeometry geo(plan, count);
    if (const std::uint32_t pieces = geo.pieces(sizeof(T)); pieces > 1) {
        const double* values = values_by_pieces<T, M>(geo, in, pieces);
        if (plan.inter_group != InterGroup::exact_atomic) return last_group(geo, values);
        ExactDoubleSum sum;
        for (std::uint64_t g = 0; g < geo.groups; ++g) sum.add(values[g]);
        return sum.rounded();
    }
    const std::size_t parts = geo.parts(sizeof(T));
    const std::uint64_t per_part = (geo.groups + parts - 1) / parts;
    if (plan.inter_group == InterGroup::exact_atomic) {
        // Each part's groups into its own exact sum, on its thread's stack; the calling thread's
        // slot for the part (kept per calling thread, grown once) gets the limbs it reached, and
        // the slots merge exactly into one number, rounded once. Zeroing every slot (36 KiB)
        // took a tenth of a 2^16-element call, and whole slots were read from the parts' cores.
        thread_local std::vector<ExactDoubleSum> kept_sums(kMaxHostParts);
        ExactDoubleSum* sums = kept_sums.data();  // the calling thread's, for every part's thread
        auto part = [&](std::size_t k) {
            ExactDoubleSum sum;
            const std::uint64_t begin = k * per_part, end = std::min(geo.groups, begin + per_part);
            std::array<double, 256> values;
            for (std::uint64_t g = begin; g < end; g += values.size()) {
                const std::uint64_t n = std::min<std::uint64_t>(values.size(), end - g);
                group_values<T, M>(geo, in, g, g + n, values.data());
                for (std::uint64_t i = 0; i < n; ++i) sum.add(values[i]);
            }
            sums[k].take_reached(sum);
        };
        parallel_for(parts, part);
        ExactDoubleSum total;
        for (std::size_t k = 0; k < parts; ++k) total.merge(sums[k]);
        return total.rounded();
    }
    // The groups' values are kept per calling thread, grown once to the largest call's groups
    // (a repeated call allocates nothing).
    thread_local std::vector<double> kept;
    if (kept.size() < geo.groups) kept.resize(geo.groups);
    double* values = kept.data();
    auto part = [&](std::size_t k) {
        const std::uint64_t begin = k * per_part, end = std::min(geo.groups, begin + per_part);
        if (begin < end) group_values<T, M>(geo, in, begin, end, values + begin);
    };
    parallel_for(parts, part);
    return last_group(geo, values);
}

template <class T>
double by_map(const LaunchPlan& plan, ElementMap map, const unsigned char* in, std::uint64_t count) {
    switch (map) {
        case ElementMap::identity: return plan_order_sum<T, ElementMap::identity>(plan, in, count);
        case ElementMap::square: return plan_order_sum<T, ElementMap::square>(plan, in, count);
        case ElementMap::abs: return plan_order_sum<T, ElementMap::abs>(plan, in, count);
        default: break;
    }
    throw Error("internal: no plan-order host pass for " + plan.describe());
}

}  // namespace

// The same additions, eight at once: the levels of 16 values or more in memory, the last four
// (16 values to 1) in registers, where each level's loads waited for the level before's stores.
CLREDUCE_HOST_CLONES double level2_tree(double* scratch, std::uint32_t n) {
    std::uint32_t s = n / 2;
    for (; s >= 8; s >>= 1) {
        for (std::uint32_t lid = 0; lid < s; lid += 8) {
            Doubles a, b;
            std::memcpy(&a, scratch + lid, sizeof a);
            std::memcpy(&b, scratch + lid + s, sizeof b);
            a = a + b;
            if (s == 8) {
                // a[i] is scratch[i] after this level; then a[i] + a[i + 4], ... (lane i's
                // left operand is the lower index, as in memory)
                a = a + __builtin_shufflevector(a, a, 4, 5, 6, 7, 0, 1, 2, 3);
                a = a + __builtin_shufflevector(a, a, 2, 3, 0, 1, 0, 1, 2, 3);
                return a[0] + a[1];
            }
            std::memcpy(scratch + lid, &a, sizeof a);
        }
    }
    for (; s >= 1; s >>= 1)
        for (std::uint32_t lid = 0; lid < s; ++lid) scratch[lid] = scratch[lid] + scratch[lid + s];
    return scratch[0];
}

namespace {
template <class T, ElementMap M>
double mapped_at(const unsigned char* in, std::uint64_t i) {
    return mapped<T, M>(load_at<T>(in, i));
}
template <class T, ElementMap M>
double in_turn(const unsigned char* in, std::uint64_t n) {
    double sum = 0.0;
    for (std::uint64_t i = 0; i < n; ++i) sum = sum + mapped<T, M>(load_at<T>(in, i));
    return sum;
}
template <class T, ElementMap M>
LevelOneAdds adds_with_map(std::uint32_t vector_width) {
    return {first_run<T, M>, add_run<T, M>, add_steps_here<T, M, kFusedSteps>(),
            mapped_at<T, M>, in_turn<T, M>, item_trees_of(vector_width)};
}
template <class T>
LevelOneAdds adds_of(ElementMap map, std::uint32_t vector_width) {
    switch (map) {
        case ElementMap::identity: return adds_with_map<T, ElementMap::identity>(vector_width);
        case ElementMap::square: return adds_with_map<T, ElementMap::square>(vector_width);
        case ElementMap::abs: return adds_with_map<T, ElementMap::abs>(vector_width);
        default: break;
    }
    throw Error("internal: no plan-order host loops for this element map");
}
}  // namespace

LevelOneAdds level1_adds(ElementType element, ElementMap map, std::uint32_t vector_width) {
    return element == ElementType::float32 ? adds_of<float>(map, vector_width) : adds_of<double>(map, vector_width);
}

std::size_t PlanGeometry::parts(std::size_t element_size) const { return host_parts(groups, count * element_size); }

std::uint32_t PlanGeometry::pieces(std::size_t element_size) const {
    const std::size_t by_items = host_parts(groups * wg, count * element_size);
    std::uint32_t pieces = 1;
    while (pieces < wg && groups * pieces * 2 <= std::min<std::size_t>(by_items, host_pool_threads()) &&
           std::uint64_t(wg / pieces / 2) * vector_width >= 32)
        pieces *= 2;
    return pieces;
}

bool plan_order_sum_shape(const LaunchPlan& plan, const OpKernel& kernel) {
    if (kernel.op != KernelOp::add || plan.transform) return false;
    if (kernel.map != ElementMap::identity && kernel.map != ElementMap::square && kernel.map != ElementMap::abs)
        return false;
    if (plan.element != ElementType::float32 && plan.element != ElementType::float64) return false;
    if (plan.accumulator != ElementType::float64 || plan.float_mode != FloatMode::deterministic) return false;
    const std::uint32_t v = plan.vector_width;
    if (v == 0 || v > 16 || (v & (v - 1)) != 0) return false;
    if (plan.work_group_size == 0 || plan.work_group_size > kMaxHostGroupSize ||
        (plan.work_group_size & (plan.work_group_size - 1)) != 0 ||
        std::size_t(plan.work_group_size) * v > kMaxHostLanes)
        return false;
    return true;
}

bool plan_order_on_host(const LaunchPlan& plan, const OpKernel& kernel) {
    return plan_order_sum_shape(plan, kernel) &&
           (plan.inter_group == InterGroup::exact_atomic || plan.inter_group == InterGroup::last_group);
}

double reduce_in_plan_order(const LaunchPlan& plan, const OpKernel& kernel, const unsigned char* data,
                            std::uint64_t count) {
    if (plan.element == ElementType::float32) return by_map<float>(plan, kernel.map, data, count);
    return by_map<double>(plan, kernel.map, data, count);
}

}  // namespace clreduce
