// CLBlast's xSUM (CLBlastSsum / CLBlastDsum) on the reducer's own queue and buffer.
#include "competitors/competitor.hpp"

#ifdef CLREDUCE_HAVE_CLBLAST
#include <clblast_c.h>

namespace clreduce::perf {
namespace {

class CLBlastSum : public Competitor {
public:
    explicit CLBlastSum(const CompareSetup& setup) : setup_(setup) {
        if (setup.type != ElementType::float32 && setup.type != ElementType::float64) {
            why_ = "CLBlast's xSUM is for floating point only";
            return;
        }
        if (setup.type == ElementType::float64 && !setup.reducer->device_info().has_fp64) {
            why_ = "the device has no cl_khr_fp64";
            return;
        }
        cl_int err = CL_SUCCESS;
        result_ = cl::Buffer(setup.reducer->context(), CL_MEM_READ_WRITE, 8, nullptr, &err);
        check(err, "clCreateBuffer");
    }
    std::string name() const override { return "CLBlast"; }
    std::string unavailable() const override { return why_; }
    std::string detail() const override {
        return std::string(setup_.type == ElementType::float32 ? "CLBlastSsum" : "CLBlastDsum") +
               " on the reducer's queue; it returns only its last kernel's event, so no device time";
    }
    Measurement measure(const Workload& w) override {
        cl_command_queue queue = setup_.reducer->queue()();
        Measurement m = time_calls(setup_.repeats, [&] {
            const bool single = w.type == ElementType::float32;
            const CLBlastStatusCode status = single
                                                 ? CLBlastSsum(w.n, result_(), 0, (*w.buffer)(), 0, 1, &queue, nullptr)
                                                 : CLBlastDsum(w.n, result_(), 0, (*w.buffer)(), 0, 1, &queue, nullptr);
            if (status != CLBlastSuccess) throw Error("CLBlast xSUM failed with status " + std::to_string(status));
            if (single) {
                float v = 0;
                check(clEnqueueReadBuffer(queue, result_(), CL_TRUE, 0, sizeof v, &v, 0, nullptr, nullptr),
                      "clEnqueueReadBuffer");
                return static_cast<long double>(v);
            }
            double v = 0;
            check(clEnqueueReadBuffer(queue, result_(), CL_TRUE, 0, sizeof v, &v, 0, nullptr, nullptr),
                  "clEnqueueReadBuffer");
            return static_cast<long double>(v);
        });
        m.accumulator = w.type;  // it sums in the element type
        return m;
    }

private:
    const CompareSetup& setup_;
    std::string why_;
    cl::Buffer result_;
};

}  // namespace

std::unique_ptr<Competitor> make_clblast_competitor(const CompareSetup& setup) {
    return std::make_unique<CLBlastSum>(setup);
}

}  // namespace clreduce::perf

#else

namespace clreduce::perf {
std::unique_ptr<Competitor> make_clblast_competitor(const CompareSetup&) {
    return make_unavailable("CLBlast", "CLBlast (libclblast-dev) was not found when clreduce was configured");
}
}  // namespace clreduce::perf

#endif
