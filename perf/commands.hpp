#pragma once
#include <cstdint>
#include <string>

#include <clreduce/element_type.hpp>

namespace CLI {
class App;
}

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

struct FirstResultOptions {
    std::string device;
    std::string type_name = "uint32";
    ElementType type = ElementType::uint32;
    std::uint64_t n = 1ull << 20;
    int repeats = 5;
    std::uint64_t seed = 20261121;
    bool keep_driver_cache = false;
    bool child = false;  // this process is the one measured
};
CLI::App* add_first_result_command(CLI::App& app, FirstResultOptions& options);

// Each returns the process exit code.
int run_devices();
int run_sweep(const SweepOptions& options);
int run_first_result(FirstResultOptions options);

}  // namespace clreduce::perf
