// clreduce-perf: the devices clreduce sees, the `times` sweep of the PCL-Reduction paper, and
// the comparison with other reductions.
#include <iostream>

#include <CLI/CLI.hpp>
#include <clreduce/clreduce.hpp>

#include "commands/commands.hpp"

namespace {

void add_output_options(CLI::App* cmd, clreduce::perf::OutputFiles& out) {
    cmd->add_option("--csv", out.csv, "Also write the results as CSV to this file");
    cmd->add_option("--json", out.json, "Also write the results as JSON to this file");
    cmd->add_option("--svg", out.svg, "Also draw the results as an SVG plot into this file");
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"clreduce-perf: OpenCL reduction benchmarks (run with no command: sweep on the default device)"};
    app.require_subcommand(0, 1);

    app.add_subcommand("devices", "List OpenCL platforms and devices with what clreduce uses of them");

    clreduce::perf::SweepOptions sweep;
    std::string type_name = "uint32";
    auto* sweep_cmd = app.add_subcommand("sweep", "Time the sum for times = 1, 2, 4, ... with both strides");
    for (auto* cmd : {static_cast<CLI::App*>(&app), sweep_cmd}) {
        // The options also work without the subcommand, since plain `clreduce-perf` sweeps.
        cmd->add_option("-d,--device", sweep.device,
                        "Device: index, P:D, or part of its name (default: $CLREDUCE_DEVICE, else first GPU)");
        cmd->add_option("-t,--type", type_name,
                        "Element type: int8, uint8, int16, uint16, int32, uint32, int64, uint64, float32, float64")
            ->capture_default_str();
        cmd->add_option("-n,--n", sweep.sizes, "Number of elements; repeat for several (one curve per n and stride)")
            ->capture_default_str();
        cmd->add_option("--min-times", sweep.min_times, "Smallest times")
            ->capture_default_str()
            ->check(CLI::Range(1u, 1u << 20));
        cmd->add_option("--max-times", sweep.max_times, "Largest times")
            ->capture_default_str()
            ->check(CLI::Range(1u, 1u << 20));
        cmd->add_option("--wg", sweep.work_group_size, "Work-group size (0: device default)")->capture_default_str();
        cmd->add_option("--vec", sweep.vector_width, "Vector width (0: device default)")->capture_default_str();
        cmd->add_option(
            "--float-mode", sweep.float_mode,
            "Float types: deterministic, atomic, compensated or correctly_rounded (default: the library's)");
        cmd->add_option("-r,--repeats", sweep.repeats, "Timed runs per point (after one warm-up)")
            ->capture_default_str()
            ->check(CLI::Range(1, 100000));
        cmd->add_option("--seed", sweep.seed, "Random seed of the data")->capture_default_str();
        add_output_options(cmd, sweep.out);
        cmd->add_option("--plot-y", sweep.plot_y, "What the SVG plots against times: gbps or time")
            ->capture_default_str()
            ->check(CLI::IsMember({"gbps", "time"}));
    }
    clreduce::perf::AccuracyOptions accuracy;
    std::vector<std::string> accuracy_types, accuracy_sets;
    auto* accuracy_cmd =
        app.add_subcommand("accuracy", "Relative error of every float sum mode vs the exact sum, beside cv::sum");
    accuracy_cmd->add_option("-d,--device", accuracy.device, "Device (default: $CLREDUCE_DEVICE, else first GPU)");
    accuracy_cmd->add_option("-n,--n", accuracy.n,
                             "Elements per data set; repeat for several (default 2^28 on a GPU, 2^22 otherwise)");
    accuracy_cmd->add_option("-t,--type", accuracy_types, "float32 and/or float64 (default both)");
    accuracy_cmd->add_option(
        "--dataset", accuracy_sets,
        "Data sets (default all): benign, ones, small_integers, mixed_magnitudes, cancellation, ill_conditioned, "
        "wide_range, full_range");
    accuracy_cmd->add_option("-r,--repeats", accuracy.repeats, "Timed runs per mode")
        ->capture_default_str()
        ->check(CLI::Range(1, 1000));
    accuracy_cmd->add_option("--seed", accuracy.seed, "Random seed of the data")->capture_default_str();
    accuracy_cmd->add_option("--json", accuracy.json, "Also write the report as JSON to this file");
    accuracy_cmd->add_option("--svg", accuracy.svg,
                             "Also plot kernel time against n, one curve per mode and type, for the first data set "
                             "into this SVG file");
    accuracy_cmd->add_flag("--no-opencv", accuracy.skip_opencv, "Skip cv::sum on Mat and UMat");
    clreduce::perf::FirstResultOptions first_result;
    auto* first_result_cmd = clreduce::perf::add_first_result_command(app, first_result);
    clreduce::perf::PipelineOptions pipeline;
    auto* pipeline_cmd = clreduce::perf::add_pipeline_command(app, pipeline);
    clreduce::perf::HostIdleOptions host_idle;
    auto* host_idle_cmd = clreduce::perf::add_host_idle_command(app, host_idle);
    clreduce::perf::OpenCVOptions opencv;
    auto* opencv_cmd = clreduce::perf::add_opencv_command(app, opencv);

