#pragma once
#include <cstdint>
#include <string>
#include <tuple>

#include <clreduce/device_info.hpp>
#include <clreduce/launch_params.hpp>

namespace clreduce {

// How a launch of cl_kernels/reduce.cl ends (CLREDUCE_FINISH there).
enum class Finish : int { partial = 0, atomic = 1, store = 2 };

// Everything one compiled specialisation of reduce.cl depends on.
struct KernelSpec {
    ElementType element = ElementType::int32;
    ElementType accumulator = ElementType::int64;
    std::uint32_t vector_width = 1;
    std::uint32_t times = 1;
    std::uint32_t work_group_size = 1;
    Stride stride = Stride::global;
    Finish finish = Finish::store;
    std::uint32_t wavefront = 1;  // > 1 only when the NVIDIA warp shuffle finishes the tree

    auto key() const {
        return std::tie(element, accumulator, vector_width, times, work_group_size, stride, finish, wavefront);
    }
    bool operator<(const KernelSpec& other) const { return key() < other.key(); }
    bool operator==(const KernelSpec& other) const { return key() == other.key(); }

    std::string build_options() const;
};

// The first launch of a plan: finishes with a store when one group does it all, else with
// the plan's inter-group strategy.
KernelSpec first_pass_spec(const LaunchPlan& plan, const DeviceInfo& device);

// The single-group launch that combines the first pass's partials (second_pass plans).
KernelSpec second_pass_spec(const LaunchPlan& plan, const DeviceInfo& device);

}  // namespace clreduce
