#pragma once
#include <array>
#include <atomic>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <clreduce/opencl.hpp>

#include "delivery/read_pacing.hpp"
#include "kernels/kernel_spec.hpp"
#include "kernels/program_cache.hpp"

namespace clreduce {

struct AtomicCounters {
    std::atomic<std::uint64_t> programs_built{0};
    std::atomic<std::uint64_t> programs_loaded{0};
    std::atomic<std::uint64_t> kernels_created{0};
    std::atomic<std::uint64_t> buffers_allocated{0};
};

// The bytes of reduce_by_key's tile words for `room` tiles (cl_kernels/by_key.cl's layout): 16
// bytes of control, a 4-byte flag a tile (to a multiple of 16 bytes), then two pairs of at most
// 32 bytes a tile.
inline std::uint64_t by_key_tiles_bytes(std::uint64_t room) { return 16 + (4 * room + 15) / 16 * 16 + 2 * room * 32; }

// Pinned host memory: a CL_MEM_ALLOC_HOST_PTR buffer mapped once, for as long as it is kept.
// A read into it or a write from it skips the driver's own staging copy.
struct MappedBuffer {
    cl::Buffer buffer;
    unsigned char* host = nullptr;
    std::uint64_t bytes = 0;

    // At least `bytes` (the old buffer unmapped and released first where it is smaller).
    unsigned char* reserve(const cl::Context& context, cl::CommandQueue& queue, std::uint64_t bytes,
                           AtomicCounters& counters);
    // Unmapped before release; a failure here has nobody to report to.
    void release(cl::CommandQueue& queue) noexcept;
};

// The device resources of one call in flight: kernel objects (clSetKernelArg is not
// thread-safe, so each slot has its own), the result words, the partials of a second
// pass, the upload scratch for host data and pinned host memory the result is read into.
// Buffers only grow, so a repeated call allocates nothing.
class ExecutionSlot {
public:
    ExecutionSlot(cl::Context context, cl::CommandQueue queue, ProgramCache& programs, const KernelSources& sources,
                  AtomicCounters& counters);
    ~ExecutionSlot();
    ExecutionSlot(const ExecutionSlot&) = delete;
    ExecutionSlot& operator=(const ExecutionSlot&) = delete;

    cl::Kernel& kernel(const KernelSpec& spec);
    // A kernel of a small helper program (a cl_kernels/ file compiled alone with `options`, as
    // run_heads.cl for reduce_by_key), kept like the reduction's kernels.
    cl::Kernel& helper_kernel(const std::string& file, const std::string& options, const char* name,
                              std::uint32_t work_group_size);
    // When this slot's synchronous calls with the first launch `spec` issue their read.
    ReadPacing& pacing(const KernelSpec& spec) { return pacing_[spec]; }
    // The fastest read through this slot, any kernel: how long a read of a finished kernel takes.
    double fastest_read_us = std::numeric_limits<double>::infinity();
    // A fresh sentinel for a polled read: random-looking, never the same twice in a row.
    std::uint64_t next_sentinel();
    const cl::Buffer& partials(std::uint64_t bytes);
    const cl::Buffer& staging(std::uint64_t bytes);
    // An image's mask from host data (host-data image forms with a mask).
    const cl::Buffer& mask_staging(std::uint64_t bytes);
    // Segmented calls' buffers (segment_launch.cpp): the segments' states and counts, host
    // offsets copied in, the long segments' list and their chunks' table; reduce_by_key's
    // (run_heads.cpp): the groups' counts of run heads, a bit a key marking the heads, the
    // runs' CSR offsets and their keys; and (by_key_values.cl) the states of the runs that cross
    // the mark pass's chunks, two a chunk.
    enum class SegmentBuffer { states, list, longs, chunks, run_counts, run_mask, run_offsets, run_keys, run_carries };
    const cl::Buffer& segment_buffer(SegmentBuffer which, std::uint64_t bytes);
    // Room for `states` states of `state_bytes` each: the two result words, then (last-group
    // finish) the partials. A new buffer forgets prepared_for.
    const cl::Buffer& result(std::uint64_t state_bytes, std::uint64_t states = 2);
    // The last-group finish's count of groups done: 0 between calls (each call leaves it 0);
    // made on first use, holding 0s from its creation.
    const cl::Buffer& done_counter();
    // Pinned host memory of at least `bytes` (mapped once), where results are read to: a
    // read into pinned memory skips the driver's staging copy.
    unsigned char* host_result(std::uint64_t bytes);
    // `count` pinned buffers of at least `bytes` each, which host data is streamed through
    // (exec/host_stream.hpp); kept, and only grown, for later calls.
    std::vector<MappedBuffer>& pinned_staging(std::size_t count, std::uint64_t bytes);