    clreduce::perf::CompareOptions compare;
    std::string compare_type = "int32";
    auto* compare_cmd = app.add_subcommand(
        "compare",
        "Time clreduce against the naive kernel, cv::sum (Mat, UMat), CLBlast and CUB over a range of n, "
        "beside a read-only kernel over the same bytes");
    compare_cmd->add_option("-d,--device", compare.device, "Device (as for sweep)");
    compare_cmd->add_option("-t,--type", compare_type, "Element type (as for sweep)")->capture_default_str();
    compare_cmd->add_option("-n,--n", compare.sizes,
                            "Number of elements; repeat for several (default: 2^10 to 2^30 by "
                            "powers of 4; sizes the device memory cannot hold are left out)");
    compare_cmd->add_option("-r,--repeats", compare.repeats, "Timed calls per point (after one warm-up)")
        ->capture_default_str()
        ->check(CLI::Range(1, 100000));
    compare_cmd->add_option("--seed", compare.seed, "Random seed of the data")->capture_default_str();
    std::string compare_delivery = "automatic";
    compare_cmd
        ->add_option("--delivery", compare_delivery,
                     "How clreduce's synchronous calls read their result: automatic, blocking, paced, or the "
                     "experiments polled and polled_paced")
        ->capture_default_str();
    compare_cmd->add_option("--only", compare.only,
                            "Run only these competitors, by the table's names (clreduce-host, \"host read\", ...); "
                            "repeat or list several (default: every one)");
    compare_cmd->add_option("--cub", compare.cub, "clreduce-cub-sum executable (default: next to clreduce-perf)");
    add_output_options(compare_cmd, compare.out);
    clreduce::perf::SegmentsOptions segments;
    std::string segments_type = "int32";
    auto* segments_cmd = app.add_subcommand(
        "segments", "Time segmented sums (many per call) against CUB's DeviceSegmentedReduce and a loop of calls");
    segments_cmd->add_option("-d,--device", segments.device, "Device (as for sweep)");
    segments_cmd->add_option("-t,--type", segments_type, "int32 or float32")->capture_default_str();
    segments_cmd->add_option(
        "-s,--shape", segments.shapes,
        "Segment shapes: SxL (S segments of L), uniform:N:M (lengths 0..M up to N elements), "
        "powerlaw:N, rows:RxC, columns:RxC; repeat for several (default: the 2^28-element set of docs/performance.md)");
    segments_cmd->add_option("-r,--repeats", segments.repeats, "Timed calls per shape (after one warm-up)")
        ->capture_default_str()
        ->check(CLI::Range(1, 100000));
    segments_cmd->add_option("--seed", segments.seed, "Random seed of the data and shapes")->capture_default_str();
    segments_cmd->add_option("--team", segments.teams,
                             "Work-items per segment (LaunchParams::segment_team); repeat for a row per value "
                             "(default: the planned mapping)");
    segments_cmd->add_option("--medium", segments.mediums,
                             "Also time the teams with listed segments longer than this many elements in teams "
                             "of 32 (the experiment experimental::SegmentOptions::medium), a row each; repeatable");
    segments_cmd->add_option("--wg", segments.work_group_size, "Work-group size (default: the device's)");
    segments_cmd->add_option("--groups-per-segment", segments.groups_per_segment,
                             "Work-groups sharing a segment (with --team equal to the work-group size)");
    segments_cmd->add_option("--loads", segments.loads,
                             "Vectors a lane loads before it adds any (LaunchParams::segment_loads: 1, 2, 4, 8 or 16; "
                             "default: the planner's)");
    segments_cmd->add_option("--cub", segments.cub, "clreduce-cub-segmented (default: next to clreduce-perf)");
    segments_cmd->add_option("--json", segments.json, "Also write the rows as JSON to this file");
    segments_cmd->add_option("--svg", segments.svg, "Also plot GB/s against segment length into this SVG file");

