// The order-free host passes (host_order_free.hpp): every operation here shares the split into
// parts, run_parts and the element-type dispatch (reduce_typed), which a split by operation
// would have to export from an anonymous namespace. The indexed states' block scans are
// host_indexed.hpp's.
#include "exec/host_order_free.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include <clreduce/element_type.hpp>
#include <clreduce/error.hpp>

#include "exec/host_indexed.hpp"
#include "exec/host_integer_map.hpp"
#include "exec/host_pool.hpp"
#include "exec/unaligned.hpp"

namespace clreduce {
namespace {

using namespace host_indexed;

// Sums of 8- and 16-bit elements and counts add blocks of kNarrowBlock terms in 32-bit lanes
// first: a vector holds twice as many of them as of 64-bit lanes, and 2^16 terms of 16 bits
// (or of 0 and 1) cannot leave 32 bits (signed: -2^15 * 2^16 = -2^31 at the least).
constexpr std::uint64_t kNarrowBlock = std::uint64_t(1) << 16;
template <class T, ElementMap M, bool Product>
constexpr bool kNarrowSum = !Product && (M == ElementMap::nonzero || (M == ElementMap::identity && sizeof(T) <= 2));

// Sum (and counts) or product modulo 2^64 of a part.
template <class T, ElementMap M, bool Product>
CLREDUCE_HOST_CLONES std::uint64_t fold(const unsigned char* in, std::uint64_t n) {
    if constexpr (kNarrowSum<T, M, Product>) {
        using Narrow =
            std::conditional_t<M == ElementMap::identity && std::is_signed_v<T>, std::int32_t, std::uint32_t>;
        std::uint64_t acc = 0;
        for (std::uint64_t b = 0; b < n; b += kNarrowBlock) {
            const std::uint64_t m = std::min(kNarrowBlock, n - b);
            const unsigned char* block = in + b * sizeof(T);
            Narrow sum = 0;
            for (std::uint64_t i = 0; i < m; ++i)
                sum += static_cast<Narrow>(M == ElementMap::nonzero ? (load_at<T>(block, i) != T(0))
                                                                    : load_at<T>(block, i));
            acc += static_cast<std::uint64_t>(static_cast<std::int64_t>(sum));  // a signed sum sign-extended
        }
        return acc;
    }
    std::uint64_t acc = Product ? 1 : 0;
    for (std::uint64_t i = 0; i < n; ++i) {
        const std::uint64_t v = integer_mapped<T, M>(load_at<T>(in, i));
        if constexpr (Product)
            acc *= v;
        else
            acc += v;
    }
    return acc;
}

// An exact sum of a part's 64-bit terms (ops/add_wide.cl's two limbs: 128-bit two's
// complement, which fewer than 2^64 terms cannot overflow), signed or unsigned terms as the
// accumulator is. Each term's two 32-bit halves are summed apart in 64-bit lanes, which the
// compiler vectorises and which cannot overflow within blocks of 2^31 terms; each block's two
// sums join the 128-bit total.
template <class T, ElementMap M, bool Signed>
CLREDUCE_HOST_CLONES unsigned __int128 fold_wide(const unsigned char* in, std::uint64_t n) {
    using High = std::conditional_t<Signed, std::int64_t, std::uint64_t>;
    constexpr std::uint64_t kBlock = std::uint64_t(1) << 31;
    unsigned __int128 acc = 0;
    for (std::uint64_t b = 0; b < n; b += kBlock) {
        const std::uint64_t m = std::min(kBlock, n - b);
        const unsigned char* block = in + b * sizeof(T);
        std::uint64_t low = 0;
        High high = 0;
        for (std::uint64_t i = 0; i < m; ++i) {
            const std::uint64_t v = integer_mapped<T, M>(load_at<T>(block, i));
            low += v & 0xffffffffu;
            high += static_cast<High>(v) >> 32;  // arithmetic for signed terms
        }
        acc += static_cast<unsigned __int128>(low) +
               static_cast<unsigned __int128>(static_cast<__int128>(high) * (static_cast<__int128>(1) << 32));
    }
    return acc;
}

enum class Extreme { min, max, bit_and, bit_or, bit_xor };

template <Extreme E, class A>
inline A combine(A a, A b) {
    if constexpr (E == Extreme::min) return b < a ? b : a;
    if constexpr (E == Extreme::max) return a < b ? b : a;
    if constexpr (E == Extreme::bit_and) return a & b;
    if constexpr (E == Extreme::bit_or) return a | b;
    if constexpr (E == Extreme::bit_xor) return a ^ b;
}
template <Extreme E, class A>
constexpr A identity() {
    if constexpr (E == Extreme::min) return std::numeric_limits<A>::max();
    if constexpr (E == Extreme::max) return std::numeric_limits<A>::lowest();
    if constexpr (E == Extreme::bit_and) return static_cast<A>(~A(0));
    return A(0);
}

// An integer extreme or bit operation of a part, the element mapped into A (A is T, or
// uint64 for norm_inf's magnitudes).
template <class T, class A, ElementMap M, Extreme E>
CLREDUCE_HOST_CLONES A extreme(const unsigned char* in, std::uint64_t n) {
    A acc = identity<E, A>();
    for (std::uint64_t i = 0; i < n; ++i) {
        const T x = load_at<T>(in, i);
        const A v = M == ElementMap::abs ? static_cast<A>(integer_mapped<T, M>(x)) : static_cast<A>(x);
        acc = combine<E, A>(acc, v);
    }
    return acc;
}

// Both integer extremes of a part.
template <class T>
CLREDUCE_HOST_CLONES std::array<T, 2> both_extremes(const unsigned char* in, std::uint64_t n) {
    T lo = std::numeric_limits<T>::max(), hi = std::numeric_limits<T>::lowest();
    for (std::uint64_t i = 0; i < n; ++i) {
        const T x = load_at<T>(in, i);
        lo = x < lo ? x : lo;
        hi = hi < x ? x : hi;
    }
    return {lo, hi};
}

// Float min/max/minmax/norm_inf: what the kernels' fmin/fmax leave does not depend on the
// order but in two places, which one pass also finds: data without a number (NaN, whatever
// NaN's bits: the result reads as the type's quiet NaN), and a smallest or largest value of
// zero where the data holds both +0 and -0 (which zero fmin(+0, -0) returns is the device's
// choice; those calls go to the device).
template <class A>
struct FloatScan {
    A lo = std::numeric_limits<A>::infinity();   // by `<` alone: NaN never compares
    A hi = -std::numeric_limits<A>::infinity();  // (of the magnitudes, for norm_inf)
    bool number = false, negative_zero = false, positive_zero = false;
    void merge(const FloatScan& o) {
        lo = o.lo < lo ? o.lo : lo;
        hi = hi < o.hi ? o.hi : hi;
        number = number || o.number;
        negative_zero = negative_zero || o.negative_zero;
        positive_zero = positive_zero || o.positive_zero;
    }
};

// A part's FloatScan in Bytes of lanes (GCC's vector extension; 64 or 32 as the host's vectors:
// host_vectors_512), flags as lane masks.
template <class A, bool Magnitude, std::size_t Bytes>
CLREDUCE_HOST_CLONES FloatScan<A> float_scan(const unsigned char* in, std::uint64_t n) {
    using I = std::conditional_t<sizeof(A) == 4, std::int32_t, std::int64_t>;
    constexpr std::size_t kWidth = Bytes / sizeof(A);
    typedef A Lanes __attribute__((vector_size(Bytes)));
    typedef I Masks __attribute__((vector_size(Bytes)));
    constexpr I kNoSign = std::numeric_limits<I>::max();
    Lanes l, h;
    Masks number{}, negative_zero{}, positive_zero{};
    for (std::size_t j = 0; j < kWidth; ++j) {
        l[j] = std::numeric_limits<A>::infinity();
        h[j] = -std::numeric_limits<A>::infinity();
    }
    std::uint64_t i = 0;
    for (; i + kWidth <= n; i += kWidth) {
        Masks bits;
        std::memcpy(&bits, in + i * sizeof(A), sizeof bits);
        if constexpr (Magnitude) bits &= kNoSign;
        Lanes x;
        std::memcpy(&x, &bits, sizeof x);
        l = x < l ? x : l;
        h = h < x ? x : h;
        number |= x == x;
        const Masks zero = x == A(0);
        negative_zero |= zero & (bits < 0);
        positive_zero |= zero & (bits >= 0);
    }
    FloatScan<A> r;
    for (std::size_t j = 0; j < kWidth; ++j) {
        r.lo = l[j] < r.lo ? l[j] : r.lo;
        r.hi = r.hi < h[j] ? h[j] : r.hi;
        r.number = r.number || number[j] != 0;
        r.negative_zero = r.negative_zero || negative_zero[j] != 0;
        r.positive_zero = r.positive_zero || positive_zero[j] != 0;
    }
    for (; i < n; ++i) {
        A x = load_at<A>(in, i);
        if constexpr (Magnitude) x = std::fabs(x);
        r.lo = x < r.lo ? x : r.lo;
        r.hi = r.hi < x ? x : r.hi;
        r.number = r.number || x == x;
        if (x == A(0)) (std::signbit(x) ? r.negative_zero : r.positive_zero) = true;
    }
    return r;
}

// The value fmin/fmax leave from a scan's extreme `v`; false where the device chooses.
template <class A>
bool settle(const FloatScan<A>& scan, A& v) {
    if (!scan.number) {
        v = std::numeric_limits<A>::quiet_NaN();
        return true;
    }
    if (v != A(0)) return true;
    if (scan.negative_zero && scan.positive_zero) return false;
    v = scan.negative_zero ? -A(0) : A(0);
    return true;
}

// The split of `count` elements of `bytes` each into parts.
struct Split {
    std::uint64_t count;
    std::size_t parts;
    std::uint64_t per_part;
    std::uint64_t begin(std::size_t k) const { return k * per_part; }
    std::uint64_t size(std::size_t k) const { return std::min(per_part, count - begin(k)); }
};
Split split(std::uint64_t count, std::size_t bytes) {
    const std::size_t parts = std::max<std::size_t>(1, host_parts(count, count * bytes));  // (1 for no elements)
    // Parts of whole blocks of the indexed operations, so that a part's blocks are the range's.
    const std::uint64_t per_part = (count / parts + kIndexBlock) / kIndexBlock * kIndexBlock;
    const std::uint64_t used = (count + per_part - 1) / per_part;
    return {count, static_cast<std::size_t>(used), per_part};
}

// Runs `part(begin, size)` -> R over the split's parts on the pool; the parts' results in order.
template <class R, class T, class F>
std::array<R, kMaxHostParts> run_parts(const Split& s, const unsigned char* data, F part) {
    std::array<R, kMaxHostParts> results{};
    auto each = [&](std::size_t k) { results[k] = part(data + s.begin(k) * sizeof(T), s.size(k), s.begin(k)); };
    parallel_for(s.parts, each);
    return results;
}

template <class V>
void store(unsigned char* state, const V& v) {
    std::memcpy(state, &v, sizeof v);
}

template <class T, ElementMap M>
void additive(const Split& s, const unsigned char* data, bool product, unsigned char* state) {
    std::uint64_t acc = product ? 1 : 0;
    if (product) {
        const auto r = run_parts<std::uint64_t, T>(s, data, [](const unsigned char* p, std::uint64_t n, std::uint64_t) {
            return fold<T, M, true>(p, n);
        });
        for (std::size_t k = 0; k < s.parts; ++k) acc *= r[k];
    } else {
        const auto r = run_parts<std::uint64_t, T>(s, data, [](const unsigned char* p, std::uint64_t n, std::uint64_t) {
            return fold<T, M, false>(p, n);
        });
        for (std::size_t k = 0; k < s.parts; ++k) acc += r[k];
    }
    store(state, acc);
}

template <class T, ElementMap M>
void wide_sum(const Split& s, const unsigned char* data, bool signed_terms, unsigned char* state) {
    const auto r =
        run_parts<unsigned __int128, T>(s, data,
                                        [signed_terms](const unsigned char* p, std::uint64_t n, std::uint64_t) {
        return signed_terms ? fold_wide<T, M, true>(p, n) : fold_wide<T, M, false>(p, n);
        });
    unsigned __int128 acc = 0;
    for (std::size_t k = 0; k < s.parts; ++k) acc += r[k];
    const std::uint64_t limbs[2] = {static_cast<std::uint64_t>(acc), static_cast<std::uint64_t>(acc >> 64)};
    store(state, limbs);
}

template <class T, class A, ElementMap M, Extreme E>
void extremes(const Split& s, const unsigned char* data, unsigned char* state) {
    const auto r = run_parts<A, T>(s, data, [](const unsigned char* p, std::uint64_t n, std::uint64_t) {
        return extreme<T, A, M, E>(p, n);
    });
    A acc = identity<E, A>();
    for (std::size_t k = 0; k < s.parts; ++k) acc = combine<E, A>(acc, r[k]);
    store(state, acc);
}

// argmin and argmax of the whole range: the parts' states combined in index order.
template <class T, class A>
std::array<Indexed<A>, 2> indexed(const Split& s, const unsigned char* data) {
    const auto r =
        run_parts<std::array<Indexed<A>, 2>, T>(s, data,
                                                [](const unsigned char* p, std::uint64_t n, std::uint64_t first) {
        return indexed_part<T, A>(p, n, first);
        });
    std::array<Indexed<A>, 2> acc;
    for (std::size_t k = 0; k < s.parts; ++k) {
        if (replaces<false>(acc[0], r[k][0])) acc[0] = r[k][0];
        if (replaces<true>(acc[1], r[k][1])) acc[1] = r[k][1];
    }
    return acc;
}

// Float min, max, minmax and norm_inf (FloatScan); false where the device must run the call.
template <class T>
bool float_extremes(const OpKernel& kernel, const Split& s, const unsigned char* data, unsigned char* state) {
    const bool magnitude = kernel.map == ElementMap::abs;
    const auto r =
        run_parts<FloatScan<T>, T>(s, data, [magnitude](const unsigned char* p, std::uint64_t n, std::uint64_t) {
            if (host_vectors_512()) return magnitude ? float_scan<T, true, 64>(p, n) : float_scan<T, false, 64>(p, n);
            return magnitude ? float_scan<T, true, 32>(p, n) : float_scan<T, false, 32>(p, n);
        });
    FloatScan<T> scan;
    for (std::size_t k = 0; k < s.parts; ++k) scan.merge(r[k]);
    std::array<T, 2> both{scan.lo, scan.hi};
    switch (kernel.op) {
        case KernelOp::min: return settle(scan, both[0]) && (store(state, both[0]), true);
        case KernelOp::max: return settle(scan, both[1]) && (store(state, both[1]), true);
        default: return settle(scan, both[0]) && settle(scan, both[1]) && (store(state, both), true);
    }
}

// Every operation of element type T the host runs without an order.
template <class T>
void reduce_typed(const LaunchPlan& plan, const OpKernel& kernel, const unsigned char* data, const Split& s,
                  unsigned char* state) {
    using A = std::conditional_t<std::is_integral_v<T>, T, std::conditional_t<sizeof(T) == 8, double, float>>;
    switch (kernel.op) {
        case KernelOp::argmin: return store(state, indexed<T, A>(s, data)[0]);
        case KernelOp::argmax: return store(state, indexed<T, A>(s, data)[1]);
        case KernelOp::argminmax: {  // two indexed states, lo then hi
            const auto both = indexed<T, A>(s, data);
            store(state, both[0]);
            store(state + sizeof both[0], both[1]);
            return;
        }
        default: break;
    }
    if constexpr (std::is_integral_v<T>) {
        switch (kernel.op) {
            case KernelOp::add:
            case KernelOp::multiply: {
                const bool product = kernel.op == KernelOp::multiply;
                switch (kernel.map) {
                    case ElementMap::identity: return additive<T, ElementMap::identity>(s, data, product, state);
                    case ElementMap::square: return additive<T, ElementMap::square>(s, data, product, state);
                    case ElementMap::abs: return additive<T, ElementMap::abs>(s, data, product, state);
                    case ElementMap::nonzero: return additive<T, ElementMap::nonzero>(s, data, product, state);
                    default: break;
                }
                break;
            }
            case KernelOp::add_int128: {
                const bool signed_terms = plan.accumulator == ElementType::int64;
                switch (kernel.map) {
                    case ElementMap::identity: return wide_sum<T, ElementMap::identity>(s, data, signed_terms, state);
                    case ElementMap::square: return wide_sum<T, ElementMap::square>(s, data, signed_terms, state);
                    case ElementMap::abs: return wide_sum<T, ElementMap::abs>(s, data, signed_terms, state);
                    default: break;
                }
                break;
            }
            case KernelOp::min: return extremes<T, T, ElementMap::identity, Extreme::min>(s, data, state);
            case KernelOp::max:
                if (kernel.map == ElementMap::abs)  // norm_inf: magnitudes in uint64
                    return extremes<T, std::uint64_t, ElementMap::abs, Extreme::max>(s, data, state);
                return extremes<T, T, ElementMap::identity, Extreme::max>(s, data, state);
            case KernelOp::minmax: {
                const auto r =
                    run_parts<std::array<T, 2>, T>(s, data, [](const unsigned char* p, std::uint64_t n, std::uint64_t) {
                        return both_extremes<T>(p, n);
                    });
                std::array<T, 2> acc{std::numeric_limits<T>::max(), std::numeric_limits<T>::lowest()};
                for (std::size_t k = 0; k < s.parts; ++k) {
                    acc[0] = std::min(acc[0], r[k][0]);
                    acc[1] = std::max(acc[1], r[k][1]);
                }
                store(state, acc);
                return;
            }
            case KernelOp::bit_and: return extremes<T, T, ElementMap::identity, Extreme::bit_and>(s, data, state);
            case KernelOp::bit_or: return extremes<T, T, ElementMap::identity, Extreme::bit_or>(s, data, state);
            case KernelOp::bit_xor: return extremes<T, T, ElementMap::identity, Extreme::bit_xor>(s, data, state);
            default: break;
        }
    } else if (kernel.op == KernelOp::add && kernel.map == ElementMap::nonzero) {
        return additive<T, ElementMap::nonzero>(s, data, false, state);
    }
    throw Error("internal: no order-free host pass for " + plan.describe());
}

bool is_integer(ElementType t) { return !is_floating(t); }

bool is_float_extreme(const OpKernel& kernel) {
    return kernel.op == KernelOp::min || kernel.op == KernelOp::max || kernel.op == KernelOp::minmax;
}

}  // namespace

bool order_free_on_host(const LaunchPlan& plan, const OpKernel& kernel) {
    if (plan.transform || kernel.map == ElementMap::transform || plan.element == ElementType::float16) return false;
    const bool integer = is_integer(plan.element);
    switch (kernel.op) {
        case KernelOp::argmin:
        case KernelOp::argmax:
        case KernelOp::argminmax: return plan.accumulator == plan.element;
        case KernelOp::add:
            // Counts of any type; integer sums in a plain 64-bit accumulator (not the wide
            // exact states of 64-bit data, kernel.op add_int128/add_int192).
            if (kernel.map == ElementMap::nonzero) return plan.accumulator == ElementType::uint64;
            return integer && (plan.accumulator == ElementType::int64 || plan.accumulator == ElementType::uint64);
        case KernelOp::multiply:
            return integer && (plan.accumulator == ElementType::int64 || plan.accumulator == ElementType::uint64);
        case KernelOp::add_int128:  // exact sums of 64-bit terms (not add_int192's 128-bit squares)
            return integer && plan.exact_integer_bits == 128 &&
                   (kernel.map == ElementMap::identity || kernel.map == ElementMap::square ||
                    kernel.map == ElementMap::abs) &&
                   (plan.accumulator == ElementType::int64 || plan.accumulator == ElementType::uint64);
        case KernelOp::max:
            if (kernel.map == ElementMap::abs)
                return integer ? plan.accumulator == ElementType::uint64 : plan.accumulator == plan.element;
            return plan.accumulator == plan.element;
        case KernelOp::min:
        case KernelOp::minmax: return plan.accumulator == plan.element;
        case KernelOp::bit_and:
        case KernelOp::bit_or:
        case KernelOp::bit_xor: return integer && plan.accumulator == plan.element;
        default: return false;
    }
}

// Runs run(T{}) for the plan's element type (element_type.hpp's visit_type); half never
// takes the host path (order_free_on_host).
template <class F>
void with_element(const LaunchPlan& plan, F&& run) {
    visit_type(plan.element, [&](auto tag) {
        if constexpr (std::is_same_v<decltype(tag), half>)
            throw Error("internal: no order-free host pass for " + plan.describe());
        else
            run(tag);
    });
}

bool reduce_order_free(const LaunchPlan& plan, const OpKernel& kernel, const unsigned char* data, std::uint64_t count,
                       unsigned char* state) {
    bool done = true;
    with_element(plan, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_floating_point_v<T>)
            if (is_float_extreme(kernel)) {
                done = float_extremes<T>(kernel, split(count, sizeof(T)), data, state);
                return;
            }
        reduce_typed<T>(plan, kernel, data, split(count, sizeof(T)), state);
    });
    return done;
}

