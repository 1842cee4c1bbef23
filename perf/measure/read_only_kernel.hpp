#pragma once
// perf/measure/read_only.cl's floor_read, the device's read bandwidth: one grid-stride pass of
// 16-byte loads over a buffer, compute units x 16 groups of 256 work-items. clreduce-floor times
// it on a large buffer, `compare` on each competitor's buffer, as the bound a reduction can
// approach.
#include <cstdint>
#include <string>
#include <vector>

#include <clreduce/device_info.hpp>
#include <clreduce/opencl.hpp>

namespace clreduce::perf {

class ReadOnlyKernel {
public:
    ReadOnlyKernel() = default;
    // program: perf/measure/read_only.cl built for the device `info` describes.
    ReadOnlyKernel(const cl::Program& program, const DeviceInfo& info);

    // Device times in µs (profiling events) of `repeats` passes after one warm-up, each reading
    // the first bytes_read(bytes) bytes of `in` once. `queue` has profiling enabled.
    std::vector<double> time(const cl::CommandQueue& queue, const cl::Buffer& in, std::uint64_t bytes, int repeats);

    // Whole 16-byte vectors only: the tail of a size that is not a multiple of 16 is not read.
    static std::uint64_t bytes_read(std::uint64_t bytes) { return bytes - bytes % 16; }
    std::string geometry() const;  // "2112 groups of 256, 16-byte loads"

private:
    cl::Kernel kernel_;
    cl::Buffer sink_;
    std::size_t groups_ = 0, work_group_ = 0;
};

}  // namespace clreduce::perf
