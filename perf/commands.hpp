#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <clreduce/element_type.hpp>

#include "adversarial_data.hpp"

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

struct AccuracyOptions {
    std::string device;
    std::vector<ElementType> types{ElementType::float32, ElementType::float64};
    std::vector<testing::Dataset> datasets = testing::all_datasets();
    std::uint64_t n = 0;  // 0: 2^28 on a GPU, 2^22 otherwise
    int repeats = 5;
    std::uint64_t seed = 20261121;
    std::string json;  // also write the report here
    bool skip_opencv = false;
};

// Each returns the process exit code.
int run_devices();
int run_sweep(const SweepOptions& options);
int run_accuracy(const AccuracyOptions& options);

}  // namespace clreduce::perf
