// clreduce._clreduce.Reducer: a Reducer on a device (by spec, or the default) or on a caller's
// own OpenCL context and queue (raw handles, as PyOpenCL's int_ptr gives them), with the core
// call, transform_reduce, plan(), tune() and the device's description.
#include <atomic>
#include <string>
#include <vector>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "binding.hpp"

namespace clreduce_python {

using namespace nb::literals;
using clreduce::Reducer;

namespace {

using Opt = std::optional<std::string>;
// CSR offsets: a 1-D uint64 array (the Python layer converts and checks other integers).
using Offsets = nb::ndarray<const std::uint64_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

Reducer from_handles(std::uintptr_t context, std::uintptr_t queue) {
    if (context == 0 || queue == 0) throw clreduce::InvalidArgument("null OpenCL context or queue handle");
    cl::Context ctx(reinterpret_cast<cl_context>(context), true);  // retained: the caller keeps its own
    cl::CommandQueue q(reinterpret_cast<cl_command_queue>(queue), true);
    cl_context queue_context = nullptr;
    clreduce::check(clGetCommandQueueInfo(q(), CL_QUEUE_CONTEXT, sizeof queue_context, &queue_context, nullptr),
                    "clGetCommandQueueInfo(CL_QUEUE_CONTEXT)");
    if (queue_context != ctx())
        throw clreduce::InvalidArgument("the queue belongs to another context than the one given");
    return Reducer(ctx, q);
}

// CSR offsets over host values: the host pointer carries no size, so the last offset is checked
// against the array's here (the library checks the order).
void set_offsets(Source& s, const Offsets& offsets) {
    s.offsets.assign(offsets.data(), offsets.data() + offsets.shape(0));
    if (s.offsets.empty()) throw clreduce::InvalidArgument("CSR offsets need at least one offset");
    if (s.offsets.back() > s.count)
        throw clreduce::InvalidArgument("the last CSR offset (" + std::to_string(s.offsets.back()) +
                                        ") is past the values' end (" + std::to_string(s.count) + " elements)");
}

nb::dict device_dict(const clreduce::DeviceInfo& d) {
    nb::dict out;
    out["platform"] = d.platform_name;
    out["name"] = d.name;
    out["vendor"] = d.vendor;
    out["driver_version"] = d.driver_version;
    out["version"] = d.version;
    out["is_gpu"] = d.is_gpu();
    out["compute_units"] = d.compute_units;
    out["global_mem_size"] = d.global_mem_size;
    out["max_alloc_size"] = d.max_alloc_size;
    out["has_fp64"] = d.has_fp64;
    out["has_fp16"] = d.has_fp16;
    out["has_int64_atomics"] = d.has_int64_atomics;
    return out;
}

nb::dict tune(Reducer& r, bool quick, const std::vector<std::string>& type_names, std::uint64_t max_n,
              double time_budget_s, bool save, bool segments) {
    clreduce::TuneOptions options;
    options.quick = quick;
    for (const auto& name : type_names) options.types.push_back(clreduce::parse_type(name));
    options.max_n = max_n;
    options.time_budget_s = time_budget_s;
    options.save = save;
    options.segments = segments;
    // Ctrl-C stops the tuner at its next measurement (what was measured is kept); the call
    // then raises KeyboardInterrupt. The check takes the GIL, on the calling thread only.
    std::atomic<bool> stop{false};
    bool interrupted = false;
    options.stop = &stop;
    options.progress = [&](const clreduce::TuneProgress&) {
        nb::gil_scoped_acquire acquire;
        if (PyErr_CheckSignals() != 0) {
            PyErr_Clear();
            interrupted = true;
            stop = true;
        }
    };
    clreduce::TuneResult result;
    {
        nb::gil_scoped_release release;
        result = r.tune(options);
    }
    if (interrupted) {
        PyErr_SetNone(PyExc_KeyboardInterrupt);
        throw nb::python_error();
    }
    nb::dict out;
    out["entries"] = result.entries.size();
    out["complete"] = result.complete;
    out["measurements"] = result.measurements;
    out["rejected"] = result.rejected;
    out["saved_to"] = result.saved_to ? nb::object(nb::str(result.saved_to->string().c_str())) : nb::none();
    out["save_error"] = result.save_error;
    return out;
}

}  // namespace

void bind_reducer(nb::module_& m) {
    nb::class_<clreduce::LaunchPlan>(m, "Plan", "The launch a call would make (Reducer.plan()).")
        .def_prop_ro("operation",
                     [](const clreduce::LaunchPlan& p) { return std::string(operation_name(p.operation)); })
        .def_prop_ro("element", [](const clreduce::LaunchPlan& p) { return std::string(type_name(p.element)); })
        .def_prop_ro("accumulator", [](const clreduce::LaunchPlan& p) { return std::string(type_name(p.accumulator)); })
        .def_prop_ro("float_mode", [](const clreduce::LaunchPlan& p) { return std::string(to_string(p.float_mode)); })
        .def_prop_ro("inter_group", [](const clreduce::LaunchPlan& p) { return std::string(to_string(p.inter_group)); })
        .def_ro("times", &clreduce::LaunchPlan::times, "Vectors each work-item accumulates.")
        .def_ro("work_group_size", &clreduce::LaunchPlan::work_group_size)
        .def_ro("vector_width", &clreduce::LaunchPlan::vector_width)
        .def_ro("groups", &clreduce::LaunchPlan::groups, "Work-groups of the first launch.")
        .def_ro("on_host", &clreduce::LaunchPlan::on_host, "Small host data on a CPU device: no launch.")
        .def("describe", &clreduce::LaunchPlan::describe, "One line: every value of the plan.")
        .def("describe_sources", &clreduce::LaunchPlan::describe_sources,
             "Where each value came from (override, tuned, known device, default).")
        .def("__repr__", [](const clreduce::LaunchPlan& p) { return "<clreduce.Plan " + p.describe() + ">"; });

    nb::class_<Reducer> reducer(m, "Reducer",
                                "Reductions on one OpenCL device (the native object; see clreduce.Reducer).");
    add_partial_methods(reducer);
    add_by_key_methods(reducer);
    reducer
        .def(
            "__init__", [](Reducer* self) { new (self) Reducer(); },
            "The default device ($CLREDUCE_DEVICE, else the first GPU, else the first device).")
        .def(
            "__init__", [](Reducer* self, const std::string& spec) { new (self) Reducer(std::string_view(spec)); },
            "device"_a, "A device by spec: 'P:D', 'N', or part of its name ('pthread', 'nvidia').")
        .def_static("from_handles", &from_handles, "context"_a, "queue"_a,
                    "A reducer on the caller's cl_context and cl_command_queue (integer handles, e.g. PyOpenCL's "
                    "int_ptr); both are retained.")
        .def_prop_ro(
            "device", [](const Reducer& r) { return device_dict(r.device_info()); }, "The device's description.")
        .def_prop_ro("context_handle", [](const Reducer& r) { return reinterpret_cast<std::uintptr_t>(r.context()()); })
        .def_prop_ro("queue_handle", [](const Reducer& r) { return reinterpret_cast<std::uintptr_t>(r.queue()()); })
        .def_prop_ro(
            "counters",
            [](const Reducer& r) {
        const clreduce::Counters c = r.counters();
        nb::dict d;
        d["programs_built"] = c.programs_built;
        d["programs_loaded"] = c.programs_loaded;
        d["kernels_created"] = c.kernels_created;
        d["buffers_allocated"] = c.buffers_allocated;
        return d;
            },
            "Programs built or loaded, kernels created and buffers allocated so far.")
        .def(
            "pinned_bytes",
            [](const Reducer& r, std::uint64_t bytes) {
        // The array owns the memory: the capsule unmaps and releases it with the last view.
        auto* memory = new clreduce::PinnedHostMemory(r, bytes);
        nb::capsule owner(memory, [](void* p) noexcept { delete static_cast<clreduce::PinnedHostMemory*>(p); });
        const std::size_t shape[1] = {static_cast<std::size_t>(bytes)};
        return nb::ndarray<nb::numpy, std::uint8_t, nb::ndim<1>>(memory->data(), 1, shape, owner);
            },
            "bytes"_a, "`bytes` of pinned host memory of this reducer's context (PinnedHostMemory) as a uint8 array.")
        .def(
            "reduce",
            [](const Reducer& r, const std::string& op, const HostArray& a, const std::string& form, Opt acc, Opt mode,
               Opt overflow, std::optional<Offsets> offsets) {
        const Form f = parse_form(form);
        Source s = host_source(a, f);
        if (offsets) set_offsets(s, *offsets);
        return reduce(r, clreduce::parse_operation(op), s, f, make_params(acc, mode, overflow));
            },
            "op"_a, "array"_a, "form"_a, "accumulator"_a = nb::none(), "float_mode"_a = nb::none(),
            "overflow"_a = nb::none(), "offsets"_a = nb::none(),
            "The core call over a host array: operation `op` in `form` (flat, rows, columns, batch, image, offsets).")
        .def(
            "reduce_buffer",
            [](const Reducer& r, const std::string& op, std::uintptr_t mem, const std::string& dtype,
               std::uint64_t offset, const std::vector<std::uint64_t>& shape, const std::string& form, Opt acc,
               Opt mode, Opt overflow, std::optional<Offsets> offsets) {
        const Form f = parse_form(form);
        Source s = buffer_source(r, mem, dtype, offset, shape, f);
        if (offsets) set_offsets(s, *offsets);
        return reduce(r, clreduce::parse_operation(op), s, f, make_params(acc, mode, overflow));
            },
            "op"_a, "mem"_a, "dtype"_a, "offset"_a, "shape"_a, "form"_a, "accumulator"_a = nb::none(),
            "float_mode"_a = nb::none(), "overflow"_a = nb::none(), "offsets"_a = nb::none(),
            "The core call over a cl_mem of the reducer's context (C-contiguous `shape` from element `offset`; "
            "`offsets`: CSR segment offsets, host data, with form 'offsets').")
        .def(
            "transform_reduce",
            [](const Reducer& r, const std::string& expression, const std::string& combine, const HostArray& a,
               const std::string& form, Opt acc, Opt mode, Opt overflow, std::optional<Offsets> offsets, Opt identity) {
        const Form f = parse_form(form);
        Source s = host_source(a, f);
        if (offsets) set_offsets(s, *offsets);
        return transform_reduce(r, expression, combine, identity, s, f, make_params(acc, mode, overflow));
            },
            "expression"_a, "combine"_a, "array"_a, "form"_a, "accumulator"_a = nb::none(), "float_mode"_a = nb::none(),
            "overflow"_a = nb::none(), "offsets"_a = nb::none(), "identity"_a = nb::none(),
            "`expression` in x for every element, combined with `combine` (a name, or with `identity` an "
            "expression in a and b), over a host array.")
        .def(
            "transform_reduce_buffer",
            [](const Reducer& r, const std::string& expression, const std::string& combine, std::uintptr_t mem,
               const std::string& dtype, std::uint64_t offset, const std::vector<std::uint64_t>& shape,
               const std::string& form, Opt acc, Opt mode, Opt overflow, std::optional<Offsets> offsets, Opt identity) {
        const Form f = parse_form(form);
        Source s = buffer_source(r, mem, dtype, offset, shape, f);
        if (offsets) set_offsets(s, *offsets);
        return transform_reduce(r, expression, combine, identity, s, f, make_params(acc, mode, overflow));
            },
            "expression"_a, "combine"_a, "mem"_a, "dtype"_a, "offset"_a, "shape"_a, "form"_a,
            "accumulator"_a = nb::none(), "float_mode"_a = nb::none(), "overflow"_a = nb::none(),
            "offsets"_a = nb::none(), "identity"_a = nb::none(),
            "transform_reduce over a cl_mem of the reducer's context.")
        .def(
            "plan",
            [](const Reducer& r, const std::string& op, const std::string& dtype, std::uint64_t count, Opt acc,
               Opt mode, Opt overflow) {
        return r.plan(clreduce::parse_type(dtype), clreduce::parse_operation(op), count,
                      make_params(acc, mode, overflow));
            },
            "op"_a, "dtype"_a, "count"_a, "accumulator"_a = nb::none(), "float_mode"_a = nb::none(),
            "overflow"_a = nb::none(), "The plan a call of `op` over `count` elements of `dtype` would launch.")
        .def("tune", &tune, "quick"_a = true, "types"_a = std::vector<std::string>{},
             "max_n"_a = std::uint64_t(1) << 30, "time_budget_s"_a = 0.0, "save"_a = true, "segments"_a = true,
             "Measures the launch space on this device and uses the best entries (saved to the tuning database "
             "with save=True). Ctrl-C stops it early and raises KeyboardInterrupt.");

    m.def(
        "devices",
        [] {
        std::vector<std::string> names;
        for (const cl::Device& d : clreduce::all_devices()) {
            const clreduce::DeviceInfo info = clreduce::DeviceInfo::query(d);
            names.push_back(info.platform_name + " / " + info.name);
        }
        return names;
        },
        "Every OpenCL device, 'platform / device', in the order the 'N' device specs count them.");
}

}  // namespace clreduce_python