    clreduce::perf::ByKeyOptions by_key;
    auto* by_key_cmd = app.add_subcommand(
        "by-key", "Time reduce_by_key (int32 keys in equal runs, int32 sums) against CUB's ReduceByKey and Thrust");
    by_key_cmd->add_option("-d,--device", by_key.device, "Device (as for sweep)");
    by_key_cmd->add_option("-n,--n", by_key.sizes, "Keys (and values); repeat for several")->capture_default_str();
    by_key_cmd->add_option("--runs", by_key.runs, "Runs of equal keys (dividing n); repeat for several")
        ->capture_default_str();
    by_key_cmd->add_option("-r,--repeats", by_key.repeats, "Timed calls per point (after one warm-up)")
        ->capture_default_str();
    by_key_cmd->add_option("--seed", by_key.seed, "Random seed of the values")->capture_default_str();
    by_key_cmd->add_option("--cub", by_key.cub, "clreduce-cub-by-key (default: next to clreduce-perf)");
    by_key_cmd->add_option("--json", by_key.json, "Also write the rows as JSON to this file");
    by_key_cmd->add_option("--one-launch-keys", by_key.one_launch_keys,
                           "LaunchParams::by_key_one_launch_keys: up to this many keys in one launch (0: always the "
                           "passes; default: the device's)");
    clreduce::perf::StatisticsOptions statistics;
    std::string statistics_type = "float32";
    auto* statistics_cmd = app.add_subcommand(
        "statistics",
        "Time the fused statistics (count, extremes, mean, variance in one pass) against three single passes and "
        "OpenCV's cv::meanStdDev + cv::minMaxLoc");
    statistics_cmd->add_option("-d,--device", statistics.device, "Device (as for sweep)");
    statistics_cmd->add_option("-t,--type", statistics_type, "int32, float32 or float64")->capture_default_str();
    statistics_cmd->add_option("-n,--n", statistics.sizes, "Number of elements; repeat for several")
        ->capture_default_str()
        ->check(CLI::Range(1ull, 1ull << 40));
    statistics_cmd->add_option("-r,--repeats", statistics.repeats, "Timed calls per size (after one warm-up)")
        ->capture_default_str()
        ->check(CLI::Range(1, 100000));
    statistics_cmd->add_option("--seed", statistics.seed, "Random seed of the data")->capture_default_str();
    statistics_cmd->add_option("--json", statistics.json, "Also write the rows as JSON to this file");

    clreduce::perf::MultiOptions multi;
    std::string multi_data = "resident,host";
    auto* multi_cmd = app.add_subcommand(
        "multi",
        "One device against all of a MultiReducer's: int32, float32 and correctly rounded float32 sums of "
        "data resident on the devices and of host data, 2^min-log .. 2^max-log elements");
    multi_cmd->add_option("--devices", multi.devices,
                          "Device specs separated by commas (default: every GPU of the default platform)");
    multi_cmd->add_option("-t,--types", multi.types, "int32, float32, float32-cr (correctly rounded)")
        ->delimiter(',')
        ->capture_default_str();
    multi_cmd->add_option("--min-log", multi.min_log, "Smallest n, as a power of 2")
        ->capture_default_str()
        ->check(CLI::Range(0, 40));
    multi_cmd->add_option("--max-log", multi.max_log, "Largest n, as a power of 2 (every even power up to it, and it)")
        ->capture_default_str()
        ->check(CLI::Range(0, 40));
    multi_cmd->add_option("--data", multi_data, "resident, host or both (resident,host)")->capture_default_str();
    multi_cmd->add_option("-r,--repeats", multi.repeats, "Timed calls per row (after one warm-up)")
        ->capture_default_str()
        ->check(CLI::Range(1, 100000));
    multi_cmd->add_option("--seed", multi.seed, "Random seed of the data")->capture_default_str();
    multi_cmd->add_option("--json", multi.json, "Also write the rows as JSON to this file");

