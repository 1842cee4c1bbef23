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
#include "api/partial_ids.hpp"
#include "api/partial_validation.hpp"
#include "ops/state_merge.hpp"

namespace clreduce {
namespace {

constexpr char kMagic[4] = {'C', 'L', 'R', 'P'};
// Versions 2 to 4 number the enumerations by the fixed tables of partial_ids.hpp and name the
// state's layout (3 adds argminmax); version 4 ends with a CRC-32C of every byte before it.
// Versions 1 (no layout field) to 3 (no checksum) are read, not written.
using partial_ids::kFormatVersion;
// magic, version, operation, element, accumulator, float mode, overflow, plug-in, map, layout
// (u16 each after the magic; version 1 without the layout), count (u64), state bytes (u32)
constexpr std::size_t header_bytes(std::uint16_t version) { return 4 + (version == 1 ? 8 : 9) * 2 + 8 + 4; }
constexpr std::size_t kHeaderBytes = header_bytes(kFormatVersion);
// The checksum after the state, from version 4 on.
constexpr std::uint16_t kFirstChecksumVersion = 4;
constexpr std::size_t checksum_bytes(std::uint16_t version) { return version >= kFirstChecksumVersion ? 4 : 0; }
static_assert(kFormatVersion >= kFirstChecksumVersion, "the written version has its checksum");

// CRC-32C (Castagnoli: reflected polynomial 0x82f63b78, initial value and final xor all ones,
// as iSCSI, ext4 and SSE 4.2's crc32 instruction compute it; "123456789" gives 0xe3069283).
// It finds every change of one or two bits in a record and every burst of up to 32 bits
// (tests/device/test_partial_validation.cpp flips them all); other changes pass with a chance
// of 2^-32.
struct Crc32cTable {
    std::uint32_t entry[256];
    constexpr Crc32cTable() : entry() {
        for (std::uint32_t k = 0; k < 256; ++k) {
            std::uint32_t c = k;
            for (int bit = 0; bit < 8; ++bit) c = (c >> 1) ^ (0x82f63b78u & (0u - (c & 1u)));
            entry[k] = c;
        }
    }
};
constexpr Crc32cTable kCrc32c;

std::uint32_t crc32c(const std::uint8_t* bytes, std::size_t size) {
    std::uint32_t c = 0xffffffffu;
    for (std::size_t k = 0; k < size; ++k) c = (c >> 8) ^ kCrc32c.entry[(c ^ bytes[k]) & 0xffu];
    return c ^ 0xffffffffu;
}

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

std::string hex32(std::uint32_t v) {
    static const char digits[] = "0123456789abcdef";
    std::string s = "0x";
    for (int shift = 28; shift >= 0; shift -= 4) s += digits[(v >> shift) & 0xfu];
    return s;
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
    // An indexed state's accumulator may not fill its 8 bytes: the padding the kernel leaves
    // unwritten is zeroed, so that equal partials are equal bytes.
    const StateLayout layout = plugin_info(out.kernel.op).layout;
    if (layout == StateLayout::indexed || layout == StateLayout::indexed_pair)
        for (std::size_t at = 0; at < p.state_.size(); at += kIndexedStateSize)
            std::fill(p.state_.begin() + static_cast<std::ptrdiff_t>(at + 8 + type_size(out.plan.accumulator)),
                      p.state_.begin() + static_cast<std::ptrdiff_t>(at + kIndexedStateSize), std::uint8_t{0});
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
        merge_state(op, element_, accumulator_, state_.data(), later.state_.data(), count_);
    count_ += later.count_;
}

std::size_t Partial::encoded_size(std::size_t state_bytes) {
    return kHeaderBytes + state_bytes + checksum_bytes(kFormatVersion);
}

std::vector<std::uint8_t> Partial::to_bytes() const {
    using namespace partial_ids;
    std::vector<std::uint8_t> out(kMagic, kMagic + 4);
    out.reserve(encoded_size(state_.size()));
    put(out, kFormatVersion);
    put(out, number_of(kOperations, operation_));
    put(out, number_of(kElementTypes, element_));
    put(out, number_of(kElementTypes, accumulator_));
    put(out, number_of(kFloatModes, float_mode_));
    put(out, number_of(kOverflowRules, overflow_));
    put(out, number_of(kPlugins, static_cast<KernelOp>(plugin_)));
    put(out, number_of(kMaps, static_cast<ElementMap>(map_)));
    put(out, number_of(kLayouts, plugin_info(static_cast<KernelOp>(plugin_)).layout));
    put(out, count_);
    put(out, static_cast<std::uint32_t>(state_.size()));
    out.insert(out.end(), state_.begin(), state_.end());
    put(out, crc32c(out.data(), out.size()));
    return out;
}

Partial Partial::from_bytes(const std::uint8_t* bytes, std::size_t size) {
    using namespace partial_ids;
    const auto bad = [](const std::string& why) { throw InvalidArgument("not a clreduce Partial: " + why); };
    if (bytes == nullptr || size < header_bytes(1)) bad(std::to_string(size) + " bytes, fewer than its header's");
    if (std::memcmp(bytes, kMagic, 4) != 0) bad("no \"CLRP\" at its start");
    const std::uint16_t version = get<std::uint16_t>(bytes + 4);
    if (version < 1 || version > kFormatVersion)
        bad("format version " + std::to_string(version) + ", this library reads versions 1 to " +
            std::to_string(kFormatVersion));
    const std::size_t header = header_bytes(version);
    const std::size_t trailer = checksum_bytes(version);
    if (size < header + trailer)
        bad(std::to_string(size) + " bytes, fewer than its header's" + (trailer != 0 ? " and checksum's" : ""));
    // The checksum first: a record changed on its way (flipped bits, a lost or added byte; which
    // changes it always finds: crc32c above) is refused as such, whichever field the change fell
    // on.
    if (trailer != 0) {
        const std::uint32_t stored = get<std::uint32_t>(bytes + size - trailer);
        const std::uint32_t computed = crc32c(bytes, size - trailer);
        if (stored != computed)
            bad("its CRC-32C checksum is " + hex32(stored) + " where its bytes give " + hex32(computed) +
                " (a record changed or cut short on its way)");
    }
    Partial p;
    const auto field = [&](int k) { return get<std::uint16_t>(bytes + 6 + 2 * k); };
    const auto decode = [&](const auto& table, int k, const char* what) {
        const auto value = value_of(table, field(k), version);
        if (!value) bad(std::string(what) + " " + std::to_string(field(k)));
        return *value;
    };
    p.operation_ = decode(kOperations, 0, "operation");
    p.element_ = decode(kElementTypes, 1, "element type");
    p.accumulator_ = decode(kElementTypes, 2, "accumulator");
    p.float_mode_ = decode(kFloatModes, 3, "float mode");
    p.overflow_ = decode(kOverflowRules, 4, "overflow rule");
    const KernelOp kernel = decode(kPlugins, 5, "plug-in");
    const ElementMap element_map = decode(kMaps, 6, "element map");
    const std::uint16_t plugin = field(5);
    p.plugin_ = static_cast<std::uint32_t>(kernel);
    p.map_ = static_cast<std::uint32_t>(element_map);
    if (version >= 2 && decode(kLayouts, 7, "state layout") != plugin_info(kernel).layout)
        bad("state layout " + std::to_string(field(7)) + " for plug-in " + std::to_string(plugin));
    const std::size_t at = header - 12;  // the count, then the state's bytes
    p.count_ = get<std::uint64_t>(bytes + at);
    const std::uint32_t state_bytes = get<std::uint32_t>(bytes + at + 8);
    // Only the states a Partial holds: its operation's plug-in and map under its float mode and
    // accumulator (integer sums widened to add_int192), in an accumulator that plug-in takes.
    if (p.accumulator_ == ElementType::float16) bad("a half accumulator");
    if (operation_info(p.operation_).integer_only && is_floating(p.element_))
        bad(std::string(operation_name(p.operation_)) + " of " + std::string(type_name(p.element_)) + " data");
    const OpKernel expected = op_kernel(p.operation_, p.float_mode_, p.accumulator_);
    const bool widened = kernel == KernelOp::add_int192 && expected.op == KernelOp::add && !is_floating(p.accumulator_);
    if (kernel != expected.op && !widened)
        bad("plug-in " + std::to_string(plugin) + " for " + std::string(operation_name(p.operation_)));
    if (element_map != expected.map) bad("element map " + std::to_string(field(6)));
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
    // A Partial of nothing (Partial(), empty()) has no state and is written with a default
    // Partial's fields; other fields around no state are no partial this library writes (they
    // would decode to nothing and encode to other bytes).
    if (state_bytes == 0 && p.count_ == 0 && size == header + trailer) {
        const Partial nothing;
        if (p.operation_ != nothing.operation_ || p.element_ != nothing.element_ ||
            p.accumulator_ != nothing.accumulator_ || p.float_mode_ != nothing.float_mode_ ||
            p.overflow_ != nothing.overflow_ || p.plugin_ != nothing.plugin_ || p.map_ != nothing.map_)
            bad("no state, with the fields of a " + std::string(operation_name(p.operation_)) + " of " +
                std::string(type_name(p.element_)) + " (a Partial of nothing has a default Partial's)");
        return nothing;
    }
    const std::size_t want = kernel == KernelOp::add_int192 ? 24 : state_size(kernel, p.accumulator_);
    if (state_bytes != want)
        bad("a state of " + std::to_string(state_bytes) + " bytes where its plug-in's has " + std::to_string(want));
    if (size != header + state_bytes + trailer)
        bad(std::to_string(size) + " bytes where its header" + (trailer != 0 ? ", state and checksum" : " and state") +
            " take " + std::to_string(header + state_bytes + trailer));
    std::vector<std::uint8_t> state(bytes + header, bytes + header + state_bytes);
    if (version < kFirstChecksumVersion) {  // the layouts of version 4 changed nothing else
        const std::string old = upgrade_moments_extremes(p.element_, p.accumulator_, kernel, p.count_, state.data());
        if (!old.empty()) bad("a " + old);
    }
    const std::string fault = partial_state_fault(p.operation_, p.element_, p.accumulator_, kernel, element_map,
                                                  p.count_, state.data(), state_bytes);
    if (!fault.empty()) bad("a " + fault);
    p.state_ = std::move(state);
    return p;
}

template <Operation Op, class T>
result_t<Op, T> Partial::value() const {
    const Outcome out = PartialAccess::outcome(*this);
    return operation_value<Op, T>(checked<T>(out, *this, Op));
}

#define CLREDUCE_INSTANTIATE_VALUE(T, NAME, R) template R Partial::value<Operation::NAME, T>() const;
#define CLREDUCE_INSTANTIATE(T) CLREDUCE_OPERATIONS(CLREDUCE_INSTANTIATE_VALUE, T)
CLREDUCE_FOR_EACH_ELEMENT_TYPE(CLREDUCE_INSTANTIATE)
#undef CLREDUCE_INSTANTIATE
#undef CLREDUCE_INSTANTIATE_VALUE

}  // namespace clreduce
