// The operation list as the Python layer reads it at run time: the operations' names, their
// one-line summaries (the docstrings of the calls the package makes for them) and the kind of
// value each gives for each element type (result_t of operation_result.hpp), so that an
// operation added to the core's list reaches Python without a Python list to edit.
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "binding.hpp"

namespace clreduce_python {

namespace {

// The numpy name of a scalar value type.
template <class V>
std::string scalar_kind() {
    if constexpr (std::is_same_v<V, bool>)
        return "bool";
    else if constexpr (std::is_same_v<V, clreduce::half>)
        return "float16";
    else if constexpr (std::is_same_v<V, float>)
        return "float32";
    else if constexpr (std::is_same_v<V, double>)
        return "float64";
    else if constexpr (std::is_integral_v<V>)
        return (std::is_signed_v<V> ? "int" : "uint") + std::to_string(8 * sizeof(V));
    else
        return "";
}

// A value's kind: its numpy type for scalars, else the structure's name.
template <class R>
struct result_kind {
    static std::string name() { return scalar_kind<R>(); }
};
template <class T>
struct result_kind<clreduce::MinMax<T>> {
    static std::string name() { return "minmax"; }
};
template <class T>
struct result_kind<clreduce::ArgResult<T>> {
    static std::string name() { return "arg"; }
};
template <class T>
struct result_kind<clreduce::ArgMinMax<T>> {
    static std::string name() { return "argminmax"; }
};
template <class T>
struct result_kind<clreduce::Statistics<T>> {
    static std::string name() { return "statistics"; }
};

}  // namespace

void bind_operations(nb::module_& m) {
    using namespace nb::literals;
    m.def(
        "operations",
        [] {
        std::vector<std::string> names;
        for (int i = 0; i < clreduce::operation_count; ++i)
            names.emplace_back(clreduce::operation_name(static_cast<clreduce::Operation>(i)));
        return names;
        },
        "The operations' names, in the library's order.");
    m.def(
        "operation_summary",
        [](const std::string& op) { return std::string(clreduce::operation_summary(clreduce::parse_operation(op))); },
        "op"_a, "One line: what the operation's value is.");
    m.def(
        "operation_result",
        [](const std::string& op, const std::string& element) {
        return clreduce::visit_type(clreduce::parse_type(element), [&](auto e) {
            using T = decltype(e);
            return clreduce::visit_operation(clreduce::parse_operation(op), [&](auto operation) {
                return result_kind<clreduce::result_t<decltype(operation)::value, T>>::name();
            });
        });
        },
        "op"_a, "element"_a,
        "The kind of value `op` gives over `element` data: a numpy type name for scalars (int64, uint64, float64, "
        "bool, the element type, ...), else minmax, arg, argminmax or statistics.");
}

}  // namespace clreduce_python
