#include "tuning/tuner_final_stage.hpp"

#include <algorithm>
#include <numeric>

#include <clreduce/error.hpp>
#include <clreduce/tuning.hpp>

#include "plan/planner.hpp"

namespace clreduce {

double median_of(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

std::vector<std::size_t> fastest(const std::vector<std::optional<double>>& us, std::size_t k) {
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < us.size(); ++i)
        if (us[i]) order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return *us[a] < *us[b]; });
    if (order.size() > k) order.resize(k);
    return order;
}

std::vector<std::vector<double>> interleaved_samples(std::size_t candidates, int rounds,
                                                     const std::function<std::optional<double>(std::size_t)>& time_once,
                                                     const std::function<bool()>& stop) {
    std::vector<std::vector<double>> samples(candidates);
    std::vector<bool> failed(candidates, false);
    for (int round = 0; round < rounds; ++round) {
        // A round cut short by `stop` is dropped, so that every candidate kept has as many samples.
        std::vector<std::optional<double>> got(candidates);
        bool complete = true;
        for (std::size_t step = 0; step < candidates && complete; ++step) {
            const std::size_t c = (std::size_t(round) + step) % candidates;
            if (failed[c]) continue;
            if (stop && stop()) {
                complete = false;
                break;
            }
            got[c] = time_once(c);
            if (!got[c]) {
                failed[c] = true;
                samples[c].clear();
            }
        }
        if (!complete) break;
        for (std::size_t c = 0; c < candidates; ++c)
            if (got[c]) samples[c].push_back(*got[c]);
    }
    return samples;
}

std::optional<std::size_t> lowest_median(const std::vector<std::vector<double>>& samples) {
    std::optional<std::size_t> best;
    double best_median = 0;
    for (std::size_t i = 0; i < samples.size(); ++i) {
        if (samples[i].empty()) continue;
        const double m = median_of(samples[i]);
        if (!best || m < best_median) {
            best = i;
            best_median = m;
        }
    }
    return best;
}

std::optional<FinalChoice> choose_final(const std::vector<std::optional<double>>& first_us, std::size_t top,
                                        const std::vector<std::size_t>& always, int rounds,
                                        const std::function<std::optional<double>(std::size_t)>& time_once,
                                        const std::function<bool()>& stop) {
    std::vector<std::size_t> finalists = fastest(first_us, top);
    for (std::size_t i : always)
        if (i < first_us.size() && first_us[i] && std::find(finalists.begin(), finalists.end(), i) == finalists.end())
            finalists.push_back(i);
    std::vector<bool> failed(first_us.size(), false);
    const auto samples = interleaved_samples(
        finalists.size(), rounds,
        [&](std::size_t k) {
        const std::optional<double> us = time_once(finalists[k]);
        if (!us) failed[finalists[k]] = true;
        return us;
        },
        stop);

    FinalChoice choice;
    choice.retimed.assign(first_us.size(), std::nullopt);
    for (std::size_t k = 0; k < finalists.size(); ++k)
        if (!samples[k].empty()) choice.retimed[finalists[k]] = median_of(samples[k]);
    if (const auto best = lowest_median(samples)) {
        choice.index = finalists[*best];
        choice.us = *choice.retimed[choice.index];
        return choice;
    }
    // Nothing re-timed: the fastest first time of a candidate that did not fail since.
    std::vector<std::optional<double>> usable = first_us;
    for (std::size_t i = 0; i < usable.size(); ++i)
        if (failed[i]) usable[i] = std::nullopt;
    const auto order = fastest(usable, 1);
    if (order.empty()) return std::nullopt;
    choice.index = order[0];
    choice.us = *usable[order[0]];
    return choice;
}

std::vector<std::uint32_t> times_sweep(ElementType type, std::uint64_t n, const DeviceInfo& device,
                                       const LaunchParams& fixed) {
    std::vector<std::uint32_t> out;
    for (std::uint32_t t = 1; t <= kTimesSweepMax; t *= 2) {
        LaunchParams p = fixed;
        p.times = t;
        std::uint64_t groups = 0;
        try {
            groups = make_plan(type, n, device, p).groups;
        } catch (const Error&) {
            continue;  // e.g. too many work-groups for this n
        }
        out.push_back(t);
        if (groups == 1) break;  // larger times only add idle iterations to the single group
    }
    return out;
}

}  // namespace clreduce
