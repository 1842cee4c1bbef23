// The core call: one run-time operation and element type to Reducer::reduce<Op, T> in the
// input's form, through visit_operation and visit_type (no binding per operation). The GIL is
// released while the device works; the inputs stay referenced by the caller's arguments.
#include <string>

#include "binding.hpp"
#include "results.hpp"

namespace clreduce_python {

using clreduce::Operation;
using clreduce::result_t;

namespace {

clreduce::Image image_of(const Source& s, std::size_t element_size) {
    clreduce::Image image;
    image.rows = s.shape.at(0);
    image.cols = s.shape.at(1);
    image.channels = 1;
    image.step = s.row_step_bytes;
    image.offset = s.host ? 0 : s.offset * element_size;
    return image;
}

template <Operation Op, class T>
nb::object reduce_typed(const clreduce::Reducer& r, const Source& s, Form form, const clreduce::LaunchParams& p) {
    const T* host = static_cast<const T*>(s.host);
    if (form == Form::flat) {
        result_t<Op, T> value{};
        {
            nb::gil_scoped_release release;
            value = host ? r.reduce<Op, T>(host, s.count, p) : r.reduce<Op, T>(s.buffer, s.offset, s.count, p);
        }
        return to_python(value);
    }
    if (form == Form::image) {
        const clreduce::Image image = image_of(s, sizeof(T));
        clreduce::Channels<result_t<Op, T>> channels{};
        {
            nb::gil_scoped_release release;
            channels = host ? r.reduce<Op, T>(host, image, p) : r.reduce<Op, T>(s.buffer, image, p);
        }
        return to_python(channels[0]);
    }
    const clreduce::Segments segments = segments_of(form, s);
    std::vector<result_t<Op, T>> values;
    {
        nb::gil_scoped_release release;
        if (host)
            r.reduce<Op, T>(host, segments, values, p);
        else
            r.reduce<Op, T>(s.buffer, s.offset, segments, values, p);
    }
    return to_numpy(std::move(values));
}

clreduce::Combine parse_combine(const std::string& name) {
    if (name == "sum") return clreduce::Combine::sum;
    if (name == "product") return clreduce::Combine::product;
    if (name == "min") return clreduce::Combine::min;
    if (name == "max") return clreduce::Combine::max;
    throw clreduce::InvalidArgument(
        "combine must be 'sum', 'product', 'min' or 'max', or an expression in a and b "
        "with its identity (identity=...); got '" +
        name + "' without an identity");
}

}  // namespace

nb::object reduce(const clreduce::Reducer& reducer, Operation op, const Source& source, Form form,
                  const clreduce::LaunchParams& params) {
    return clreduce::visit_type(source.type, [&](auto element) {
        using T = decltype(element);
        return clreduce::visit_operation(op, [&](auto operation) {
            return reduce_typed<decltype(operation)::value, T>(reducer, source, form, params);
        });
    });
}

// transform_reduce with `combine`, a clreduce::Combine or a clreduce::CombineExpression.
template <class C>
nb::object transform_reduce_with(const clreduce::Reducer& r, const std::string& expression, const C& combine,
                                 const Source& s, Form form, const clreduce::LaunchParams& p) {
    return clreduce::visit_type(s.type, [&](auto element) -> nb::object {
        using T = decltype(element);
        const T* host = static_cast<const T*>(s.host);
        if (form == Form::flat) {
            clreduce::transform_type_t<T> value{};
            {
                nb::gil_scoped_release release;
                value = host ? r.transform_reduce<T>(host, s.count, expression, combine, p)
                             : r.transform_reduce<T>(s.buffer, s.offset, s.count, expression, combine, p);
            }
            return to_python(value);
        }
        // The segmented transform reads a device buffer: host data is copied into one first.
        const clreduce::Segments segments = segments_of(form, s);
        std::vector<clreduce::transform_type_t<T>> values;
        {
            nb::gil_scoped_release release;
            cl::Buffer buffer = s.buffer;
            if (host) {
                const std::uint64_t bytes = s.extent_bytes > 0 ? s.extent_bytes : sizeof(T);
                cl_int err = CL_SUCCESS;
                buffer = cl::Buffer(r.context(), CL_MEM_READ_ONLY | (s.extent_bytes > 0 ? CL_MEM_COPY_HOST_PTR : 0),
                                    bytes, s.extent_bytes > 0 ? const_cast<void*>(s.host) : nullptr, &err);
                clreduce::check(err, "clCreateBuffer (transform_reduce of host segments)");
            }
            values = r.transform_reduce<T>(buffer, host ? 0 : s.offset, segments, expression, combine, p);
        }
        return to_numpy(std::move(values));
    });
}

nb::object transform_reduce(const clreduce::Reducer& r, const std::string& expression, const std::string& combine_text,
                            const std::optional<std::string>& identity, const Source& s, Form form,
                            const clreduce::LaunchParams& p) {
    if (form == Form::image)
        throw clreduce::InvalidArgument(
            "transform_reduce over a whole strided matrix: pass a C-contiguous array, or axis=1 and sum the rows");
    // A built-in combine by its name, or the user's expression with its identity: one call each.
    if (identity)
        return transform_reduce_with(r, expression, clreduce::CombineExpression{combine_text, *identity}, s, form, p);
    return transform_reduce_with(r, expression, parse_combine(combine_text), s, form, p);
}

}  // namespace clreduce_python