    // The kernels ping-pong between two result words: a call uses word `next_word` and
    // resets the other to the identity for the call after it, so the atomic finish needs
    // no separate clear. `prepared_for` names the plug-in and accumulator whose identity the
    // next word holds, how many fixed-point numbers make a word (the exact atomic finish; 0
    // for states) and how many pairs of words (an image's channels in one launch; else 1);
    // unknown after an error or on a fresh slot, which costs one fill.
    cl_uint next_word = 0;
    std::optional<std::tuple<KernelOp, ElementType, std::uint32_t, std::uint32_t>> prepared_for;
    // On an out-of-order queue: the last command of this slot's previous asynchronous call,
    // which the next call through the slot must wait for.
    cl::Event pending;
    // stream_host_data's lists (exec/host_stream.cpp): the last write from each pinned buffer
    // and every write's event, empty between calls; kept for their room.
    std::vector<cl::Event> stream_last;
    std::vector<cl::Event> stream_writes;
    // reduce_by_key's groups' counts of heads, read back (exec/run_heads.cpp); kept for their room.
    std::vector<cl_ulong> run_group_counts;
    // reduce_by_key's one launch (exec/fused_by_key.cpp, cl_kernels/by_key.cl): the words of at
    // least `tiles` tiles (a control block, a flag a tile, two pairs of up to 32 bytes a tile),
    // 0 from their creation, and this call's generation, which the flags carry: never 0, one
    // more each call, so that no call needs the words cleared (a new buffer starts again at 1).
    struct ByKeyTiles {
        const cl::Buffer* words = nullptr;
        std::uint64_t room = 0;  // tiles
        cl_uint generation = 0;
    };
    ByKeyTiles by_key_tiles(std::uint64_t tiles);
    // How many runs the one launch's outputs (SegmentBuffer::run_keys and states) hold, and how
    // many its last call found (what the next call reads back with the count).
    std::uint64_t by_key_capacity = 0;
    std::uint64_t by_key_last_runs = 0;

private:
    const cl::Buffer& grow(cl::Buffer& buffer, std::uint64_t& capacity, std::uint64_t bytes);

    cl::Context context_;
    cl::CommandQueue queue_;
    MappedBuffer host_;
    std::vector<MappedBuffer> pinned_staging_;
    cl::Buffer done_;
    ProgramCache& programs_;
    const KernelSources& sources_;
    AtomicCounters& counters_;
    std::map<KernelSpec, cl::Kernel> kernels_;
    std::map<KernelSpec, ReadPacing> pacing_;
    cl::Buffer result_;
    cl::Buffer partials_;
    cl::Buffer staging_;
    cl::Buffer mask_staging_;
    std::map<std::string, cl::Kernel> helper_kernels_;
    std::array<cl::Buffer, 9> segment_buffers_;
    std::array<std::uint64_t, 9> segment_buffer_bytes_{};
    std::uint64_t result_bytes_ = 0;
    std::uint64_t partials_bytes_ = 0;
    std::uint64_t staging_bytes_ = 0;
    std::uint64_t mask_staging_bytes_ = 0;
    std::uint64_t sentinels_ = 0;
    cl::Buffer by_key_words_;
    std::uint64_t by_key_room_ = 0;
    cl_uint by_key_generation_ = 0;
};

// Hands out slots to concurrent calls and takes them back; makes a new one only when all
// are busy.
class SlotPool {
public:
    SlotPool(cl::Context context, cl::CommandQueue queue, ProgramCache& programs, const KernelSources& sources,
             AtomicCounters& counters);

    class Lease {
    public:
        Lease(SlotPool& pool, std::unique_ptr<ExecutionSlot> slot) : pool_(pool), slot_(std::move(slot)) {}
        ~Lease() { pool_.give_back(std::move(slot_)); }
        Lease(const Lease&) = delete;
        Lease& operator=(const Lease&) = delete;
        ExecutionSlot& operator*() const { return *slot_; }
        ExecutionSlot* operator->() const { return slot_.get(); }

    private:
        SlotPool& pool_;
        std::unique_ptr<ExecutionSlot> slot_;
    };

    Lease acquire();

private:
    void give_back(std::unique_ptr<ExecutionSlot> slot);

    cl::Context context_;
    cl::CommandQueue queue_;
    ProgramCache& programs_;
    const KernelSources& sources_;
    AtomicCounters& counters_;
    std::mutex mutex_;
    std::vector<std::unique_ptr<ExecutionSlot>> idle_;
};

}  // namespace clreduce
