// Partial: made from a call's Outcome, merged (ops/state_merge.cpp), encoded as bytes, and
// turned into values by the same functions as a call's (operation_results.hpp).
#include <clreduce/partial.hpp>

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>

#include "api/instantiation_lists.hpp"
#include "api/operation_results.hpp"
#include "api/partial_access.hpp"
#include "api/partial_validation.hpp"
#include "ops/state_merge.hpp"

namespace clreduce {
namespace {

constexpr char kMagic[4] = {'C', 'L', 'R', 'P'};
// Version 1 numbers the enumerations as the headers of this version do (Operation,
// ElementType, FloatMode, IntegerOverflow, and the plug-ins and maps of ops/operation_table.hpp);
// a change of any of them is a new version.
constexpr std::uint16_t kFormatVersion = 1;
// magic, version, operation, element, accumulator, float mode, overflow, plug-in, map (u16 each
// after the magic), count (u64), state bytes (u32)
constexpr std::size_t kHeaderBytes = 4 + 8 * 2 + 8 + 4;

static_assert(sizeof(std::uint64_t) == 8, "64-bit counts");

// The header's numbers little-endian on every host; the state's bytes as the device wrote them
// (little-endian on the GPUs and CPUs clreduce runs on).
template <class V>
void put(std::vector<std::uint8_t>& out, V v) {
    for (std::size_t k = 0; k < sizeof(V); ++k) out.push_back(static_cast<std::uint8_t>(std::uint64_t(v) >> (8 * k)));
}
template <class V>
V get(const std::uint8_t* p) {
    std::uint64_t v = 0;
    for (std::size_t k = 0; k < sizeof(V); ++k) v |= std::uint64_t(p[k]) << (8 * k);
    return static_cast<V>(v);
}

// Whether an additive integer state must stay exact when merged (as a call keeps it exact):
// under IntegerOverflow::check, and always for the results that are real numbers.
bool exact_integer(const Outcome& out) {
    return out.view().integer_sum() &&
           (out.plan.exact_integer_bits != 0 || out.plan.overflow == IntegerOverflow::check ||
            operation_info(out.plan.operation).real_result);
}

template <class T>
const Outcome& checked(const Outcome& out, const Partial& p, Operation op) {
    if (p.empty()) throw InvalidArgument("a Partial of nothing has no " + std::string(operation_name(op)));
    if (p.operation() != op)
        throw InvalidArgument("a Partial of " + std::string(operation_name(p.operation())) + " has no " +
                              std::string(operation_name(op)));
    if (p.element() != element_traits<T>::type)
        throw InvalidArgument("a Partial of " + std::string(type_name(p.element())) + " data read as " +
                              std::string(type_name(element_traits<T>::type)));
    return out;
}

}  // namespace

Partial PartialAccess::make(const Outcome& out) {
    Partial p;
    p.operation_ = out.plan.operation;
    p.element_ = out.plan.element;
    p.accumulator_ = out.plan.accumulator;
    p.float_mode_ = out.plan.float_mode;
    p.overflow_ = out.plan.overflow;
    p.map_ = static_cast<std::uint32_t>(out.kernel.map);
    p.count_ = out.count;
    if (exact_integer(out)) {
        p.plugin_ = static_cast<std::uint32_t>(KernelOp::add_int192);
        p.state_.assign(24, 0);
        if (out.count > 0) {
            const int limbs = wide_limbs(plugin_info(out.kernel.op).layout);
            if (limbs != 0) {
                add_int192(p.state_.data(), out.bits, limbs, true);
            } else {  // one accumulator of 4 or 8 bytes, widened to a 64-bit limb
                const ExactInteger v = state_integer(out.kernel.op, out.plan.accumulator, out.bits);
                const std::int64_t limb = v.negative() ? *v.to_int64() : static_cast<std::int64_t>(*v.to_uint64());
                add_int192(p.state_.data(), reinterpret_cast<const unsigned char*>(&limb), 1, v.negative());
            }
        }
        return p;
    }
    p.plugin_ = static_cast<std::uint32_t>(out.kernel.op);
    p.state_.assign(out.bits, out.bits + state_size(out.kernel.op, out.plan.accumulator));
    return p;
}

Outcome PartialAccess::outcome(const Partial& p) {
    Outcome out;
    out.plan.operation = p.operation_;
    out.plan.element = p.element_;
    out.plan.accumulator = p.accumulator_;
    out.plan.float_mode = p.float_mode_;
    out.plan.overflow = p.overflow_;
    out.kernel.op = static_cast<KernelOp>(p.plugin_);
    out.kernel.map = static_cast<ElementMap>(p.map_);
    const int limbs = wide_limbs(plugin_info(out.kernel.op).layout);
    out.plan.exact_integer_bits = static_cast<std::uint32_t>(64 * limbs);
    out.count = p.count_;
    std::copy(p.state_.begin(), p.state_.end(), out.bits);
    return out;
}

void Partial::merge(const Partial& later) {
    if (later.empty()) return;
    if (empty()) {
        *this = later;
        return;
    }
    const auto differ = [](const char* what, std::string_view a, std::string_view b) {
        throw InvalidArgument(std::string("partials of different ") + what + " do not merge: " + std::string(a) +
                              " and " + std::string(b));
    };
    if (operation_ != later.operation_)
        differ("operations", operation_name(operation_), operation_name(later.operation_));
    if (element_ != later.element_) differ("element types", type_name(element_), type_name(later.element_));
    if (float_mode_ != later.float_mode_) differ("float modes", to_string(float_mode_), to_string(later.float_mode_));
    if (overflow_ != later.overflow_) differ("overflow rules", to_string(overflow_), to_string(later.overflow_));
    if (accumulator_ != later.accumulator_ || plugin_ != later.plugin_ || map_ != later.map_ ||
        state_.size() != later.state_.size())
        differ("accumulators", type_name(accumulator_), type_name(later.accumulator_));
    if (later.count_ == 0) return;  // its state is no identity: nothing was reduced
    if (later.count_ > std::numeric_limits<std::uint64_t>::max() - count_)
        throw InvalidArgument("partials of " + std::to_string(count_) + " and " + std::to_string(later.count_) +
                              " elements do not merge: together more than 2^64 - 1");
    if (count_ == 0) {
        state_ = later.state_;
        count_ = later.count_;
        return;
    }
    const auto op = static_cast<KernelOp>(plugin_);
    if (op == KernelOp::add_int192)
        add_int192(state_.data(), later.state_.data(), 3, true);
    else
        merge_state(op, accumulator_, state_.data(), later.state_.data(), count_);
    count_ += later.count_;
}

std::size_t Partial::encoded_size(std::size_t state_bytes) { return kHeaderBytes + state_bytes; }

std::vector<std::uint8_t> Partial::to_bytes() const {
    std::vector<std::uint8_t> out(kMagic, kMagic + 4);
    out.reserve(encoded_size(state_.size()));
    put(out, kFormatVersion);
    put(out, static_cast<std::uint16_t>(operation_));
    put(out, static_cast<std::uint16_t>(element_));
    put(out, static_cast<std::uint16_t>(accumulator_));
    put(out, static_cast<std::uint16_t>(float_mode_));
    put(out, static_cast<std::uint16_t>(overflow_));
    put(out, static_cast<std::uint16_t>(plugin_));
    put(out, static_cast<std::uint16_t>(map_));
    put(out, count_);
    put(out, static_cast<std::uint32_t>(state_.size()));
    out.insert(out.end(), state_.begin(), state_.end());
    return out;
}

Partial Partial::from_bytes(const std::uint8_t* bytes, std::size_t size) {
    const auto bad = [](const std::string& why) { throw InvalidArgument("not a clreduce Partial: " + why); };
    if (bytes == nullptr || size < kHeaderBytes) bad(std::to_string(size) + " bytes, fewer than its header's");
    if (std::memcmp(bytes, kMagic, 4) != 0) bad("no \"CLRP\" at its start");
    if (get<std::uint16_t>(bytes + 4) != kFormatVersion)
        bad("format version " + std::to_string(get<std::uint16_t>(bytes + 4)) + ", this library reads version " +
            std::to_string(kFormatVersion));
    Partial p;
    const auto field = [&](int k) { return get<std::uint16_t>(bytes + 6 + 2 * k); };
    const std::uint16_t op = field(0), element = field(1), accumulator = field(2), mode = field(3), overflow = field(4),
                        plugin = field(5), map = field(6);
    if (op > static_cast<std::uint16_t>(Operation::statistics)) bad("operation " + std::to_string(op));
    if (element > static_cast<std::uint16_t>(ElementType::float16)) bad("element type " + std::to_string(element));
    if (accumulator > static_cast<std::uint16_t>(ElementType::float16))
        bad("accumulator " + std::to_string(accumulator));
    if (mode > static_cast<std::uint16_t>(FloatMode::correctly_rounded)) bad("float mode " + std::to_string(mode));
    if (overflow > static_cast<std::uint16_t>(IntegerOverflow::wrap)) bad("overflow rule " + std::to_string(overflow));
    if (plugin > static_cast<std::uint16_t>(KernelOp::moments)) bad("plug-in " + std::to_string(plugin));
    if (map > static_cast<std::uint16_t>(ElementMap::transform)) bad("element map " + std::to_string(map));
    p.operation_ = static_cast<Operation>(op);
    p.element_ = static_cast<ElementType>(element);
    p.accumulator_ = static_cast<ElementType>(accumulator);
    p.float_mode_ = static_cast<FloatMode>(mode);
    p.overflow_ = static_cast<IntegerOverflow>(overflow);
    p.plugin_ = plugin;
    p.map_ = map;
    p.count_ = get<std::uint64_t>(bytes + 4 + 8 * 2);
    const std::uint32_t state_bytes = get<std::uint32_t>(bytes + 4 + 8 * 2 + 8);
    const KernelOp kernel = static_cast<KernelOp>(plugin);
    // Only the states a Partial holds: its operation's plug-in and map under its float mode and
    // accumulator (integer sums widened to add_int192), in an accumulator that plug-in takes.
    if (p.accumulator_ == ElementType::float16) bad("a half accumulator");
    const OpKernel expected = op_kernel(p.operation_, p.float_mode_, p.accumulator_);
    const bool widened = kernel == KernelOp::add_int192 && expected.op == KernelOp::add && !is_floating(p.accumulator_);
    if (kernel != expected.op && !widened)
        bad("plug-in " + std::to_string(plugin) + " for " + std::string(operation_name(p.operation_)));
    if (static_cast<ElementMap>(map) != expected.map) bad("element map " + std::to_string(map));
    // Operations that compare or count keep the accumulator their rule gives (no device
    // changes it): the extremes are decoded as element values.
    const AccumulatorRule rule = operation_info(p.operation_).accumulator;
    if ((rule == AccumulatorRule::compare || rule == AccumulatorRule::magnitude || rule == AccumulatorRule::count) &&
        p.accumulator_ != default_accumulator(p.operation_, p.element_, DeviceInfo{}))
        bad("a " + std::string(type_name(p.accumulator_)) + " accumulator for " +
            std::string(operation_name(p.operation_)) + " of " + std::string(type_name(p.element_)));
    const StateLayout layout = plugin_info(kernel).layout;
    const bool floating_only =
        layout == StateLayout::exact || layout == StateLayout::compensated || layout == StateLayout::moments;
    if (floating_only && !is_floating(p.accumulator_))
        bad("an integer accumulator for plug-in " + std::to_string(plugin));
    // A Partial of nothing (Partial(), empty()) has no state, and decodes as one.
    if (state_bytes == 0 && p.count_ == 0 && size == kHeaderBytes) return Partial();
    const std::size_t want = kernel == KernelOp::add_int192 ? 24 : state_size(kernel, p.accumulator_);
    if (state_bytes != want)
        bad("a state of " + std::to_string(state_bytes) + " bytes where its plug-in's has " + std::to_string(want));
    if (size != kHeaderBytes + state_bytes)
        bad(std::to_string(size) + " bytes where its header and state take " +
            std::to_string(kHeaderBytes + state_bytes));
    const std::string fault =
        partial_state_fault(p.operation_, p.element_, p.accumulator_, kernel, static_cast<ElementMap>(map), p.count_,
                            bytes + kHeaderBytes, state_bytes);
    if (!fault.empty()) bad("a " + fault);
    p.state_.assign(bytes + kHeaderBytes, bytes + size);
    return p;
}

#define CLREDUCE_PARTIAL_RESULT(R, NAME, OP)                 \
    template <class T>                                       \
    R Partial::NAME() const {                                \
        const Outcome out = PartialAccess::outcome(*this);   \
        return NAME##_result<T>(checked<T>(out, *this, OP)); \
    }
CLREDUCE_FOR_EACH_VALUE_OPERATION(CLREDUCE_PARTIAL_RESULT)
#undef CLREDUCE_PARTIAL_RESULT

template <class T>
ArgResult<T> Partial::argmin() const {
    const Outcome out = PartialAccess::outcome(*this);
    return arg_result<T>(checked<T>(out, *this, Operation::argmin));
}
template <class T>
ArgResult<T> Partial::argmax() const {
    const Outcome out = PartialAccess::outcome(*this);
    return arg_result<T>(checked<T>(out, *this, Operation::argmax));
}

#define CLREDUCE_INSTANTIATE(T)                                  \
    template sum_type_t<T> Partial::sum<T>() const;              \
    template sum_type_t<T> Partial::product<T>() const;          \
    template T Partial::min<T>() const;                          \
    template T Partial::max<T>() const;                          \
    template MinMax<T> Partial::minmax<T>() const;               \
    template ArgResult<T> Partial::argmin<T>() const;            \
    template ArgResult<T> Partial::argmax<T>() const;            \
    template std::uint64_t Partial::count_nonzero<T>() const;    \
    template double Partial::mean<T>() const;                    \
    template square_sum_t<T> Partial::sum_of_squares<T>() const; \
    template double Partial::norm_l1<T>() const;                 \
    template double Partial::norm_l2<T>() const;                 \
    template double Partial::norm_inf<T>() const;                \
    template Statistics<T> Partial::statistics<T>() const;
CLREDUCE_FOR_EACH_ELEMENT_TYPE(CLREDUCE_INSTANTIATE)
#undef CLREDUCE_INSTANTIATE

}  // namespace clreduce
