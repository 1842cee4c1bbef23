#pragma once
// The host ranges of every live PinnedHostMemory, by context: the host-data path asks whether
// a call's data lies inside one, to write it to the device in one command instead of
// streaming it through the pinned buffers. Process-wide, thread-safe.
#include <cstdint>

#include <clreduce/opencl.hpp>

namespace clreduce {

void add_pinned_range(cl_context context, const void* begin, std::uint64_t bytes);
void remove_pinned_range(const void* begin);
// Whether [data, data + bytes) lies inside one pinned range of `context`.
bool in_pinned_range(cl_context context, const void* data, std::uint64_t bytes);

}  // namespace clreduce
