#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <clreduce/element_type.hpp>

namespace clreduce::perf {

struct SweepOptions {
    std::string device;  // spec for select_device; empty: default_device()
    ElementType type = ElementType::uint32;
    std::uint64_t n = 1ull << 24;
    std::uint32_t min_times = 1;
    std::uint32_t max_times = 1024;
    std::uint32_t work_group_size = 0;  // 0: device default
    std::uint32_t vector_width = 0;     // 0: device default
    int repeats = 20;
    std::uint64_t seed = 20261121;
};

struct TuneCommandOptions {
    std::string device;
    std::vector<std::string> types;  // empty: every type the device supports
    std::uint64_t min_n = 1ull << 12;
    std::uint64_t max_n = 1ull << 30;
    bool quick = false;
    int repeats = 5;
    double time_budget_s = 0;
    std::string file;  // empty: the default tuning file
    bool dry_run = false;
    bool show = false;
    bool reset = false;
    std::uint64_t seed = 20261121;
};

// Each returns the process exit code.
int run_devices();
int run_sweep(const SweepOptions& options);
int run_tune(const TuneCommandOptions& options);

}  // namespace clreduce::perf
