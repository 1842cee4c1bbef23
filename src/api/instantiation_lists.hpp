#pragma once
// The lists the entry points are written out for: every element type, and every operation with
// the result type of its value. Each user defines its macro, applies the list, and undefines it
// (api/operations.cpp, api/segment_operations.cpp, api/partial.cpp, multi/multi_reducer.cpp).

// M(T) for every element type a Reducer takes.
#define CLREDUCE_FOR_EACH_ELEMENT_TYPE(M) \
    M(std::int8_t)                        \
    M(std::uint8_t)                       \
    M(std::int16_t)                       \
    M(std::uint16_t)                      \
    M(std::int32_t)                       \
    M(std::uint32_t)                      \
    M(std::int64_t)                       \
    M(std::uint64_t)                      \
    M(half)                               \
    M(float)                              \
    M(double)

// The operations come from their list, CLREDUCE_OPERATIONS(M, T) (operation.hpp), which
// calls M(T, name, R) for each.
