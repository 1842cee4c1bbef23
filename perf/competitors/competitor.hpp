#pragma once
// One reduction `clreduce-perf compare` times against clreduce. Each lives in its own file;
// make_competitors() lists those this build has.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <clreduce/element_type.hpp>
#include <clreduce/reducer.hpp>

namespace clreduce::perf {

// The data of one size: on the host, and uploaded once into a buffer of the reducer's context.
struct Workload {
    ElementType type = ElementType::int32;
    std::uint64_t n = 0;
    const void* host = nullptr;
    const cl::Buffer* buffer = nullptr;
};

// The medians of one competitor at one size, each from its own loop: the wall time from calls
// that do nothing else (no events, no profiling queue), the device time from separate calls
// that record it.
struct Measurement {
    double wall_us = 0;               // synchronous call: launch(es) + result on the host
    std::optional<double> device_us;  // kernel time where the competitor exposes it
    // Its result of every call (warm-up first), so that a call that differs is caught too.
    // long double holds 64-bit integer sums exactly (x87 extended precision).
    std::vector<long double> values;
    // Worst-case rounding of its floating-point accumulation: float32 or float64.
    ElementType accumulator = ElementType::float64;
    std::string note;  // e.g. the launch plan used
    // A copy of the data, not a sum (the link's rows beside clreduce-host): no result to check.
    bool copy = false;
    // A competitor that checks its own results (not a sum: host_operation_competitor.cpp):
    // empty when they were right, else what was wrong.
    std::optional<std::string> self_check;
    // Out-of-process competitors: FNV-1a of the data they summed (perf/report/fingerprint.hpp).
    std::optional<std::string> data_fingerprint;
};

// What every competitor is run on.
struct CompareSetup {
    const Reducer* reducer = nullptr;    // its context, plain queue (no profiling) and device: wall times
    const Reducer* profiling = nullptr;  // the same context and device, a profiling queue: device times
    ElementType type = ElementType::int32;
    std::vector<std::uint64_t> sizes;
    int repeats = 1;
    std::uint64_t seed = 0;
    std::string cub_path;  // clreduce-cub-sum; empty: next to `self`
    std::string self;      // clreduce-perf's own path
};

class Competitor {
public:
    virtual ~Competitor() = default;
    virtual std::string name() const = 0;
    // Empty when it can run setup.type here, else why not (shown, never an error).
    virtual std::string unavailable() const = 0;
    // What it runs on / with (device used, plan, library version): printed once.
    virtual std::string detail() const { return {}; }
    // One warm-up call, then setup.repeats timed calls on the workload.
    virtual Measurement measure(const Workload& workload) = 0;
};

// Why the setup's device cannot hold the setup's element type (require_support's message), or
// empty: what a clreduce competitor's unavailable() starts from.
std::string unsupported_type(const CompareSetup& setup);

// A competitor this build or machine does not have: it only says why.
std::unique_ptr<Competitor> make_unavailable(std::string name, std::string why);

using CompetitorFactory = std::function<std::unique_ptr<Competitor>(const CompareSetup&)>;

std::unique_ptr<Competitor> make_clreduce_competitor(const CompareSetup& setup);
std::unique_ptr<Competitor> make_clreduce_wrap_competitor(const CompareSetup& setup);
std::unique_ptr<Competitor> make_clreduce_compensated_competitor(const CompareSetup& setup);        // float types
std::unique_ptr<Competitor> make_clreduce_correctly_rounded_competitor(const CompareSetup& setup);  // float types
std::unique_ptr<Competitor> make_clreduce_offset_competitor(const CompareSetup& setup);
std::unique_ptr<Competitor> make_clreduce_pinned_host_competitor(const CompareSetup& setup);
std::unique_ptr<Competitor> make_clreduce_host_data_competitor(const CompareSetup& setup);
std::unique_ptr<Competitor> make_clreduce_link_competitor(const CompareSetup& setup);
std::unique_ptr<Competitor> make_host_read_competitor(const CompareSetup& setup);
// "clreduce-host <op>": the pointer form of another operation (min, argmax, ...).
std::unique_ptr<Competitor> make_host_operation_competitor(const CompareSetup& setup, Operation op);
// "host statistics": the arithmetic of statistics alone, the bound of "clreduce-host statistics".
std::unique_ptr<Competitor> make_host_statistics_competitor(const CompareSetup& setup);
std::unique_ptr<Competitor> make_pinned_write_competitor(const CompareSetup& setup);
std::unique_ptr<Competitor> make_pageable_write_competitor(const CompareSetup& setup);
std::unique_ptr<Competitor> make_host_copy_competitor(const CompareSetup& setup);
std::unique_ptr<Competitor> make_naive_competitor(const CompareSetup& setup);
std::unique_ptr<Competitor> make_opencv_mat_competitor(const CompareSetup& setup);
std::unique_ptr<Competitor> make_opencv_umat_competitor(const CompareSetup& setup);
std::unique_ptr<Competitor> make_opencv_adapter_competitor(const CompareSetup& setup);
std::unique_ptr<Competitor> make_clblast_competitor(const CompareSetup& setup);
std::unique_ptr<Competitor> make_cub_competitor(const CompareSetup& setup);

// The wall-time loop: `call` is one synchronous call returning its result, and nothing else is
// timed with it. One warm-up call, then `repeats` timed ones; the median goes to wall_us,
// every result to values.
Measurement time_calls(int repeats, const std::function<long double()>& call);

// The device-time loop, run apart from the wall-time loop: `call` makes one call that records
// its kernels' device time (profiling events). One warm-up, then `repeats` calls; the median
// goes to m.device_us, every result to m.values (so these calls are checked too).
struct DeviceCall {
    long double value = 0;
    double device_us = 0;
};
void time_device(int repeats, const std::function<DeviceCall()>& call, Measurement& m);

}  // namespace clreduce::perf
