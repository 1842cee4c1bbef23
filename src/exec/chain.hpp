#pragma once
// The commands of one call as a chain of OpenCL events, and where its launches read and write.
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include <clreduce/opencl.hpp>
#include <clreduce/reducer.hpp>

namespace clreduce {

// The commands of one call. Events are made only where needed: to order the commands on an
// out-of-order queue, and for callers who ask for the kernel events.
// An asynchronous call also needs the last command's event (it returns it), and may start
// after events of the caller's and of the slot's previous call.
class Chain {
public:
    Chain(bool out_of_order, CallInfo* info, bool keep_last = false)
        : ordered_(out_of_order), info_(info), keep_last_(keep_last) {}
    // The first command also waits for these.
    void wait_for(const std::vector<cl::Event>& events) {
        for (const auto& e : events)
            if (e() != nullptr) wait_.push_back(e);
    }
    // Wait list for the next command: the previous command, on an out-of-order queue.
    const std::vector<cl::Event>* wait() const { return wait_.empty() ? nullptr : &wait_; }
    // Where the next command's event goes, or null when nobody needs it.
    cl::Event* event() { return (ordered_ || keep_last_ || info_ != nullptr) ? &next_ : nullptr; }
    void done(bool is_kernel) {
        if (ordered_)
            wait_.assign(1, next_);
        else
            wait_.clear();
        if (is_kernel && info_ != nullptr) info_->kernel_events.push_back(next_);
        last_ = std::move(next_);
        next_ = cl::Event();
    }
    // Several commands with no order among them (the chunks of one upload) were enqueued with
    // events: the next command waits for all of them.
    void after(const std::vector<cl::Event>& events) {
        if (ordered_)
            wait_ = events;
        else
            wait_.clear();
        if (!events.empty()) last_ = events.back();
    }
    const cl::Event& last() const { return last_; }
    cl::Event take_last() { return std::move(last_); }
    CallInfo* info() const { return info_; }

private:
    bool ordered_;
    CallInfo* info_;
    bool keep_last_;
    std::vector<cl::Event> wait_;
    cl::Event next_;
    cl::Event last_;
};

// Where an asynchronous call leaves its result: bytes [offset, offset + size) of buffer.
struct DeviceResult {
    const cl::Buffer* buffer = nullptr;
    std::uint64_t offset = 0;
    // The caller's status word (AsyncTarget::status), where the kernels check the result
    // against its type (KernelSpec::result_check); else null.
    const cl::Buffer* status = nullptr;
};

// One channel of a pitched image (CLREDUCE_PITCHED).
struct Pitch {
    std::uint64_t cols = 0;
    std::uint64_t pitch = 0;  // elements
    std::uint32_t channels = 1;
    std::uint32_t channel = 0;
    // The mask (KernelSpec::masked): one byte per pixel, rows mask_pitch bytes apart.
    const cl::Buffer* mask = nullptr;
    std::uint64_t mask_offset = 0;  // bytes
    std::uint64_t mask_pitch = 0;   // bytes
    // Where every channel runs in one launch (KernelSpec::all_channels): channel c's state is
    // read into channel_bits[c], where the call's result_bits would hold one channel's.
    std::array<unsigned char*, 4> channel_bits{};
};

}  // namespace clreduce
