// What a call reduces: a host array or a device buffer, checked against the form asked for,
// and the call's options as LaunchParams.
#include <string>

#include "binding.hpp"

namespace clreduce_python {

using clreduce::ElementType;
using clreduce::InvalidArgument;

Form parse_form(const std::string& name) {
    if (name == "flat") return Form::flat;
    if (name == "rows") return Form::rows;
    if (name == "columns") return Form::columns;
    if (name == "batch") return Form::batch;
    if (name == "image") return Form::image;
    if (name == "offsets") return Form::offsets;
    throw InvalidArgument("unknown form '" + name + "'");
}

namespace {

ElementType element_type_of(const nb::dlpack::dtype& dtype) {
    using Code = nb::dlpack::dtype_code;
    if (dtype.lanes == 1) {
        const auto code = static_cast<Code>(dtype.code);
        if (code == Code::Int) {
            if (dtype.bits == 8) return ElementType::int8;
            if (dtype.bits == 16) return ElementType::int16;
            if (dtype.bits == 32) return ElementType::int32;
            if (dtype.bits == 64) return ElementType::int64;
        } else if (code == Code::UInt) {
            if (dtype.bits == 8) return ElementType::uint8;
            if (dtype.bits == 16) return ElementType::uint16;
            if (dtype.bits == 32) return ElementType::uint32;
            if (dtype.bits == 64) return ElementType::uint64;
        } else if (code == Code::Float) {
            if (dtype.bits == 16) return ElementType::float16;
            if (dtype.bits == 32) return ElementType::float32;
            if (dtype.bits == 64) return ElementType::float64;
        }
    }
    throw clreduce::Unsupported(
        "clreduce reduces int8 ... uint64, float16, float32 and float64 arrays; got dlpack type code " +
        std::to_string(dtype.code) + " of " + std::to_string(dtype.bits) + " bits");
}

bool c_contiguous(const HostArray& a) {
    if (a.size() == 0) return true;  // nothing is read (DLPack strides of an empty array may be 0)
    std::int64_t expected = 1;
    for (std::size_t d = a.ndim(); d-- > 0;) {
        if (a.shape(d) != 1 && a.stride(d) != expected) return false;
        expected *= static_cast<std::int64_t>(a.shape(d));
    }
    return true;
}

// A 2-D matrix whose rows are contiguous and apart by at least a row (numpy's a[:, ::1] of a
// wider array, a[::2], ...): its row step in bytes, 0 for one row.
std::uint64_t row_step_bytes(const HostArray& a) {
    if (a.ndim() != 2) throw InvalidArgument("this form needs a 2-D array; got " + std::to_string(a.ndim()) + "-D");
    const auto rows = a.shape(0), cols = a.shape(1);
    if (a.size() == 0) return 0;  // nothing is read (DLPack strides of an empty array may be 0)
    if (cols > 1 && a.stride(1) != 1)
        throw InvalidArgument("the matrix's rows must be contiguous (column stride of one element; got " +
                              std::to_string(a.stride(1)) + "): pass numpy.ascontiguousarray(a)");
    if (rows <= 1) return 0;
    if (a.stride(0) < static_cast<std::int64_t>(cols))
        throw InvalidArgument("the matrix's row stride (" + std::to_string(a.stride(0)) +
                              " elements) is smaller than a row (" + std::to_string(cols) +
                              "; negative or overlapping rows): pass numpy.ascontiguousarray(a)");
    return static_cast<std::uint64_t>(a.stride(0)) * a.itemsize();
}

}  // namespace

Source host_source(const HostArray& array, Form form) {
    Source s;
    s.type = element_type_of(array.dtype());
    s.host = array.data();
    s.count = array.size();
    for (std::size_t d = 0; d < array.ndim(); ++d) s.shape.push_back(array.shape(d));
    s.extent_bytes = s.count * array.itemsize();
    if (form == Form::rows || form == Form::columns || form == Form::image) {
        s.row_step_bytes = row_step_bytes(array);
        if (s.shape[0] > 1) s.extent_bytes = (s.shape[0] - 1) * s.row_step_bytes + s.shape[1] * array.itemsize();
    } else if (!c_contiguous(array)) {
        throw InvalidArgument(
            "the array is not C-contiguous: clreduce reads 1-D and N-D arrays in place, and 2-D arrays with a row step "
            "(strided rows); pass numpy.ascontiguousarray(a) for other views");
    }
    if (form == Form::offsets && array.ndim() != 1)
        throw InvalidArgument("segmented calls take 1-D values; got " + std::to_string(array.ndim()) + "-D");
    if (form == Form::batch && array.ndim() < 1) throw InvalidArgument("axis=-1 needs an array of at least one axis");
    return s;
}

Source buffer_source(const clreduce::Reducer& reducer, std::uintptr_t mem, const std::string& dtype,
                     std::uint64_t offset, const std::vector<std::uint64_t>& shape, Form form) {
    if (form == Form::offsets && shape.size() != 1)
        throw InvalidArgument("segmented calls take 1-D values; got " + std::to_string(shape.size()) + "-D");
    if (mem == 0) throw InvalidArgument("null OpenCL buffer handle");
    Source s;
    s.type = clreduce::parse_type(dtype);
    s.buffer = cl::Buffer(reinterpret_cast<cl_mem>(mem), true);  // retains: the caller keeps its own reference
    cl_context context = nullptr;
    clreduce::check(clGetMemObjectInfo(s.buffer(), CL_MEM_CONTEXT, sizeof context, &context, nullptr),
                    "clGetMemObjectInfo(CL_MEM_CONTEXT)");
    if (context != reducer.context()())
        throw InvalidArgument(
            "the buffer belongs to another OpenCL context than the reducer's (make the reducer from the array's queue: "
            "clreduce.Reducer(queue=...))");
    s.offset = offset;
    s.shape = shape;
    s.count = 1;
    for (auto n : shape) s.count *= n;
    return s;
}

clreduce::Segments segments_of(Form form, const Source& s) {
    switch (form) {
        case Form::rows: return clreduce::Segments::rows(s.shape.at(0), s.shape.at(1), s.row_step_bytes);
        case Form::columns: return clreduce::Segments::columns(s.shape.at(0), s.shape.at(1), s.row_step_bytes);
        case Form::batch: {
            const std::uint64_t length = s.shape.back();
            std::uint64_t count = 1;
            for (std::size_t d = 0; d + 1 < s.shape.size(); ++d) count *= s.shape[d];
            return clreduce::Segments::batch(count, length);
        }
        case Form::offsets: return clreduce::Segments::offsets(s.offsets);
        default: throw InvalidArgument("not a segmented form");
    }
}

clreduce::LaunchParams make_params(const std::optional<std::string>& accumulator,
                                   const std::optional<std::string>& float_mode,
                                   const std::optional<std::string>& overflow) {
    clreduce::LaunchParams p;
    if (accumulator) p.accumulator = clreduce::parse_type(*accumulator);
    if (float_mode) p.float_mode = clreduce::parse_float_mode(*float_mode);
    if (overflow) p.overflow = clreduce::parse_integer_overflow(*overflow);
    return p;
}

}  // namespace clreduce_python
