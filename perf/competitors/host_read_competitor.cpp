// compare's `host read`: host_sum (host_sum.hpp) over the workload's host data. It is the bound
// a CPU device's reduction is measured against: what the host's memory gives that many threads.
#include "competitors/competitor.hpp"
#include "competitors/host_sum.hpp"
#include "reference/with_element_type.hpp"

namespace clreduce::perf {
namespace {

class HostRead : public Competitor {
public:
    explicit HostRead(const CompareSetup& setup)
        : setup_(setup), threads_(host_read_threads(setup.reducer->device_info())) {}
    std::string name() const override { return "host read"; }
    std::string unavailable() const override {
        if (setup_.type == ElementType::float16) return "no host arithmetic for half here";
        return {};
    }
    std::string detail() const override {
        return "one pass over the host data, " + std::to_string(threads_) +
               " OpenMP threads (the device's compute units, at most the host's cores), adding into "
               "int64/uint64/double";
    }
    Measurement measure(const Workload& w) override {
        return testing::with_element_type(w.type, [&](auto tag) {
            using T = decltype(tag);
            const T* data = static_cast<const T*>(w.host);
            const auto n = static_cast<std::int64_t>(w.n);
            Measurement m = time_calls(setup_.repeats, [&] { return host_sum(data, n, threads_); });
            m.accumulator = ElementType::float64;
            return m;
        });
    }

private:
    const CompareSetup& setup_;
    int threads_;
};

}  // namespace

std::unique_ptr<Competitor> make_host_read_competitor(const CompareSetup& setup) {
    return std::make_unique<HostRead>(setup);
}

}  // namespace clreduce::perf
