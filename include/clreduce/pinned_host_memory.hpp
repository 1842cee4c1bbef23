#pragma once
// Host memory that a device's copy engine reads directly: a CL_MEM_ALLOC_HOST_PTR buffer of a
// reducer's context, mapped for as long as the object lives. Host data that lies in it (the
// pointer and range forms, the whole or any part) goes to a GPU in one write at the link's
// speed, with no copy into the streaming's pinned buffers (host_staging.hpp), whose host copy
// bounds host data below about 256 MiB. Fill it once, reduce it many times; a CPU device reads
// it in place, as any host data.
#include <cstdint>
#include <memory>

#include <clreduce/opencl.hpp>

namespace clreduce {

class Reducer;

class PinnedHostMemory {
public:
    // `bytes` of pinned host memory in `reducer`'s context (InvalidArgument for 0; OpenCLError
    // naming clCreateBuffer or clEnqueueMapBuffer where the driver refuses, as NVIDIA's does for
    // 4 GiB). Other reducers of the same context recognise it too.
    PinnedHostMemory(const Reducer& reducer, std::uint64_t bytes);
    // Unmaps and releases it; no call may be reading it then.
    ~PinnedHostMemory();
    PinnedHostMemory(PinnedHostMemory&&) noexcept;
    PinnedHostMemory& operator=(PinnedHostMemory&&) noexcept;

    void* data() const;
    std::uint64_t size() const;  // bytes
    // The memory as size() / sizeof(T) elements of T.
    template <class T>
    T* as() const {
        return static_cast<T*>(data());
    }

private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace clreduce
