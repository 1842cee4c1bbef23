#include <clreduce/reducer.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

#include <clreduce/cache.hpp>
#include <clreduce/device_selection.hpp>

#include "exact_state.hpp"
#include "execution_slot.hpp"
#include "kernel_source.hpp"
#include "kernel_spec.hpp"
#include "program_cache.hpp"
#include "reducer_tuning.hpp"
#include "result_read.hpp"
#include "transform/expression.hpp"
#include "tuner.hpp"

namespace clreduce {
namespace {

// An environment switch: "1" on, "0" off, anything else the default.
bool switched_on(const char* name, bool by_default) {
    const char* value = std::getenv(name);
    const std::string setting = value != nullptr ? value : "";
    return setting == "1" || (by_default && setting != "0");
}

cl::Context make_context(const cl::Device& device) {
    if (device() == nullptr) throw InvalidArgument("Reducer: null device");
    cl_int err = CL_SUCCESS;
    cl::Context context(device, nullptr, nullptr, nullptr, &err);
    check(err, "clCreateContext");
    return context;
}

cl::CommandQueue make_queue(const cl::Context& context, const cl::Device& device) {
    cl_int err = CL_SUCCESS;
    cl::CommandQueue queue(context, device, 0, &err);
    check(err, "clCreateCommandQueue");
    return queue;
}

cl::Device queue_device(const cl::CommandQueue& queue) {
    if (queue() == nullptr) throw InvalidArgument("Reducer: null command queue");
    cl_device_id device = nullptr;
    check(clGetCommandQueueInfo(queue(), CL_QUEUE_DEVICE, sizeof(device), &device, nullptr), "clGetCommandQueueInfo");
    return cl::Device(device, true);
}

// The commands of one call. Events are made only where needed: to order the commands on an
// out-of-order queue, and for callers who ask for the kernel events.
// An asynchronous call also needs the last command's event (it returns it), and may start
// after events of the caller's and of the slot's previous call.
class Chain {
public:
    Chain(bool out_of_order, CallInfo* info, bool keep_last = false) : ordered_(out_of_order), info_(info), keep_last_(keep_last) {}
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
        if (ordered_) wait_.assign(1, next_);
        else wait_.clear();
        if (is_kernel && info_ != nullptr) info_->kernel_events.push_back(next_);
        last_ = std::move(next_);
        next_ = cl::Event();
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
};

// The largest plug-in state the host reads back.
constexpr std::size_t kMaxStateBytes = 1024;

// A value of accumulator type `type` at `bits`, converted to R.
template <class R>
R decode(ElementType type, const unsigned char* bits) {
    auto as = [bits](auto v) {
        std::memcpy(&v, bits, sizeof v);
        return static_cast<R>(v);
    };
    switch (type) {
        case ElementType::int8: return as(std::int8_t{});
        case ElementType::uint8: return as(std::uint8_t{});
        case ElementType::int16: return as(std::int16_t{});
        case ElementType::uint16: return as(std::uint16_t{});
        case ElementType::int32: return as(std::int32_t{});
        case ElementType::uint32: return as(std::uint32_t{});
        case ElementType::int64: return as(std::int64_t{});
        case ElementType::uint64: return as(std::uint64_t{});
        case ElementType::float32: return as(float{});
        case ElementType::float64: return as(double{});
        case ElementType::float16: break;
    }
    throw Error("internal: unexpected accumulator " + std::string(type_name(type)));
}

// `value` rounded to the floating-point accumulator type, as its bits.
void store_rounded(double value, ElementType accumulator, unsigned char* bits) {
    if (accumulator == ElementType::float32) {
        const float f = static_cast<float>(value);
        std::memcpy(bits, &f, sizeof f);
    } else {
        std::memcpy(bits, &value, sizeof value);
    }
}

// What the kernels computed for one call: the plan, the plug-in and its final state.
struct Outcome {
    LaunchPlan plan;
    OpKernel kernel;
    std::uint64_t count = 0;
    unsigned char bits[kMaxStateBytes] = {};

