// clreduce-floor: what bounds a synchronous reduction call on a device: raw OpenCL launch and
// read costs, clreduce's own calls beside them, and the device's read bandwidth. The
// experiment behind the read strategies of the library, kept apart from clreduce-perf's
// commands.
#include <iostream>
#include <stdexcept>

#include <CLI/CLI.hpp>
#include <clreduce/error.hpp>

#include "experiments/floor.hpp"

int main(int argc, char** argv) {
    CLI::App app{
        "clreduce-floor: what bounds a synchronous call: raw OpenCL launch and read costs, clreduce's call, "
        "read bandwidth"};
    clreduce::perf::experiments::FloorOptions floor;
    app.add_option("-d,--device", floor.device,
                   "Device: index, P:D, or part of its name (default: $CLREDUCE_DEVICE, else first GPU)");
    app.add_option("-r,--repeats", floor.repeats, "Timed calls per row")
        ->capture_default_str()
        ->check(CLI::Range(5, 100000));
    app.add_option("-n,--n", floor.sizes, "Sizes of clreduce's own calls")->capture_default_str();
    app.add_option("--read-bytes", floor.read_bytes, "Bytes the read-only kernel reads (capped by the device)")
        ->capture_default_str();
    app.add_option("--json", floor.json, "Also write the rows as JSON to this file");
    app.add_option("--trace", floor.trace,
                   "After the rows, time this many int32 sums at each n one by one (how paced reads learn)")
        ->check(CLI::Range(0, 100000));
    CLI11_PARSE(app, argc, argv);
    try {
        return clreduce::perf::experiments::run_floor(floor);
    } catch (const std::invalid_argument& e) {
        std::cerr << "clreduce-floor: " << e.what() << "\n";
        return 2;
    } catch (const clreduce::Error& e) {
        std::cerr << "clreduce-floor: " << e.what() << "\n";
        return 2;
    }
}
