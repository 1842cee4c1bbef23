// clreduce's pointer form of operations other than the sum (min, argmax, count_nonzero,
// statistics, norm_l2) on the same host data, one row each ("clreduce-host min", ...): what
// the host path gives them beside the sum's row and the same run's `host read`. Each call's
// result is checked here, not against the sum's reference: against the same call kept on the
// device (LaunchParams::host_path_bytes = 0), bit for bit, which is the host path's promise;
// and for min, argmax and count_nonzero against an exact loop over the data too.
#include <cstring>

#include <fmt/format.h>

#include "competitors/competitor.hpp"
#include "measure/timing.hpp"
#include "reference/with_element_type.hpp"

namespace clreduce::perf {
namespace {

// A result's bits, for comparing two calls' results exactly.
template <class V>
std::string bits_of(const V& v) {
    std::string s(sizeof v, '\0');
    std::memcpy(s.data(), &v, sizeof v);
    return s;
}

// One operation's call, its result as the row's value (an index for argmax, the mean for
// statistics) and as bits.
struct OperationCall {
    long double value;
    std::string bits;
};

template <class T>
OperationCall call(const Reducer& r, Operation op, const T* data, std::uint64_t n, const LaunchParams& p) {
    switch (op) {
        case Operation::min: {
            const T v = r.min(data, n, p);
            return {static_cast<long double>(v), bits_of(v)};
        }
        case Operation::argmax: {
            const ArgResult<T> a = r.argmax(data, n, p);
            return {static_cast<long double>(a.index), bits_of(a.index) + bits_of(a.value)};
        }
        case Operation::count_nonzero: {
            const std::uint64_t c = r.count_nonzero(data, n, p);
            return {static_cast<long double>(c), bits_of(c)};
        }
        case Operation::statistics: {
            const Statistics<T> s = r.statistics(data, n, p);
            return {static_cast<long double>(s.mean), bits_of(s.count) + bits_of(s.min) + bits_of(s.max) +
                                                          bits_of(s.sum) + bits_of(s.mean) + bits_of(s.variance)};
        }
        default: {
            const double v = r.norm_l2(data, n, p);
            return {static_cast<long double>(v), bits_of(v)};
        }
    }
}

// The exact value of min, argmax (the lowest index of the largest value, NaN losing) and
// count_nonzero, as the row's value; nothing for the others.
template <class T>
std::optional<long double> exact(Operation op, const T* data, std::uint64_t n) {
    if (op == Operation::count_nonzero) {
        std::uint64_t c = 0;
        for (std::uint64_t i = 0; i < n; ++i) c += data[i] != T(0);
        return static_cast<long double>(c);
    }
    if (op != Operation::min && op != Operation::argmax) return std::nullopt;
    std::uint64_t best = n;
    for (std::uint64_t i = 0; i < n; ++i) {
        if (data[i] != data[i]) continue;
        if (best == n || (op == Operation::min ? data[i] < data[best] : data[best] < data[i])) best = i;
    }
    if (best == n) return std::nullopt;  // no number: NaN, checked against the device alone
    return op == Operation::min ? static_cast<long double>(data[best]) : static_cast<long double>(best);
}

class HostOperation : public Competitor {
public:
    HostOperation(const CompareSetup& setup, Operation op) : setup_(setup), op_(op) {}
    std::string name() const override { return "clreduce-host " + std::string(operation_name(op_)); }
    std::string unavailable() const override {
        if (setup_.type == ElementType::float16) return "no host arithmetic for half here";
        return unsupported_type(setup_);
    }
    std::string detail() const override {
        return fmt::format(
            "{} of the host data, default LaunchParams (the pointer form); checked against the same "
            "call kept on the device, bit for bit{}",
            operation_name(op_),
            op_ == Operation::statistics || op_ == Operation::norm_l2 ? "" : ", and against an exact loop");
    }
    Measurement measure(const Workload& w) override {
        return testing::with_element_type(w.type, [&](auto tag) {
            using T = decltype(tag);
            const Reducer& r = *setup_.reducer;
            const T* data = static_cast<const T*>(w.host);
            LaunchParams on_device;
            on_device.host_path_bytes = 0;
            const OperationCall want = call(r, op_, data, w.n, on_device);
            const std::optional<long double> exact_value = exact(op_, data, w.n);
            std::string problem;
            Measurement m = time_calls(setup_.repeats, [&] {
                const OperationCall got = call(r, op_, data, w.n, LaunchParams{});
                if (got.bits != want.bits && problem.empty())
                    problem = fmt::format("got {}, the same call on the device {} (other bits)",
                                          static_cast<double>(got.value), static_cast<double>(want.value));
                if (exact_value && got.value != *exact_value && problem.empty())
                    problem = fmt::format("got {}, exact {}", static_cast<double>(got.value),
                                          static_cast<double>(*exact_value));
                return got.value;
            });
            m.self_check = problem;
            const LaunchPlan plan = r.plan(w.type, op_, w.n, LaunchParams{}, CallForm::host_data);
            m.note = plan.describe();
            return m;
        });
    }

private:
    const CompareSetup& setup_;
    Operation op_;
};

}  // namespace

std::unique_ptr<Competitor> make_host_operation_competitor(const CompareSetup& setup, Operation op) {
    return std::make_unique<HostOperation>(setup, op);
}

}  // namespace clreduce::perf
