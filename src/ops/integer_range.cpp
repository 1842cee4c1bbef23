#include "ops/integer_range.hpp"

#include <string>

#include <clreduce/error.hpp>

namespace clreduce {
namespace {

using Wide = unsigned __int128;

// The largest magnitude of an integer type's values: 2^(bits-1) signed, 2^bits - 1 unsigned.
Wide largest_magnitude(ElementType type) {
    const int bits = 8 * static_cast<int>(type_size(type));
    return is_signed(type) ? Wide(1) << (bits - 1) : (Wide(1) << bits) - 1;
}

// The largest sum an accumulator holds: 2^(bits-1) - 1 signed, 2^bits - 1 unsigned.
Wide capacity(ElementType accumulator) {
    const int bits = 8 * static_cast<int>(type_size(accumulator));
    return is_signed(accumulator) ? (Wide(1) << (bits - 1)) - 1 : (Wide(1) << bits) - 1;
}

// The largest magnitude of one element's term under the map.
Wide largest_term(ElementMap map, ElementType element, ElementType accumulator) {
    if (map == ElementMap::transform) return largest_magnitude(accumulator);
    const Wide x = largest_magnitude(element);
    if (map != ElementMap::square) return x;
    // A 64-bit value's square needs 128 bits: cap it there (its sum is exact in 192 bits anyway).
    return x > (Wide(1) << 64) - 1 ? ~Wide(0) : x * x;
}

// Whether the accumulator holds every term exactly: negative ones need a signed accumulator.
bool holds_terms(ElementMap map, ElementType element, ElementType accumulator) {
    if (map == ElementMap::transform) return true;  // the expression is evaluated in it
    const bool negative_terms = map == ElementMap::identity && is_signed(element);
    if (negative_terms && !is_signed(accumulator)) return false;
    const Wide term = largest_term(map, element, accumulator);
    // A signed accumulator holds -2^(bits-1) too, the most negative identity term.
    return negative_terms ? term <= capacity(accumulator) + 1 : term <= capacity(accumulator);
}

}  // namespace

IntegerState plan_integer_state(Operation op, ElementMap map, ElementType element, ElementType accumulator,
                                std::uint64_t n, IntegerOverflow rule, bool named) {
    const OperationInfo& row = operation_info(op);
    IntegerState state{accumulator, 0};
    if (row.family != OperationFamily::additive || is_floating(accumulator) || map == ElementMap::nonzero)
        return state;  // counts cannot overflow a uint64; products wrap; floats round
    const bool exact = rule == IntegerOverflow::check || row.real_result;
    if (!exact) return state;
    if (named && !holds_terms(map, element, accumulator))
        throw InvalidArgument("a " + std::string(type_name(accumulator)) + " accumulator cannot hold every " +
                              std::string(operation_name(op)) + " term of " + std::string(type_name(element)) +
                              " data exactly; name a wider (signed, for signed data) one" +
                              (row.real_result ? std::string()
                                               : ", or set LaunchParams::overflow = IntegerOverflow::wrap for "
                                                 "arithmetic modulo 2^" +
                                                     std::to_string(8 * type_size(accumulator))));
    const Wide term = largest_term(map, element, accumulator);
    const Wide room = capacity(accumulator);
    if (term == 0 || (term <= room && Wide(n) <= room / term)) return state;  // cannot overflow
    // Squares of 64-bit data are 128-bit terms: their sum needs 192 bits.
    const bool squares64 = map == ElementMap::square && type_size(element) == 8;
    state.exact_bits = squares64 ? 192 : 128;
    const bool signed_terms =
        (map == ElementMap::identity && is_signed(element)) || (map == ElementMap::transform && is_signed(accumulator));
    state.accumulator = signed_terms ? ElementType::int64 : ElementType::uint64;
    return state;
}

KernelOp exact_integer_plugin(std::uint32_t bits) { return bits == 192 ? KernelOp::add_int192 : KernelOp::add_int128; }

}  // namespace clreduce
