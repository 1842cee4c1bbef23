#pragma once
// What `clreduce-perf sweep` measured: one point per n x stride x times.
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <clreduce/device_info.hpp>
#include <clreduce/launch_params.hpp>

#include "report/output_files.hpp"

namespace clreduce::perf {

struct SweepPoint {
    std::uint64_t n = 0;
    Stride stride = Stride::global;
    std::uint32_t times = 1;
    LaunchPlan plan;
    double kernel_us = 0;  // median device time of the kernels
    double call_us = 0;    // median wall time of the synchronous call
    double gbps = 0;       // n * sizeof(T) / kernel time
    std::string problem;   // empty when every run was correct
    std::string skipped;   // why this point was not run (plan refused); empty when it ran

    bool ran() const { return skipped.empty(); }
    bool correct() const { return problem.empty(); }
};

struct SweepResult {
    DeviceInfo device;
    ElementType type = ElementType::uint32;
    int repeats = 0;
    std::uint64_t seed = 0;
    std::string data;                     // what the random data is
    std::vector<std::uint64_t> sizes;     // the n swept, in order
    std::vector<std::string> references;  // per n: the CPU references the results were checked against
    std::vector<SweepPoint> points;

    // The fastest point (median kernel time) of one curve; null when none ran.
    const SweepPoint* inflection(std::uint64_t n, Stride stride) const;
    bool all_correct() const;
};

enum class PlotY { gbps, time };

void print_sweep_table(const SweepResult& result, std::ostream& out);
void write_sweep_csv(const SweepResult& result, const std::string& path);
void write_sweep_json(const SweepResult& result, const std::string& path);
void write_sweep_svg(const SweepResult& result, PlotY y, const std::string& path);

}  // namespace clreduce::perf
