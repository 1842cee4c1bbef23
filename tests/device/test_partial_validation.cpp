// Partial::from_bytes against corrupted records and states no reduction leaves: every single
// and every double bit flip of a record refused by its checksum (api/partial.cpp); each kind of
// inconsistent state refused by name, and random byte mutations of real partials of every
// operation, their checksum written again, either refused or decoded into a partial that keeps
// its invariants (an index within the count, the statistics' count the header's, a minimum not
// above its maximum, a count of nonzero elements within the count;
// api/partial_validation.cpp). Also the Partial of nothing against the Partial of an empty
// range (partial.hpp).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "partial_checksum.hpp"
#include "partial_outcome.hpp"
#include "test_ops_support.hpp"

namespace clreduce::test {
namespace {

// The header's element count: the 12 bytes before the state are the count and the state's size.
const std::size_t kCountAt = partial_count_at();

std::size_t state_at() { return partial_state_at(); }

// A value written into a record, its checksum written again: the field itself is refused.
template <class V>
void put(std::vector<std::uint8_t>& bytes, std::size_t at, V v) {
    std::memcpy(bytes.data() + at, &v, sizeof v);
    reseal(bytes);
}

Partial decode(const std::vector<std::uint8_t>& bytes) { return Partial::from_bytes(bytes.data(), bytes.size()); }

const std::vector<Operation> kOperations{
    Operation::sum,     Operation::product, Operation::min,           Operation::max,       Operation::minmax,
    Operation::argmin,  Operation::argmax,  Operation::count_nonzero, Operation::mean,      Operation::sum_of_squares,
    Operation::norm_l1, Operation::norm_l2, Operation::norm_inf,      Operation::statistics};

// What every partial of these types must keep, read through the public results; an empty
// range's extremes are refused and a sum may overflow, as the call's.
template <class T>
void check_invariants(const Partial& p) {
    const bool none = p.count() == 0;  // the extremes, indices and statistics of nothing are refused
    switch (p.operation()) {
        case Operation::argmin:
            if (none)
                CHECK_THROWS_AS(p.argmin<T>(), InvalidArgument);
            else
                CHECK(p.argmin<T>().index < p.count());
            break;
        case Operation::argmax:
            if (none)
                CHECK_THROWS_AS(p.argmax<T>(), InvalidArgument);
            else
                CHECK(p.argmax<T>().index < p.count());
            break;
        case Operation::minmax:
            if (none) {
                CHECK_THROWS_AS(p.minmax<T>(), InvalidArgument);
            } else {
                const MinMax<T> m = p.minmax<T>();
                CHECK_FALSE(m.min > m.max);
            }
            break;
        case Operation::statistics:
            if (none) {
                CHECK_THROWS_AS(p.statistics<T>(), InvalidArgument);
            } else {
                const Statistics<T> s = p.statistics<T>();
                CHECK(s.count == p.count());
                CHECK_FALSE(s.min > s.max);
            }
            break;
        case Operation::count_nonzero: CHECK(p.count_nonzero<T>() <= p.count()); break;
        case Operation::sum:  // exact, or Overflow as the call's
            try {
                (void)p.sum<T>();
            } catch (const Overflow&) {
            }
            break;
        default: break;
    }
}

void check_invariants(const Partial& p) {
    switch (p.element()) {
        case ElementType::int32: check_invariants<std::int32_t>(p); break;
        case ElementType::uint8: check_invariants<std::uint8_t>(p); break;
        case ElementType::int64: check_invariants<std::int64_t>(p); break;
        case ElementType::float32: check_invariants<float>(p); break;
        default: break;
    }
}

// What from_bytes says of a record: "" where it decodes, else its message.
std::string refusal_of(const std::vector<std::uint8_t>& bytes) {
    try {
        decode(bytes);
    } catch (const InvalidArgument& e) {
        return e.what();
    }
    return "";
}

// The reason a record changed at byte `at` must be refused for: the magic, the version (every
// version one or two flipped bits make of 4 is one this library does not read, or an earlier
// one whose records have no checksum and so another size), else the checksum.
bool refused_for_its_change(const std::string& message, std::size_t at) {
    if (message.find("not a clreduce Partial") == std::string::npos) return false;
    if (at < 4) return message.find("CLRP") != std::string::npos;
    if (at < 6) return true;
    return message.find("CRC-32C checksum") != std::string::npos;
}

// Records of every operation over int32 data, of float data in each float mode, of an empty
// range and of nothing: the records a flipped bit is tried on.
std::vector<std::pair<std::string, std::vector<std::uint8_t>>> records_of_every_kind(const Reducer& r) {
    const std::vector<std::int32_t> ints{5, -3, 0, 9, -3, 12, 0, 1};
    const std::vector<float> floats{1.5f, -2.0f, 0.0f, 8.25f};
    std::vector<std::pair<std::string, std::vector<std::uint8_t>>> records;
    for (const Operation op : every_operation()) {
        records.emplace_back(std::string(operation_name(op)) + " of int32", r.partial(op, ints).to_bytes());
        if (op == Operation::bit_and || op == Operation::bit_or || op == Operation::bit_xor) continue;
        records.emplace_back(std::string(operation_name(op)) + " of float", r.partial(op, floats).to_bytes());
    }
    for (const FloatMode mode : {FloatMode::compensated, FloatMode::correctly_rounded}) {
        LaunchParams p;
        p.float_mode = mode;
        records.emplace_back("sum of float, " + std::string(to_string(mode)),
                             r.partial(Operation::sum, floats, p).to_bytes());
    }
    records.emplace_back("min of no int32", r.partial(Operation::min, std::vector<std::int32_t>{}).to_bytes());
    records.emplace_back("a Partial of nothing", Partial().to_bytes());
    return records;
}

TEST_CASE("Partial::from_bytes refuses every record with one or two flipped bits by its checksum",
          "[partial][errors]") {
    const Reducer& r = reducer();
    const auto records = records_of_every_kind(r);
    std::uint64_t flips = 0, pairs_flipped = 0;
    for (const auto& [what, original] : records) {
        INFO(what << ", " << original.size() << " bytes");
        // The checksum is the reference CRC-32C of the bytes before it, and the record decodes.
        CHECK(stored_checksum(original) == reference_crc32c(original.data(), original.size() - 4));
        CHECK(refusal_of(original).empty());
        CHECK(decode(original).to_bytes() == original);
        // Every bit flipped alone: refused, naming the checksum (or the magic, or the version).
        for (std::size_t bit = 0; bit < 8 * original.size(); ++bit) {
            std::vector<std::uint8_t> bytes = original;
            bytes[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
            const std::string message = refusal_of(bytes);
            INFO("bit " << bit << " flipped: " << (message.empty() ? "decoded" : message));
            CHECK(refused_for_its_change(message, bit / 8));
            ++flips;
        }
        // Cut short, or one byte longer.
        std::vector<std::uint8_t> shorter(original.begin(), original.end() - 1), longer = original;
        longer.push_back(0);
        CHECK_THAT(refusal_of(shorter), Catch::Contains("checksum") || Catch::Contains("fewer than its header"));
        CHECK_THAT(refusal_of(longer), Catch::Contains("checksum"));
    }
    // Every pair of bits flipped in a statistics record and in an argminmax one.
    for (const auto& [what, original] : records) {
        if (what != "statistics of float" && what != "argminmax of int32") continue;
        INFO(what << ", every pair of bits flipped");
        const std::size_t bits = 8 * original.size();
        std::uint64_t missed = 0, pairs = 0;
        for (std::size_t a = 0; a < bits; ++a)
            for (std::size_t b = a + 1; b < bits; ++b) {
                std::vector<std::uint8_t> bytes = original;
                bytes[a / 8] ^= static_cast<std::uint8_t>(1u << (a % 8));
                bytes[b / 8] ^= static_cast<std::uint8_t>(1u << (b % 8));
                const std::string message = refusal_of(bytes);
                const bool ok = refused_for_its_change(message, a / 8);  // a < b: a's byte comes first
                if (!ok && missed++ < 5) FAIL_CHECK("bits " << a << " and " << b << ": " << message);
                ++pairs;
            }
        CHECK(missed == 0);
        pairs_flipped += pairs;
    }
    WARN(records.size() << " records, " << flips << " with one bit flipped and " << pairs_flipped
                        << " with two: every one refused");
}

TEST_CASE("Partial::from_bytes refuses states that no reduction of their operation leaves", "[partial][errors]") {
    const Reducer& r = reducer();
    const std::vector<std::int32_t> v{3, -1, 2, 7};
    const auto refused = [](const std::vector<std::uint8_t>& bytes, const std::string& what) {
        CHECK_THROWS_WITH(decode(bytes), Catch::Contains("not a clreduce Partial") && Catch::Contains(what));
    };
    // argmin's index past the count.
    std::vector<std::uint8_t> bytes = r.partial(Operation::argmin, v).to_bytes();
    CHECK(decode(bytes).argmin<std::int32_t>().index == 1);
    put<std::uint64_t>(bytes, state_at(), 4);
    refused(bytes, "with index 4 of 4 elements");
    // statistics' count other than the header's.
    bytes = r.partial(Operation::statistics, v).to_bytes();
    put<std::uint64_t>(bytes, state_at(), 5);
    refused(bytes, "counting 5 elements where its header counts 4");
    bytes = r.partial(Operation::statistics, v).to_bytes();
    put<std::uint64_t>(bytes, kCountAt, 3);
    refused(bytes, "counting 4 elements where its header counts 3");
    // minmax's minimum above its maximum.
    bytes = r.partial(Operation::minmax, v).to_bytes();
    put<std::int32_t>(bytes, state_at(), 8);
    refused(bytes, "minimum is above its maximum");
    // More nonzero elements than elements; a sum of four int32 no four int32 give.
    bytes = r.partial(Operation::count_nonzero, v).to_bytes();
    put<std::uint64_t>(bytes, state_at(), 5);
    refused(bytes, "beyond what they can sum to");
    bytes = r.partial(Operation::sum, v).to_bytes();
    put<std::int64_t>(bytes, state_at(), std::int64_t(1) << 40);
    refused(bytes, "beyond what they can sum to");
    bytes = r.partial(Operation::sum_of_squares, v).to_bytes();
    put<std::int64_t>(bytes, state_at(), -1);
    put<std::int64_t>(bytes, state_at() + 8, -1);
    put<std::int64_t>(bytes, state_at() + 16, -1);
    refused(bytes, "beyond what they can sum to");
    // A state for no elements that is not the empty range's.
    bytes = r.partial(Operation::max, std::vector<std::int32_t>{}).to_bytes();
    CHECK(decode(bytes).count() == 0);
    put<std::int32_t>(bytes, state_at(), 9);
    refused(bytes, "of no elements");
    // Wrapped counts under IntegerOverflow::wrap stay in a uint64 and are checked there.
    LaunchParams wrap;
    wrap.overflow = IntegerOverflow::wrap;
    bytes = r.partial(Operation::count_nonzero, v, wrap).to_bytes();
    CHECK(decode(bytes).count_nonzero<std::int32_t>() == 4);
    put<std::uint64_t>(bytes, state_at(), 5);
    refused(bytes, "more than 4 int32 elements give");
}

TEST_CASE("Partial::from_bytes: random mutations of real partials are refused or keep their invariants",
          "[partial][errors][random]") {
    const Reducer& r = reducer();
    const std::uint64_t seed = seed_for(42, 6);
    INFO("mutation seed " << seed);
    std::mt19937_64 rng(seed);
    std::vector<std::vector<std::uint8_t>> originals;
    const std::vector<std::int32_t> ints{5, -3, 0, 9, -3, 12, 0, 1};
    const std::vector<std::uint8_t> bytes_data{200, 0, 7, 255, 3};
    const std::vector<std::int64_t> longs{std::int64_t(1) << 50, -7, 0, 3};
    const std::vector<float> floats{1.5f, -2.0f, 0.0f, 8.25f};
    LaunchParams wrap;
    wrap.overflow = IntegerOverflow::wrap;
    for (const Operation op : kOperations) {
        for (const LaunchParams& params : {LaunchParams{}, wrap}) {
            originals.push_back(r.partial(op, ints, params).to_bytes());
            originals.push_back(r.partial(op, bytes_data, params).to_bytes());
            if (op != Operation::statistics)  // refused for 64-bit data (Unsupported)
                originals.push_back(r.partial(op, longs, params).to_bytes());
        }
        originals.push_back(r.partial(op, floats).to_bytes());
        originals.push_back(r.partial(op, std::vector<std::int32_t>{}).to_bytes());
    }
    int decoded = 0;
    for (int trial = 0; trial < 20000; ++trial) {
        std::vector<std::uint8_t> bytes = originals[rng() % originals.size()];
        const int changes = 1 + static_cast<int>(rng() % 3);
        for (int k = 0; k < changes; ++k) {
            // Mostly the count and the state (the fields are checked one by one already); the
            // checksum written again after, as a writer of forged records would.
            const std::size_t from = rng() % 4 == 0 ? 0 : kCountAt;
            bytes[from + rng() % (bytes.size() - kPartialChecksumBytes - from)] = static_cast<std::uint8_t>(rng());
        }
        reseal(bytes);
        Partial p;
        try {
            p = decode(bytes);
        } catch (const InvalidArgument&) {
            continue;
        }
        ++decoded;
        INFO("trial " << trial << ": " << operation_name(p.operation()) << " of " << type_name(p.element()) << ", "
                      << p.count() << " elements");
        check_invariants(p);
        // Written again as the same bytes (a version field mutated to another version is refused:
        // versions before 4 have no checksum, so the record's size is not theirs).
        CHECK(p.to_bytes() == bytes);
        Partial twice = p;
        try {
            twice.merge(p);  // no crash, and the merged partial keeps the invariants too
        } catch (const InvalidArgument&) {
            CHECK(p.count() > std::numeric_limits<std::uint64_t>::max() / 2);  // counts past 2^64
            continue;
        }
        check_invariants(twice);
    }
    WARN(decoded << " of 20000 mutated partials decoded");
    CHECK(decoded > 0);
}

TEST_CASE("a Partial of nothing merges with anything, a Partial of an empty range is its operation's",
          "[partial][errors]") {
    const Reducer& r = reducer();
    const std::vector<std::int32_t> v{3, 1, 2};
    const Partial nothing;
    CHECK(nothing.empty());
    const Partial empty_sum = r.partial(Operation::sum, std::vector<std::int32_t>{});
    CHECK_FALSE(empty_sum.empty());
    CHECK(empty_sum.count() == 0);
    CHECK(empty_sum.sum<std::int32_t>() == 0);
    // Of another operation: refused, as the header says.
    Partial min = r.partial(Operation::min, v);
    CHECK_THROWS_WITH(min.merge(empty_sum), Catch::Contains("different operations"));
    Partial into_empty = empty_sum;
    CHECK_THROWS_WITH(into_empty.merge(min), Catch::Contains("different operations"));
    // Of its own operation: adds nothing.
    Partial sum = r.partial(Operation::sum, v);
    sum.merge(empty_sum);
    CHECK(sum.sum<std::int32_t>() == 6);
    // The Partial of nothing merges with either, as nothing, and survives a trip through bytes.
    min.merge(nothing);
    CHECK(min.min<std::int32_t>() == 1);
    Partial from_nothing = nothing;
    from_nothing.merge(empty_sum);
    CHECK(from_nothing.count() == 0);
    CHECK_FALSE(from_nothing.empty());
    const std::vector<std::uint8_t> bytes = nothing.to_bytes();
    CHECK(bytes.size() == Partial::encoded_size(0));
    const Partial back = decode(bytes);
    CHECK(back.empty());
    Partial merged = r.partial(Operation::argmax, v);
    merged.merge(back);
    CHECK(merged.argmax<std::int32_t>().index == 0);
}

}  // namespace
}  // namespace clreduce::test
