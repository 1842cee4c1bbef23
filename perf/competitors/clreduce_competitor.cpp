// clreduce itself, with its default parameters (the device's tuned plan where one exists).
#include "../timing.hpp"
#include "competitor.hpp"
#include "reference.hpp"

namespace clreduce::perf {
namespace {

class ClreduceSum : public Competitor {
public:
    explicit ClreduceSum(const CompareSetup& setup) : setup_(setup) {}
    std::string name() const override { return "clreduce"; }
    std::string unavailable() const override {
        try {
            require_support(setup_.type, setup_.reducer->device_info());
        } catch (const Unsupported& e) {
            return e.what();
        }
        return {};
    }
    std::string detail() const override { return "default LaunchParams (the plan is printed per n)"; }
    Measurement measure(const Workload& w) override {
        return testing::with_element_type(w.type, [&](auto tag) {
            using T = decltype(tag);
            const Reducer& reducer = *setup_.reducer;
            CallInfo info;
            Measurement m = time_calls(setup_.repeats, [&] {
                info = CallInfo{};
                const auto sum = reducer.sum<T>(*w.buffer, 0, w.n, {}, &info);
                return CallResult{static_cast<long double>(sum), device_microseconds(info.kernel_events)};
            });
            m.accumulator = info.plan.accumulator;
            m.note = info.plan.describe();
            return m;
        });
    }

private:
    const CompareSetup& setup_;
};

}  // namespace

std::unique_ptr<Competitor> make_clreduce_competitor(const CompareSetup& setup) {
    return std::make_unique<ClreduceSum>(setup);
}

}  // namespace clreduce::perf
