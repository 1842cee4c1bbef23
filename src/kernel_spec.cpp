#include "kernel_spec.hpp"

#include <string>

namespace clreduce {
namespace {

const char* opencl_type(ElementType type) {
    switch (type) {
        case ElementType::int32: return "int";
        case ElementType::uint32: return "uint";
        case ElementType::int64: return "long";
        case ElementType::uint64: return "ulong";
        case ElementType::float32: return "float";
        case ElementType::float64: return "double";
    }
    return "?";
}

// The warp shuffle needs every lane of the first warp inside the work-group.
std::uint32_t shuffle_width(std::uint32_t work_group_size, const DeviceInfo& device) {
    const std::uint32_t warp = device.wavefront_width;
    const bool usable = device.is_nvidia && warp > 1 && (warp & (warp - 1)) == 0 && work_group_size >= warp;
    return usable ? warp : 1;
}

}  // namespace

std::string KernelSpec::build_options() const {
    const bool fp64 = element == ElementType::float64 || accumulator == ElementType::float64;
    std::string o = "-cl-std=CL1.2";
    o += " -DCLREDUCE_T=" + std::string(opencl_type(element));
    o += " -DCLREDUCE_ACC=" + std::string(opencl_type(accumulator));
    o += " -DCLREDUCE_ACC_SIZE=" + std::to_string(type_size(accumulator));
    o += " -DCLREDUCE_FP64=" + std::string(fp64 ? "1" : "0");
    o += " -DCLREDUCE_VEC=" + std::to_string(vector_width);
    o += " -DCLREDUCE_TIMES=" + std::to_string(times);
    o += " -DCLREDUCE_WG=" + std::to_string(work_group_size);
    o += " -DCLREDUCE_STRIDE_LOCAL=" + std::string(stride == Stride::local ? "1" : "0");
    o += " -DCLREDUCE_FINISH=" + std::to_string(static_cast<int>(finish));
    o += " -DCLREDUCE_NV_SHUFFLE=" + std::string(wavefront > 1 ? "1" : "0");
    o += " -DCLREDUCE_WAVEFRONT=" + std::to_string(wavefront);
    o += " -DCLREDUCE_OP=0";
    return o;
}

KernelSpec first_pass_spec(const LaunchPlan& plan, const DeviceInfo& device) {
    KernelSpec spec;
    spec.element = plan.element;
    spec.accumulator = plan.accumulator;
    spec.vector_width = plan.vector_width;
    spec.times = plan.times;
    spec.work_group_size = plan.work_group_size;
    spec.stride = plan.stride;
    spec.finish = plan.groups == 1                          ? Finish::store
                  : plan.inter_group == InterGroup::atomic ? Finish::atomic
                                                           : Finish::partial;
    spec.wavefront = shuffle_width(plan.work_group_size, device);
    return spec;
}

KernelSpec second_pass_spec(const LaunchPlan& plan, const DeviceInfo& device) {
    KernelSpec spec;
    spec.element = plan.accumulator;
    spec.accumulator = plan.accumulator;
    spec.vector_width = 1;
    spec.work_group_size = plan.work_group_size;
    // A power of two keeps the number of distinct second-pass programs small.
    spec.times = 1;
    while (std::uint64_t(spec.times) * spec.work_group_size < plan.groups) spec.times *= 2;
    spec.stride = Stride::global;
    spec.finish = Finish::store;
    spec.wavefront = shuffle_width(plan.work_group_size, device);
    return spec;
}

}  // namespace clreduce
