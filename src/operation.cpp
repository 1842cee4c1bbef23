#include <clreduce/operation.hpp>

#include <array>
#include <string>
#include <utility>

#include <clreduce/error.hpp>

namespace clreduce {
namespace {

constexpr std::array<std::pair<Operation, std::string_view>, 13> kOperations{{
    {Operation::sum, "sum"},
    {Operation::product, "product"},
    {Operation::min, "min"},
    {Operation::max, "max"},
    {Operation::minmax, "minmax"},
    {Operation::argmin, "argmin"},
    {Operation::argmax, "argmax"},
    {Operation::count_nonzero, "count_nonzero"},
    {Operation::mean, "mean"},
    {Operation::sum_of_squares, "sum_of_squares"},
    {Operation::norm_l1, "norm_l1"},
    {Operation::norm_l2, "norm_l2"},
    {Operation::norm_inf, "norm_inf"},
}};

constexpr std::array<std::pair<OperationFamily, std::string_view>, 3> kFamilies{{
    {OperationFamily::additive, "additive"},
    {OperationFamily::extremum, "extremum"},
    {OperationFamily::product, "product"},
}};

}  // namespace

std::string_view operation_name(Operation op) {
    for (const auto& [value, name] : kOperations)
        if (value == op) return name;
    return "?";
}

Operation parse_operation(std::string_view name) {
    for (const auto& [value, spelling] : kOperations)
        if (spelling == name) return value;
    throw InvalidArgument("unknown operation '" + std::string(name) + "'");
}

OperationFamily operation_family(Operation op) {
    switch (op) {
        case Operation::product: return OperationFamily::product;
        case Operation::min:
        case Operation::max:
        case Operation::minmax:
        case Operation::argmin:
        case Operation::argmax:
        case Operation::norm_inf: return OperationFamily::extremum;
        default: return OperationFamily::additive;
    }
}

std::string_view family_name(OperationFamily family) {
    for (const auto& [value, name] : kFamilies)
        if (value == family) return name;
    return "?";
}

OperationFamily parse_family(std::string_view name) {
    for (const auto& [value, spelling] : kFamilies)
        if (spelling == name) return value;
    throw InvalidArgument("unknown operation family '" + std::string(name) + "'");
}

}  // namespace clreduce
