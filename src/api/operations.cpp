// The operations' entry points: each runs a Job through the reducer's state and reads its
// result from the outcome, then the explicit instantiations for every element type.
#include <clreduce/reducer.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "api/instantiation_lists.hpp"
#include "api/operation_results.hpp"
#include "api/partial_access.hpp"
#include "api/reducer_state.hpp"
#include "exec/host_order_free.hpp"
#include "exec/host_reduction.hpp"
#include "exec/image_layout.hpp"
#include "ops/result_kind.hpp"
#include "transform/expression.hpp"

namespace clreduce {

template <class T>
Outcome Reducer::State::run(const Job& job, const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count,
                            const LaunchParams& params, CallInfo* call) {
    check_buffer(buffer, offset, count, sizeof(T));
    Outcome out = prepare(job, element_traits<T>::type, count, params, CallForm::sync, call);
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
    Outcome out = prepare(job, element_traits<T>::type, count, params, CallForm::host_data, call);
    if (count == 0) return out;
    if (out.plan.on_host) {
        if (reduce_on_host(out.plan, out.kernel, data, count, out.bits)) return out;
        out.plan.on_host = false;  // the device decides this one (host_reduction.hpp)
        if (call != nullptr) call->plan.on_host = false;
    }
    const KernelSpec first = first_spec(job, out);
    auto slot = slots.acquire();
    Chain chain = chain_for(*slot, call);
    const HostInput input = upload(*slot, chain, data, count * sizeof(T), sizeof(T));
    try {
        reduce(out.plan, first, input.buffer, input.offset / sizeof(T), count, *slot, chain, out.bits, nullptr, nullptr,
               input.copied);
    } catch (...) {
        queue.finish();
        throw;
    }
    return out;
}

const cl::Buffer* Reducer::State::result_status(const LaunchPlan& plan, const cl::Buffer* status) const {
    if (!plan.result_status) return nullptr;
    const bool integer_sum = plan.exact_integer_bits != 0;
    if (status == nullptr || (*status)() == nullptr)
        throw InvalidArgument(
            "an asynchronous " + std::string(operation_name(plan.operation)) + " of " +
            std::string(type_name(plan.element)) + " data may not fit its result type (" +
            (integer_sum ? "an integer sum checked for overflow"
                         : "a floating-point accumulator's value of integer data") +
            "): pass a status buffer (AsyncTarget::status), whose first 32-bit word the call sets bit 0 of where the "
            "result does not fit" +
            (integer_sum ? ", or set LaunchParams::overflow = IntegerOverflow::wrap for the result modulo 2^64" : ""));
    if (buffer_bytes(*status) < sizeof(cl_uint))
        throw InvalidArgument("the status buffer (AsyncTarget::status) holds " + std::to_string(buffer_bytes(*status)) +
                              " bytes; its word needs 4");
    return status;
}

template <class T, class R>
cl::Event Reducer::State::run_async(const Job& job, const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count,
                                    const AsyncTarget& target, const LaunchParams& params, CallInfo* call) {
    const cl::Buffer& result = target.result;
    const std::uint64_t result_offset = target.result_offset;
    check_buffer(buffer, offset, count, sizeof(T));
    const std::uint64_t result_bytes = buffer_bytes(result);
    if (result_offset >= result_bytes / sizeof(R))
        throw InvalidArgument("result_offset " + std::to_string(result_offset) + " (in " + std::to_string(sizeof(R)) +
                              "-byte results) is past the end of the result buffer, which holds " +
                              std::to_string(result_bytes / sizeof(R)) + " of them (" + std::to_string(result_bytes) +
                              " bytes)");
    // (Planned first: what the operation refuses for the type, it refuses for no element too.)
    Outcome out = prepare(job, element_traits<T>::type, count, params, CallForm::async, call);
    if (count == 0 && !operation_info(job.op).empty_has_identity)
        throw InvalidArgument(std::string(operation_name(job.op)) + " of an empty range is undefined");
    KernelSpec first = first_spec(job, out);
    first.device_result = true;
    first.result_of(out.plan);
    // The value at byte result_offset * sizeof(R) of the caller's buffer.
    const DeviceResult destination{&result, result_offset * sizeof(R), result_status(out.plan, &target.status)};
    auto slot = slots.acquire();
    Chain chain = chain_for(*slot, call, target.event == AsyncEvent::returned);
    chain.wait_for(target.wait);
    reduce(out.plan, first, buffer, offset, count, *slot, chain, nullptr, nullptr, &destination);
    if (out_of_order) slot->pending = chain.last();
    return chain.take_last();
}

namespace {

// Whether an operation's value needs the number of pixels a mask selects where its state
// does not keep it: a mean divides by it, all() compares with it, and min/max/minmax of no
// pixel are an error their identity state cannot tell from data. (argmin/argmax states keep
// no index for no pixel; statistics states count their pixels.)
bool needs_mask_count(Operation op) {
    return op == Operation::mean || op == Operation::all || op == Operation::min || op == Operation::max ||
           op == Operation::minmax;
}

}  // namespace

// One launch chain per channel over the pitched image: channel c reads element c of every
// pixel (of every pixel its mask selects, where the image has one).
template <class T>
std::array<Outcome, 4> Reducer::State::run_image(const Job& job, const cl::Buffer* buffer, const T* data,
                                                 const Image& image, const LaunchParams& params, CallInfo* call) {
    const std::uint64_t bytes = buffer != nullptr ? buffer_bytes(*buffer) : 0;
    const ImageLayout layout = image_layout(image, sizeof(T), buffer != nullptr ? &bytes : nullptr, data == nullptr);
    const std::uint64_t step = layout.step;
    const std::uint64_t span = layout.span;
    const std::uint64_t count = image.rows * image.cols;
    // The mask is read from its buffer for a buffer image (which needs one), and for host data
    // that comes with a buffer mask and no host mask.
    const ImageMask* mask = image.mask;
    const bool mask_in_buffer = mask != nullptr && (buffer != nullptr || mask->data == nullptr);
    MaskLayout mask_geometry;
    if (mask != nullptr) {
        if (mask_in_buffer && mask->buffer() == nullptr)
            throw InvalidArgument(buffer != nullptr ? "the mask of an image in a buffer must be a buffer "
                                                      "(ImageMask::buffer)"
                                                    : "the mask has neither a buffer nor host data");
        const std::uint64_t mask_bytes = mask_in_buffer ? buffer_bytes(mask->buffer) : 0;
        mask_geometry = mask_layout(image, mask_in_buffer ? &mask_bytes : nullptr);
    }
    std::array<Outcome, 4> out;
    out.fill(prepare(job, element_traits<T>::type, count, params, CallForm::image, call, image.channels));
    if (count == 0) return out;
    // The pixels the mask selects, where the operation needs their number (needs_mask_count):
    // one count over the mask first, itself an image reduction.
    std::uint64_t selected = count;
    if (mask != nullptr && needs_mask_count(job.op)) {
        const Image plane{image.rows, image.cols, 1, mask_geometry.step, mask_in_buffer ? mask->offset : 0};
        const std::array<Outcome, 4> counted =
            run_image<std::uint8_t>(Job{Operation::count_nonzero, std::nullopt, {}, {}, {}},
                                    mask_in_buffer ? &mask->buffer : nullptr, mask_in_buffer ? nullptr : mask->data,
                                    plane, LaunchParams{}, nullptr);
        selected = counted[0].value<std::uint64_t>();
    }
    // Each channel's count of pixels: the mask's, or where the state keeps its own (a state that
    // took no pixel says so itself: no index, or a count of 0).
    auto settle_counts = [&] {
        for (std::uint32_t c = 0; c < image.channels; ++c) {
            out[c].count = selected;
            if (mask == nullptr) continue;
            if (job.op == Operation::argmin || job.op == Operation::argmax || job.op == Operation::argminmax) {
                if (state_indexed<T>(out[c].plan.accumulator, out[c].bits).index == ~std::uint64_t(0)) out[c].count = 0;
            } else if (job.op == Operation::statistics) {
                out[c].count = state_moments(out[c].plan.accumulator, out[c].bits).count;
            }
        }
    };
    // Host data the host's threads reduce where any order gives the kernels' state (no upload,
    // no launch), up to the host path's limit.
    if (buffer == nullptr && (mask == nullptr || !mask_in_buffer) &&
        span <= params.host_path_bytes.value_or(default_host_path_bytes(info)) &&
        host_path_reproduces(out[0].plan, out[0].kernel) && segments_order_free_on_host(out[0].plan, out[0].kernel)) {
        const std::size_t state_bytes = state_size(out[0].kernel.op, out[0].plan.accumulator);
        unsigned char states[4 * kMaxStateBytes];
        const HostImage host{
            reinterpret_cast<const unsigned char*>(data), image.rows,        image.cols, image.channels, step,
            mask != nullptr ? mask->data : nullptr,       mask_geometry.step};
        reduce_image_order_free(out[0].plan, out[0].kernel, host, states, state_bytes);
        for (std::uint32_t c = 0; c < image.channels; ++c) {
            out[c].plan.on_host = true;
            std::memcpy(out[c].bits, states + c * state_bytes, state_bytes);
        }
        settle_counts();
        if (call != nullptr) call->plan.on_host = true;
        return out;
    }
    auto slot = slots.acquire();
    Chain chain = chain_for(*slot, call);
    HostInput uploaded;
    if (buffer == nullptr) uploaded = upload(*slot, chain, data, span, sizeof(T));
    const cl::Buffer* input = buffer != nullptr ? buffer : &uploaded.buffer;
    KernelSpec first = first_pass_spec(out[0].plan, out[0].kernel, info);
    first.pitched = true;
    first.masked = mask != nullptr;
    // Every channel in one launch where the plan says so (LaunchPlan::channels_at_once), else
    // one launch sequence per channel.
    first.all_channels = out[0].plan.channels_at_once && image.channels > 1;
    // A dense image (no gap between rows, nor between the mask's) is read a vector of pixels
    // at a time.
    const bool dense = image.rows <= 1 || (step == image.cols * image.channels * sizeof(T) &&
                                           (mask == nullptr || mask_geometry.step == image.cols));
    if (dense) read_dense_image(first, sizeof(T));
    if (dense || first.all_channels) first.channels = image.channels;
    const std::uint32_t launches = first.all_channels ? 1 : image.channels;
    try {
        HostInput mask_uploaded;
        if (mask != nullptr && !mask_in_buffer)
            mask_uploaded =
                host_mask_buffer(context, queue, info, *slot, chain, mask->data, mask_geometry.span, host_staging());
        for (std::uint32_t launch = 0; launch < launches; ++launch) {
            Pitch pitch{image.cols, step / sizeof(T), image.channels, launch};
            if (mask != nullptr) {
                pitch.mask = mask_in_buffer ? &mask->buffer : &mask_uploaded.buffer;
                pitch.mask_offset = mask_in_buffer ? mask->offset : mask_uploaded.offset;
                pitch.mask_pitch = mask_geometry.step;
            }
            if (first.all_channels)
                for (std::uint32_t c = 0; c < image.channels; ++c) pitch.channel_bits[c] = out[c].bits;
            reduce(out[launch].plan, first, *input, (uploaded.offset + image.offset) / sizeof(T), count, *slot, chain,
                   out[launch].bits, &pitch, nullptr, uploaded.copied || mask_uploaded.copied);
        }
        settle_counts();
    } catch (...) {
        queue.finish();
        throw;
    }
    return out;
}

namespace {

template <class V, class F>
Channels<V> per_channel(const std::array<Outcome, 4>& outcomes, std::uint32_t channels, F result) {
    Channels<V> out{};
    for (std::uint32_t c = 0; c < channels; ++c) out[c] = result(outcomes[c]);
    return out;
}

Job job_of(Operation op) { return Job{op, std::nullopt, {}, {}, {}}; }

}  // namespace

template <Operation Op, class T>
result_t<Op, T> Reducer::reduce(const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count,
                                const LaunchParams& params, CallInfo* info) const {
    return operation_value<Op, T>(state().run<T>(job_of(Op), buffer, offset, count, params, info));
}
namespace {

// Host data beyond the device's largest buffer, in a plan the host path does not run: the
// device reduces it in pieces of at most that buffer (whole 4 KiB runs of elements), whose
// partials merge in order into the whole's (integers exact, correctly rounded sums the one
// value; other float sums within their bound of the whole, as any split is).
template <class T>
std::uint64_t piece_elements(const Reducer& r, Operation op, std::uint64_t count, const LaunchParams& params) {
    // (A CPU device's buffer over host memory starts up to its base alignment before the data.)
    const std::uint64_t room = r.device_info().max_alloc_size;
    const std::uint64_t largest = (room > 8192 ? room - 4096 : 0) / sizeof(T) / 4096 * 4096;
    if (count <= largest || largest == 0) return 0;
    if (r.plan(element_traits<T>::type, op, count, params, CallForm::host_data).on_host) return 0;
    return largest;
}
template <class T>
Partial in_pieces(const Reducer& r, Operation op, const T* data, std::uint64_t count, std::uint64_t piece,
                  const LaunchParams& params, CallInfo* info) {
    Partial whole;
    for (std::uint64_t at = 0; at < count; at += piece)
        whole.merge(r.partial<T>(op, data + at, std::min(piece, count - at), params, at == 0 ? info : nullptr));
    return whole;
}

}  // namespace

template <Operation Op, class T>
result_t<Op, T> Reducer::reduce(const T* data, std::uint64_t count, const LaunchParams& params, CallInfo* info) const {
    if (const std::uint64_t piece = data != nullptr ? piece_elements<T>(*this, Op, count, params) : 0)
        return in_pieces<T>(*this, Op, data, count, piece, params, info).template value<Op, T>();
    return operation_value<Op, T>(state().run<T>(job_of(Op), data, count, params, info));
}
template <Operation Op, class T>
Channels<result_t<Op, T>> Reducer::reduce(const cl::Buffer& buffer, const Image& image, const LaunchParams& params,
                                          CallInfo* info) const {
    return per_channel<result_t<Op, T>>(state().run_image<T>(job_of(Op), &buffer, nullptr, image, params, info),
                                        image.channels, operation_value<Op, T, Outcome>);
}
template <Operation Op, class T>
Channels<result_t<Op, T>> Reducer::reduce(const T* data, const Image& image, const LaunchParams& params,
                                          CallInfo* info) const {
    return per_channel<result_t<Op, T>>(state().run_image<T>(job_of(Op), nullptr, data, image, params, info),
                                        image.channels, operation_value<Op, T, Outcome>);
}

template <class T>
Partial Reducer::partial(Operation op, const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count,
                         const LaunchParams& params, CallInfo* info) const {
    return PartialAccess::make(state().run<T>(job_of(op), buffer, offset, count, params, info));
}
template <class T>
Partial Reducer::partial(Operation op, const T* data, std::uint64_t count, const LaunchParams& params,
                         CallInfo* info) const {
    if (const std::uint64_t piece = data != nullptr ? piece_elements<T>(*this, op, count, params) : 0)
        return in_pieces<T>(*this, op, data, count, piece, params, info);
    return PartialAccess::make(state().run<T>(job_of(op), data, count, params, info));
}

template <class T>
cl::Event Reducer::enqueue_async(Operation op, const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count,
                                 const AsyncTarget& target, const LaunchParams& params, CallInfo* info) const {
    return visit_operation(op, [&](auto constant) {
        constexpr Operation Op = decltype(constant)::value;
        return state().run_async<T, result_t<Op, T>>(job_of(Op), buffer, offset, count, target, params, info);
    });
}

Job Reducer::State::transform_job(std::string_view expression, Combine combine, ElementType element,
                                  const LaunchParams& params) const {
    const ElementType x = params.accumulator.value_or(transform_accumulator(element, info));
    return Job{combine_operation(combine), combine, transform_source(expression, opencl_type_name(x)), {}, {}};
}

Job Reducer::State::transform_job(std::string_view expression, const CombineExpression& combine, ElementType element,
                                  const LaunchParams& params) const {
    // The map, the combine and the identity in one type: the accumulator the plan will keep
    // (a product's plan keeps no wider exact state; planner.cpp).
    const std::string_view x = opencl_type_name(params.accumulator.value_or(transform_accumulator(element, info)));
    Job job{Operation::product, std::nullopt, transform_source(expression, x), {}, {}};
    job.user_combine = combine_source(combine.expression, x);
    job.user_identity = combine_identity(combine.identity, x);
    return job;
}

template <class T>
transform_type_t<T> Reducer::transform_reduce(const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count,
                                              std::string_view expression, Combine combine, const LaunchParams& params,
                                              CallInfo* info) const {
    const Job job = state().transform_job(expression, combine, element_traits<T>::type, params);
    return transform_result<T>(state().run<T>(job, buffer, offset, count, params, info), combine);
}
template <class T>
transform_type_t<T> Reducer::transform_reduce(const T* data, std::uint64_t count, std::string_view expression,
                                              Combine combine, const LaunchParams& params, CallInfo* info) const {
    const Job job = state().transform_job(expression, combine, element_traits<T>::type, params);
    return transform_result<T>(state().run<T>(job, data, count, params, info), combine);
}
template <class T>
transform_type_t<T> Reducer::transform_reduce(const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t count,
                                              std::string_view expression, const CombineExpression& combine,
                                              const LaunchParams& params, CallInfo* info) const {
    const Job job = state().transform_job(expression, combine, element_traits<T>::type, params);
    return transform_result<T>(state().run<T>(job, buffer, offset, count, params, info), job.user_identity);
}
template <class T>
transform_type_t<T> Reducer::transform_reduce(const T* data, std::uint64_t count, std::string_view expression,
                                              const CombineExpression& combine, const LaunchParams& params,
                                              CallInfo* info) const {
    const Job job = state().transform_job(expression, combine, element_traits<T>::type, params);
    return transform_result<T>(state().run<T>(job, data, count, params, info), job.user_identity);
}

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
double Reducer::norm(const cl::Buffer& buffer, const Image& image, Operation norm_op, const LaunchParams& params,
                     CallInfo* info) const {
    require_norm(norm_op);
    return combine_norms(state().run_image<T>(job_of(norm_op), &buffer, nullptr, image, params, info), image.channels,
                         norm_op);
}
template <class T>
double Reducer::norm(const T* data, const Image& image, Operation norm_op, const LaunchParams& params,
                     CallInfo* info) const {
    require_norm(norm_op);
    return combine_norms(state().run_image<T>(job_of(norm_op), nullptr, data, image, params, info), image.channels,
                         norm_op);
}

#define CLREDUCE_INSTANTIATE_OPERATION(T, NAME, R)                                                                   \
    template R Reducer::reduce<Operation::NAME, T>(const cl::Buffer&, std::uint64_t, std::uint64_t,                  \
                                                   const LaunchParams&, CallInfo*) const;                            \
    template R Reducer::reduce<Operation::NAME, T>(const T*, std::uint64_t, const LaunchParams&, CallInfo*) const;   \
    template Channels<R> Reducer::reduce<Operation::NAME, T>(const cl::Buffer&, const Image&, const LaunchParams&,   \
                                                             CallInfo*) const;                                       \
    template Channels<R> Reducer::reduce<Operation::NAME, T>(const T*, const Image&, const LaunchParams&, CallInfo*) \
        const;
#define CLREDUCE_INSTANTIATE(T)                                                                                     \
    CLREDUCE_OPERATIONS(CLREDUCE_INSTANTIATE_OPERATION, T)                                                          \
    template Partial Reducer::partial<T>(Operation, const cl::Buffer&, std::uint64_t, std::uint64_t,                \
                                         const LaunchParams&, CallInfo*) const;                                     \
    template Partial Reducer::partial<T>(Operation, const T*, std::uint64_t, const LaunchParams&, CallInfo*) const; \
    template transform_type_t<T> Reducer::transform_reduce<T>(const cl::Buffer&, std::uint64_t, std::uint64_t,      \
                                                              std::string_view, Combine, const LaunchParams&,       \
                                                              CallInfo*) const;                                     \
    template transform_type_t<T> Reducer::transform_reduce<T>(const T*, std::uint64_t, std::string_view, Combine,   \
                                                              const LaunchParams&, CallInfo*) const;                \
    template transform_type_t<T> Reducer::transform_reduce<T>(const cl::Buffer&, std::uint64_t, std::uint64_t,      \
                                                              std::string_view, const CombineExpression&,           \
                                                              const LaunchParams&, CallInfo*) const;                \
    template transform_type_t<T> Reducer::transform_reduce<T>(const T*, std::uint64_t, std::string_view,            \
                                                              const CombineExpression&, const LaunchParams&,        \
                                                              CallInfo*) const;                                     \
    template double Reducer::norm<T>(const cl::Buffer&, const Image&, Operation, const LaunchParams&, CallInfo*)    \
        const;                                                                                                      \
    template double Reducer::norm<T>(const T*, const Image&, Operation, const LaunchParams&, CallInfo*) const;      \
    template cl::Event Reducer::enqueue_async<T>(Operation, const cl::Buffer&, std::uint64_t, std::uint64_t,        \
                                                 const AsyncTarget&, const LaunchParams&, CallInfo*) const;
CLREDUCE_FOR_EACH_ELEMENT_TYPE(CLREDUCE_INSTANTIATE)
#undef CLREDUCE_INSTANTIATE
#undef CLREDUCE_INSTANTIATE_OPERATION

}  // namespace clreduce
