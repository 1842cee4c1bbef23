#pragma once
// One row of clreduce-floor's table, and how a row is timed: the median and spread of a
// repeated call, wall clock unless the row says otherwise.
#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace clreduce::perf::experiments {

// Asynchronous calls are timed in chains of this many, none waited for.
constexpr int kAsyncChain = 100;

using Clock = std::chrono::steady_clock;

struct FloorRow {
    std::string name;
    double median_us = 0, p10_us = 0, p90_us = 0;
    std::string note;
};

double percentile(std::vector<double> v, double q);  // q in [0, 1]; the nearest lower rank

FloorRow summarize(std::string name, const std::vector<double>& us, std::string note = {});

// Wall time of `call` over `repeats` runs after 10 warm-up runs.
FloorRow time_wall(const std::string& name, int repeats, const std::function<void()>& call, std::string note = {});

}  // namespace clreduce::perf::experiments
