// clreduce._clreduce.MultiReducer: several devices of one process (multi_reducer.hpp), host
// data split between them, their partials merged in the data's order.
#include <string>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "binding.hpp"

namespace clreduce_python {

using namespace nb::literals;
using clreduce::MultiReducer;

void bind_multi(nb::module_& m) {
    nb::class_<MultiReducer>(m, "MultiReducer", "Reductions over several devices of one host (the native object).")
        .def(
            "__init__", [](MultiReducer* self) { new (self) MultiReducer(); },
            "Every GPU of the default device's platform; where it has none, every device of it.")
        .def(
            "__init__", [](MultiReducer* self, const std::string& specs) { new (self) MultiReducer(specs); },
            "devices"_a, "Devices by spec, separated by commas: '0:0,0:1'.")
        .def_prop_ro("size", &MultiReducer::size, "How many devices.")
        .def_prop_ro("weights", &MultiReducer::weights, "The share of host data each device takes.")
        .def("set_weights", &MultiReducer::set_weights, "weights"_a, "One positive weight per device.")
        .def(
            "partial",
            [](const MultiReducer& r, const std::string& op, const HostArray& a, std::optional<std::string> acc,
               std::optional<std::string> mode, std::optional<std::string> overflow) {
        const Source s = host_source(a, Form::flat);
        const clreduce::Operation operation = clreduce::parse_operation(op);
        const clreduce::LaunchParams p = make_params(acc, mode, overflow);
        return clreduce::visit_type(s.type, [&](auto element) {
            using T = decltype(element);
            nb::gil_scoped_release release;
            return r.partial<T>(operation, static_cast<const T*>(s.host), s.count, p);
        });
            },
            "op"_a, "array"_a, "accumulator"_a = nb::none(), "float_mode"_a = nb::none(), "overflow"_a = nb::none(),
            "The Partial of `op` over a C-contiguous host array, split between the devices.");
}

}  // namespace clreduce_python
