#include "experiments/floor_rows.hpp"

#include <algorithm>

#include "measure/timing.hpp"

namespace clreduce::perf::experiments {

double percentile(std::vector<double> v, double q) {
    std::sort(v.begin(), v.end());
    return v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1))];
}

FloorRow summarize(std::string name, const std::vector<double>& us, std::string note) {
    return {std::move(name), median(us), percentile(us, 0.1), percentile(us, 0.9), std::move(note)};
}

FloorRow time_wall(const std::string& name, int repeats, const std::function<void()>& call, std::string note) {
    for (int i = 0; i < 10; ++i) call();
    std::vector<double> us;
    for (int i = 0; i < repeats; ++i) {
        const auto t0 = Clock::now();
        call();
        us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
    }
    return summarize(name, us, std::move(note));
}

}  // namespace clreduce::perf::experiments
