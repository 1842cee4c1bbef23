#pragma once
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <clreduce/device_info.hpp>
#include <clreduce/element_type.hpp>
#include <clreduce/launch_params.hpp>
#include <clreduce/operation.hpp>

namespace clreduce {

// The library's version ("0.1.0"); a tuning file written by another version is ignored.
std::string_view library_version();

// The best launch parameters measured for one element type, operation family and size.
struct TunedEntry {
    ElementType type = ElementType::int32;
    OperationFamily family = OperationFamily::additive;
    std::uint64_t n = 0;  // the size bucket it was measured at
    // A segment entry: the average segment length in elements it was measured at, its team
    // and work-group size in params (segment_team, work_group_size), n the elements in all.
    // 0: a single-range entry.
    std::uint64_t segment_length = 0;
    // A segment entry measured on equal lengths (for batches and rows), else on lengths that
    // vary (for listed segments: CSR offsets, begin/end arrays).
    bool equal_lengths = false;
    // Tuned entries set every field; a known-device entry may leave some to the defaults.
    LaunchParams params;
    double kernel_us = 0;          // median kernel time of these parameters at n (0: not measured)
    double default_kernel_us = 0;  // median kernel time of the untuned defaults at n
    // Host data of n elements (a single-range entry up to 2^26 elements): the median wall
    // times of the pointer form on the host's threads and on the device (0: not measured);
    // params.host_path_bytes says which was faster (the largest value: the host; 0: the device).
    double host_data_us = 0;
    double device_data_us = 0;
};

// What a tuning file holds for one device, and what was wrong with it (each problem is
// also printed to stderr, once per file and problem).
struct TuningLoad {
    std::vector<TunedEntry> entries;
    std::vector<std::string> warnings;
};

// The tuning database: a JSON file keyed by platform name, device name, driver version and
// compute units. Reading never throws: a missing file holds nothing; a corrupt, truncated,
// empty, foreign-schema or foreign-version file is ignored with a warning, and so is each
// entry that is malformed or invalid for the device. Writes merge into the file under an
// advisory lock (flock on "<file>.lock") and replace it atomically (temp file + rename), so
// several processes and threads can store at once without losing each other's entries.
class TuningDatabase {
public:
    // The file reducers use unless told otherwise: $CLREDUCE_TUNING_FILE if set ("off": none),
    // else <cache_directory()>/tuning.json; none when the disk caches are off.
    static std::optional<std::filesystem::path> default_file();

    TuningDatabase();                                     // default_file(), resolved now
    explicit TuningDatabase(std::filesystem::path file);  // an empty path: no file at all
    const std::optional<std::filesystem::path>& file() const { return file_; }

    // This device's entries, each validated against the device.
    TuningLoad load(const DeviceInfo& device) const;
    // Merges the entries into this device's (replacing those with the same type, family and
    // n). Throws Error naming the file when it cannot be written or there is no file.
    void store(const DeviceInfo& device, const std::vector<TunedEntry>& entries) const;
    // Removes this device's entries (other devices' stay). Throws Error like store.
    void forget(const DeviceInfo& device) const;

private:
    std::optional<std::filesystem::path> file_;
};

// Entries clreduce ships for devices it was measured on (README), used below tuned entries.
std::vector<TunedEntry> known_device_entries(const DeviceInfo& device);

// "2^24" for a power of two, else the decimal number: how sizes are named in tuning's
// progress and reports.
std::string size_name(std::uint64_t n);

struct TuneProgress {
    std::uint64_t done = 0;   // measurements made
    std::uint64_t total = 0;  // estimate of all measurements (grows when the search goes on)
    double elapsed_s = 0;
    double remaining_s = 0;  // estimate
    std::string current;     // what is being measured, e.g. "uint32 n=2^16 times=4 wg=64 ..."
};

struct TuneOptions {
    std::vector<ElementType> types;         // empty: every type the device supports
    std::vector<OperationFamily> families;  // empty: every family the engine can measure
    // Size buckets: min_n, 4*min_n, 16*min_n, ... up to max_n, capped by device memory.
    std::uint64_t min_n = 1ull << 12;
    std::uint64_t max_n = 1ull << 30;
    bool quick = false;        // fewer candidates per stage and fewer repeats
    int repeats = 5;           // timed runs per candidate after one warm-up (median taken)
    double time_budget_s = 0;  // stop when exceeded (0: no limit); what was measured is kept
    std::uint64_t seed = 20261121;
    const std::atomic<bool>* stop = nullptr;  // set it (e.g. from SIGINT) to stop early
    std::function<void(const TuneProgress&)> progress;
    bool save = true;  // store the entries in the reducer's tuning database
    // Also learn, per type, the segment team and work-group size for average lengths of 4 to
    // 4096 elements (powers of 2), on equal lengths (batches, rows) and on random lengths
    // around each (listed segments), at the largest size bucket (at most 2^26 elements).
    bool segments = true;
};

struct TuneResult {
    std::vector<TunedEntry> entries;  // best verified parameters per (type, family, n) measured
    bool complete = true;             // false when stopped or out of time
    std::uint64_t measurements = 0;
    std::uint64_t rejected = 0;  // candidates that gave a wrong result or failed to run
    std::optional<std::filesystem::path> saved_to;
    std::string save_error;  // why saving failed, when it did
};

}  // namespace clreduce
