// compare's `host statistics`: the arithmetic of statistics alone over the host data, in any
// order, on as many threads as `host read` (each a contiguous part): per element what the
// kernels and the host path do (a conversion to double; the difference from a shift, added to a
// sum and, squared, to a sum of squares, the multiply and add apart as in the kernels) and both
// extremes (on the elements themselves, 64 bytes of them per comparison). No order is kept and
// no state stored: it is the bound of `clreduce-host statistics` on the host's cores, which also
// keeps the device's order. Where it is slower than the host read, statistics are bound by the
// host's arithmetic, not by its memory. (Built with -ffp-contract=off: perf/CMakeLists.txt.)
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

#include "competitors/competitor.hpp"
#include "competitors/host_sum.hpp"
#include "exec/host_doubles.hpp"  // Doubles, ElementsOf; CLREDUCE_HOST_CLONES: the host's widest vectors
#include "reference/with_element_type.hpp"

namespace clreduce::perf {
namespace {

// A part's sums of (x - shift) and (x - shift)^2, and its extremes.
struct PartStatistics {
    double shift = 0, count = 0, sum = 0, squares = 0;
    double lo = std::numeric_limits<double>::infinity(), hi = -std::numeric_limits<double>::infinity();
};

// One thread's part: 64 bytes of elements at a time, their doubles in vectors of eight.
template <class T>
CLREDUCE_HOST_CLONES PartStatistics part_statistics(const T* data, std::int64_t n) {
    constexpr std::int64_t per = 64 / sizeof(T);  // elements per step
    using Elements = typename ElementsOf<T, per>::type;
    PartStatistics p;
    if (n == 0) return p;
    p.count = static_cast<double>(n);
    const double first = static_cast<double>(data[0]);
    p.shift = std::isfinite(first) ? first : 0.0;
    std::int64_t i = 0;
    if (n >= per) {
        Elements lo, hi;
        std::memcpy(&lo, data, sizeof lo);
        hi = lo;
        const Doubles shift = Doubles{} + p.shift;
        Doubles sum{}, squares{};
        for (; i + per <= n; i += per) {
            Elements e;
            std::memcpy(&e, data + i, sizeof e);
            lo = e < lo ? e : lo;
            hi = hi < e ? e : hi;
            for (std::int64_t k = 0; k < per; k += 8) {
                Doubles x;
                for (int j = 0; j < 8; ++j) x[j] = static_cast<double>(data[i + k + j]);
                const Doubles d = x - shift;
                sum = sum + d;
                squares = squares + d * d;
            }
        }
        for (int j = 0; j < 8; ++j) {
            p.sum += sum[j];
            p.squares += squares[j];
        }
        T l[per], h[per];
        std::memcpy(l, &lo, sizeof l);
        std::memcpy(h, &hi, sizeof h);
        for (std::int64_t j = 0; j < per; ++j) {
            p.lo = std::min(p.lo, static_cast<double>(l[j]));
            p.hi = std::max(p.hi, static_cast<double>(h[j]));
        }
    }
    for (; i < n; ++i) {
        const double x = static_cast<double>(data[i]);
        const double d = x - p.shift;
        p.sum += d;
        p.squares += d * d;
        p.lo = std::min(p.lo, x);
        p.hi = std::max(p.hi, x);
    }
    return p;
}

// The pass on `threads` OpenMP threads, each part's sums into parts[thread] (empty where OpenMP
// gave fewer threads).
template <class T>
PartStatistics host_statistics(const T* data, std::int64_t n, int threads, std::vector<PartStatistics>& parts) {
    std::fill(parts.begin(), parts.end(), PartStatistics{});
#pragma omp parallel num_threads(threads)
    {
        const std::int64_t t = omp_get_thread_num(), count = omp_get_num_threads();
        const std::int64_t begin = n * t / count, end = n * (t + 1) / count;
        parts[t] = part_statistics(data + begin, end - begin);
    }
    // The parts' sums as one sum of the values (the row's value: compare checks it).
    PartStatistics all;
    for (const PartStatistics& p : parts) {
        all.sum += p.sum + p.count * p.shift;
        all.squares += p.squares;
        all.lo = std::min(all.lo, p.lo);
        all.hi = std::max(all.hi, p.hi);
    }
    return all;
}

class HostStatistics : public Competitor {
public:
    explicit HostStatistics(const CompareSetup& setup)
        : setup_(setup), threads_(host_read_threads(setup.reducer->device_info())) {}
    std::string name() const override { return "host statistics"; }
    std::string unavailable() const override {
        if (setup_.type == ElementType::float16) return "no host arithmetic for half here";
        return {};
    }
    std::string detail() const override {
        return "the arithmetic of statistics alone (shifted sums and extremes, any order, the host's widest "
               "vectors), " +
               std::to_string(threads_) + " OpenMP threads as host read: the bound of clreduce-host statistics";
    }
    Measurement measure(const Workload& w) override {
        return testing::with_element_type(w.type, [&](auto tag) {
            using T = decltype(tag);
            const T* data = static_cast<const T*>(w.host);
            const auto n = static_cast<std::int64_t>(w.n);
            const auto [lo, hi] = std::minmax_element(data, data + n);
            std::vector<PartStatistics> parts(threads_);
            std::string problem;
            Measurement m = time_calls(setup_.repeats, [&] {
                const PartStatistics s = host_statistics(data, n, threads_, parts);
                if (problem.empty() &&
                    (s.lo != static_cast<double>(*lo) || s.hi != static_cast<double>(*hi) || !(s.squares >= 0)))
                    problem = fmt::format("extremes {} and {}, exact {} and {}; sum of squares {}", s.lo, s.hi,
                                          static_cast<double>(*lo), static_cast<double>(*hi), s.squares);
                return static_cast<long double>(s.sum);
            });
            m.accumulator = ElementType::float64;
            // Its sum goes through compare's check; wrong extremes make the row wrong instead.
            if (!problem.empty()) m.self_check = problem;
            return m;
        });
    }

private:
    const CompareSetup& setup_;
    int threads_;
};

}  // namespace

std::unique_ptr<Competitor> make_host_statistics_competitor(const CompareSetup& setup) {
    return std::make_unique<HostStatistics>(setup);
}

}  // namespace clreduce::perf
