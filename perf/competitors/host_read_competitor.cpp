// The plain host read a user would write instead of an OpenCL call on a CPU device: one
// pass over the same host bytes, split evenly over as many threads as the device has compute
// units (at most the host's cores; OpenMP's pool, started before timing), each adding into the
// sum's accumulator (int64 / uint64, double for floats) in SIMD lanes (`omp simd`: a float sum
// in any order). It is the bound a CPU device's reduction is measured against: what the host's
// memory gives that many threads.
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <thread>

#include "competitors/competitor.hpp"
#include "reference/with_element_type.hpp"

namespace clreduce::perf {
namespace {

template <class T>
using HostAccumulator = std::conditional_t<std::is_floating_point_v<T>, double,
                                           std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>>;

template <class T>
long double host_sum(const T* data, std::int64_t n, int threads) {
    HostAccumulator<T> acc = 0;
#pragma omp parallel for simd num_threads(threads) schedule(static) reduction(+ : acc)
    for (std::int64_t i = 0; i < n; ++i) acc += static_cast<HostAccumulator<T>>(data[i]);
    return static_cast<long double>(acc);
}

class HostRead : public Competitor {
public:
    // A CPU device's compute units are the host's cores; a GPU's are not: at most the host's.
    explicit HostRead(const CompareSetup& setup)
        : setup_(setup),
          threads_(static_cast<int>(std::clamp<std::uint32_t>(setup.reducer->device_info().compute_units, 1,
                                                              std::max(1u, std::thread::hardware_concurrency())))) {}
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
