// clreduce._clreduce.Partial: a reduction's partial result (partial.hpp), made by
// Reducer.partial, merged in the data's order, sent as bytes, and read as the value the call
// over the whole gives (through the same conversion as the calls).
#include <string>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "binding.hpp"
#include "results.hpp"

namespace clreduce_python {

using namespace nb::literals;
using clreduce::Partial;

nb::object partial_value(const Partial& partial) {
    if (partial.empty()) throw clreduce::InvalidArgument("a Partial of nothing (Partial()) has no value");
    return clreduce::visit_type(partial.element(), [&](auto element) {
        using T = decltype(element);
        return clreduce::visit_operation(partial.operation(), [&](auto operation) {
            return to_python(partial.value<decltype(operation)::value, T>());
        });
    });
}

namespace {

using Opt = std::optional<std::string>;

Partial make_partial(const clreduce::Reducer& r, const std::string& op, const Source& s,
                     const clreduce::LaunchParams& p) {
    const clreduce::Operation operation = clreduce::parse_operation(op);
    return clreduce::visit_type(s.type, [&](auto element) {
        using T = decltype(element);
        nb::gil_scoped_release release;
        return s.host ? r.partial<T>(operation, static_cast<const T*>(s.host), s.count, p)
                      : r.partial<T>(operation, s.buffer, s.offset, s.count, p);
    });
}

}  // namespace

void bind_partial(nb::module_& m) {
    nb::class_<Partial>(m, "Partial",
                        "A reduction's partial result: merge partials of consecutive ranges in the data's order, "
                        "send them as bytes, and read the value of the whole with value().")
        .def(nb::init<>(), "A Partial of nothing: merges as the identity, has no value.")
        .def_prop_ro("operation", [](const Partial& p) { return std::string(operation_name(p.operation())); })
        .def_prop_ro("element", [](const Partial& p) { return std::string(type_name(p.element())); })
        .def_prop_ro("accumulator", [](const Partial& p) { return std::string(type_name(p.accumulator())); })
        .def_prop_ro("float_mode", [](const Partial& p) { return std::string(to_string(p.float_mode())); })
        .def_prop_ro("count", &Partial::count, "Elements it covers.")
        .def_prop_ro("empty", &Partial::empty, "Whether it is a Partial of nothing.")
        .def("merge", &Partial::merge, "later"_a,
             "This partial becomes that of its range followed by `later`'s (same operation, element type, float "
             "mode and accumulator, else InvalidArgument).")
        .def(
            "to_bytes",
            [](const Partial& p) {
        const std::vector<std::uint8_t> bytes = p.to_bytes();
        return nb::bytes(reinterpret_cast<const char*>(bytes.data()), bytes.size());
            },
            "A self-describing byte string (from_bytes reads it back).")
        .def_static(
            "from_bytes",
            [](nb::bytes b) { return Partial::from_bytes(reinterpret_cast<const std::uint8_t*>(b.c_str()), b.size()); },
            "data"_a, "The Partial of to_bytes(); InvalidArgument naming what is wrong with bad bytes.")
        .def("value", &partial_value,
             "The value the call over the whole range gives (raw: the Python layer's Partial.value casts it).")
        .def("__eq__", [](const Partial& a, const Partial& b) { return a.to_bytes() == b.to_bytes(); })
        .def("__repr__", [](const Partial& p) {
            if (p.empty()) return std::string("<clreduce.Partial of nothing>");
            return "<clreduce.Partial " + std::string(operation_name(p.operation())) + " of " +
                   std::to_string(p.count()) + " " + std::string(type_name(p.element())) + ">";
        });
}

void add_partial_methods(nb::class_<clreduce::Reducer>& reducer) {
    reducer
        .def(
            "partial",
            [](const clreduce::Reducer& r, const std::string& op, const HostArray& a, Opt acc, Opt mode, Opt overflow) {
        return make_partial(r, op, host_source(a, Form::flat), make_params(acc, mode, overflow));
            },
            "op"_a, "array"_a, "accumulator"_a = nb::none(), "float_mode"_a = nb::none(), "overflow"_a = nb::none(),
            "The Partial of `op` over a C-contiguous host array.")
        .def(
            "partial_buffer",
            [](const clreduce::Reducer& r, const std::string& op, std::uintptr_t mem, const std::string& dtype,
               std::uint64_t offset, std::uint64_t count, Opt acc, Opt mode, Opt overflow) {
        return make_partial(r, op, buffer_source(r, mem, dtype, offset, {count}), make_params(acc, mode, overflow));
            },
            "op"_a, "mem"_a, "dtype"_a, "offset"_a, "count"_a, "accumulator"_a = nb::none(),
            "float_mode"_a = nb::none(), "overflow"_a = nb::none(), "The Partial of `op` over a cl_mem range.");
}

}  // namespace clreduce_python
