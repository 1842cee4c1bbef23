#include <clreduce/pinned_host_memory.hpp>

#include <clreduce/error.hpp>
#include <clreduce/reducer.hpp>

#include "exec/execution_slot.hpp"
#include "exec/pinned_ranges.hpp"

namespace clreduce {

struct PinnedHostMemory::State {
    cl::CommandQueue queue;
    MappedBuffer memory;      // mapped once, as the streaming's buffers are
    AtomicCounters counters;  // what MappedBuffer::reserve counts; not reported

    ~State() {
        if (memory.host == nullptr) return;
        remove_pinned_range(memory.host);
        memory.release(queue);  // unmapped, then released
    }
};

PinnedHostMemory::PinnedHostMemory(const Reducer& reducer, std::uint64_t bytes) : state_(std::make_unique<State>()) {
    if (bytes == 0) throw InvalidArgument("PinnedHostMemory: bytes must be positive");
    State& s = *state_;
    s.queue = reducer.queue();
    s.memory.reserve(reducer.context(), s.queue, bytes, s.counters);
    add_pinned_range(reducer.context()(), s.memory.host, bytes);
}

PinnedHostMemory::~PinnedHostMemory() = default;
PinnedHostMemory::PinnedHostMemory(PinnedHostMemory&&) noexcept = default;
PinnedHostMemory& PinnedHostMemory::operator=(PinnedHostMemory&&) noexcept = default;

void* PinnedHostMemory::data() const { return state_ ? state_->memory.host : nullptr; }
std::uint64_t PinnedHostMemory::size() const { return state_ ? state_->memory.bytes : 0; }

}  // namespace clreduce
