#pragma once
#include <cstdint>
#include <string>

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

// Each returns the process exit code.
int run_devices();
int run_sweep(const SweepOptions& options);

}  // namespace clreduce::perf
