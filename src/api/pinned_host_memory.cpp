#include <clreduce/pinned_host_memory.hpp>

#include <clreduce/error.hpp>
#include <clreduce/reducer.hpp>

#include "exec/pinned_ranges.hpp"

namespace clreduce {

struct PinnedHostMemory::State {
    cl::CommandQueue queue;
    cl::Buffer buffer;
    void* host = nullptr;
    std::uint64_t bytes = 0;

    ~State() {
        if (host == nullptr) return;
        remove_pinned_range(host);
        // Nobody to report a failure to; the buffer is released either way.
        if (queue.enqueueUnmapMemObject(buffer, host) == CL_SUCCESS) queue.finish();
    }
};

PinnedHostMemory::PinnedHostMemory(const Reducer& reducer, std::uint64_t bytes) : state_(std::make_unique<State>()) {
    if (bytes == 0) throw InvalidArgument("PinnedHostMemory: bytes must be positive");
    State& s = *state_;
    s.queue = reducer.queue();
    cl_int err = CL_SUCCESS;
    s.buffer = cl::Buffer(reducer.context(), CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, static_cast<size_t>(bytes),
                          nullptr, &err);
    check(err, "clCreateBuffer(CL_MEM_ALLOC_HOST_PTR)");
    void* host = s.queue.enqueueMapBuffer(s.buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, static_cast<size_t>(bytes),
                                          nullptr, nullptr, &err);
    check(err, "clEnqueueMapBuffer");
    s.host = host;
    s.bytes = bytes;
    add_pinned_range(reducer.context()(), host, bytes);
}

PinnedHostMemory::~PinnedHostMemory() = default;
PinnedHostMemory::PinnedHostMemory(PinnedHostMemory&&) noexcept = default;
PinnedHostMemory& PinnedHostMemory::operator=(PinnedHostMemory&&) noexcept = default;

void* PinnedHostMemory::data() const { return state_ ? state_->host : nullptr; }
std::uint64_t PinnedHostMemory::size() const { return state_ ? state_->bytes : 0; }

}  // namespace clreduce
