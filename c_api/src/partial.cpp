// Partial results as bytes: made by a reduction, merged, and read as a value.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <clreduce/clreduce.h>
#include <clreduce/error.hpp>
#include <clreduce/partial.hpp>
#include <clreduce/reducer.hpp>

#include "convert.hpp"
#include "guard.hpp"

using namespace clreduce::c_api;

namespace {

// The partial's bytes into the caller's buffer: *size always, the bytes where they fit
// (`bytes` NULL: the size only).
void write_bytes(const clreduce::Partial& p, void* bytes, std::size_t capacity, std::size_t* size) {
    require(size, "size");
    const std::vector<std::uint8_t> encoded = p.to_bytes();
    *size = encoded.size();
    if (bytes == nullptr) return;
    if (capacity < encoded.size())
        throw clreduce::InvalidArgument("a buffer of " + std::to_string(capacity) +
                                        " bytes (`capacity`) for a partial of " + std::to_string(encoded.size()));
    std::memcpy(bytes, encoded.data(), encoded.size());
}

clreduce::Partial read_bytes(const void* bytes, std::size_t size, const char* name) {
    require(bytes, name);
    return clreduce::Partial::from_bytes(static_cast<const std::uint8_t*>(bytes), size);
}

// The operation as the C enumeration, for dispatch.
clreduce_operation c_operation(clreduce::Operation op) {
    for (int c = 0; c < CLREDUCE_OPERATION_COUNT; ++c)
        if (to_operation(static_cast<clreduce_operation>(c)) == op) return static_cast<clreduce_operation>(c);
    throw clreduce::Error("internal: an operation without a clreduce_operation");
}

}  // namespace

extern "C" {

clreduce_status clreduce_partial(const clreduce_reducer* reducer, clreduce_operation op, clreduce_type type,
                                 const void* data, uint64_t count, const clreduce_options* options, void* bytes,
                                 size_t capacity, size_t* size) {
    return guarded("clreduce_partial", [&] {
        const clreduce::Reducer& r = reducer_of(reducer);
        require(size, "size");
        const clreduce::LaunchParams params = to_params(options);
        const clreduce::Operation operation = to_operation(op);
        clreduce::visit_type(to_type(type), [&](auto t) {
            using T = decltype(t);
            write_bytes(r.partial<T>(operation, static_cast<const T*>(data), count, params), bytes, capacity, size);
        });
    });
}

clreduce_status clreduce_partial_buffer(const clreduce_reducer* reducer, clreduce_operation op, clreduce_type type,
                                        cl_mem buffer, uint64_t offset, uint64_t count, const clreduce_options* options,
                                        void* bytes, size_t capacity, size_t* size) {
    return guarded("clreduce_partial_buffer", [&] {
        const clreduce::Reducer& r = reducer_of(reducer);
        require(size, "size");
        require(buffer, "buffer");
        const clreduce::LaunchParams params = to_params(options);
        const clreduce::Operation operation = to_operation(op);
        const cl::Buffer b(buffer, true);
        clreduce::visit_type(to_type(type), [&](auto t) {
            using T = decltype(t);
            write_bytes(r.partial<T>(operation, b, offset, count, params), bytes, capacity, size);
        });
    });
}

clreduce_status clreduce_partial_merge(const void* first, size_t first_size, const void* later, size_t later_size,
                                       void* bytes, size_t capacity, size_t* size) {
    return guarded("clreduce_partial_merge", [&] {
        require(size, "size");
        clreduce::Partial merged = read_bytes(first, first_size, "first");
        merged.merge(read_bytes(later, later_size, "later"));
        write_bytes(merged, bytes, capacity, size);
    });
}

clreduce_status clreduce_partial_value(const void* bytes, size_t size, clreduce_value* value) {
    return guarded("clreduce_partial_value", [&] {
        require(value, "value");
        const clreduce::Partial p = read_bytes(bytes, size, "bytes");
        dispatch(c_operation(p.operation()), from_type(p.element()), [&](auto op_constant, auto t) {
            using T = decltype(t);
            *value = to_value(p.value<decltype(op_constant)::value, T>());
        });
    });
}

}  // extern "C"
