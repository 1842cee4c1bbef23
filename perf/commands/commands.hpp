#pragma once
// clreduce-perf's commands: the options each takes and the function that runs it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <clreduce/element_type.hpp>

#include "reference/adversarial_data.hpp"
#include "report/output_files.hpp"

namespace CLI {
class App;
}

namespace clreduce {
class Reducer;
}

namespace clreduce::perf {

struct SweepOptions {
    std::string device;  // spec for select_device; empty: default_device()
    ElementType type = ElementType::uint32;
    std::vector<std::uint64_t> sizes = {1ull << 24};
    std::uint32_t min_times = 1;
    std::uint32_t max_times = 1024;
    std::uint32_t work_group_size = 0;  // 0: device default
    std::uint32_t vector_width = 0;     // 0: device default
    std::string float_mode;             // FloatMode's name for float types; empty: the default
    int repeats = 20;
    std::uint64_t seed = 20261121;
    OutputFiles out;
    std::string plot_y = "gbps";  // or "time"
};

struct CompareOptions {
    std::string device;
    ElementType type = ElementType::int32;
    std::vector<std::uint64_t> sizes;  // empty: 2^10, 2^12, ..., 2^30; those that do not fit the device are left out
    int repeats = 20;
    std::uint64_t seed = 20261121;
    std::string cub;   // clreduce-cub-sum; empty: next to clreduce-perf
    std::string self;  // argv[0], to find clreduce-cub-sum beside it
    // How clreduce's sync calls read their result: a ResultDelivery or experimental delivery
    // name (measure/delivery.hpp).
    std::string delivery = "automatic";
    // The competitors to run, by the table's names (empty: every one); a name that is not one of
    // them is an error.
    std::vector<std::string> only;
    OutputFiles out;
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
// clreduce-perf opencv: each clreduce::opencv function against OpenCV's own on a UMat and a Mat.
struct OpenCVOptions {
    std::vector<std::string> sizes = {"1920x1080", "7680x4320"};  // width x height
    int repeats = 20;
    std::string json;  // also write the rows here
};
CLI::App* add_opencv_command(CLI::App& app, OpenCVOptions& options);
int run_opencv(const OpenCVOptions& options);
struct TuneCommandOptions {
    std::string device;
    std::vector<std::string> types;  // empty: every type the device supports
    std::uint64_t min_n = 1ull << 12;
    std::uint64_t max_n = 1ull << 30;
    bool quick = false;
    int repeats = 0;  // 0: 5 for a tune, 15 rounds for --check
    double time_budget_s = 0;
    std::string file;  // empty: the default tuning file
    bool dry_run = false;
    bool no_segments = false;  // skip the segment-team stage
    bool show = false;
    bool reset = false;
    bool check = false;  // measure how close the tuned times are to the best (tune_check.hpp)
    OutputFiles out;     // --check's CSV and JSON
    std::uint64_t seed = 20261121;
};

struct AccuracyOptions {
    std::string device;
    std::vector<ElementType> types{ElementType::float32, ElementType::float64};
    std::vector<testing::Dataset> datasets = testing::all_datasets();
    std::vector<std::uint64_t> n;  // each size in turn; none: 2^28 on a GPU, 2^22 otherwise
    int repeats = 5;
    std::uint64_t seed = 20261121;
    std::string json;  // also write the report here
    std::string svg;   // also plot time against n for the first data set here
    bool skip_opencv = false;
};

// Each returns the process exit code.
int run_devices();
int run_sweep(const SweepOptions& options);
int run_accuracy(const AccuracyOptions& options);
int run_first_result(FirstResultOptions options);
int run_compare(const CompareOptions& options);

// clreduce-perf segments (segments.cpp): segmented sums against CUB's DeviceSegmentedReduce.
struct SegmentsOptions {
    std::string device;
    ElementType type = ElementType::int32;
    // reference/segment_shapes.hpp: the 2^28-element shapes of the docs by default (the README's
    // tables: regular, varying from lengths 0-8 to 0-2048, power-law, matrices).
    std::vector<std::string> shapes = {"16777216x16",
                                       "1048576x256",
                                       "65536x4096",
                                       "4096x65536",
                                       "16x16777216",
                                       "uniform:268435456:2048",
                                       "uniform:268435456:512",
                                       "uniform:268435456:128",
                                       "uniform:268435456:32",
                                       "uniform:268435456:8",
                                       "powerlaw:268435456",
                                       "rows:16384x16384",
                                       "rows:4194304x64",
                                       "rows:64x4194304",
                                       "columns:16384x16384",
                                       "columns:4194304x64",
                                       "columns:64x4194304"};
    // Mappings to time (LaunchParams::segment_team, work-items per segment): each a row per
    // shape; empty: the default mapping only.
    std::vector<std::uint32_t> teams;
    // More rows per shape: the planned teams with experimental::SegmentOptions::medium at each value.
    std::vector<std::uint64_t> mediums;
    std::uint32_t work_group_size = 0;     // 0: default
    std::uint32_t groups_per_segment = 0;  // 0: default
    std::uint32_t loads = 0;               // LaunchParams::segment_loads; 0: default
    int repeats = 15;
    std::uint64_t seed = 20261121;
    std::string cub;   // clreduce-cub-segmented; empty: next to clreduce-perf
    std::string self;  // argv[0]
    std::string json;
    std::string svg;
};
int run_segments(const SegmentsOptions& options);

// clreduce-perf by-key (by_key.cpp): reduce_by_key's int32 sums over int32 keys in equal runs,
// against CUB's DeviceReduce::ReduceByKey and Thrust's reduce_by_key.
struct ByKeyOptions {
    std::string device;
    std::vector<std::uint64_t> sizes = {1ull << 24, 1ull << 26, 1ull << 28};  // keys (and values)
    std::vector<std::uint64_t> runs = {1ull << 4, 1ull << 8, 1ull << 12, 1ull << 16, 1ull << 20};
    int repeats = 15;
    std::uint64_t seed = 20261121;
    std::string cub;   // clreduce-cub-by-key; empty: next to clreduce-perf
    std::string self;  // argv[0]
    std::string json;
    std::optional<std::uint64_t> one_launch_keys;  // LaunchParams::by_key_one_launch_keys; default: the device's
};
int run_by_key(const ByKeyOptions& options);

// clreduce-perf pipeline (pipeline.cpp): `calls` small reductions, synchronous against
// asynchronous with one read at the end.
struct PipelineOptions {
    std::string device;
    std::uint64_t n = 1ull << 16;  // float32 elements per reduction
    std::uint64_t calls = 100;
    int repeats = 15;
    std::uint64_t seed = 20261121;
};
CLI::App* add_pipeline_command(CLI::App& app, PipelineOptions& options);
int run_pipeline(const PipelineOptions& options);

// clreduce-perf host-idle (host_idle.cpp): host-path calls after idle gaps against the host's
// OpenMP read, and a user's OpenMP loop right after a host-path call.
struct HostIdleOptions {
    std::string device;
    std::string type_name = "float32";
    std::vector<std::uint64_t> sizes;    // empty: 2^16, 2^18, 2^20
    std::vector<std::uint64_t> idle_us;  // empty: 0, 50, 300, 3000
    int repeats = 300;
    std::uint64_t seed = 20261121;
};
CLI::App* add_host_idle_command(CLI::App& app, HostIdleOptions& options);
int run_host_idle(HostIdleOptions options);

// clreduce-perf statistics (statistics.cpp): the fused statistics against three single passes
// and OpenCV's cv::meanStdDev + cv::minMaxLoc.
struct StatisticsOptions {
    std::string device;
    ElementType type = ElementType::float32;
    std::vector<std::uint64_t> sizes = {1ull << 20, 1ull << 24, 1ull << 28};
    int repeats = 15;
    std::uint64_t seed = 20261121;
    std::string json;
};
int run_statistics(const StatisticsOptions& options);

// clreduce-perf multi (multi.cpp): one device against all of a MultiReducer's.
struct MultiOptions {
    std::string devices;  // MultiReducer's specs ("0:0,0:1"); empty: its default devices
    std::vector<std::string> types = {"int32", "float32", "float32-cr"};
    std::vector<std::uint64_t> sizes;  // filled from min_log..max_log when empty
    int min_log = 20;
    int max_log = 31;
    bool resident = true;
    bool host = true;
    int repeats = 15;
    std::uint64_t seed = 20261121;
    std::string json;
};
int run_multi(const MultiOptions& options);
int run_tune(const TuneCommandOptions& options);
// tune --check (called by run_tune): measures, prints the table and the summary, writes
// o.out.csv / o.out.json. Returns 0 (also when buckets fail the 2%), 1 when some candidate
// gave a wrong result.
int run_tune_check(const Reducer& reducer, const TuneCommandOptions& o);

}  // namespace clreduce::perf
