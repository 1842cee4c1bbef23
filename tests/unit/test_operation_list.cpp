// The operation list and the tables that follow it: every Operation has its table row, its
// result type and a stable number in the Partial format; every plug-in, element type, map
// and layout has a number, and no two values of one enumeration share one.
#include <catch2/catch.hpp>

#include <set>

#include <clreduce/error.hpp>
#include <clreduce/operation_result.hpp>

#include "api/partial_ids.hpp"
#include "ops/operation_table.hpp"

namespace clreduce {
namespace {

template <class E, std::size_t N>
void check_numbered(const partial_ids::Id<E> (&table)[N], int values) {
    std::set<std::uint16_t> numbers;
    for (int k = 0; k < values; ++k) {
        const E value = static_cast<E>(k);
        INFO("value " << k);
        const std::uint16_t number = partial_ids::number_of(table, value);
        CHECK(number != 0xffff);
        CHECK(numbers.insert(number).second);
        CHECK(partial_ids::value_of(table, number, partial_ids::kFormatVersion) == value);
    }
    CHECK(static_cast<int>(N) == values);
}

}  // namespace

TEST_CASE("every operation of the list has its row, its name, its summary and its number", "[unit][operations]") {
    std::set<std::string_view> names;
    for (int k = 0; k < operation_count; ++k) {
        const Operation op = static_cast<Operation>(k);
        INFO("operation " << k);
        CHECK(operation_info(op).op == op);
        CHECK(names.insert(operation_name(op)).second);
        CHECK(parse_operation(operation_name(op)) == op);
        // Its summary (the Python call's docstring): one line, a sentence.
        CHECK(!operation_summary(op).empty());
        CHECK(operation_summary(op).back() == '.');
        CHECK(operation_summary(op).find('\n') == std::string_view::npos);
        // visit_operation gives the same operation as a constant.
        CHECK(visit_operation(op, [](auto c) { return static_cast<int>(decltype(c)::value); }) == k);
        // An identity state that is the empty result needs an empty result.
        if (operation_info(op).identity_is_result) CHECK(operation_info(op).empty_has_identity);
    }
    CHECK_THROWS_AS(operation_info(static_cast<Operation>(operation_count)), InvalidArgument);
    static_assert(std::is_same_v<result_t<Operation::bit_and, std::int16_t>, std::int16_t>);
    static_assert(std::is_same_v<result_t<Operation::all, float>, bool>);
    static_assert(std::is_same_v<result_t<Operation::sum, std::uint8_t>, std::uint64_t>);
}

TEST_CASE("the Partial format numbers every value of its enumerations once", "[unit][partial]") {
    using namespace partial_ids;
    check_numbered(kOperations, operation_count);
    check_numbered(kElementTypes, static_cast<int>(ElementType::float16) + 1);
    check_numbered(kFloatModes, static_cast<int>(FloatMode::correctly_rounded) + 1);
    check_numbered(kOverflowRules, static_cast<int>(IntegerOverflow::wrap) + 1);
    check_numbered(kPlugins, static_cast<int>(KernelOp::bit_xor) + 1);
    check_numbered(kMaps, static_cast<int>(ElementMap::transform) + 1);
    check_numbered(kLayouts, static_cast<int>(StateLayout::moments) + 1);
    // Version 1 knows only the values it had.
    CHECK(value_of(kOperations, 13, 1) == Operation::statistics);
    CHECK_FALSE(value_of(kOperations, 14, 1).has_value());
    CHECK_FALSE(value_of(kPlugins, 12, 1).has_value());
    // Version 2 knows no argminmax.
    CHECK(value_of(kOperations, 19, 3) == Operation::argminmax);
    CHECK_FALSE(value_of(kOperations, 19, 2).has_value());
    CHECK_FALSE(value_of(kLayouts, 8, 2).has_value());
}

}  // namespace clreduce
