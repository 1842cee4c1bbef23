#pragma once
// Every decision clreduce takes by vendor or device kind, in one place: the defaults of a
// plan before tuning, which level 3 finishes and kernel tricks a device can run, and how a
// synchronous result is read by default. Each says what it was measured on.
#include <cstdint>

#include <clreduce/device_info.hpp>
#include <clreduce/element_type.hpp>
#include <clreduce/launch_params.hpp>

namespace clreduce {

// Work-items a group by default: 256 on GPUs (the paper's setting), 64 on CPU devices.
std::uint32_t preferred_work_group_size(const DeviceInfo& device);
// The largest default `times`: 64 on GPUs, 16 on CPU devices, where larger values were
// measured slower (docs/performance.md, sweeps).
std::uint32_t max_default_times(const DeviceInfo& device);
// The correctly rounded sum's expansion route's default shape: its fixed merge per work-item and
// group wants longer runs and fewer groups than a sum. GPUs: `times` up to 512, about 4 groups
// per compute unit, local stride (H200, 2^28 floats, groups of 256: global stride times 128
// 317 us, local stride times 128 263, 256 257, 512 253, against a deterministic sum of 233;
// 2^24: local times 32 in 512 groups 27.6 us, the former shape's 1,024 groups 33.7). CPU
// devices: up to 64, 8 groups per compute unit, global stride (PoCL, 2^24 floats: times 32
// 1.76x, 64 1.52x, 128 2.57x the deterministic sum).
std::uint32_t max_expansion_times(const DeviceInfo& device);
std::uint32_t expansion_groups_per_compute_unit(const DeviceInfo& device);
Stride expansion_stride(const DeviceInfo& device);
// Bytes a work-item loads at once by default: 16 on GPUs (one 128-bit load per lane), 64 on
// CPU devices (a cache line: PoCL 3.1 runs each work-item's loop on its own, so a narrower
// load leaves the rest of the line to other work-items, fetched again later; measured on a
// 2-core AVX-512 Xeon, int32 at 2^24: 2.2 ms with 16-byte loads, 1.35 ms with 64).
std::uint32_t default_load_bytes(const DeviceInfo& device);
// Host data up to this many bytes is reduced on the calling thread by default
// (exec/host_reduction.hpp): on CPU devices 4 MiB, up to where the calling thread alone was
// measured as fast as a launch, the device's threads and the result read (PoCL 3.1 on a
// 2-core Xeon VM, host data float32 / int32, medians of interleaved calls: 2^18 29 / 24 us on
// the host against 74 / 76 through the kernels, 2^20 163 / 145 against 180 / 183; above, the
// kernels' two threads pull ahead in other runs); 0 on GPUs.
std::uint64_t host_path_crossover_bytes(const DeviceInfo& device);
// Whether the deterministic float sums finish with the last group rather than the exact
// atomic (both give the same bits run after run): on CPU devices, where PoCL 3.1's 64-bit
// atomics made the exact finish cost 1.5 ms of 3.1 at 2^24 floats with full significands
// (last group: 1.6 ms).
bool prefers_last_group_finish(const DeviceInfo& device);
// How the correctly rounded sum's level 1 takes each work-item's vectors, for data summed in
// `accumulator` (float32 or float64; CLREDUCE_EXACT_OPTIMISTIC in cl_kernels/ops/add_exact.cl):
//  - tested: every vector's TwoSum error is tested (GPUs other than NVIDIA's: not measured);
//  - untested_first: without tests first, checked once afterwards, the same vectors again
//    where that did not hold. CPU devices, where a float converts to a double with its
//    subnormals kept: their branches cost more than flops (PoCL, 2^24 uniform data: floats
//    20.2 -> 2.4 ms, doubles 47.2 -> 9.2 ms; docs/performance.md);
//  - anchored: NVIDIA GPUs. The work-group first agrees on the range of its work-items' first
//    and last values, and goes straight to the tested lanes where that is too wide for the
//    untested pass. Double data then takes the two TwoSums untested (they cost less than one
//    tested: H100, 2^30, 1.04 times the deterministic sum against 1.19); float data (with
//    subnormals) one pass of four double additions a float from the work-group's anchor,
//    checked once, tested where it did not hold. 2^28 floats of moderate range, the old shape (global stride, times
//    128): H200 1.34-1.38 times the deterministic sum (tested 1.51-1.86), H100 1.16-1.18 (1.21-1.51); wide ranges as
//    tested. The CPU devices' passes were faster where their window holds (H200 1.08-1.21) but read cancelling data
//    twice (2.2). In the GPU shape below: H200 1.07-1.09, H100 1.06 (docs/performance.md).
// Where the untested passes did not hold, bins in local memory come before the tested lanes
// where they fit (src/kernels/kernel_spec.cpp, exact_bins_fit; add_exact.cl).
enum class ExactLanePasses { tested = 0, untested_first = 1, anchored = 2 };
ExactLanePasses exact_lane_passes(const DeviceInfo& device, ElementType accumulator);
const char* to_string(ExactLanePasses passes);
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
// Whether a MultiReducer's devices of this one's platform take turns rather than work at once:
// PoCL's CPU devices, which share the host's cores (nothing to gain), and whose kernel-library
// cache (PoCL 3.1) asserts when several of its devices run the same kernel at once (three
// PoCL devices, cold caches: 5 aborts in 28 runs of clreduce-multi-device-example; 0 in 16
// taking turns).
bool devices_take_turns(const DeviceInfo& device);

}  // namespace clreduce
