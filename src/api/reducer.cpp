#include <clreduce/reducer.hpp>

#include <clreduce/device_selection.hpp>

#include "api/reducer_state.hpp"
#include "tuning/tuner.hpp"

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

}  // namespace

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
                              std::to_string(count) + ") is past the end of the buffer (" + std::to_string(elements) +
                              " elements of " + std::to_string(element_size) + " bytes)");
}

Outcome Reducer::State::prepare(const Job& job, ElementType element, std::uint64_t count, const LaunchParams& params,
                                CallForm form, CallInfo* call, std::uint32_t channels) const {
    Outcome out;
    out.plan = plan(job.request(element, count, form, channels), params);
    out.kernel = plan_kernel(out.plan);
    out.count = count;
    if (call != nullptr) *call = CallInfo{out.plan, {}};
    return out;
}

KernelSpec Reducer::State::first_spec(const Job& job, const Outcome& out) const {
    KernelSpec first = first_pass_spec(out.plan, out.kernel, info);
    first.transform = job.transform;
    first.expression_type = out.plan.expression_type;
    first.combine = job.user_combine;
    first.combine_identity = job.user_identity.kernel_text;
    return first;
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

Reducer::State& Reducer::state() const {
    if (!state_) throw InvalidArgument("this Reducer was moved from; it has no device (assign a Reducer to it first)");
    return *state_;
}

const DeviceInfo& Reducer::device_info() const { return state().info; }
const cl::Context& Reducer::context() const { return state().context; }
const cl::CommandQueue& Reducer::queue() const { return state().queue; }

Counters Reducer::counters() const {
    Counters c;
    c.programs_built = state().counters.programs_built.load();
    c.programs_loaded = state().counters.programs_loaded.load();
    c.kernels_created = state().counters.kernels_created.load();
    c.buffers_allocated = state().counters.buffers_allocated.load();
    return c;
}

LaunchPlan Reducer::plan(ElementType type, std::uint64_t count, const LaunchParams& params) const {
    return state().plan(PlanRequest{Operation::sum, type, count}, params);
}

LaunchPlan Reducer::plan(ElementType type, Operation op, std::uint64_t count, const LaunchParams& params, CallForm form,
                         std::uint32_t channels) const {
    PlanRequest request{op, type, count, form};
    request.channels = channels;
    return state().plan(request, params);
}

LaunchPlan Reducer::plan_transform(ElementType type, Combine combine, std::uint64_t count,
                                   const LaunchParams& params) const {
    return state().plan(PlanRequest{combine_operation(combine), type, count, CallForm::sync, true}, params);
}

LaunchPlan Reducer::plan_transform(ElementType type, const CombineExpression& combine, std::uint64_t count,
                                   const LaunchParams& params) const {
    const Job job = state().transform_job("x", combine, type, params);
    return state().plan(job.request(type, count, CallForm::sync), params);
}

TuneResult Reducer::tune(const TuneOptions& options) {
    TuneResult result = measure_tuning(*this, options);
    state().tuning.adopt(result.entries);
    if (options.save && !result.entries.empty()) save_tuning(state().tuning.database(), state().info, result);
    return result;
}

void Reducer::set_result_delivery(ResultDelivery delivery) {
    const DeliverySetting setting{delivery, std::nullopt};
    delivery_way(setting, state().info);  // validates
    state().delivery.store(setting, std::memory_order_relaxed);
}
ResultDelivery Reducer::result_delivery() const { return state().delivery.load(std::memory_order_relaxed).delivery; }

void experimental::set_result_delivery(Reducer& reducer, Delivery delivery) {
    Reducer::State& state = reducer.state();
    const DeliverySetting setting{state.delivery.load(std::memory_order_relaxed).delivery, delivery};
    delivery_way(setting, state.info);  // validates
    state.delivery.store(setting, std::memory_order_relaxed);
}
std::optional<experimental::Delivery> experimental::result_delivery(const Reducer& reducer) {
    return reducer.state().delivery.load(std::memory_order_relaxed).experiment();
}

void Reducer::set_host_staging(const HostStaging& staging) {
    if (staging.chunk_bytes == 0) throw InvalidArgument("set_host_staging: chunk_bytes must be positive");
    if (staging.buffers < 2)
        throw InvalidArgument("set_host_staging: buffers must be at least 2, got " + std::to_string(staging.buffers));
    const std::lock_guard<std::mutex> lock(state().staging_mutex);
    state().staging = staging;
}
HostStaging Reducer::host_staging() const { return state().host_staging(); }

void Reducer::use_tuning_database(const TuningDatabase& database) { state().tuning.load(database, state().info); }
TuningDatabase Reducer::tuning_database() const { return state().tuning.database(); }
std::vector<TunedEntry> Reducer::tuned_entries() const { return state().tuning.entries(); }

}  // namespace clreduce