bool segments_order_free_on_host(const LaunchPlan& plan, const OpKernel& kernel) {
    return order_free_on_host(plan, kernel) && !(is_floating(plan.element) && is_float_extreme(kernel));
}

void reduce_segments_order_free(const LaunchPlan& plan, const OpKernel& kernel, const unsigned char* data,
                                const HostSegments& segments, unsigned char* states, std::size_t state_bytes) {
    with_element(plan, [&](auto tag) {
        using T = decltype(tag);
        // Parts of whole segments, about as many bytes each as a range's parts (the last
        // segment's end bounds the data).
        const std::uint64_t bytes = segments.count == 0 ? 0 : segments.end(segments.count - 1) * sizeof(T);
        const std::uint64_t parts = host_parts(segments.count, bytes);
        const std::uint64_t per_part = parts == 0 ? 0 : (segments.count + parts - 1) / parts;
        auto part = [&](std::size_t k) {
            const std::uint64_t first = k * per_part, last = std::min(segments.count, first + per_part);
            for (std::uint64_t s = first; s < last; ++s) {
                const std::uint64_t b = segments.begin(s), n = segments.end(s) - b;
                // One segment on this thread: a split of one part (the part's own parallel_for
                // runs it in place).
                reduce_typed<T>(plan, kernel, data + b * sizeof(T), Split{n, 1, std::max<std::uint64_t>(n, 1)},
                                states + s * state_bytes);
            }
        };
        parallel_for(static_cast<std::size_t>(parts), part);
    });
}

void reduce_run_order_free(const LaunchPlan& plan, const OpKernel& kernel, const unsigned char* data,
                           std::uint64_t count, unsigned char* state) {
    with_element(plan, [&](auto tag) {
        using T = decltype(tag);
        reduce_typed<T>(plan, kernel, data, Split{count, 1, std::max<std::uint64_t>(count, 1)}, state);
    });
}

}  // namespace clreduce
