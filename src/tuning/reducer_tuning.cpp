#include "tuning/reducer_tuning.hpp"

#include <algorithm>

#include <clreduce/error.hpp>

namespace clreduce {

void ReducerTuning::load(const TuningDatabase& database, const DeviceInfo& device) {
    std::vector<TunedEntry> known;
    for (const TunedEntry& e : known_device_entries(device)) {
        try {
            check_entry_fits(e, device);
            known.push_back(e);
        } catch (const Error&) {
            // A shipped entry this device cannot run (e.g. a smaller work-group limit) is left out.
        }
    }
    std::vector<TunedEntry> tuned = database.load(device).entries;
    std::lock_guard<std::mutex> lock(mutex_);
    database_ = database;
    tuned_ = std::move(tuned);
    known_ = std::move(known);
    std::atomic_store(&table_, std::make_shared<const TuningTable>(tuned_, known_));
}

void ReducerTuning::adopt(const std::vector<TunedEntry>& entries) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const TunedEntry& e : entries) {
        const auto same = [&](const TunedEntry& old) {
            return old.type == e.type && old.family == e.family && old.n == e.n &&
                   old.segment_length == e.segment_length && old.equal_lengths == e.equal_lengths;
        };
        tuned_.erase(std::remove_if(tuned_.begin(), tuned_.end(), same), tuned_.end());
        tuned_.push_back(e);
    }
    std::atomic_store(&table_, std::make_shared<const TuningTable>(tuned_, known_));
}

TuningDatabase ReducerTuning::database() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return database_;
}

std::vector<TunedEntry> ReducerTuning::entries() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return tuned_;
}

}  // namespace clreduce
