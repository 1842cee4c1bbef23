#pragma once
// A reduction's partial result: the final state of one range, before the host turns it into
// the value (Reducer::partial). Partials of consecutive ranges merge into the partial of the
// whole, on any host and in any program, and then give the same value a call over the whole
// range would: integers exact, correctly rounded sums the same bits whatever the split,
// argmin/argmax the index in the whole, deterministic float sums the same bits for the same
// split. MultiReducer (several devices) and clreduce::mpi (many processes) are built on it;
// users with their own communication send to_bytes() and merge on arrival.
#include <cstdint>
#include <vector>

#include <clreduce/element_type.hpp>
#include <clreduce/launch_params.hpp>
#include <clreduce/operation.hpp>
#include <clreduce/operation_result.hpp>
#include <clreduce/results.hpp>

namespace clreduce {

class Partial {
public:
    Partial() = default;  // of nothing; merges as the identity and gives no result

    Operation operation() const { return operation_; }
    ElementType element() const { return element_; }
    ElementType accumulator() const { return accumulator_; }
    FloatMode float_mode() const { return float_mode_; }
    // Elements it covers.
    std::uint64_t count() const { return count_; }
    // Whether it is a Partial of nothing (default-constructed): no operation, no result. A
    // Partial of an empty range is not empty(): it is its operation's, with count() 0, and gives
    // that operation's result for no elements.
    bool empty() const { return state_.empty(); }

    // This partial becomes that of this range followed by `later`'s (argmin/argmax indices of
    // `later` move up by count()). Both must come from the same operation, element type, float
    // mode and accumulator (InvalidArgument otherwise), a Partial of an empty range too (it adds
    // nothing); only a Partial of nothing (empty()) merges with any partial, as nothing.
    // Not commutative for argmin/argmax ties and for float sums' last bits: merge in the data's
    // order.
    void merge(const Partial& later);

    // A self-describing byte string (docs/usage.md, "Several devices and many processes"):
    // "CLRP", format version 4, the fields above, the integer overflow rule and the state, then
    // a CRC-32C of all the bytes before it; every number little-endian. from_bytes() reads
    // versions 1 to 4 (1 to 3 have no checksum), checks all of it and throws InvalidArgument
    // naming what is wrong: a checksum that does not match (a record changed on its way), a
    // field, or a state that no reduction of its operation leaves (an index past the count,
    // say). A Partial of nothing round-trips.
    std::vector<std::uint8_t> to_bytes() const;
    static Partial from_bytes(const std::uint8_t* bytes, std::size_t size);
    // Bytes of to_bytes() for a state of `state_bytes` (all partials of one plan are one size),
    // the checksum included.
    static std::size_t encoded_size(std::size_t state_bytes);

    // The value, as the Reducer call of the partial's operation on the whole range returns it
    // (its errors too: an empty range of min, an overflow under IntegerOverflow::check). T must
    // be the element type, and Op the partial's operation (InvalidArgument otherwise).
    template <Operation Op, class T>
    result_t<Op, T> value() const;
    // The same by name: sum<T>() is value<Operation::sum, T>(), and so on for every operation.
#define CLREDUCE_PARTIAL_VALUE(T_, NAME, R)     \
    template <class T>                          \
    result_t<Operation::NAME, T> NAME() const { \
        return value<Operation::NAME, T>();     \
    }
    CLREDUCE_OPERATIONS(CLREDUCE_PARTIAL_VALUE, T)
#undef CLREDUCE_PARTIAL_VALUE

private:
    friend struct PartialAccess;  // src/api/partial_access.hpp: made by the reducer, read by the results

    Operation operation_ = Operation::sum;
    ElementType element_ = ElementType::int32;
    ElementType accumulator_ = ElementType::int64;
    FloatMode float_mode_ = FloatMode::deterministic;
    IntegerOverflow overflow_ = IntegerOverflow::check;
    std::uint32_t plugin_ = 0;  // the kernel plug-in whose layout `state_` has
    std::uint32_t map_ = 0;     // its element map
    std::uint64_t count_ = 0;
    std::vector<std::uint8_t> state_;
};

}  // namespace clreduce
