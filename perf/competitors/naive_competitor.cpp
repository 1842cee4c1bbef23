// The paper's naive kernel (perf/competitors/naive_sum.cl): one launch over the elements, then launches
// over the partials until one value is left; the host reads that value.
#include "competitors/competitor.hpp"
#include "measure/embedded_perf_kernels.hpp"
#include "measure/timing.hpp"

namespace clreduce::perf {
namespace {

class NaiveSum : public Competitor {
public:
    explicit NaiveSum(const CompareSetup& setup) : setup_(setup) {
        const DeviceInfo& d = setup.reducer->device_info();
        if (setup.type == ElementType::float64 && !d.has_fp64) {
            why_ = "the device has no cl_khr_fp64";
            return;
        }
        accumulator_ = !is_floating(setup.type) ? (is_signed(setup.type) ? ElementType::int64 : ElementType::uint64)
                                                : (d.has_fp64 ? ElementType::float64 : ElementType::float32);
        std::string options = "-D NAIVE_T=" + std::string(opencl_type_name(setup.type)) +
                              " -D NAIVE_ACC=" + std::string(opencl_type_name(accumulator_));
        if (accumulator_ == ElementType::float64) options += " -D NAIVE_FP64";
        const cl::Context& context = setup.reducer->context();
        const cl::Device device = setup.reducer->queue().getInfo<CL_QUEUE_DEVICE>();
        cl::Program program;
        try {
            program = build_perf_program(context, device, "naive_sum.cl", options);
        } catch (const BuildError& e) {
            why_ = "naive_sum.cl does not build: " + e.log();
            return;
        }
        cl_int err = CL_SUCCESS;
        elements_ = cl::Kernel(program, "naive_sum_elements", &err);
        check(err, "clCreateKernel");
        partials_ = cl::Kernel(program, "naive_sum_partials", &err);
        check(err, "clCreateKernel");
        // The tree needs a power-of-two work-group.
        std::size_t limit = std::min<std::size_t>(256, d.max_work_group_size);
        limit = std::min(limit, elements_.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device));
        limit = std::min(limit, partials_.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device));
        while (wg_ * 2 <= limit) wg_ *= 2;
    }
    std::string name() const override { return "naive"; }
    std::string unavailable() const override { return why_; }
    std::string detail() const override {
        return "the paper's Algorithm 2: one element per work-item, interleaved tree, work-group " +
               std::to_string(wg_) + ", " + std::string(type_name(accumulator_)) +
               " partials summed by further launches on the device";
    }
    Measurement measure(const Workload& w) override {
        const cl::Context& context = setup_.reducer->context();
        const std::size_t acc_size = type_size(accumulator_);
        const std::uint64_t first = (w.n + wg_ - 1) / wg_;
        const std::uint64_t second = std::max<std::uint64_t>(1, (first + wg_ - 1) / wg_);
        cl_int err = CL_SUCCESS;
        cl::Buffer a(context, CL_MEM_READ_WRITE, first * acc_size, nullptr, &err);
        check(err, "clCreateBuffer");
        cl::Buffer b(context, CL_MEM_READ_WRITE, second * acc_size, nullptr, &err);
        check(err, "clCreateBuffer");
        Measurement m = time_calls(setup_.repeats, [&] { return run(setup_.reducer->queue(), w, a, b, nullptr); });
        time_device(
            setup_.repeats,
            [&] {
            std::vector<cl::Event> events;
            const long double value = run(setup_.profiling->queue(), w, a, b, &events);
            return DeviceCall{value, device_microseconds(events)};
            },
            m);
        m.accumulator = accumulator_;
        m.note = std::to_string((w.n + wg_ - 1) / wg_) + " groups of " + std::to_string(wg_) + " in the first launch";
        return m;
    }

private:
    // One synchronous sum: the launches over the elements, then over the partials (in a and b
    // in turn) until one is left, read back. `events`: one per launch; null: none made.
    long double run(const cl::CommandQueue& queue, const Workload& w, const cl::Buffer& a, const cl::Buffer& b,
                    std::vector<cl::Event>* events) {
        const std::size_t acc_size = type_size(accumulator_);
        auto launch = [&](cl::Kernel& k, const cl::Buffer& in, std::uint64_t count, const cl::Buffer& out) {
            const std::uint64_t groups = (count + wg_ - 1) / wg_;
            check(k.setArg(0, in), "clSetKernelArg");
            check(k.setArg(1, cl_ulong(count)), "clSetKernelArg");
            check(k.setArg(2, out), "clSetKernelArg");
            check(k.setArg(3, cl::Local(wg_ * acc_size)), "clSetKernelArg");
            cl::Event* event = events ? &events->emplace_back() : nullptr;
            check(queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(groups * wg_), cl::NDRange(wg_), nullptr,
                                             event),
                  "clEnqueueNDRangeKernel");
            return groups;
        };
        std::uint64_t count = launch(elements_, *w.buffer, w.n, a);
        const cl::Buffer* in = &a;
        const cl::Buffer* out = &b;
        while (count > 1) {
            count = launch(partials_, *in, count, *out);
            std::swap(in, out);
        }
        unsigned char bits[8] = {};
        check(queue.enqueueReadBuffer(*in, CL_TRUE, 0, acc_size, bits), "clEnqueueReadBuffer");
        return accumulator_value(bits);
    }

    long double accumulator_value(const unsigned char* bits) const {
        auto as = [&](auto v) {
            std::memcpy(&v, bits, sizeof v);
            return static_cast<long double>(v);
        };
        switch (accumulator_) {
            case ElementType::int64: return as(std::int64_t{});
            case ElementType::uint64: return as(std::uint64_t{});
            case ElementType::float32: return as(float{});
            default: return as(double{});
        }
    }

    const CompareSetup& setup_;
    std::string why_;
    ElementType accumulator_ = ElementType::int64;
    cl::Kernel elements_, partials_;
    std::size_t wg_ = 1;
};

}  // namespace

std::unique_ptr<Competitor> make_naive_competitor(const CompareSetup& setup) {
    return std::make_unique<NaiveSum>(setup);
}

}  // namespace clreduce::perf
