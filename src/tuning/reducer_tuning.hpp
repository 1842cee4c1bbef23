#pragma once
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include <clreduce/tuning.hpp>

#include "plan/planner.hpp"
#include "tuning/tuning_table.hpp"

namespace clreduce {

// A reducer's tuning: its database and the table its plan lookups read. Lookups take no lock
// and do no I/O (the table is immutable and swapped whole); loading and adopting are rare.
class ReducerTuning {
public:
    // Reads this device's entries from `database` (and the known-device table) and uses them.
    void load(const TuningDatabase& database, const DeviceInfo& device);
    // Uses `entries` at once, replacing those with the same type, family, size and segment
    // length and kind.
    void adopt(const std::vector<TunedEntry>& entries);

    std::optional<TunedParams> lookup(ElementType type, OperationFamily family, std::uint64_t n) const {
        return std::atomic_load(&table_)->lookup(type, family, n);
    }
    std::optional<TunedParams> lookup_segment_team(ElementType type, std::uint64_t average_length, bool equal_lengths,
                                                   std::uint64_t n) const {
        return std::atomic_load(&table_)->lookup_segment_team(type, average_length, equal_lengths, n);
    }
    TuningDatabase database() const;
    std::vector<TunedEntry> entries() const;

private:
    mutable std::mutex mutex_;
    TuningDatabase database_;
    std::vector<TunedEntry> tuned_;
    std::vector<TunedEntry> known_;
    std::shared_ptr<const TuningTable> table_ = std::make_shared<const TuningTable>();
};

}  // namespace clreduce