    std::size_t acc_size() const { return type_size(plan.accumulator); }
    // The value of an add/add_compensated/multiply/min/max state.
    template <class R>
    R value() const {
        if (kernel.op == KernelOp::add_exact) return static_cast<R>(round_exact_state(bits, plan.accumulator));
        if (kernel.op == KernelOp::add_compensated)
            return static_cast<R>(decode<double>(plan.accumulator, bits) +
                                  decode<double>(plan.accumulator, bits + acc_size()));
        return decode<R>(plan.accumulator, bits);
    }
    void require_elements(std::string_view what) const {
        if (count == 0) throw InvalidArgument(std::string(what) + " of an empty range is undefined");
    }
};

// What to reduce: the operation it is planned as, its plug-in, and the transform if any.
struct Job {
    Operation op = Operation::sum;
    std::optional<Combine> combine;  // transform_reduce
    std::string transform;
};

// One channel of a pitched image (CLREDUCE_PITCHED).
struct Pitch {
    std::uint64_t cols = 0;
    std::uint64_t pitch = 0;  // elements
    std::uint32_t channels = 1;
    std::uint32_t channel = 0;
};

}  // namespace

struct Reducer::State {
    State(cl::Context context_, cl::CommandQueue queue_, cl::Device device_)
        : sources(KernelSources::load()),
          context(std::move(context_)),
          queue(std::move(queue_)),
          device(std::move(device_)),
          info(DeviceInfo::query(device)),
          programs(context, device, cache_directory(), counters.programs_built, counters.programs_loaded),
          slots(context, queue, programs, sources, counters) {
        cl_command_queue_properties properties = 0;
        check(queue.getInfo(CL_QUEUE_PROPERTIES, &properties), "clGetCommandQueueInfo");
        out_of_order = (properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0;
        paced_reads = switched_on("CLREDUCE_READ_PACING", info.is_nvidia);
        result_read = switched_on("CLREDUCE_READ_POLLING", info.is_nvidia) ? ResultRead::polled : ResultRead::blocking;
        tuning.load(TuningDatabase(), info);
    }

    // The caller's params, then this device's tuned entry for the operation's family, then defaults.
    LaunchPlan plan(ElementType type, Operation op, std::uint64_t n, const LaunchParams& params) const {
        if (const auto tuned = tuning.lookup(type, operation_family(op), n))
            return make_plan(op, type, n, info, params, *tuned);
        return make_plan(op, type, n, info, params);
    }

    void check_buffer(const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count, std::size_t element_size) const;
    std::uint64_t buffer_bytes(const cl::Buffer& buffer) const;
    LaunchPlan plan_for(const Job& job, ElementType element, std::uint64_t count, const LaunchParams& params) const;
    OpKernel kernel_for(const Job& job, const LaunchPlan& plan) const;
    // The plan and kernel of one call, recorded in `call` when asked for.
    Outcome prepare(const Job& job, ElementType element, std::uint64_t count, const LaunchParams& params,
                    CallInfo* call) const;
    KernelSpec first_spec(const Job& job, const Outcome& out) const;
    // Enqueues the plan's launches over [offset, offset + count) of `input`. Synchronous
    // (device == nullptr): reads the final state's bits into result_bits. Asynchronous: the
    // kernels write the value into *device (first.device_result) and nothing is waited for.
    void reduce(const LaunchPlan& plan, const KernelSpec& first, const cl::Buffer& input, std::uint64_t offset,
                std::uint64_t count, ExecutionSlot& slot, Chain& chain, unsigned char* result_bits,
                const Pitch* pitch = nullptr, const DeviceResult* device = nullptr);
    const cl::Buffer& upload(ExecutionSlot& slot, Chain& chain, const void* data, std::uint64_t bytes);

    template <class T>
    Outcome run(const Job& job, const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count,
                const LaunchParams& params, CallInfo* info);
    template <class T>
    Outcome run(const Job& job, const T* data, std::uint64_t count, const LaunchParams& params, CallInfo* info);
    template <class T, class R>
    cl::Event run_async(const Job& job, const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count,
                        const cl::Buffer& result, std::uint64_t result_offset, const LaunchParams& params,
                        const std::vector<cl::Event>& wait, bool make_event);
    // The chain of one call through `slot`: on an out-of-order queue it starts after the
    // slot's previous asynchronous call.
    Chain chain_for(ExecutionSlot& slot, CallInfo* call, bool keep_last = false) const {
        Chain chain(out_of_order, call, keep_last);
        if (out_of_order) chain.wait_for({slot.pending});
        return chain;
    }
    template <class T>
    std::array<Outcome, 4> run_image(const Job& job, const cl::Buffer* buffer, const T* data, const Image& image,
                                     const LaunchParams& params);

    KernelSources sources;
    cl::Context context;
    cl::CommandQueue queue;
    cl::Device device;
    AtomicCounters counters;
    DeviceInfo info;
    ProgramCache programs;
    SlotPool slots;
    bool out_of_order = false;
    // Synchronous reads wait for the kernel's expected end (ReadPacing): on NVIDIA, where
    // it was measured; CLREDUCE_READ_PACING=0 turns it off, =1 on everywhere (tests).
    bool paced_reads = false;
    // Synchronous results polled in pinned memory (src/result_read.hpp): on NVIDIA, where it
    // was measured; CLREDUCE_READ_POLLING=0 reads blocking, =1 polls everywhere (tests).
    ResultRead result_read = ResultRead::blocking;
    ReducerTuning tuning;
};

std::uint64_t Reducer::State::buffer_bytes(const cl::Buffer& buffer) const {
    if (buffer() == nullptr) throw InvalidArgument("buffer is null");
    cl_context owner = nullptr;
    check(clGetMemObjectInfo(buffer(), CL_MEM_CONTEXT, sizeof(owner), &owner, nullptr), "clGetMemObjectInfo");
    if (owner != context()) throw InvalidArgument("buffer belongs to another OpenCL context than the reducer's");
    size_t bytes = 0;
    check(clGetMemObjectInfo(buffer(), CL_MEM_SIZE, sizeof(bytes), &bytes, nullptr), "clGetMemObjectInfo");
    return bytes;
}

void Reducer::State::check_buffer(const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count,
                                  std::size_t element_size) const {
    const std::uint64_t elements = buffer_bytes(buffer) / element_size;
    if (offset > elements || count > elements - offset)
        throw InvalidArgument("range [" + std::to_string(offset) + ", " + std::to_string(offset) + " + " +
                              std::to_string(count) + ") is past the end of the buffer (" +
                              std::to_string(elements) + " elements of " + std::to_string(element_size) +
                              " bytes)");
}

LaunchPlan Reducer::State::plan_for(const Job& job, ElementType element, std::uint64_t count,
                                    const LaunchParams& params) const {
    if (!job.combine) return plan(element, job.op, count, params);
    // transform_reduce: the accumulator of a sum, whatever the combine.
    LaunchParams p = params;
    if (!p.accumulator) p.accumulator = accumulator_for(Operation::sum, element, info);
    if (*job.combine == Combine::min || *job.combine == Combine::max) {
        // Planned as min/max, compared in the sum's accumulator: the state and its atomic finish
        // are checked again for that type.
        LaunchPlan planned = plan(element, job.op, count, p);
        planned.accumulator = make_plan(Operation::sum, element, count, info, p).accumulator;  // validated
        if (std::uint64_t(planned.work_group_size) * type_size(planned.accumulator) > info.local_mem_size)
            throw InvalidArgument("work_group_size " + std::to_string(planned.work_group_size) +
                                  " needs more local memory than the device has");
        const KernelOp op = *job.combine == Combine::min ? KernelOp::min : KernelOp::max;
        if (planned.inter_group == InterGroup::atomic &&
            !has_atomic_finish(op, planned.accumulator, planned.float_mode, info)) {
            if (params.inter_group)
                throw Unsupported("atomic inter-group combine is not available for transform_reduce with min/max in " +
                                  std::string(type_name(planned.accumulator)) + " on '" + info.name +
                                  "'; use InterGroup::second_pass");
            planned.inter_group = InterGroup::second_pass;
        }
        return planned;
    }
    return plan(element, job.op, count, p);
}

OpKernel Reducer::State::kernel_for(const Job& job, const LaunchPlan& plan) const {
    return job.combine ? transform_kernel(*job.combine, plan.float_mode, plan.accumulator)
                       : op_kernel(job.op, plan.float_mode, plan.accumulator);
}

void Reducer::State::reduce(const LaunchPlan& plan, const KernelSpec& first, const cl::Buffer& input,
                            std::uint64_t offset, std::uint64_t count, ExecutionSlot& slot, Chain& chain,
                            unsigned char* result_bits, const Pitch* pitch, const DeviceResult* device) {
    const std::size_t state_bytes = state_size(first.op, plan.accumulator);
    if (state_bytes > kMaxStateBytes) throw Error("internal: state larger than kMaxStateBytes");
    const bool last_group = first.finish == Finish::last_group;
    const bool exact = first.finish == Finish::exact_atomic;
    // The result words: states, or sets of the exact atomic finish's fixed-point numbers.
    const std::size_t word_bytes = exact ? first.exact_copies * exact_state_size(plan.accumulator) : state_bytes;
    const cl::Buffer& result = slot.result(word_bytes, last_group ? 2 + plan.groups : 2);
    const cl_uint word = slot.next_word;
    const std::tuple<KernelOp, ElementType, std::uint32_t> identity{first.op, plan.accumulator,
                                                                    exact ? first.exact_copies : 0};
    const cl::Buffer& result_out = device != nullptr ? *device->buffer : result;
    const cl_ulong result_offset = device != nullptr ? device->offset : 0;
    try {
        if ((first.finish == Finish::atomic || exact) && slot.prepared_for != identity) {
            const std::uint64_t start = exact ? 0 : atomic_identity(first.op, plan.accumulator);
            cl_int err = word_bytes == 4
                             ? queue.enqueueFillBuffer(result, static_cast<std::uint32_t>(start), 0, 2 * word_bytes,
                                                       chain.wait(), chain.event())
                             : queue.enqueueFillBuffer(result, start, 0, 2 * word_bytes, chain.wait(), chain.event());
            check(err, "clEnqueueFillBuffer");
            chain.done(false);
        }
        const cl::Buffer& first_out = first.finish == Finish::partial ? slot.partials(plan.groups * state_bytes)
                                                                      : result;
        cl::Kernel& kernel = slot.kernel(first);
        check(kernel.setArg(0, input), "clSetKernelArg");
        check(kernel.setArg(1, cl_ulong(offset)), "clSetKernelArg");
        check(kernel.setArg(2, cl_ulong(count)), "clSetKernelArg");
        check(kernel.setArg(3, first_out), "clSetKernelArg");
        check(kernel.setArg(4, word), "clSetKernelArg");
        check(kernel.setArg(5, result_out), "clSetKernelArg");
        check(kernel.setArg(6, result_offset), "clSetKernelArg");
        check(kernel.setArg(7, slot.done_counter(queue)), "clSetKernelArg");
        if (pitch != nullptr) {
            check(kernel.setArg(8, cl_ulong(pitch->cols)), "clSetKernelArg");
            check(kernel.setArg(9, cl_ulong(pitch->pitch)), "clSetKernelArg");
            check(kernel.setArg(10, cl_uint(pitch->channels)), "clSetKernelArg");
            check(kernel.setArg(11, cl_uint(pitch->channel)), "clSetKernelArg");
        }
        check(queue.enqueueNDRangeKernel(kernel, cl::NullRange,
                                         cl::NDRange(static_cast<size_t>(plan.groups * plan.work_group_size)),
                                         cl::NDRange(plan.work_group_size), chain.wait(), chain.event()),
              "clEnqueueNDRangeKernel");
        chain.done(true);

        if (first.finish == Finish::partial) {
            cl::Kernel& combine = slot.kernel(second_pass_spec(plan, first, info));
            check(combine.setArg(0, first_out), "clSetKernelArg");
            check(combine.setArg(1, cl_ulong(0)), "clSetKernelArg");
            check(combine.setArg(2, cl_ulong(plan.groups)), "clSetKernelArg");
            check(combine.setArg(3, result), "clSetKernelArg");
            check(combine.setArg(4, word), "clSetKernelArg");
            check(combine.setArg(5, result_out), "clSetKernelArg");
            check(combine.setArg(6, result_offset), "clSetKernelArg");
            check(combine.setArg(7, slot.done_counter(queue)), "clSetKernelArg");
            check(queue.enqueueNDRangeKernel(combine, cl::NullRange, cl::NDRange(plan.work_group_size),
                                             cl::NDRange(plan.work_group_size), chain.wait(), chain.event()),
                  "clEnqueueNDRangeKernel");
            chain.done(true);
        }
        if (device == nullptr) {
            ReadSchedule schedule;
            schedule.enqueued = Clock::now();
            schedule.how = result_read;
            if (schedule.how == ResultRead::polled) schedule.sentinel = slot.next_sentinel();
            if (paced_reads) {
                schedule.pacing = &slot.pacing(first);
                schedule.fastest_read_us = &slot.fastest_read_us;
            }
            unsigned char* pinned = slot.host_result(word_bytes);
            const double waited_us =
                read_result(queue, result, word * word_bytes, word_bytes, pinned, chain.wait(), schedule);
            if (chain.info() != nullptr) chain.info()->read_wait_us += waited_us;
            if (exact)
                store_rounded(round_exact_states(pinned, first.exact_copies, plan.accumulator), plan.accumulator,
                              result_bits);
            else
                std::memcpy(result_bits, pinned, state_bytes);
        }
    } catch (...) {
        slot.prepared_for.reset();
        throw;
    }
    // A device result leaves the result words alone: the next call uses the same word. Its
    // partials, though, may have overwritten words laid out for another state size.
    if (device != nullptr) {
        if (last_group) slot.prepared_for.reset();
        return;
    }
    slot.next_word = word ^ 1u;
    slot.prepared_for = identity;
}

const cl::Buffer& Reducer::State::upload(ExecutionSlot& slot, Chain& chain, const void* data, std::uint64_t bytes) {
    if (bytes > info.max_alloc_size)
        throw InvalidArgument(std::to_string(bytes) + " bytes of host data exceed the device's largest buffer (" +
                              std::to_string(info.max_alloc_size) + " bytes)");
    const cl::Buffer& staging = slot.staging(bytes);
    try {
        check(queue.enqueueWriteBuffer(staging, CL_FALSE, 0, static_cast<size_t>(bytes), data, nullptr,
                                       chain.event()),
              "clEnqueueWriteBuffer");
    } catch (...) {
        // The write may still be reading `data`; do not return before it stops.
        queue.finish();
        throw;
    }
    chain.done(false);
    return staging;
}

Outcome Reducer::State::prepare(const Job& job, ElementType element, std::uint64_t count,
                                const LaunchParams& params, CallInfo* call) const {
    Outcome out;
    out.plan = plan_for(job, element, count, params);
    out.kernel = kernel_for(job, out.plan);
    out.count = count;
    if (call != nullptr) *call = CallInfo{out.plan, {}};
    return out;
}

KernelSpec Reducer::State::first_spec(const Job& job, const Outcome& out) const {
    KernelSpec first = first_pass_spec(out.plan, out.kernel, info);
    first.transform = job.transform;
    return first;
}

template <class T>
Outcome Reducer::State::run(const Job& job, const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count,
                            const LaunchParams& params, CallInfo* call) {
    check_buffer(buffer, offset, count, sizeof(T));
    Outcome out = prepare(job, element_traits<T>::type, count, params, call);
    if (count == 0) return out;
    auto slot = slots.acquire();
    Chain chain = chain_for(*slot, call);
    reduce(out.plan, first_spec(job, out), buffer, offset, count, *slot, chain, out.bits);
    return out;
}

template <class T>
Outcome Reducer::State::run(const Job& job, const T* data, std::uint64_t count, const LaunchParams& params,
                            CallInfo* call) {
    if (data == nullptr && count > 0) throw InvalidArgument("host pointer is null");
    if (count > std::numeric_limits<std::uint64_t>::max() / sizeof(T))
        throw InvalidArgument("count " + std::to_string(count) + " is too large");
    Outcome out = prepare(job, element_traits<T>::type, count, params, call);
    if (count == 0) return out;
    const KernelSpec first = first_spec(job, out);
    auto slot = slots.acquire();
    Chain chain = chain_for(*slot, call);
    const cl::Buffer& staging = upload(*slot, chain, data, count * sizeof(T));
    try {
        reduce(out.plan, first, staging, 0, count, *slot, chain, out.bits);
    } catch (...) {
        queue.finish();
        throw;
    }
    return out;
}

template <class T, class R>
cl::Event Reducer::State::run_async(const Job& job, const cl::Buffer& buffer, std::uint64_t offset,
                                    std::uint64_t count, const cl::Buffer& result, std::uint64_t result_offset,
                                    const LaunchParams& params, const std::vector<cl::Event>& wait,
                                    bool make_event) {
    check_buffer(buffer, offset, count, sizeof(T));
    const std::uint64_t result_bytes = buffer_bytes(result);
    if (result_offset % sizeof(R) != 0 || result_bytes < sizeof(R) || result_offset > result_bytes - sizeof(R))
        throw InvalidArgument("result_offset " + std::to_string(result_offset) + " must be a multiple of " +
                              std::to_string(sizeof(R)) + " with room for the " + std::to_string(sizeof(R)) +
                              "-byte result in the result buffer (" + std::to_string(result_bytes) + " bytes)");
    if (count == 0 && job.op != Operation::sum)
        throw InvalidArgument(std::string(operation_name(job.op)) + " of an empty range is undefined");
    if (params.inter_group == InterGroup::atomic || params.inter_group == InterGroup::exact_atomic)
        throw Unsupported("asynchronous calls finish with InterGroup::last_group or second_pass, not " +
                          std::string(to_string(*params.inter_group)));
    LaunchParams p = params;
    if (p.float_mode == FloatMode::atomic) p.float_mode = FloatMode::deterministic;
    Outcome out = prepare(job, element_traits<T>::type, count, p, nullptr);
    if (out.kernel.op == KernelOp::add_exact)
        throw Unsupported("FloatMode::correctly_rounded rounds on the host; asynchronous calls do not offer it");
    if (out.plan.inter_group == InterGroup::atomic || out.plan.inter_group == InterGroup::exact_atomic)
        out.plan.inter_group = has_last_group_finish(info) ? InterGroup::last_group : InterGroup::second_pass;
    KernelSpec first = first_spec(job, out);
    first.device_result = true;
    first.result_type = element_traits<R>::type;
    auto slot = slots.acquire();
    Chain chain = chain_for(*slot, nullptr, make_event);
    chain.wait_for(wait);
    const DeviceResult destination{&result, result_offset};
    reduce(out.plan, first, buffer, offset, count, *slot, chain, nullptr, nullptr, &destination);
    if (out_of_order) slot->pending = chain.last();
    return chain.take_last();
}

// One launch chain per channel over the pitched image: channel c reads element c of every pixel.
template <class T>
std::array<Outcome, 4> Reducer::State::run_image(const Job& job, const cl::Buffer* buffer, const T* data,
                                                 const Image& image, const LaunchParams& params) {
    if (image.channels < 1 || image.channels > 4)
        throw InvalidArgument("image channels must be 1 to 4, got " + std::to_string(image.channels));
    const std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
    if (image.cols > max / image.channels / sizeof(T) || (image.cols > 0 && image.rows > max / image.cols))
        throw InvalidArgument("image of " + std::to_string(image.rows) + " x " + std::to_string(image.cols) +
                              " pixels is too large");
    const std::uint64_t row_bytes = image.cols * image.channels * sizeof(T);
    const std::uint64_t step = image.step == 0 ? row_bytes : image.step;
    if (step < row_bytes)
        throw InvalidArgument("image step " + std::to_string(step) + " bytes is smaller than a row (" +
                              std::to_string(row_bytes) + " bytes)");
    if (step % sizeof(T) != 0 || image.offset % sizeof(T) != 0)
        throw InvalidArgument("image step and offset must be multiples of the element size (" +
                              std::to_string(sizeof(T)) + " bytes)");
    if (image.rows > 1 && step > (max - row_bytes) / (image.rows - 1))
        throw InvalidArgument("image step x rows overflows 64 bits");
    const std::uint64_t span = image.rows == 0 || image.cols == 0 ? 0 : (image.rows - 1) * step + row_bytes;
    if (buffer != nullptr) {
        const std::uint64_t bytes = buffer_bytes(*buffer);
        if (image.offset > bytes || span > bytes - image.offset)
            throw InvalidArgument("image of " + std::to_string(span) + " bytes at offset " +
                                  std::to_string(image.offset) + " is past the end of the buffer (" +
                                  std::to_string(bytes) + " bytes)");
    } else {
        if (data == nullptr && span > 0) throw InvalidArgument("host pointer is null");
        if (image.offset != 0) throw InvalidArgument("Image::offset must be 0 for host data");
    }
    LaunchParams p = params;
    p.vector_width = 1;  // pixels are read one element at a time
    const std::uint64_t count = image.rows * image.cols;
    std::array<Outcome, 4> out;
    for (auto& o : out) {
        o.plan = plan_for(job, element_traits<T>::type, count, p);
        o.kernel = kernel_for(job, o.plan);
    }
    if (count == 0) return out;
    auto slot = slots.acquire();
    Chain chain = chain_for(*slot, nullptr);
    const cl::Buffer* input = buffer;
    if (buffer == nullptr) input = &upload(*slot, chain, data, span);
    KernelSpec first = first_pass_spec(out[0].plan, out[0].kernel, info);
    first.pitched = true;
    try {
        for (std::uint32_t c = 0; c < image.channels; ++c) {
            const Pitch pitch{image.cols, step / sizeof(T), image.channels, c};
            out[c].count = count;
            reduce(out[c].plan, first, *input, image.offset / sizeof(T), count, *slot, chain, out[c].bits, &pitch);
        }
    } catch (...) {
        queue.finish();
        throw;
    }
    return out;
}

Reducer::Reducer() : Reducer(default_device()) {}

Reducer::Reducer(std::string_view device_spec) : Reducer(select_device(device_spec)) {}

Reducer::Reducer(const cl::Device& device) {
    cl::Context context = make_context(device);
    cl::CommandQueue queue = make_queue(context, device);
    state_ = std::make_unique<State>(std::move(context), std::move(queue), device);
}

Reducer::Reducer(const cl::Context& context, const cl::CommandQueue& queue) {
    if (context() == nullptr) throw InvalidArgument("Reducer: null context");
    const cl::Device device = queue_device(queue);
    cl_context queue_context = nullptr;
    check(clGetCommandQueueInfo(queue(), CL_QUEUE_CONTEXT, sizeof(queue_context), &queue_context, nullptr),
          "clGetCommandQueueInfo");
    if (queue_context != context()) throw InvalidArgument("Reducer: the queue belongs to another context");
    state_ = std::make_unique<State>(context, queue, device);
}

Reducer::~Reducer() = default;
Reducer::Reducer(Reducer&&) noexcept = default;
Reducer& Reducer::operator=(Reducer&&) noexcept = default;

const DeviceInfo& Reducer::device_info() const { return state_->info; }
const cl::Context& Reducer::context() const { return state_->context; }
const cl::CommandQueue& Reducer::queue() const { return state_->queue; }

Counters Reducer::counters() const {
    Counters c;
    c.programs_built = state_->counters.programs_built.load();
    c.programs_loaded = state_->counters.programs_loaded.load();
    c.kernels_created = state_->counters.kernels_created.load();
    c.buffers_allocated = state_->counters.buffers_allocated.load();
    return c;
}

LaunchPlan Reducer::plan(ElementType type, std::uint64_t count, const LaunchParams& params) const {
    return state_->plan(type, Operation::sum, count, params);
}

LaunchPlan Reducer::plan(ElementType type, Operation op, std::uint64_t count, const LaunchParams& params) const {
    return state_->plan(type, op, count, params);
}

TuneResult Reducer::tune(const TuneOptions& options) {
    TuneResult result = measure_tuning(*this, options);
    state_->tuning.adopt(result.entries);
    if (options.save && !result.entries.empty()) save_tuning(state_->tuning.database(), state_->info, result);
    return result;
}

void Reducer::use_tuning_database(const TuningDatabase& database) { state_->tuning.load(database, state_->info); }
TuningDatabase Reducer::tuning_database() const { return state_->tuning.database(); }
std::vector<TunedEntry> Reducer::tuned_entries() const { return state_->tuning.entries(); }

namespace {

// The results of each operation from its outcome.
template <class T>
sum_type_t<T> sum_result(const Outcome& o) {
    return o.count == 0 ? sum_type_t<T>(0) : o.value<sum_type_t<T>>();
}
template <class T>
sum_type_t<T> product_result(const Outcome& o) {
    return o.count == 0 ? sum_type_t<T>(1) : o.value<sum_type_t<T>>();
}
template <class T>
T min_result(const Outcome& o) {
    o.require_elements("min");
    return o.value<T>();
}
template <class T>
T max_result(const Outcome& o) {
    o.require_elements("max");
    return o.value<T>();
}
template <class T>
MinMax<T> minmax_result(const Outcome& o) {
    o.require_elements("minmax");
    return {decode<T>(o.plan.accumulator, o.bits), decode<T>(o.plan.accumulator, o.bits + o.acc_size())};
}
template <class T>
ArgResult<T> arg_result(const Outcome& o) {
    o.require_elements(o.kernel.op == KernelOp::argmin ? "argmin" : "argmax");
    ArgResult<T> r;
    r.value = decode<T>(o.plan.accumulator, o.bits + 8);
    std::memcpy(&r.index, o.bits, sizeof r.index);
    return r;
}
template <class T>
std::uint64_t count_nonzero_result(const Outcome& o) {
    return o.count == 0 ? 0 : o.value<std::uint64_t>();
}
template <class T>
double mean_result(const Outcome& o) {
    o.require_elements("mean");
    return o.value<double>() / static_cast<double>(o.count);
}
template <class T>
square_sum_t<T> sum_of_squares_result(const Outcome& o) {
    return o.count == 0 ? square_sum_t<T>(0) : o.value<square_sum_t<T>>();
}
template <class T>
double norm_l1_result(const Outcome& o) {
    return o.count == 0 ? 0.0 : o.value<double>();
}
template <class T>
double norm_l2_result(const Outcome& o) {
    return o.count == 0 ? 0.0 : std::sqrt(o.value<double>());
}
template <class T>
double norm_inf_result(const Outcome& o) {
    return o.count == 0 ? 0.0 : o.value<double>();
}
template <class T>
sum_type_t<T> transform_result(const Outcome& o, Combine combine) {
    if (o.count == 0) {
        if (combine == Combine::min || combine == Combine::max)
            throw InvalidArgument("transform_reduce with min or max of an empty range is undefined");
        return sum_type_t<T>(combine == Combine::product ? 1 : 0);
    }
    return o.value<sum_type_t<T>>();
}

template <class V, class T, class F>
Channels<V> per_channel(const std::array<Outcome, 4>& outcomes, std::uint32_t channels, F result) {
    Channels<V> out{};
    for (std::uint32_t c = 0; c < channels; ++c) out[c] = result(outcomes[c]);
    return out;
}

Job job_of(Operation op) { return Job{op, std::nullopt, {}}; }

}  // namespace

#define CLREDUCE_DEFINE_OPERATION(R, NAME, OP)                                                                    \
    template <class T>                                                                                           \
    R Reducer::NAME(const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count, const LaunchParams& params, \
                    CallInfo* info) const {                                                                      \
        return NAME##_result<T>(state_->run<T>(job_of(OP), buffer, offset, count, params, info));                \
    }                                                                                                            \
    template <class T>                                                                                           \
    R Reducer::NAME(const T* data, std::uint64_t count, const LaunchParams& params, CallInfo* info) const {      \
        return NAME##_result<T>(state_->run<T>(job_of(OP), data, count, params, info));                          \
    }
CLREDUCE_DEFINE_OPERATION(sum_type_t<T>, sum, Operation::sum)
CLREDUCE_DEFINE_OPERATION(sum_type_t<T>, product, Operation::product)
CLREDUCE_DEFINE_OPERATION(T, min, Operation::min)
CLREDUCE_DEFINE_OPERATION(T, max, Operation::max)
CLREDUCE_DEFINE_OPERATION(MinMax<T>, minmax, Operation::minmax)
CLREDUCE_DEFINE_OPERATION(std::uint64_t, count_nonzero, Operation::count_nonzero)
CLREDUCE_DEFINE_OPERATION(double, mean, Operation::mean)
CLREDUCE_DEFINE_OPERATION(square_sum_t<T>, sum_of_squares, Operation::sum_of_squares)
CLREDUCE_DEFINE_OPERATION(double, norm_l1, Operation::norm_l1)
CLREDUCE_DEFINE_OPERATION(double, norm_l2, Operation::norm_l2)
CLREDUCE_DEFINE_OPERATION(double, norm_inf, Operation::norm_inf)
#undef CLREDUCE_DEFINE_OPERATION

template <class T>
cl::Event Reducer::sum_async(const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count,
                             const cl::Buffer& result, std::uint64_t result_offset, const LaunchParams& params,
                             const std::vector<cl::Event>& wait, bool make_event) const {
    return state_->run_async<T, sum_type_t<T>>(job_of(Operation::sum), buffer, offset, count, result, result_offset,
                                               params, wait, make_event);
}
template <class T>
cl::Event Reducer::min_async(const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count,
                             const cl::Buffer& result, std::uint64_t result_offset, const LaunchParams& params,
                             const std::vector<cl::Event>& wait, bool make_event) const {
    return state_->run_async<T, T>(job_of(Operation::min), buffer, offset, count, result, result_offset, params, wait,
                                   make_event);
}
template <class T>
cl::Event Reducer::max_async(const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count,
                             const cl::Buffer& result, std::uint64_t result_offset, const LaunchParams& params,
                             const std::vector<cl::Event>& wait, bool make_event) const {
    return state_->run_async<T, T>(job_of(Operation::max), buffer, offset, count, result, result_offset, params, wait,
                                   make_event);
}

template <class T>
ArgResult<T> Reducer::argmin(const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count,
                             const LaunchParams& params, CallInfo* info) const {
    return arg_result<T>(state_->run<T>(job_of(Operation::argmin), buffer, offset, count, params, info));
}
template <class T>
ArgResult<T> Reducer::argmin(const T* data, std::uint64_t count, const LaunchParams& params, CallInfo* info) const {
    return arg_result<T>(state_->run<T>(job_of(Operation::argmin), data, count, params, info));
}
template <class T>
ArgResult<T> Reducer::argmax(const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count,
                             const LaunchParams& params, CallInfo* info) const {
    return arg_result<T>(state_->run<T>(job_of(Operation::argmax), buffer, offset, count, params, info));
}
template <class T>
ArgResult<T> Reducer::argmax(const T* data, std::uint64_t count, const LaunchParams& params, CallInfo* info) const {
    return arg_result<T>(state_->run<T>(job_of(Operation::argmax), data, count, params, info));
}

template <class T>
sum_type_t<T> Reducer::transform_reduce(const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count,
                                        std::string_view expression, Combine combine, const LaunchParams& params,
                                        CallInfo* info) const {
    const Job job{combine_operation(combine), combine, transform_source(expression)};
    return transform_result<T>(state_->run<T>(job, buffer, offset, count, params, info), combine);
}
template <class T>
sum_type_t<T> Reducer::transform_reduce(const T* data, std::uint64_t count, std::string_view expression,
                                        Combine combine, const LaunchParams& params, CallInfo* info) const {
    const Job job{combine_operation(combine), combine, transform_source(expression)};
    return transform_result<T>(state_->run<T>(job, data, count, params, info), combine);
}

#define CLREDUCE_DEFINE_IMAGE(V, NAME, OP)                                                                        \
    template <class T>                                                                                           \
    Channels<V> Reducer::NAME(const cl::Buffer& buffer, const Image& image, const LaunchParams& params) const {  \
        return per_channel<V, T>(state_->run_image<T>(job_of(OP), &buffer, nullptr, image, params), image.channels, \
                                 NAME##_result<T>);                                                              \
    }                                                                                                            \
    template <class T>                                                                                           \
    Channels<V> Reducer::NAME(const T* data, const Image& image, const LaunchParams& params) const {             \
        return per_channel<V, T>(state_->run_image<T>(job_of(OP), nullptr, data, image, params), image.channels,  \
                                 NAME##_result<T>);                                                              \
    }
CLREDUCE_DEFINE_IMAGE(sum_type_t<T>, sum, Operation::sum)
CLREDUCE_DEFINE_IMAGE(double, mean, Operation::mean)
CLREDUCE_DEFINE_IMAGE(T, min, Operation::min)
CLREDUCE_DEFINE_IMAGE(T, max, Operation::max)
CLREDUCE_DEFINE_IMAGE(std::uint64_t, count_nonzero, Operation::count_nonzero)
#undef CLREDUCE_DEFINE_IMAGE

namespace {

// cv::norm of a multi-channel image: the channels' sums (L1, L2) or maximum (inf) together.
double combine_norms(const std::array<Outcome, 4>& outcomes, std::uint32_t channels, Operation op) {
    double total = 0;
    for (std::uint32_t c = 0; c < channels; ++c) {
        const Outcome& o = outcomes[c];
        const double v = o.count == 0 ? 0.0 : o.value<double>();
        total = op == Operation::norm_inf ? std::max(total, v) : total + v;
    }
    return op == Operation::norm_l2 ? std::sqrt(total) : total;
}

void require_norm(Operation op) {
    if (op != Operation::norm_l1 && op != Operation::norm_l2 && op != Operation::norm_inf)
        throw InvalidArgument("norm: expected Operation::norm_l1, norm_l2 or norm_inf, got " +
                              std::string(operation_name(op)));
}

}  // namespace

template <class T>
double Reducer::norm(const cl::Buffer& buffer, const Image& image, Operation norm_op, const LaunchParams& params) const {
    require_norm(norm_op);
    return combine_norms(state_->run_image<T>(job_of(norm_op), &buffer, nullptr, image, params), image.channels,
                         norm_op);
}
template <class T>
double Reducer::norm(const T* data, const Image& image, Operation norm_op, const LaunchParams& params) const {
    require_norm(norm_op);
    return combine_norms(state_->run_image<T>(job_of(norm_op), nullptr, data, image, params), image.channels,
                         norm_op);
}

#define CLREDUCE_INSTANTIATE_RANGE(R, NAME, T)                                                                  \
    template R Reducer::NAME<T>(const cl::Buffer&, std::uint64_t, std::uint64_t, const LaunchParams&, CallInfo*) \
        const;                                                                                                 \
    template R Reducer::NAME<T>(const T*, std::uint64_t, const LaunchParams&, CallInfo*) const;
#define CLREDUCE_INSTANTIATE_IMAGE(R, NAME, T)                                              \
    template R Reducer::NAME<T>(const cl::Buffer&, const Image&, const LaunchParams&) const; \
    template R Reducer::NAME<T>(const T*, const Image&, const LaunchParams&) const;
#define CLREDUCE_INSTANTIATE(T)                                                                                     \
    CLREDUCE_INSTANTIATE_RANGE(sum_type_t<T>, sum, T)                                                              \
    CLREDUCE_INSTANTIATE_RANGE(sum_type_t<T>, product, T)                                                          \
    CLREDUCE_INSTANTIATE_RANGE(T, min, T)                                                                          \
    CLREDUCE_INSTANTIATE_RANGE(T, max, T)                                                                          \
    CLREDUCE_INSTANTIATE_RANGE(MinMax<T>, minmax, T)                                                               \
    CLREDUCE_INSTANTIATE_RANGE(ArgResult<T>, argmin, T)                                                            \
    CLREDUCE_INSTANTIATE_RANGE(ArgResult<T>, argmax, T)                                                            \
    CLREDUCE_INSTANTIATE_RANGE(std::uint64_t, count_nonzero, T)                                                    \
    CLREDUCE_INSTANTIATE_RANGE(double, mean, T)                                                                    \
    CLREDUCE_INSTANTIATE_RANGE(square_sum_t<T>, sum_of_squares, T)                                                 \
    CLREDUCE_INSTANTIATE_RANGE(double, norm_l1, T)                                                                 \
    CLREDUCE_INSTANTIATE_RANGE(double, norm_l2, T)                                                                 \
    CLREDUCE_INSTANTIATE_RANGE(double, norm_inf, T)                                                                \
    template sum_type_t<T> Reducer::transform_reduce<T>(const cl::Buffer&, std::uint64_t, std::uint64_t,           \
                                                        std::string_view, Combine, const LaunchParams&, CallInfo*)  \
        const;                                                                                                     \
    template sum_type_t<T> Reducer::transform_reduce<T>(const T*, std::uint64_t, std::string_view, Combine,        \
                                                        const LaunchParams&, CallInfo*) const;                     \
    CLREDUCE_INSTANTIATE_IMAGE(Channels<sum_type_t<T>>, sum, T)                                                    \
    CLREDUCE_INSTANTIATE_IMAGE(Channels<double>, mean, T)                                                          \
    CLREDUCE_INSTANTIATE_IMAGE(Channels<T>, min, T)                                                                \
    CLREDUCE_INSTANTIATE_IMAGE(Channels<T>, max, T)                                                                \
    CLREDUCE_INSTANTIATE_IMAGE(Channels<std::uint64_t>, count_nonzero, T)                                          \
    template double Reducer::norm<T>(const cl::Buffer&, const Image&, Operation, const LaunchParams&) const;       \
    template double Reducer::norm<T>(const T*, const Image&, Operation, const LaunchParams&) const;                 \
    template cl::Event Reducer::sum_async<T>(const cl::Buffer&, std::uint64_t, std::uint64_t, const cl::Buffer&,    \
                                             std::uint64_t, const LaunchParams&, const std::vector<cl::Event>&, bool) \
        const;                                                                                                     \
    template cl::Event Reducer::min_async<T>(const cl::Buffer&, std::uint64_t, std::uint64_t, const cl::Buffer&,    \
                                             std::uint64_t, const LaunchParams&, const std::vector<cl::Event>&, bool) \
        const;                                                                                                     \
    template cl::Event Reducer::max_async<T>(const cl::Buffer&, std::uint64_t, std::uint64_t, const cl::Buffer&,    \
                                             std::uint64_t, const LaunchParams&, const std::vector<cl::Event>&, bool) \
        const;
CLREDUCE_INSTANTIATE(std::int8_t)
CLREDUCE_INSTANTIATE(std::uint8_t)
CLREDUCE_INSTANTIATE(std::int16_t)
CLREDUCE_INSTANTIATE(std::uint16_t)
CLREDUCE_INSTANTIATE(std::int32_t)
CLREDUCE_INSTANTIATE(std::uint32_t)
CLREDUCE_INSTANTIATE(std::int64_t)
CLREDUCE_INSTANTIATE(std::uint64_t)
CLREDUCE_INSTANTIATE(half)
CLREDUCE_INSTANTIATE(float)
CLREDUCE_INSTANTIATE(double)
#undef CLREDUCE_INSTANTIATE
#undef CLREDUCE_INSTANTIATE_IMAGE
#undef CLREDUCE_INSTANTIATE_RANGE

}  // namespace clreduce
