#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include <clreduce/launch_params.hpp>
#include <clreduce/tuning.hpp>

#include "plan/planner.hpp"

namespace clreduce {

// The tuned and known-device entries of one device, in memory, for plan lookups (no file
// I/O). Immutable once made, so reducers share it between threads without locking.
class TuningTable {
public:
    TuningTable() = default;
    TuningTable(const std::vector<TunedEntry>& tuned, const std::vector<TunedEntry>& known);

    // The entry for a call of n elements: this device's tuned entry of the nearest size bucket
    // for (type, family), else the known-device entry of the nearest bucket, else none.
    // Nearest is on a log scale (|log2 n - log2 bucket| smallest); a tie goes to the larger bucket.
    std::optional<TunedParams> lookup(ElementType type, OperationFamily family, std::uint64_t n) const;

    // The segment team and work-group size for a call of n elements in segments of `type`
    // averaging `average_length` elements, equal (batches, rows) or varying (listed segments):
    // among the entries of that kind measured at n / 2 elements or more, the tuned one at the
    // nearest length, else the known-device one, where that length is within a factor of 2
    // (outside the lengths and sizes measured the planner's rule decides). TunedParams::n is
    // the entry's segment length.
    std::optional<TunedParams> lookup_segment_team(ElementType type, std::uint64_t average_length, bool equal_lengths,
                                                   std::uint64_t n) const;

private:
    using Key = std::pair<ElementType, OperationFamily>;
    std::map<Key, std::vector<TunedEntry>> tuned_;
    std::map<Key, std::vector<TunedEntry>> known_;
    using SegmentKey = std::pair<ElementType, bool>;  // (type, equal lengths)
    std::map<SegmentKey, std::vector<TunedEntry>> tuned_segments_;
    std::map<SegmentKey, std::vector<TunedEntry>> known_segments_;
};

// Throws Error when the entry makes no valid plan on `device` (entries from files and the
// known-device table are checked as overrides would be).
void check_entry_fits(const TunedEntry& entry, const DeviceInfo& device);

// The entry of `entries` nearest to n by the rule above; null when `entries` is empty.
const TunedEntry* nearest_bucket(const std::vector<TunedEntry>& entries, std::uint64_t n);

}  // namespace clreduce
