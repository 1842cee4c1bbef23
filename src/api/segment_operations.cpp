// The segmented entry points (many reductions in one call, Segments): where the segments are
// for the kernel, the launches (exec/segment_launch.hpp), and each segment's result from its
// state through the same result functions as one range (operation_results.hpp).
#include <clreduce/reducer.hpp>

#include <cstddef>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "api/instantiation_lists.hpp"
#include "api/operation_results.hpp"
#include "api/reducer_state.hpp"
#include "exec/host_order_free.hpp"
#include "exec/host_plan_segments.hpp"
#include "exec/host_reduction.hpp"
#include "exec/segment_launch.hpp"
#include "ops/result_kind.hpp"
#include "transform/expression.hpp"

namespace clreduce {
namespace {

std::uint64_t checked_product(std::uint64_t a, std::uint64_t b, const char* what) {
    if (a != 0 && b > std::numeric_limits<std::uint64_t>::max() / a)
        throw InvalidArgument(std::string(what) + " pass 2^64 elements");
    return a * b;
}

bool is_matrix(const Segments& s) { return s.kind() == Segments::Kind::rows || s.kind() == Segments::Kind::columns; }
// A matrix's rows and their elements (rows or columns segments).
std::uint64_t matrix_rows(const Segments& s) { return s.kind() == Segments::Kind::rows ? s.count() : s.length(); }
std::uint64_t row_elements(const Segments& s) { return s.kind() == Segments::Kind::rows ? s.length() : s.count(); }

// A matrix's step in elements (a multiple of the element's size, at least a row).
std::uint64_t row_step(const Segments& s, std::size_t element_size) {
    const std::uint64_t cols = row_elements(s);
    const std::uint64_t step = s.step_bytes() == 0 ? checked_product(cols, element_size, "the rows") : s.step_bytes();
    if (step % element_size != 0)
        throw InvalidArgument("row step " + std::to_string(step) + " bytes is not a multiple of the element's " +
                              std::to_string(element_size) + " bytes");
    if (step / element_size < cols)
        throw InvalidArgument("row step " + std::to_string(step) + " bytes is smaller than a row of " +
                              std::to_string(cols) + " elements of " + std::to_string(element_size) + " bytes");
    return step / element_size;
}

// How many elements from the call's offset the segments may address.
std::uint64_t segment_extent(const Segments& s, std::size_t element_size) {
    if (!is_matrix(s)) return s.extent();
    const std::uint64_t step = row_step(s, element_size);
    if (matrix_rows(s) == 0) return 0;
    const std::uint64_t before_last = checked_product(matrix_rows(s) - 1, step, "the rows");
    if (before_last > std::numeric_limits<std::uint64_t>::max() - row_elements(s))
        throw InvalidArgument("the rows pass 2^64 elements");
    return before_last + row_elements(s);
}

// What the planner needs to know of the segments.
PlanRequest segment_request(PlanRequest request, const Segments& segments) {
    const Segments::Kind kind = segments.kind();
    request.segments = segments.count();
    request.columns = kind == Segments::Kind::columns;
    request.column_rows = request.columns ? segments.length() : 0;
    request.listed = kind == Segments::Kind::host_offsets || kind == Segments::Kind::device_offsets ||
                     kind == Segments::Kind::device_ranges;
    return request;
}

void require_uint64s(std::uint64_t bytes, std::uint64_t first, std::uint64_t count, const char* what) {
    if (first > bytes / 8 || count > bytes / 8 - first)
        throw InvalidArgument(std::string(what) + ": " + std::to_string(count) + " uint64 values from element " +
                              std::to_string(first) + " pass the buffer's end (" + std::to_string(bytes) + " bytes)");
}

std::vector<std::uint64_t> read_uint64s(cl::CommandQueue& queue, const cl::Buffer& buffer, std::uint64_t first,
                                        std::uint64_t count) {
    std::vector<std::uint64_t> out(count);
    if (count > 0)
        check(queue.enqueueReadBuffer(buffer, CL_TRUE, static_cast<size_t>(first * 8), static_cast<size_t>(count * 8),
                                      out.data()),
              "clEnqueueReadBuffer");
    return out;
}

Job job_of(Operation op) { return Job{op, std::nullopt, {}, {}, {}}; }

}  // namespace

std::uint64_t Reducer::State::check_segments(const SegmentValues& values, const Segments& segments,
                                             std::size_t element_size, std::size_t result_size) const {
    const std::uint64_t extent = segment_extent(segments, element_size);
    if (values.buffer != nullptr)
        check_buffer(*values.buffer, values.offset, extent, element_size);
    else if (values.host == nullptr && extent > 0)
        throw InvalidArgument("host pointer is null");
    const std::uint64_t count = segments.count();
    if (count == 0) return extent;
    if (segments.kind() == Segments::Kind::device_offsets)
        require_uint64s(buffer_bytes(segments.begins()), segments.first(), count + 1, "CSR offsets");
    if (segments.kind() == Segments::Kind::device_ranges) {
        require_uint64s(buffer_bytes(segments.begins()), 0, count, "segment begins");
        require_uint64s(buffer_bytes(segments.ends()), 0, count, "segment ends");
    }
    const std::uint64_t most = std::uint64_t(std::numeric_limits<std::ptrdiff_t>::max()) / result_size;
    if (count > most)
        throw InvalidArgument(std::to_string(count) + " segments: more results of " + std::to_string(result_size) +
                              " bytes than a vector can hold (" + std::to_string(most) + ")");
    return extent;
}

namespace {

// The caller's vector as HostResults where its results are plain numbers (structs: none).
template <class R>
HostResults host_results(std::vector<R>& results) {
    if constexpr (std::is_arithmetic_v<R> && !std::is_same_v<R, bool>)  // (std::vector<bool> packs bits)
        return {reinterpret_cast<unsigned char*>(results.data()), element_traits<R>::type};
    else
        return {};
}

// Whether each segment's final state, as the kernel leaves it, is bit for bit its result of
// type `result`, so that a synchronous call can read the states straight into the caller's
// vector: one value of the result's own type (an integer sum the kernel kept exact in it, a
// float sum, an extreme), whose empty segment's identity is the empty result, or, for min and
// max, which have none, where no segment can be empty. For millions of segments, turning states
// into results on the host otherwise takes many times the kernel's time.
bool states_are_results(const LaunchPlan& plan, const OpKernel& kernel, ElementType result, const Segments& s) {
    if (plan.transform || plugin_info(kernel.op).layout != StateLayout::value || plan.accumulator != result)
        return false;
    const OperationInfo& info = operation_info(plan.operation);
    if (info.identity_is_result && info.finalize == Finalize::none && !info.real_result) return true;
    if (plan.operation == Operation::min || plan.operation == Operation::max)
        return (s.kind() == Segments::Kind::batch || s.kind() == Segments::Kind::rows ||
                s.kind() == Segments::Kind::columns) &&
               s.length() > 0;
    return false;
}

// Host data in segments, up to LaunchParams::host_path_bytes, runs on the host where the host
// reproduces the kernels' states: batches, rows, host CSR offsets and a matrix's columns of an
// operation whose value no order changes (exec/host_order_free.hpp), and the float sums of
// those in the plan's order (exec/host_plan_segments.hpp).
// host_segments_on_host says whether; host_segments gives each segment's state from the host's
// threads, as the kernels would leave it, then the same results as from the device.
HostSegments host_bounds(const Segments& segments, std::size_t element_size) {
    HostSegments bounds;
    bounds.count = segments.count();
    if (segments.kind() == Segments::Kind::host_offsets) {
        bounds.offsets = segments.host_offsets().data();
    } else {
        bounds.step = segments.kind() == Segments::Kind::rows ? row_step(segments, element_size) : segments.length();
        bounds.length = segments.length();
    }
    return bounds;
}

HostColumns host_columns(const Segments& segments, std::size_t element_size) {
    return {segments.count(), segments.length(), row_step(segments, element_size)};
}

bool host_segments_on_host(const LaunchPlan& plan, const OpKernel& kernel, const Segments& segments,
                           std::size_t element_size, std::uint64_t extent_bytes, const LaunchParams& params,
                           const DeviceInfo& device) {
    const Segments::Kind kind = segments.kind();
    const bool contiguous =
        kind == Segments::Kind::batch || kind == Segments::Kind::rows || kind == Segments::Kind::host_offsets;
    if (!contiguous && kind != Segments::Kind::columns) return false;
    if (extent_bytes > params.host_path_bytes.value_or(default_host_path_bytes(device))) return false;
    if (segments_plan_order_on_host(plan, kernel))
        return contiguous ? segments_fit_plan_order(plan, host_bounds(segments, element_size))
                          : columns_fit_plan_order(plan, host_columns(segments, element_size));
    return host_path_reproduces(plan, kernel) && segments_order_free_on_host(plan, kernel);
}

void host_segments(const LaunchPlan& plan, const OpKernel& kernel, const SegmentValues& values,
                   const Segments& segments, std::size_t element_size, const SegmentTake& take,
                   const HostResults* direct) {
    const bool columns = segments.kind() == Segments::Kind::columns;
    const HostSegments bounds = columns ? HostSegments{} : host_bounds(segments, element_size);
    const std::uint64_t count = segments.count();
    const std::size_t state_bytes = state_size(kernel.op, plan.accumulator);
    // Where each state is its result, straight into the caller's results; else kept per
    // calling thread, grown once.
    const bool in_place = direct != nullptr && states_are_results(plan, kernel, direct->type, segments);
    thread_local std::vector<unsigned char> kept;
    if (!in_place && kept.size() < count * state_bytes) kept.resize(count * state_bytes);
    unsigned char* states = in_place ? direct->data : kept.data();
    const auto* data = static_cast<const unsigned char*>(values.host);
    const bool plan_order = segments_plan_order_on_host(plan, kernel);
    if (columns && plan_order)
        reduce_columns_in_plan_order(plan, kernel, data, host_columns(segments, element_size), states);
    else if (columns)
        reduce_columns_order_free(plan, kernel, data, host_columns(segments, element_size), states, state_bytes);
    else if (plan_order)
        reduce_segments_in_plan_order(plan, kernel, data, bounds, states);
    else
        reduce_segments_order_free(plan, kernel, data, bounds, states, state_bytes);
    if (in_place) return;
    const OperationInfo& row = operation_info(plan.operation);
    for (std::uint64_t s = 0; s < count; ++s) {
        const std::uint64_t elements = columns ? segments.length() : bounds.end(s) - bounds.begin(s);
        const StateView view{plan, kernel, elements, states + s * state_bytes};
        if (view.count == 0 && !row.empty_has_identity)
            throw InvalidArgument(std::string(row.name) + " of segment " + std::to_string(s) +
                                  ", which is empty, is undefined");
        take(s, view);
    }
}

}  // namespace

LaunchPlan Reducer::State::run_segments(const Job& job, const SegmentValues& values, const Segments& segments,
                                        ElementType element, const LaunchParams& params, CallInfo* call,
                                        const SegmentTake& take, const DeviceResult* device,
                                        const std::vector<cl::Event>& wait, bool make_event, cl::Event* last,
                                        const HostResults* direct) {
    const std::size_t element_size = type_size(element);
    const std::uint64_t extent = check_segments(values, segments, element_size, 1);
    const std::uint64_t count = segments.count();
    PlanRequest request = segment_request(job.request(element, extent, CallForm::segments), segments);
    request.device_results = device != nullptr;
    const LaunchPlan plan = this->plan(request, params);
    const OpKernel kernel = plan_kernel(plan);
    if (call != nullptr) *call = CallInfo{plan, {}};
    if (count == 0) return plan;

    const Segments::Kind kind = segments.kind();
    if (values.host != nullptr && device == nullptr &&
        host_segments_on_host(plan, kernel, segments, element_size, extent * element_size, params, info)) {
        LaunchPlan on_host = plan;
        on_host.on_host = true;
        if (call != nullptr) call->plan = on_host;
        host_segments(on_host, kernel, values, segments, element_size, take, direct);
        return on_host;
    }

    KernelSpec first = segment_spec(plan, kernel, info, kind != Segments::Kind::batch && !is_matrix(segments), false);
    first.transform = job.transform;
    first.expression_type = plan.expression_type;
    first.combine = job.user_combine;
    first.combine_identity = job.user_identity.kernel_text;
    if (device != nullptr && plan.groups_per_segment == 1) first.device_result = true;
    auto slot = slots.acquire();
    Chain chain = chain_for(*slot, call, make_event);
    chain.wait_for(wait);
    const cl::Buffer* input = values.buffer;
    std::uint64_t offset = values.offset;
    HostInput uploaded;
    if (input == nullptr) {
        uploaded = upload(*slot, chain, values.host, extent * element_size, element_size);
        input = &uploaded.buffer;
        offset = uploaded.offset / element_size;
    }

    SegmentList list;
    list.extent = extent;
    switch (kind) {
        case Segments::Kind::batch:
            list.step = segments.length();
            list.length = segments.length();
            break;
        case Segments::Kind::rows:
            list.step = row_step(segments, element_size);
            list.length = segments.length();
            break;
        case Segments::Kind::columns:  // segment c: c + r * step for r in [0, rows) (segments.cl)
            list.step = row_step(segments, element_size);
            list.length = segments.length();
            break;
        case Segments::Kind::host_offsets: {
            const std::uint64_t bytes = (count + 1) * 8;
            const cl::Buffer& copy = slot->segment_buffer(ExecutionSlot::SegmentBuffer::list, bytes);
            // Blocking for an asynchronous call: the caller may drop `segments` on return.
            check(queue.enqueueWriteBuffer(copy, device != nullptr ? CL_TRUE : CL_FALSE, 0, static_cast<size_t>(bytes),
                                           segments.host_offsets().data(), chain.wait(), chain.event()),
                  "clEnqueueWriteBuffer");
            chain.done(false);
            list.begins = list.ends = &copy;
            list.ends_at = 1;
            break;
        }
        case Segments::Kind::device_offsets:
            list.begins = list.ends = &segments.begins();
            list.begins_at = segments.first();
            list.ends_at = segments.first() + 1;
            break;
        case Segments::Kind::device_ranges:
            list.begins = &segments.begins();
            list.ends = &segments.ends();
            break;
    }

    SegmentStates states;
    // Where each state is its result, the states go straight into the caller's results.
    unsigned char* const states_out =
        direct != nullptr && states_are_results(plan, kernel, direct->type, segments) ? direct->data : nullptr;
    try {
        if (device != nullptr) {
            first.result_of(plan);
            DeviceResult checked = *device;  // with the status word where the kernels check the results
            checked.status = result_status(plan, device->status);
            launch_segments(queue, info, plan, first, *input, offset, list, *slot, chain, &checked);
            if (out_of_order) slot->pending = chain.last();
            if (last != nullptr) *last = chain.take_last();
            return plan;
        }
        states = launch_segments(queue, info, plan, first, *input, offset, list, *slot, chain, nullptr, states_out);
    } catch (...) {
        queue.finish();
        throw;
    }

    // Each segment's element count where the result needs it (mean, the extremes) or where
    // the device flagged a listed segment: from the host's offsets, else read back.
    const bool device_list = kind == Segments::Kind::device_offsets || kind == Segments::Kind::device_ranges;
    std::vector<std::uint64_t> begins, ends;
    if (device_list && (states.bad || !operation_info(plan.operation).identity_is_result)) {
        begins = read_uint64s(queue, *list.begins, list.begins_at, count);
        ends = read_uint64s(queue, *list.ends, list.ends_at, count);
    }
    const auto bounds = [&](std::uint64_t s) -> std::pair<std::uint64_t, std::uint64_t> {
        switch (kind) {
            case Segments::Kind::batch:
            case Segments::Kind::rows: return {s * list.step, s * list.step + list.length};
            case Segments::Kind::columns: return {0, list.length};  // only the count is used
            case Segments::Kind::host_offsets: return {segments.host_offsets()[s], segments.host_offsets()[s + 1]};
            default:
                return begins.empty() ? std::pair<std::uint64_t, std::uint64_t>{0, 1}  // not needed
                                      : std::pair<std::uint64_t, std::uint64_t>{begins[s], ends[s]};
        }
    };
    if (states.bad) {
        for (std::uint64_t s = 0; s < count; ++s) {
            const auto [b, e] = bounds(s);
            if (b > e || e > extent)
                throw InvalidArgument("segment " + std::to_string(s) + " is [" + std::to_string(b) + ", " +
                                      std::to_string(e) + "): " + (b > e ? "its offsets descend" : "it ends past") +
                                      " the " + std::to_string(extent) + " values the segments may address");
        }
        throw Error("internal: the device flagged a segment, but every segment's offsets are in order");
    }
    if (states_out != nullptr) return plan;  // the states are the results, already in place
    const OperationInfo& row = operation_info(plan.operation);
    for (std::uint64_t s = 0; s < count; ++s) {
        const auto [b, e] = bounds(s);
        const StateView view{plan, kernel, e - b, states.states + s * states.state_bytes};
        if (view.count == 0 && !row.empty_has_identity)
            throw InvalidArgument(std::string(row.name) + " of segment " + std::to_string(s) +
                                  ", which is empty, is undefined");
        take(s, view);
    }
    return plan;
}

LaunchPlan Reducer::plan(ElementType type, Operation op, const Segments& segments, const LaunchParams& params,
                         CallForm form) const {
    if (form != CallForm::segments && form != CallForm::async)
        throw InvalidArgument("plan(type, op, segments, params, form): form is CallForm::segments or async, not " +
                              std::string(to_string(form)));
    PlanRequest request =
        segment_request(PlanRequest{op, type, segment_extent(segments, type_size(type)), CallForm::segments}, segments);
    request.device_results = form == CallForm::async;
    return state().plan(request, params);
}

template <Operation Op, class T>
void Reducer::State::run_segments_into(const SegmentValues& values, const Segments& segments,
                                       std::vector<result_t<Op, T>>& results, const LaunchParams& params,
                                       CallInfo* call) {
    check_segments(values, segments, sizeof(T), sizeof(result_t<Op, T>));
    results.resize(segments.count());
    const HostResults direct = host_results(results);
    run_segments(
        job_of(Op), values, segments, element_traits<T>::type, params, call,
        [&](std::uint64_t s, const StateView& v) { results[s] = operation_value<Op, T>(v); }, nullptr, {}, false,
        nullptr, direct.data != nullptr ? &direct : nullptr);
}

// Each operation's results written into a vector the caller may keep (resized, so a vector of
// the right size is written in place).
template <Operation Op, class T>
void Reducer::reduce(const cl::Buffer& values, std::uint64_t offset, const Segments& segments,
                     std::vector<result_t<Op, T>>& results, const LaunchParams& params, CallInfo* info) const {
    state().run_segments_into<Op, T>(SegmentValues{&values, nullptr, offset}, segments, results, params, info);
}
template <Operation Op, class T>
void Reducer::reduce(const T* values, const Segments& segments, std::vector<result_t<Op, T>>& results,
                     const LaunchParams& params, CallInfo* info) const {
    state().run_segments_into<Op, T>(SegmentValues{nullptr, values, 0}, segments, results, params, info);
}

template <class T>
void Reducer::transform_reduce(const cl::Buffer& values, std::uint64_t offset, const Segments& segments,
                               std::string_view expression, Combine combine, std::vector<transform_type_t<T>>& results,
                               const LaunchParams& params, CallInfo* info) const {
    const Job job = state().transform_job(expression, combine, element_traits<T>::type, params);
    state().check_segments(SegmentValues{&values, nullptr, offset}, segments, sizeof(T), sizeof(transform_type_t<T>));
    results.resize(segments.count());
    state().run_segments(job, SegmentValues{&values, nullptr, offset}, segments, element_traits<T>::type, params, info,
                         [&](std::uint64_t s, const StateView& v) { results[s] = transform_result<T>(v, combine); });
}
template <class T>
std::vector<transform_type_t<T>> Reducer::transform_reduce(const cl::Buffer& values, std::uint64_t offset,
                                                           const Segments& segments, std::string_view expression,
                                                           Combine combine, const LaunchParams& params,
                                                           CallInfo* info) const {
    std::vector<transform_type_t<T>> out;
    transform_reduce<T>(values, offset, segments, expression, combine, out, params, info);
    return out;
}
template <class T>
std::vector<transform_type_t<T>> Reducer::transform_reduce(const cl::Buffer& values, std::uint64_t offset,
                                                           const Segments& segments, std::string_view expression,
                                                           const CombineExpression& combine, const LaunchParams& params,
                                                           CallInfo* info) const {
    const Job job = state().transform_job(expression, combine, element_traits<T>::type, params);
    state().check_segments(SegmentValues{&values, nullptr, offset}, segments, sizeof(T), sizeof(transform_type_t<T>));
    std::vector<transform_type_t<T>> results(segments.count());
    state().run_segments(job, SegmentValues{&values, nullptr, offset}, segments, element_traits<T>::type, params, info,
                         [&](std::uint64_t s, const StateView& v) { results[s] = transform_result<T>(v, job); });
    return results;
}

namespace {

void require_result_room(std::uint64_t bytes, std::uint64_t result_size, std::uint64_t result_offset,
                         std::uint64_t segments) {
    const std::uint64_t room = bytes / result_size;
    if (result_offset > room || segments > room - result_offset)
        throw InvalidArgument("the result buffer holds " + std::to_string(room) + " results of " +
                              std::to_string(result_size) + " bytes; " + std::to_string(segments) +
                              " segments from result_offset " + std::to_string(result_offset) + " do not fit");
}

}  // namespace

template <class T>
cl::Event Reducer::enqueue_async(Operation op, const cl::Buffer& values, std::uint64_t offset, const Segments& segments,
                                 const AsyncTarget& target, const LaunchParams& params, CallInfo* info) const {
    State& s = state();
    return visit_operation(op, [&](auto constant) {
        constexpr Operation Op = decltype(constant)::value;
        const std::uint64_t result_size = sizeof(result_t<Op, T>);
        require_result_room(s.buffer_bytes(target.result), result_size, target.result_offset, segments.count());
        const DeviceResult destination{&target.result, target.result_offset * result_size, &target.status};
        cl::Event last;
        s.run_segments(
            job_of(Op), SegmentValues{&values, nullptr, offset}, segments, element_traits<T>::type, params, info,
            [](std::uint64_t, const StateView&) {}, &destination, target.wait, target.event == AsyncEvent::returned,
            &last);
        return last;
    });
}

#define CLREDUCE_INSTANTIATE_SEGMENTED(T, NAME, R)                                                                     \
    template void Reducer::reduce<Operation::NAME, T>(const cl::Buffer&, std::uint64_t, const Segments&,               \
                                                      std::vector<R>&, const LaunchParams&, CallInfo*) const;          \
    template void Reducer::reduce<Operation::NAME, T>(const T*, const Segments&, std::vector<R>&, const LaunchParams&, \
                                                      CallInfo*) const;
#define CLREDUCE_INSTANTIATE(T)                                                                                        \
    CLREDUCE_OPERATIONS(CLREDUCE_INSTANTIATE_SEGMENTED, T)                                                             \
    template std::vector<transform_type_t<T>> Reducer::transform_reduce<T>(const cl::Buffer&, std::uint64_t,           \
                                                                           const Segments&, std::string_view, Combine, \
                                                                           const LaunchParams&, CallInfo*) const;      \
    template void Reducer::transform_reduce<T>(const cl::Buffer&, std::uint64_t, const Segments&, std::string_view,    \
                                               Combine, std::vector<transform_type_t<T>>&, const LaunchParams&,        \
                                               CallInfo*) const;                                                       \
    template std::vector<transform_type_t<T>> Reducer::transform_reduce<T>(const cl::Buffer&, std::uint64_t,           \
                                                                           const Segments&, std::string_view,          \
                                                                           const CombineExpression&,                   \
                                                                           const LaunchParams&, CallInfo*) const;      \
    template cl::Event Reducer::enqueue_async<T>(Operation, const cl::Buffer&, std::uint64_t, const Segments&,         \
                                                 const AsyncTarget&, const LaunchParams&, CallInfo*) const;
CLREDUCE_FOR_EACH_ELEMENT_TYPE(CLREDUCE_INSTANTIATE)
#undef CLREDUCE_INSTANTIATE
#undef CLREDUCE_INSTANTIATE_SEGMENTED

}  // namespace clreduce
