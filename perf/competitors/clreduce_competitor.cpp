// clreduce itself, with its default parameters (the device's tuned plan where one exists); once
// more on the same values one element into a buffer (misaligned: what level 1's vloadN path
// costs); once more from host memory (the pointer form), and from a PinnedHostMemory; and
// for integer types once more with IntegerOverflow::wrap (the modular sum the exact one is
// measured against: what the overflow check costs, in the same run); for float types once
// more in each other float mode that gives the same bits run after run (compensated,
// correctly rounded: their cost against the deterministic default and their error). The
// wall time through a reducer on a plain queue, called as a user calls it (no CallInfo), the
// device time through a reducer on a profiling queue of the same context, with CallInfo's
// kernel events. Both must plan the same launch, or the two times would describe different
// calls.
#include <cstring>

#include <fmt/format.h>

#include <clreduce/pinned_host_memory.hpp>

#include "competitors/competitor.hpp"
#include "measure/timing.hpp"
#include "reference/with_element_type.hpp"

namespace clreduce::perf {
namespace {

// Where a sum's data comes from: a device buffer, the caller's host memory (the pointer form),
// or a PinnedHostMemory the data was copied into before timing.
enum class Source { buffer, host, pinned_host };

class ClreduceSum : public Competitor {
public:
    ClreduceSum(const CompareSetup& setup, std::string name, LaunchParams params, std::uint64_t offset = 0,
                Source source = Source::buffer)
        : setup_(setup), name_(std::move(name)), params_(params), offset_(offset), source_(source) {}
    std::string name() const override { return name_; }
    std::string unavailable() const override {
        if (params_.overflow && is_floating(setup_.type)) return "integer types only (IntegerOverflow::wrap)";
        if (params_.float_mode && !is_floating(setup_.type)) return "float types only (LaunchParams::float_mode)";
        return unsupported_type(setup_);
    }
    std::string detail() const override {
        if (source_ == Source::host && params_.host_path_bytes == std::uint64_t(0))
            return "LaunchParams::host_path_bytes = 0, the data from host memory (the pointer form kept on the "
                   "device: streamed to a GPU, read in place by a CPU device; the plan is printed per n)";
        if (source_ == Source::host)
            return "default LaunchParams, the data from host memory (the pointer form: the host's threads where they "
                   "reproduce the plan, else the device; the plan is printed per n)";
        if (source_ == Source::pinned_host)
            return "default LaunchParams, the data from a PinnedHostMemory it was copied into before timing (the "
                   "pointer form: one write to a GPU, no staging copy; the plan is printed per n)";
        const std::string params = params_.overflow ? "LaunchParams::overflow = wrap"
                                   : params_.float_mode
                                       ? "LaunchParams::float_mode = " + std::string(to_string(*params_.float_mode))
                                       : "default LaunchParams";
        return params +
               (offset_ != 0 ? ", the same data at element offset " + std::to_string(offset_) + " of a copy" : "") +
               " (the plan is printed per n); wall: plain queue, no CallInfo; device: profiling queue, CallInfo "
               "events";
    }
    Measurement measure(const Workload& w) override {
        return testing::with_element_type(w.type, [&](auto tag) {
            using T = decltype(tag);
            const Reducer& plain = *setup_.reducer;
            const Reducer& profiling = *setup_.profiling;
            // At an offset: a copy of the data that far into a buffer of its own (made before timing).
            const cl::Buffer* buffer = w.buffer;
            cl::Buffer shifted;
            if (offset_ != 0) {
                cl_int err = CL_SUCCESS;
                shifted = cl::Buffer(plain.context(), CL_MEM_READ_ONLY, (w.n + offset_) * sizeof(T), nullptr, &err);
                check(err, "clCreateBuffer");
                check(plain.queue().enqueueCopyBuffer(*w.buffer, shifted, 0, offset_ * sizeof(T), w.n * sizeof(T)),
                      "clEnqueueCopyBuffer");
                check(plain.queue().finish(), "clFinish");
                buffer = &shifted;
            }
            if (source_ == Source::host) return measure_host_data(static_cast<const T*>(w.host), w);
            if (source_ == Source::pinned_host) {
                PinnedHostMemory pinned(plain, w.n * sizeof(T));
                std::memcpy(pinned.data(), w.host, static_cast<std::size_t>(w.n * sizeof(T)));
                return measure_host_data(pinned.as<T>(), w);
            }
            const LaunchPlan plan = plain.plan(w.type, Operation::sum, w.n, params_);
            if (const LaunchPlan other = profiling.plan(w.type, Operation::sum, w.n, params_);
                other.describe() != plan.describe())
                throw Error(fmt::format("the plain and the profiling reducer plan differently: {} / {}",
                                        plan.describe(), other.describe()));
            Measurement m = time_calls(setup_.repeats, [&] {
                return static_cast<long double>(plain.sum<T>(*buffer, offset_, w.n, params_));
            });
            CallInfo info;
            time_device(
                setup_.repeats,
                [&] {
                info = CallInfo{};
                const auto sum = profiling.sum<T>(*buffer, offset_, w.n, params_, &info);
                return DeviceCall{static_cast<long double>(sum), device_microseconds(info.kernel_events)};
                },
                m);
            if (info.plan.describe() != plan.describe())
                throw Error("the profiled call used another plan: " + info.plan.describe());
            m.accumulator = plan.accumulator;
            m.note = plan.describe() + "; " + plan.describe_sources();
            return m;
        });
    }

private:
    // The pointer form: wall time through the plain reducer, device time (where kernels ran)
    // through the profiling one.
    template <class T>
    Measurement measure_host_data(const T* data, const Workload& w) {
        const Reducer& plain = *setup_.reducer;
        const Reducer& profiling = *setup_.profiling;
        const LaunchPlan plan = plain.plan(w.type, Operation::sum, w.n, params_, CallForm::host_data);
        Measurement m =
            time_calls(setup_.repeats, [&] { return static_cast<long double>(plain.sum(data, w.n, params_)); });
        CallInfo info;
        time_device(
            setup_.repeats,
            [&] {
            info = CallInfo{};
            const auto sum = profiling.sum(data, w.n, params_, &info);
            return DeviceCall{static_cast<long double>(sum), device_microseconds(info.kernel_events)};
            },
            m);
        if (plan.on_host) m.device_us.reset();  // nothing ran on the device
        m.accumulator = plan.accumulator;
        m.note = plan.describe() + "; " + plan.describe_sources();
        return m;
    }

