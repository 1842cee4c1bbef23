#pragma once
// Host threads that copy one block of memory together (the streaming of host data into pinned
// memory, host_stream.hpp): one thread's memcpy from pageable memory reaches a fraction of a
// fast link's bandwidth. One pool per process, its threads started on first use and kept; a
// copy creates no thread and allocates nothing.
#include <cstddef>

namespace clreduce {

// Copies bytes [0, bytes) of src to dst with up to `threads` threads, the calling thread
// among them (0: all of the pool's); returns when every byte is copied. Any number of host
// threads may copy at once: each takes part in its own copy, so a copy never waits for a
// busy pool.
void parallel_copy(void* dst, const void* src, std::size_t bytes, unsigned threads = 0);

// The pool's threads, the calling thread included: up to 16, at most the host's cores.
unsigned copy_pool_threads();

}  // namespace clreduce
