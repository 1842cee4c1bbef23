#pragma once
// Every decision clreduce takes by vendor or device kind, in one place: the defaults of a
// plan before tuning, which level 3 finishes and kernel tricks a device can run, and how a
// synchronous result is read by default. Each says what it was measured on.
#include <cstdint>

#include <clreduce/device_info.hpp>

namespace clreduce {

// Work-items a group by default: 256 on GPUs (the paper's setting), 64 on CPU devices.
std::uint32_t preferred_work_group_size(const DeviceInfo& device);
// The largest default `times`: 64 on GPUs, 16 on CPU devices, where larger values were
// measured slower (docs/performance.md, sweeps).
std::uint32_t max_default_times(const DeviceInfo& device);
// Lanes of the warp shuffle that ends level 2 (NVIDIA's shfl.sync through inline PTX), or 1
// where none is used: the whole first warp must be inside the work-group.
std::uint32_t warp_shuffle_width(std::uint32_t work_group_size, const DeviceInfo& device);
// NVIDIA's OpenCL takes inline PTX (the last group's membar.gl fence, shfl.sync, dp4a).
bool takes_inline_ptx(const DeviceInfo& device);
// dp4a (four 8-bit products added in one instruction): NVIDIA from compute capability 6.1.
bool has_dp4a(const DeviceInfo& device);
// Whether synchronous reads are paced by default (delivery/read_pacing.hpp): on NVIDIA,
// where the blocking read's spin-then-sleep was measured.
bool paces_reads_by_default(const DeviceInfo& device);

}  // namespace clreduce
