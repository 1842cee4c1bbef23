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
// measured slower (docs/performance.md, "The inflection point").
std::uint32_t max_default_times(const DeviceInfo& device);
// The correctly rounded sum's expansion route's default shape: its fixed merge per work-item and
// group wants longer runs and fewer groups than a sum. GPUs: `times` up to 512, about 4 groups
// per compute unit, local stride (each group's vectors side by side keep the reads in flight
// over long work-items). CPU devices: up to 64, 8 groups per compute unit, global stride (a
// core runs a group's work-items one after another; longer runs were slower). Measured in
// docs/performance.md, "Correctly rounded sums".
std::uint32_t max_expansion_times(const DeviceInfo& device);
std::uint32_t expansion_groups_per_compute_unit(const DeviceInfo& device);
Stride expansion_stride(const DeviceInfo& device);
// Bytes a work-item loads at once by default: 16 on GPUs (one 128-bit load per lane), 64 on
// CPU devices (a cache line: PoCL 3.1 runs each work-item's loop on its own, so a narrower
// load leaves the rest of the line to other work-items, fetched again later;
// docs/performance.md, "CPU devices").
std::uint32_t default_load_bytes(const DeviceInfo& device);
// Host data up to this many bytes is reduced by the host's threads by default, where the host
// path reproduces the plan (exec/host_reduction.hpp): every size on every device. A pass over
// host memory on the host's cores runs at the memory's speed, which no device reaches through
// a link, and a CPU device's kernels read the same memory with the same cores plus a launch
// (docs/performance.md, "Where host data is reduced"). `clreduce-perf tune` measures a
// device's own crossover and keeps it in the tuning database (tuning.md).
std::uint64_t host_path_crossover_bytes(const DeviceInfo& device);
// Host data and buffers of CPU devices up to this many bytes take the small shape that the
// host path runs fastest (launch_shape.cpp): 4 MiB, where a launch stops costing more than the
// reduction on PoCL 3.1 (docs/performance.md, "CPU devices"); 0 on GPUs.
std::uint64_t cpu_small_shape_bytes(const DeviceInfo& device);
// Whether the deterministic float sums finish with the last group rather than the exact
// atomic (both give the same bits run after run): on CPU devices, where PoCL 3.1's 64-bit
// atomics make the exact finish cost about half the call for floats with full significands.
bool prefers_last_group_finish(const DeviceInfo& device);
// How the correctly rounded sum's level 1 takes each work-item's vectors, for data summed in
// `accumulator` (float32 or float64; CLREDUCE_EXACT_OPTIMISTIC in cl_kernels/ops/add_exact_passes.cl):
// one route per device class, where measured fastest (docs/performance.md, "Correctly rounded
// sums"):
//  - untested_first: CPU devices. Without tests first, checked once afterwards, the same
//    vectors again where that did not hold: a CPU's branches cost more than flops;
//  - anchored: GPUs. The work-group first agrees on the range of its work-items' first and
//    last values, and goes straight to the later passes where that is too wide for the
//    anchored pass. Each lane then adds from the work-group's anchor without a test, checked
//    once: float data four double additions a float, double data three anchored folds. A warp
//    runs a slow path when any of its work-items does, so the anchor is the group's;
//  - tested: every vector's TwoSum error is tested. Float data on a device that flushes
//    subnormal floats, which the untested passes would lose; elsewhere the later pass that
//    takes what the untested passes did not hold.
// Where the untested passes did not hold, bins in local memory come before the tested lanes
// where they fit (src/kernels/kernel_spec.cpp, exact_bins_fit; add_exact_bins.cl).
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
