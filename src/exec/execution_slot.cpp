#include "exec/execution_slot.hpp"

#include "exec/kernel_resources.hpp"

#include <algorithm>
#include <array>

#include <clreduce/error.hpp>
#include "tuning/tuning_data.hpp"

namespace clreduce {

ExecutionSlot::ExecutionSlot(cl::Context context, cl::CommandQueue queue, ProgramCache& programs,
                             const KernelSources& sources, AtomicCounters& counters)
    : context_(std::move(context)),
      queue_(std::move(queue)),
      programs_(programs),
      sources_(sources),
      counters_(counters) {}

ExecutionSlot::~ExecutionSlot() {
    host_.release(queue_);
    for (MappedBuffer& m : pinned_staging_) m.release(queue_);
}

unsigned char* MappedBuffer::reserve(const cl::Context& context, cl::CommandQueue& queue, std::uint64_t size,
                                     AtomicCounters& counters) {
    if (host != nullptr && size <= bytes) return host;
    release(queue);
    cl_int err = CL_SUCCESS;
    buffer = cl::Buffer(context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, static_cast<size_t>(size), nullptr, &err);
    check(err, "clCreateBuffer(CL_MEM_ALLOC_HOST_PTR)");
    counters.buffers_allocated.fetch_add(1, std::memory_order_relaxed);
    void* mapped = queue.enqueueMapBuffer(buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, static_cast<size_t>(size),
                                          nullptr, nullptr, &err);
    check(err, "clEnqueueMapBuffer");
    host = static_cast<unsigned char*>(mapped);
    bytes = size;
    return host;
}

void MappedBuffer::release(cl::CommandQueue& queue) noexcept {
    if (host != nullptr && queue.enqueueUnmapMemObject(buffer, host) == CL_SUCCESS) queue.finish();
    host = nullptr;
    bytes = 0;
    buffer = cl::Buffer();
}

std::uint64_t ExecutionSlot::next_sentinel() { return tuning_mix(++sentinels_); }

unsigned char* ExecutionSlot::host_result(std::uint64_t bytes) {
    return host_.reserve(context_, queue_, std::max<std::uint64_t>(bytes, 64), counters_);
}

std::vector<MappedBuffer>& ExecutionSlot::pinned_staging(std::size_t count, std::uint64_t bytes) {
    if (pinned_staging_.size() < count) pinned_staging_.resize(count);
    for (std::size_t k = 0; k < count; ++k) pinned_staging_[k].reserve(context_, queue_, bytes, counters_);
    return pinned_staging_;
}

cl::Kernel& ExecutionSlot::kernel(const KernelSpec& spec) {
    auto found = kernels_.find(spec);
    if (found != kernels_.end()) return found->second;
    const cl::Program program = programs_.get(spec.source(sources_), spec.build_options());
    cl_int err = CL_SUCCESS;
    cl::Kernel kernel(program, spec.kernel_name(), &err);
    check(err, "clCreateKernel");
    check_kernel_resources(kernel, queue_.getInfo<CL_QUEUE_DEVICE>(), spec.work_group_size);
    counters_.kernels_created.fetch_add(1, std::memory_order_relaxed);
    return kernels_.emplace(spec, std::move(kernel)).first->second;
}

cl::Kernel& ExecutionSlot::helper_kernel(const std::string& file, const std::string& options, const char* name,
                                         std::uint32_t work_group_size) {
    const std::string key = file + '\n' + options + '\n' + name;
    auto found = helper_kernels_.find(key);
    if (found != helper_kernels_.end()) return found->second;
    const cl::Program program = programs_.get(sources_.get(file), options);
    cl_int err = CL_SUCCESS;
    cl::Kernel kernel(program, name, &err);
    check(err, "clCreateKernel");
    check_kernel_resources(kernel, queue_.getInfo<CL_QUEUE_DEVICE>(), work_group_size);
    counters_.kernels_created.fetch_add(1, std::memory_order_relaxed);
    return helper_kernels_.emplace(key, std::move(kernel)).first->second;
}

const cl::Buffer& ExecutionSlot::grow(cl::Buffer& buffer, std::uint64_t& capacity, std::uint64_t bytes) {
    if (bytes > capacity || buffer() == nullptr) {
        buffer = cl::Buffer();  // release the old one first: device memory may be tight
        cl_int err = CL_SUCCESS;
        buffer = cl::Buffer(context_, CL_MEM_READ_WRITE, static_cast<size_t>(bytes), nullptr, &err);
        check(err, "clCreateBuffer");
        capacity = bytes;
        counters_.buffers_allocated.fetch_add(1, std::memory_order_relaxed);
    }
    return buffer;
}

const cl::Buffer& ExecutionSlot::partials(std::uint64_t bytes) { return grow(partials_, partials_bytes_, bytes); }
const cl::Buffer& ExecutionSlot::staging(std::uint64_t bytes) { return grow(staging_, staging_bytes_, bytes); }
const cl::Buffer& ExecutionSlot::mask_staging(std::uint64_t bytes) {
    return grow(mask_staging_, mask_staging_bytes_, bytes);
}
const cl::Buffer& ExecutionSlot::segment_buffer(SegmentBuffer which, std::uint64_t bytes) {
    const auto i = static_cast<std::size_t>(which);
    return grow(segment_buffers_[i], segment_buffer_bytes_[i], std::max<std::uint64_t>(bytes, 8));
}
const cl::Buffer& ExecutionSlot::result(std::uint64_t state_bytes, std::uint64_t states) {
    // At least 16 bytes, so that the common 8-byte states never grow it.
    const std::uint64_t bytes = std::max<std::uint64_t>(16, states * state_bytes);
    if (bytes > result_bytes_ || result_() == nullptr) prepared_for.reset();
    return grow(result_, result_bytes_, bytes);
}

ExecutionSlot::ByKeyTiles ExecutionSlot::by_key_tiles(std::uint64_t tiles) {
    // The flags hold the generation above two state bits: a new buffer before it would wrap.
    constexpr cl_uint kLastGeneration = (1u << 30) - 1;
    if (tiles > by_key_room_ || by_key_words_() == nullptr || by_key_generation_ == kLastGeneration) {
        by_key_words_ = cl::Buffer();
        const std::uint64_t room = std::max(tiles, by_key_room_);
        // As done_counter's: the 0s from the creation, not from a command.
        std::vector<unsigned char> zeros(static_cast<std::size_t>(by_key_tiles_bytes(room)));
        cl_int err = CL_SUCCESS;
        by_key_words_ =
            cl::Buffer(context_, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, zeros.size(), zeros.data(), &err);
        check(err, "clCreateBuffer");
        counters_.buffers_allocated.fetch_add(1, std::memory_order_relaxed);
        by_key_room_ = room;
        by_key_generation_ = 0;
    }
    return ByKeyTiles{&by_key_words_, by_key_room_, ++by_key_generation_};
}

const cl::Buffer& ExecutionSlot::done_counter() {
    if (done_() != nullptr) return done_;
    cl_int err = CL_SUCCESS;
    // One count per channel of an image whose channels share a launch (Channels: 4 at most).
    // The 0s are the buffer's contents from its creation (CL_MEM_COPY_HOST_PTR), before any
    // command: a write enqueued for them, even a blocking one, was not always seen by the first
    // kernel on Intel's CPU runtime with an out-of-order queue.
    std::array<cl_uint, 4> zeros{};
    cl::Buffer counter(context_, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zeros, zeros.data(), &err);
    check(err, "clCreateBuffer");
    counters_.buffers_allocated.fetch_add(1, std::memory_order_relaxed);
    done_ = std::move(counter);
    return done_;
}

SlotPool::SlotPool(cl::Context context, cl::CommandQueue queue, ProgramCache& programs, const KernelSources& sources,
                   AtomicCounters& counters)
    : context_(std::move(context)),
      queue_(std::move(queue)),
      programs_(programs),
      sources_(sources),
      counters_(counters) {}

SlotPool::Lease SlotPool::acquire() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!idle_.empty()) {
            auto slot = std::move(idle_.back());
            idle_.pop_back();
            return Lease(*this, std::move(slot));
        }
    }
    return Lease(*this, std::make_unique<ExecutionSlot>(context_, queue_, programs_, sources_, counters_));
}

void SlotPool::give_back(std::unique_ptr<ExecutionSlot> slot) {
    if (!slot) return;
    std::lock_guard<std::mutex> lock(mutex_);
    idle_.push_back(std::move(slot));
}

}  // namespace clreduce
