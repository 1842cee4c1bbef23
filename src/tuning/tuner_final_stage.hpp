#pragma once
// The tuner's last stage without OpenCL, so that tests can feed it timings. After the
// coordinate descent every `times` of times_sweep() is measured with the other parameters
// fixed at the winner's; the fastest of those (the tuner takes all) and the defaults are then
// timed again in interleaved rounds, so that all see the same noise, and the lowest median wins.
#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

#include <clreduce/device_info.hpp>
#include <clreduce/element_type.hpp>
#include <clreduce/launch_params.hpp>

namespace clreduce {

// The `times` values the tuner's final stage measures at n with `fixed`'s other parameters
// (fixed.times is ignored), and `clreduce-perf tune --check` sweeps: every power of two from
// 1 to kTimesSweepMax that makes a valid plan, up to the first that leaves a single work-group
// (larger ones only add idle iterations to it).
constexpr std::uint32_t kTimesSweepMax = 1024;
std::vector<std::uint32_t> times_sweep(ElementType type, std::uint64_t n, const DeviceInfo& device,
                                       const LaunchParams& fixed);

double median_of(std::vector<double> samples);  // 0 for none

// Indices of the k lowest values, lowest first; nullopt (failed, not measured) is never
// chosen. Ties keep the earlier index first.
std::vector<std::size_t> fastest(const std::vector<std::optional<double>>& us, std::size_t k);

// `rounds` rounds of one sample per candidate through time_once; each round starts one
// candidate further on, so none is always timed right after the same neighbour. A candidate
// whose time_once gives nullopt (a wrong result, a failure) loses its samples and is timed no
// more. `stop` (may be empty) ends the rounds early.
std::vector<std::vector<double>> interleaved_samples(std::size_t candidates, int rounds,
                                                     const std::function<std::optional<double>(std::size_t)>& time_once,
                                                     const std::function<bool()>& stop = {});

// The index with the lowest median sample; nullopt when none has samples. Ties: the earlier.
std::optional<std::size_t> lowest_median(const std::vector<std::vector<double>>& samples);

struct FinalChoice {
    std::size_t index = 0;                       // into the candidates
    double us = 0;                               // its re-timed median (its first time if none)
    std::vector<std::optional<double>> retimed;  // each candidate's re-timed median, if it was re-timed
};

// The final choice among candidates with the first times `first_us`: the `top` fastest and
// those in `always` are re-timed in `rounds` interleaved rounds and the lowest median wins.
// Without re-timed samples (rounds 0, stopped at once, every finalist failed) the fastest
// first time wins. nullopt when no candidate has a time at all.
std::optional<FinalChoice> choose_final(const std::vector<std::optional<double>>& first_us, std::size_t top,
                                        const std::vector<std::size_t>& always, int rounds,
                                        const std::function<std::optional<double>(std::size_t)>& time_once,
                                        const std::function<bool()>& stop = {});

}  // namespace clreduce
