#pragma once
// clreduce-floor: what bounds a synchronous reduction call on a device, measured with raw
// OpenCL and no reduction work, then clreduce's own calls beside them and the device's read
// bandwidth. An experiment beside clreduce-perf, not one of its commands.
#include <cstdint>
#include <string>
#include <vector>

namespace clreduce::perf::experiments {

struct FloorOptions {
    std::string device;
    int repeats = 200;
    std::vector<std::uint64_t> sizes = {1ull << 10, 1ull << 20};  // clreduce's own call at these n
    std::uint64_t read_bytes = 4ull << 30;                        // the read-only kernel's span
    std::string json;
    int trace = 0;  // calls of int32 sum at each n printed one by one: time and the read's wait
};

// Prints the table (and the trace), writes options.json; returns the process exit code.
int run_floor(const FloorOptions& options);

}  // namespace clreduce::perf::experiments
