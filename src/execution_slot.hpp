#pragma once
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include <clreduce/opencl.hpp>

#include "kernel_spec.hpp"
#include "program_cache.hpp"

namespace clreduce {

struct AtomicCounters {
    std::atomic<std::uint64_t> programs_built{0};
    std::atomic<std::uint64_t> programs_loaded{0};
    std::atomic<std::uint64_t> kernels_created{0};
    std::atomic<std::uint64_t> buffers_allocated{0};
};

// The device resources of one call in flight: kernel objects (clSetKernelArg is not
// thread-safe, so each slot has its own), the two result words, the partials of a second
// pass and the upload scratch for host data. Buffers only grow, so a repeated call
// allocates nothing.
class ExecutionSlot {
public:
    ExecutionSlot(cl::Context context, ProgramCache& programs, const KernelSources& sources, AtomicCounters& counters);

    cl::Kernel& kernel(const KernelSpec& spec);
    const cl::Buffer& partials(std::uint64_t bytes);
    const cl::Buffer& staging(std::uint64_t bytes);
    // Room for two result words of `state_bytes` each. A new buffer forgets prepared_for.
    const cl::Buffer& result(std::uint64_t state_bytes);

    // The kernels ping-pong between two result words: a call uses word `next_word` and
    // resets the other to the identity for the call after it, so the atomic finish needs
    // no separate clear. `prepared_for` names the plug-in and accumulator whose identity the
    // next word holds; unknown after an error or on a fresh slot, which costs one fill.
    cl_uint next_word = 0;
    std::optional<std::pair<KernelOp, ElementType>> prepared_for;

private:
    const cl::Buffer& grow(cl::Buffer& buffer, std::uint64_t& capacity, std::uint64_t bytes);

    cl::Context context_;
    ProgramCache& programs_;
    const KernelSources& sources_;
    AtomicCounters& counters_;
    std::map<KernelSpec, cl::Kernel> kernels_;
    cl::Buffer result_;
    cl::Buffer partials_;
    cl::Buffer staging_;
    std::uint64_t result_bytes_ = 0;
    std::uint64_t partials_bytes_ = 0;
    std::uint64_t staging_bytes_ = 0;
};

// Hands out slots to concurrent calls and takes them back; makes a new one only when all
// are busy.
class SlotPool {
public:
    SlotPool(cl::Context context, ProgramCache& programs, const KernelSources& sources, AtomicCounters& counters);

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
    ProgramCache& programs_;
    const KernelSources& sources_;
    AtomicCounters& counters_;
    std::mutex mutex_;
    std::vector<std::unique_ptr<ExecutionSlot>> idle_;
};

}  // namespace clreduce
