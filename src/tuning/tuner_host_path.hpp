#pragma once
// The tuner's placement stage: for each single-range bucket, whether host data of that size is
// reduced faster by the host's threads (the host path, exec/host_reduction.hpp) or across to
// the device, measured with the bucket's tuned parameters. The answer goes into the entry as
// LaunchParams::host_path_bytes (the largest value: the host; 0: the device), with both wall
// times, and the planner takes it where the caller sets none (planner.cpp, form_rules).
#include <chrono>
#include <cstdint>
#include <limits>
#include <vector>

#include <clreduce/reducer.hpp>
#include <clreduce/tuning.hpp>

#include "tuning/tuner_final_stage.hpp"
#include "tuning/tuning_data.hpp"

namespace clreduce {

// Buckets above this many elements keep the default placement: the stage needs the data in
// host memory too, and past a few hundred MiB either side runs at its bandwidth.
constexpr std::uint64_t kHostPlacementMaxN = std::uint64_t(1) << 26;

// Times r.sum(data, n) on each side, `rounds` interleaved calls each after one warm-up, every
// result checked against `ref`; sets entry.params.host_path_bytes, entry.host_data_us and
// entry.device_data_us. Leaves the entry as it is when the plan is not one the host
// reproduces (it runs on the device either way) or a call fails or is wrong.
template <class T>
void measure_host_placement(const Reducer& r, const T* data, std::uint64_t n, const TuningReference& ref, int rounds,
                            TunedEntry& entry) {
    LaunchParams host = entry.params, device = entry.params;
    host.host_path_bytes = std::numeric_limits<std::uint64_t>::max();
    device.host_path_bytes = 0;
    if (!r.plan(element_traits<T>::type, Operation::sum, n, host, CallForm::host_data).on_host) return;
    std::vector<double> host_us, device_us;
    const auto timed = [&](const LaunchParams& p, std::vector<double>* into) {
        CallInfo info;
        const auto start = std::chrono::steady_clock::now();
        const sum_type_t<T> got = r.sum(data, n, p, &info);
        const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
        if (!tuning_result_correct<T>(got, ref, n, info.plan.accumulator)) return false;
        if (into != nullptr) into->push_back(us);
        return true;
    };
    try {
        if (!timed(host, nullptr) || !timed(device, nullptr)) return;  // warm-up: builds, first touch
        for (int k = 0; k < rounds; ++k)
            if (!timed(host, &host_us) || !timed(device, &device_us)) return;
    } catch (const Error&) {
        return;
    }
    entry.host_data_us = median_of(host_us);
    entry.device_data_us = median_of(device_us);
    entry.params.host_path_bytes =
        entry.host_data_us <= entry.device_data_us ? std::numeric_limits<std::uint64_t>::max() : 0;
}

}  // namespace clreduce