    const CompareSetup& setup_;
    std::string name_;
    LaunchParams params_;
    std::uint64_t offset_ = 0;
    Source source_ = Source::buffer;
};

}  // namespace

std::unique_ptr<Competitor> make_clreduce_competitor(const CompareSetup& setup) {
    return std::make_unique<ClreduceSum>(setup, "clreduce", LaunchParams{});
}

std::unique_ptr<Competitor> make_clreduce_offset_competitor(const CompareSetup& setup) {
    return std::make_unique<ClreduceSum>(setup, "clreduce+1", LaunchParams{}, 1);
}

std::unique_ptr<Competitor> make_clreduce_host_data_competitor(const CompareSetup& setup) {
    return std::make_unique<ClreduceSum>(setup, "clreduce-host", LaunchParams{}, 0, Source::host);
}

// The pointer form kept off the host path (LaunchParams::host_path_bytes = 0): host data
// across the link to a GPU, or through a CPU device's kernels.
std::unique_ptr<Competitor> make_clreduce_link_competitor(const CompareSetup& setup) {
    LaunchParams device;
    device.host_path_bytes = 0;
    return std::make_unique<ClreduceSum>(setup, "clreduce-host-device", device, 0, Source::host);
}

std::unique_ptr<Competitor> make_clreduce_pinned_host_competitor(const CompareSetup& setup) {
    return std::make_unique<ClreduceSum>(setup, "clreduce-pinned", LaunchParams{}, 0, Source::pinned_host);
}

std::unique_ptr<Competitor> make_clreduce_compensated_competitor(const CompareSetup& setup) {
    LaunchParams compensated;
    compensated.float_mode = FloatMode::compensated;
    return std::make_unique<ClreduceSum>(setup, "clreduce-comp", compensated);
}

std::unique_ptr<Competitor> make_clreduce_correctly_rounded_competitor(const CompareSetup& setup) {
    LaunchParams rounded;
    rounded.float_mode = FloatMode::correctly_rounded;
    return std::make_unique<ClreduceSum>(setup, "clreduce-cr", rounded);
}

std::unique_ptr<Competitor> make_clreduce_wrap_competitor(const CompareSetup& setup) {
    LaunchParams wrap;
    wrap.overflow = IntegerOverflow::wrap;
    return std::make_unique<ClreduceSum>(setup, "clreduce-wrap", wrap);
}

}  // namespace clreduce::perf
