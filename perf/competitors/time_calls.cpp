#include <chrono>

#include "competitors/competitor.hpp"
#include "measure/timing.hpp"

namespace clreduce::perf {
namespace {

class Unavailable : public Competitor {
public:
    Unavailable(std::string name, std::string why) : name_(std::move(name)), why_(std::move(why)) {}
    std::string name() const override { return name_; }
    std::string unavailable() const override { return why_; }
    Measurement measure(const Workload&) override { return {}; }

private:
    std::string name_, why_;
};

}  // namespace

std::string unsupported_type(const CompareSetup& setup) {
    try {
        require_support(setup.type, setup.reducer->device_info());
    } catch (const Unsupported& e) {
        return e.what();
    }
    return {};
}

std::unique_ptr<Competitor> make_unavailable(std::string name, std::string why) {
    return std::make_unique<Unavailable>(std::move(name), std::move(why));
}

Measurement time_calls(int repeats, const std::function<long double()>& call) {
    Measurement m;
    std::vector<double> wall;
    for (int run = 0; run <= repeats; ++run) {
        const auto start = std::chrono::steady_clock::now();
        const long double value = call();
        const auto stop = std::chrono::steady_clock::now();
        m.values.push_back(value);
        if (run == 0) continue;  // warm-up: program builds, first-touch costs
        wall.push_back(std::chrono::duration<double, std::micro>(stop - start).count());
    }
    m.wall_us = median(wall);
    return m;
}

void time_device(int repeats, const std::function<DeviceCall()>& call, Measurement& m) {
    std::vector<double> device;
    for (int run = 0; run <= repeats; ++run) {
        const DeviceCall r = call();
        m.values.push_back(r.value);
        if (run > 0) device.push_back(r.device_us);  // run 0: warm-up
    }
    m.device_us = median(device);
}

}  // namespace clreduce::perf
