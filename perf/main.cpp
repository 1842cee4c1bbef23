// clreduce-perf: the devices clreduce sees, and the `times` sweep of the PCL-Reduction paper.
#include <iostream>

#include <CLI/CLI.hpp>
#include <clreduce/clreduce.hpp>

#include "commands.hpp"

int main(int argc, char** argv) {
    CLI::App app{"clreduce-perf: OpenCL reduction benchmarks (run with no command: sweep on the default device)"};
    app.require_subcommand(0, 1);

    app.add_subcommand("devices", "List OpenCL platforms and devices with what clreduce uses of them");

    clreduce::perf::SweepOptions sweep;
    std::string type_name = "uint32";
    auto* sweep_cmd = app.add_subcommand("sweep", "Time the sum for times = 1, 2, 4, ... with both strides");
    for (auto* cmd : {static_cast<CLI::App*>(&app), sweep_cmd}) {
        // The options also work without the subcommand, since plain `clreduce-perf` sweeps.
        cmd->add_option("-d,--device", sweep.device, "Device: index, P:D, or part of its name (default: $CLREDUCE_DEVICE, else first GPU)");
        cmd->add_option("-t,--type", type_name, "Element type: int32, uint32, int64, uint64, float32, float64")
            ->capture_default_str();
        cmd->add_option("-n,--n", sweep.n, "Number of elements")->capture_default_str();
        cmd->add_option("--min-times", sweep.min_times, "Smallest times")->capture_default_str()->check(CLI::Range(1u, 1u << 20));
        cmd->add_option("--max-times", sweep.max_times, "Largest times")->capture_default_str()->check(CLI::Range(1u, 1u << 20));
        cmd->add_option("--wg", sweep.work_group_size, "Work-group size (0: device default)")->capture_default_str();
        cmd->add_option("--vec", sweep.vector_width, "Vector width (0: device default)")->capture_default_str();
        cmd->add_option("-r,--repeats", sweep.repeats, "Timed runs per point (after one warm-up)")
            ->capture_default_str()->check(CLI::Range(1, 100000));
        cmd->add_option("--seed", sweep.seed, "Random seed of the data")->capture_default_str();
    }
    clreduce::perf::AccuracyOptions accuracy;
    std::vector<std::string> accuracy_types, accuracy_sets;
    auto* accuracy_cmd = app.add_subcommand("accuracy", "Relative error of every float sum mode vs the exact sum, beside cv::sum");
    accuracy_cmd->add_option("-d,--device", accuracy.device, "Device (default: $CLREDUCE_DEVICE, else first GPU)");
    accuracy_cmd->add_option("-n,--n", accuracy.n, "Elements per data set (default 2^28 on a GPU, 2^22 otherwise)");
    accuracy_cmd->add_option("-t,--type", accuracy_types, "float32 and/or float64 (default both)");
    accuracy_cmd->add_option("--dataset", accuracy_sets, "Data sets (default all): benign, ones, small_integers, mixed_magnitudes, cancellation, ill_conditioned");
    accuracy_cmd->add_option("-r,--repeats", accuracy.repeats, "Timed runs per mode")->capture_default_str()->check(CLI::Range(1, 1000));
    accuracy_cmd->add_option("--seed", accuracy.seed, "Random seed of the data")->capture_default_str();
    accuracy_cmd->add_option("--json", accuracy.json, "Also write the report as JSON to this file");
    accuracy_cmd->add_flag("--no-opencv", accuracy.skip_opencv, "Skip cv::sum on Mat and UMat");
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
        sweep.type = clreduce::parse_type(type_name);
        return clreduce::perf::run_sweep(sweep);
    } catch (const std::invalid_argument& e) {  // an unknown data set name
        std::cerr << "clreduce-perf: " << e.what() << "\n";
        return 2;
    } catch (const clreduce::Error& e) {
        std::cerr << "clreduce-perf: " << e.what() << "\n";
        return 2;
    }
}