    clreduce::perf::TuneCommandOptions tune;
    auto* tune_cmd =
        app.add_subcommand("tune",
                           "Find the best launch parameters per type and size; store them in the tuning database");
    tune_cmd->add_option("-d,--device", tune.device, "Device: index, P:D, or part of its name");
    tune_cmd->add_option("-t,--types", tune.types, "Element types (default: every type the device supports)")
        ->delimiter(',');
    tune_cmd->add_option("--min-n", tune.min_n, "Smallest size bucket")
        ->capture_default_str()
        ->check(CLI::Range(1ull, 1ull << 40));
    tune_cmd->add_option("--max-n", tune.max_n, "Largest size bucket (capped by device memory)")
        ->capture_default_str()
        ->check(CLI::Range(1ull, 1ull << 40));
    tune_cmd->add_flag("-q,--quick", tune.quick, "Fewer candidates per stage, at most 3 timed runs");
    tune_cmd
        ->add_option(
            "-r,--repeats", tune.repeats,
            "Timed runs per candidate after one warm-up (default 5; with --check: interleaved rounds, default 15)")
        ->check(CLI::Range(1, 1000));
    tune_cmd
        ->add_option("--budget", tune.time_budget_s,
                     "Stop after this many seconds, keeping what was measured (0: no limit)")
        ->capture_default_str();
    tune_cmd->add_option("-o,--file", tune.file,
                         "Tuning file (default: $CLREDUCE_TUNING_FILE, else <cache folder>/tuning.json)");
    tune_cmd->add_flag("--dry-run", tune.dry_run, "Measure and print, but save nothing");
    tune_cmd->add_flag(
        "--no-segments", tune.no_segments,
        "Skip the segment stage (team and work-group size per segment kind and average length, 4 .. 4096)");
    tune_cmd->add_flag("--show", tune.show, "Print this device's entries in the tuning file and exit");
    tune_cmd->add_flag("--reset", tune.reset, "Remove this device's entries from the tuning file and exit");
    tune_cmd->add_option("--seed", tune.seed, "Random seed of the data")->capture_default_str();
    auto* tune_check = tune_cmd->add_flag(
        "--check", tune.check,
        "Measure nothing new: time every times (1 .. 1024 by powers of 2, the other parameters as tuned) at each "
        "tuned bucket in interleaved rounds and say whether the tuned times is within 2% of the best");
    tune_check->excludes(tune_cmd->get_option("--show"))->excludes(tune_cmd->get_option("--reset"));
    tune_cmd->add_option("--csv", tune.out.csv, "With --check: also write the rows as CSV to this file")
        ->needs(tune_check);
    tune_cmd
        ->add_option("--json", tune.out.json,
                     "With --check: also write the rows and every candidate as JSON to this file")
        ->needs(tune_check);
    CLI11_PARSE(app, argc, argv);

    try {
        if (app.got_subcommand("devices")) return clreduce::perf::run_devices();
        if (app.got_subcommand("accuracy")) {
            if (!accuracy_types.empty()) accuracy.types.clear();
            for (const auto& t : accuracy_types) accuracy.types.push_back(clreduce::parse_type(t));
            if (!accuracy_sets.empty()) accuracy.datasets.clear();
            for (const auto& s : accuracy_sets) accuracy.datasets.push_back(clreduce::testing::parse_dataset(s));
            return clreduce::perf::run_accuracy(accuracy);
        }
        if (first_result_cmd->parsed()) return clreduce::perf::run_first_result(first_result);
        if (pipeline_cmd->parsed()) return clreduce::perf::run_pipeline(pipeline);
        if (host_idle_cmd->parsed()) return clreduce::perf::run_host_idle(host_idle);
        if (opencv_cmd->parsed()) return clreduce::perf::run_opencv(opencv);
        if (app.got_subcommand("segments")) {
            segments.type = clreduce::parse_type(segments_type);
            segments.self = argv[0];
            return clreduce::perf::run_segments(segments);
        }
        if (app.got_subcommand("by-key")) {
            by_key.self = argv[0];
            return clreduce::perf::run_by_key(by_key);
        }
        if (app.got_subcommand("statistics")) {
            statistics.type = clreduce::parse_type(statistics_type);
            return clreduce::perf::run_statistics(statistics);
        }
        if (app.got_subcommand("multi")) {
            if (multi.min_log > multi.max_log) throw clreduce::InvalidArgument("multi: --min-log above --max-log");
            for (int k = multi.min_log; k <= multi.max_log; ++k)
                if ((k - multi.min_log) % 2 == 0 || k == multi.max_log) multi.sizes.push_back(std::uint64_t(1) << k);
            multi.resident = multi_data.find("resident") != std::string::npos;
            multi.host = multi_data.find("host") != std::string::npos;
            if (!multi.resident && !multi.host)
                throw clreduce::InvalidArgument("multi: --data must name resident, host or both");
            return clreduce::perf::run_multi(multi);
        }
        if (app.got_subcommand("compare")) {
            compare.type = clreduce::parse_type(compare_type);
            compare.delivery = compare_delivery;
            compare.self = argv[0];
            return clreduce::perf::run_compare(compare);
        }
        if (app.got_subcommand("tune")) return clreduce::perf::run_tune(tune);
        sweep.type = clreduce::parse_type(type_name);
        return clreduce::perf::run_sweep(sweep);
    } catch (const std::invalid_argument& e) {  // an unknown data set name, a type a command does not take
        std::cerr << "clreduce-perf: " << e.what() << "\n";
        return 2;
    } catch (const clreduce::Error& e) {
        std::cerr << "clreduce-perf: " << e.what() << "\n";
        return 2;
    }
}
