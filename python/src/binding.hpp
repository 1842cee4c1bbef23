#pragma once
// Shared declarations of the Python module's C++ parts (python/src/): what an input is, the one
// core call, and how results become Python objects.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <clreduce/clreduce.hpp>

namespace clreduce_python {

namespace nb = nanobind;

// A host array as the module takes it: any dtype, any strides, read-only is fine.
using HostArray = nb::ndarray<nb::ro, nb::device::cpu>;

// How the elements of a call are grouped (the Python layer picks it from axis= and the input):
//   flat:    all elements, one result (C-contiguous data)
//   rows:    a 2-D matrix, one result per row (axis=1); rows may be apart by a row step
//   columns: one result per column (axis=0)
//   batch:   the last axis of C-contiguous N-D data, one result per leading index (axis=-1)
//   image:   all elements of a 2-D matrix with a row step, one result (axis=None, strided)
//   offsets: CSR segments of 1-D data, one result per segment
enum class Form { flat, rows, columns, batch, image, offsets };
Form parse_form(const std::string& name);

// The elements of one call: host memory or a device buffer, and their shape.
struct Source {
    clreduce::ElementType type = clreduce::ElementType::int32;
    const void* host = nullptr;  // host data, or
    cl::Buffer buffer;           // a device buffer, from element `offset` on
    std::uint64_t offset = 0;
    std::uint64_t count = 0;             // elements in all
    std::vector<std::uint64_t> shape;    // C order
    std::uint64_t row_step_bytes = 0;    // 2-D: bytes from row to row (0: packed)
    std::vector<std::uint64_t> offsets;  // Form::offsets
    std::uint64_t extent_bytes = 0;      // host data: bytes from the first element to past the last
};

// Reads a host array into a Source for `form`, checking that its strides fit the form
// (InvalidArgument naming what does not).
Source host_source(const HostArray& array, Form form);
// A device buffer (a cl_mem handle) holding `shape` C-contiguous elements of `dtype` from
// element `offset`: retained, and checked to belong to the reducer's context.
Source buffer_source(const clreduce::Reducer& reducer, std::uintptr_t mem, const std::string& dtype,
                     std::uint64_t offset, const std::vector<std::uint64_t>& shape, Form form = Form::flat);
// The segments of `form` over `source` (rows, columns, batch, offsets).
clreduce::Segments segments_of(Form form, const Source& source);

// The call's options (the Python keywords dtype=, float_mode=, overflow=).
clreduce::LaunchParams make_params(const std::optional<std::string>& accumulator,
                                   const std::optional<std::string>& float_mode,
                                   const std::optional<std::string>& overflow);

// The one core call: operation `op` over `source` grouped as `form`. One result for flat and
// image, one per segment otherwise (numpy arrays). Releases the GIL while the device works.
nb::object reduce(const clreduce::Reducer& reducer, clreduce::Operation op, const Source& source, Form form,
                  const clreduce::LaunchParams& params);
// transform_reduce: `expression` combined with `combine` ("sum", "product", "min", "max"), or,
// where `identity` is given, with `combine` as an expression in a and b of the user's own
// (clreduce::CombineExpression) starting from `identity`.
nb::object transform_reduce(const clreduce::Reducer& reducer, const std::string& expression, const std::string& combine,
                            const std::optional<std::string>& identity, const Source& source, Form form,
                            const clreduce::LaunchParams& params);

// The value a Partial gives, through the same conversion as the calls.
nb::object partial_value(const clreduce::Partial& partial);

void bind_errors(nb::module_& m);
void bind_reducer(nb::module_& m);
void bind_partial(nb::module_& m);
void bind_multi(nb::module_& m);
void bind_operations(nb::module_& m);
// Reducer.partial and Reducer.partial_buffer (partial.cpp), added by bind_reducer.
void add_partial_methods(nb::class_<clreduce::Reducer>& reducer);
// Reducer.reduce_by_key and Reducer.reduce_by_key_buffer (by_key.cpp), added by bind_reducer.
void add_by_key_methods(nb::class_<clreduce::Reducer>& reducer);

}  // namespace clreduce_python
