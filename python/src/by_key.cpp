// Reducer.reduce_by_key and Reducer.reduce_by_key_buffer: the runs of equal consecutive keys,
// each run's key and its values' result (Reducer::reduce_by_key), as two numpy arrays.
#include <cstdint>
#include <string>
#include <vector>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include "binding.hpp"
#include "results.hpp"

namespace clreduce_python {

using namespace nb::literals;
using clreduce::InvalidArgument;

namespace {

using Opt = std::optional<std::string>;

// The core call over keys and values (both host arrays or both device buffers): the runs' keys
// as their bytes (the Python layer views them as the keys' dtype), and their results.
nb::object reduce_by_key(const clreduce::Reducer& r, const std::string& op, const Source& keys, const Source& values,
                         const clreduce::LaunchParams& p) {
    if (keys.count != values.count)
        throw InvalidArgument("reduce_by_key: " + std::to_string(keys.count) + " keys and " +
                              std::to_string(values.count) + " values");
    return clreduce::visit_type(values.type, [&](auto element) {
        using T = decltype(element);
        return clreduce::visit_operation(clreduce::parse_operation(op), [&](auto operation) {
            constexpr clreduce::Operation Op = decltype(operation)::value;
            std::vector<unsigned char> run_keys;
            std::vector<clreduce::result_t<Op, T>> results;
            {
                nb::gil_scoped_release release;
                if (keys.host)
                    r.reduce_by_key<Op, T>(keys.host, keys.type, static_cast<const T*>(values.host), values.count,
                                           run_keys, results, p);
                else
                    r.reduce_by_key<Op, T>(keys.buffer, keys.offset, keys.type, values.buffer, values.offset,
                                           values.count, run_keys, results, p);
            }
            return nb::make_tuple(to_numpy(std::move(run_keys)), to_numpy(std::move(results)));
        });
    });
}

}  // namespace

void add_by_key_methods(nb::class_<clreduce::Reducer>& reducer) {
    reducer
        .def(
            "reduce_by_key",
            [](const clreduce::Reducer& r, const std::string& op, const HostArray& keys, const HostArray& values,
               Opt acc, Opt mode, Opt overflow) {
        return reduce_by_key(r, op, host_source(keys, Form::offsets), host_source(values, Form::offsets),
                             make_params(acc, mode, overflow));
            },
            "op"_a, "keys"_a, "values"_a, "accumulator"_a = nb::none(), "float_mode"_a = nb::none(),
            "overflow"_a = nb::none(),
            "`op` over each run of equal consecutive keys of two 1-D host arrays: (the runs' keys as bytes, "
            "their results).")
        .def(
            "reduce_by_key_buffer",
            [](const clreduce::Reducer& r, const std::string& op, std::uintptr_t key_mem, const std::string& key_dtype,
               std::uint64_t key_offset, std::uintptr_t value_mem, const std::string& value_dtype,
               std::uint64_t value_offset, std::uint64_t count, Opt acc, Opt mode, Opt overflow) {
        return reduce_by_key(r, op, buffer_source(r, key_mem, key_dtype, key_offset, {count}, Form::offsets),
                             buffer_source(r, value_mem, value_dtype, value_offset, {count}, Form::offsets),
                             make_params(acc, mode, overflow));
            },
            "op"_a, "key_mem"_a, "key_dtype"_a, "key_offset"_a, "value_mem"_a, "value_dtype"_a, "value_offset"_a,
            "count"_a, "accumulator"_a = nb::none(), "float_mode"_a = nb::none(), "overflow"_a = nb::none(),
            "reduce_by_key over two cl_mem of the reducer's context (`count` keys and values from their offsets).");
}

}  // namespace clreduce_python
