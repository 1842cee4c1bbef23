#include <clreduce/reducer.hpp>

#include <cstring>
#include <limits>

#include <clreduce/cache.hpp>
#include <clreduce/device_selection.hpp>

#include "execution_slot.hpp"
#include "kernel_source.hpp"
#include "kernel_spec.hpp"
#include "program_cache.hpp"
#include "tuner.hpp"
#include "reducer_tuning.hpp"

namespace clreduce {
namespace {

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
class Chain {
public:
    Chain(bool out_of_order, CallInfo* info) : ordered_(out_of_order), info_(info) {}
    // Wait list for the next command: the previous command, on an out-of-order queue.
    const std::vector<cl::Event>* wait() const { return wait_.empty() ? nullptr : &wait_; }
    // Where the next command's event goes, or null when nobody needs it.
    cl::Event* event() { return (ordered_ || info_ != nullptr) ? &next_ : nullptr; }
    void done(bool is_kernel) {
        if (ordered_) wait_.assign(1, next_);
        if (is_kernel && info_ != nullptr) info_->kernel_events.push_back(next_);
        next_ = cl::Event();
    }

private:
    bool ordered_;
    CallInfo* info_;
    std::vector<cl::Event> wait_;
    cl::Event next_;
};

template <class Sum>
Sum from_accumulator(ElementType accumulator, const unsigned char* bits) {
    switch (accumulator) {
        case ElementType::int64: {
            std::int64_t v;
            std::memcpy(&v, bits, sizeof v);
            return static_cast<Sum>(v);
        }
        case ElementType::uint64: {
            std::uint64_t v;
            std::memcpy(&v, bits, sizeof v);
            return static_cast<Sum>(v);
        }
        case ElementType::float64: {
            double v;
            std::memcpy(&v, bits, sizeof v);
            return static_cast<Sum>(v);
        }
        case ElementType::float32: {
            float v;
            std::memcpy(&v, bits, sizeof v);
            return static_cast<Sum>(v);
        }
        default: throw Error("internal: unexpected accumulator " + std::string(type_name(accumulator)));
    }
}

}  // namespace

struct Reducer::State {
    State(cl::Context context_, cl::CommandQueue queue_, cl::Device device_)
        : context(std::move(context_)),
          queue(std::move(queue_)),
          device(std::move(device_)),
          info(DeviceInfo::query(device)),
          programs(context, device, kernel_source("reduce.cl"), cache_directory(), counters.programs_built,
                   counters.programs_loaded),
          slots(context, programs, counters) {
        cl_command_queue_properties properties = 0;
        check(queue.getInfo(CL_QUEUE_PROPERTIES, &properties), "clGetCommandQueueInfo");
        out_of_order = (properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0;
        tuning.load(TuningDatabase(), info);
    }

    LaunchPlan plan(ElementType type, Operation op, std::uint64_t n, const LaunchParams& params) const {
        if (const auto tuned = tuning.lookup(type, operation_family(op), n)) return make_plan(type, n, info, params, *tuned);
        return make_plan(type, n, info, params);
    }

    void check_buffer(const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count, std::size_t element_size) const;
    void reduce(const LaunchPlan& plan, const cl::Buffer& input, std::uint64_t offset, std::uint64_t count,
                ExecutionSlot& slot, Chain& chain, unsigned char* result_bits);

    cl::Context context;
    cl::CommandQueue queue;
    cl::Device device;
    AtomicCounters counters;
    DeviceInfo info;
    ProgramCache programs;
    SlotPool slots;
    bool out_of_order = false;
    ReducerTuning tuning;
};

void Reducer::State::check_buffer(const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count,
                                  std::size_t element_size) const {
    if (buffer() == nullptr) throw InvalidArgument("sum: buffer is null");
    cl_context owner = nullptr;
    check(clGetMemObjectInfo(buffer(), CL_MEM_CONTEXT, sizeof(owner), &owner, nullptr), "clGetMemObjectInfo");
    if (owner != context()) throw InvalidArgument("sum: buffer belongs to another OpenCL context than the reducer's");
    size_t bytes = 0;
    check(clGetMemObjectInfo(buffer(), CL_MEM_SIZE, sizeof(bytes), &bytes, nullptr), "clGetMemObjectInfo");
    const std::uint64_t elements = bytes / element_size;
    if (offset > elements || count > elements - offset)
        throw InvalidArgument("sum: range [" + std::to_string(offset) + ", " + std::to_string(offset) + " + " +
                              std::to_string(count) + ") is past the end of the buffer (" +
                              std::to_string(elements) + " elements of " + std::to_string(element_size) +
                              " bytes)");
}

// Enqueues the plan's launches over [offset, offset + count) of `input` and reads the
// accumulator's bits into result_bits (blocking).
void Reducer::State::reduce(const LaunchPlan& plan, const cl::Buffer& input, std::uint64_t offset,
                            std::uint64_t count, ExecutionSlot& slot, Chain& chain, unsigned char* result_bits) {
    const std::size_t accumulator_size = type_size(plan.accumulator);
    const cl::Buffer& result = slot.result();
    const cl_uint word = slot.next_word;
    const KernelSpec first = first_pass_spec(plan, info);
    try {
        if (first.finish == Finish::atomic && slot.prepared_for != plan.accumulator) {
            const std::uint64_t zero = 0;  // the identity of sum, for every accumulator type
            check(queue.enqueueFillBuffer(result, zero, 0, 2 * accumulator_size, chain.wait(), chain.event()),
                  "clEnqueueFillBuffer");
            chain.done(false);
        }
        const cl::Buffer& first_out = first.finish == Finish::partial ? slot.partials(plan.groups * accumulator_size)
                                                                      : result;
        cl::Kernel& kernel = slot.kernel(first);
        check(kernel.setArg(0, input), "clSetKernelArg");
        check(kernel.setArg(1, cl_ulong(offset)), "clSetKernelArg");
        check(kernel.setArg(2, cl_ulong(count)), "clSetKernelArg");
        check(kernel.setArg(3, first_out), "clSetKernelArg");
        check(kernel.setArg(4, word), "clSetKernelArg");
        check(queue.enqueueNDRangeKernel(kernel, cl::NullRange,
                                         cl::NDRange(static_cast<size_t>(plan.groups * plan.work_group_size)),
                                         cl::NDRange(plan.work_group_size), chain.wait(), chain.event()),
              "clEnqueueNDRangeKernel");
        chain.done(true);

        if (first.finish == Finish::partial) {
            cl::Kernel& combine = slot.kernel(second_pass_spec(plan, info));
            check(combine.setArg(0, first_out), "clSetKernelArg");
            check(combine.setArg(1, cl_ulong(0)), "clSetKernelArg");
            check(combine.setArg(2, cl_ulong(plan.groups)), "clSetKernelArg");
            check(combine.setArg(3, result), "clSetKernelArg");
            check(combine.setArg(4, word), "clSetKernelArg");
            check(queue.enqueueNDRangeKernel(combine, cl::NullRange, cl::NDRange(plan.work_group_size),
                                             cl::NDRange(plan.work_group_size), chain.wait(), chain.event()),
                  "clEnqueueNDRangeKernel");
            chain.done(true);
        }
        check(queue.enqueueReadBuffer(result, CL_TRUE, word * accumulator_size, accumulator_size, result_bits,
                                      chain.wait()),
              "clEnqueueReadBuffer");
    } catch (...) {
        slot.prepared_for.reset();
        throw;
    }
    slot.next_word = word ^ 1u;
    slot.prepared_for = plan.accumulator;
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

template <class T>
sum_type_t<T> Reducer::sum(const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count,
                           const LaunchParams& params, CallInfo* info) const {
    State& s = *state_;
    s.check_buffer(buffer, offset, count, sizeof(T));
    const LaunchPlan plan = s.plan(element_traits<T>::type, Operation::sum, count, params);
    if (info != nullptr) *info = CallInfo{plan, {}};
    if (count == 0) return sum_type_t<T>(0);
    auto slot = s.slots.acquire();
    Chain chain(s.out_of_order, info);
    unsigned char bits[8] = {};
    s.reduce(plan, buffer, offset, count, *slot, chain, bits);
    return from_accumulator<sum_type_t<T>>(plan.accumulator, bits);
}

template <class T>
sum_type_t<T> Reducer::sum(const T* data, std::uint64_t count, const LaunchParams& params, CallInfo* info) const {
    State& s = *state_;
    if (data == nullptr && count > 0) throw InvalidArgument("sum: host pointer is null");
    if (count > std::numeric_limits<std::uint64_t>::max() / sizeof(T))
        throw InvalidArgument("sum: count " + std::to_string(count) + " is too large");
    const LaunchPlan plan = s.plan(element_traits<T>::type, Operation::sum, count, params);
    if (info != nullptr) *info = CallInfo{plan, {}};
    if (count == 0) return sum_type_t<T>(0);
    const std::uint64_t bytes = count * sizeof(T);
    if (bytes > s.info.max_alloc_size)
        throw InvalidArgument("sum: " + std::to_string(bytes) + " bytes of host data exceed the device's largest buffer (" +
                              std::to_string(s.info.max_alloc_size) + " bytes)");
    auto slot = s.slots.acquire();
    Chain chain(s.out_of_order, info);
    const cl::Buffer& staging = slot->staging(bytes);
    try {
        check(s.queue.enqueueWriteBuffer(staging, CL_FALSE, 0, static_cast<size_t>(bytes), data, nullptr,
                                         chain.event()),
              "clEnqueueWriteBuffer");
    } catch (...) {
        // The write may still be reading `data`; do not return before it stops.
        s.queue.finish();
        throw;
    }
    chain.done(false);
    unsigned char bits[8] = {};
    try {
        s.reduce(plan, staging, 0, count, *slot, chain, bits);
    } catch (...) {
        s.queue.finish();
        throw;
    }
    return from_accumulator<sum_type_t<T>>(plan.accumulator, bits);
}

#define CLREDUCE_INSTANTIATE(T)                                                                                \
    template sum_type_t<T> Reducer::sum<T>(const cl::Buffer&, std::uint64_t, std::uint64_t, const LaunchParams&, \
                                           CallInfo*) const;                                                   \
    template sum_type_t<T> Reducer::sum<T>(const T*, std::uint64_t, const LaunchParams&, CallInfo*) const;
CLREDUCE_INSTANTIATE(std::int32_t)
CLREDUCE_INSTANTIATE(std::uint32_t)
CLREDUCE_INSTANTIATE(std::int64_t)
CLREDUCE_INSTANTIATE(std::uint64_t)
CLREDUCE_INSTANTIATE(float)
CLREDUCE_INSTANTIATE(double)
#undef CLREDUCE_INSTANTIATE

}  // namespace clreduce
