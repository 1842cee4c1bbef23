#include "tuning/tuning_table.hpp"

#include <algorithm>
#include <cmath>

namespace clreduce {

const TunedEntry* nearest_bucket(const std::vector<TunedEntry>& entries, std::uint64_t n) {
    const double log_n = std::log2(double(std::max<std::uint64_t>(n, 1)));
    const TunedEntry* best = nullptr;
    double best_distance = 0;
    for (const TunedEntry& e : entries) {
        const double distance = std::fabs(log_n - std::log2(double(std::max<std::uint64_t>(e.n, 1))));
        if (best == nullptr || distance < best_distance || (distance == best_distance && e.n > best->n)) {
            best = &e;
            best_distance = distance;
        }
    }
    return best;
}

TuningTable::TuningTable(const std::vector<TunedEntry>& tuned, const std::vector<TunedEntry>& known) {
    for (const TunedEntry& e : tuned)
        (e.segment_length != 0 ? tuned_segments_[{e.type, e.equal_lengths}] : tuned_[{e.type, e.family}]).push_back(e);
    for (const TunedEntry& e : known)
        (e.segment_length != 0 ? known_segments_[{e.type, e.equal_lengths}] : known_[{e.type, e.family}]).push_back(e);
}

std::optional<TunedParams> TuningTable::lookup(ElementType type, OperationFamily family, std::uint64_t n) const {
    const Key key{type, family};
    if (auto it = tuned_.find(key); it != tuned_.end())
        if (const TunedEntry* e = nearest_bucket(it->second, n))
            return TunedParams{e->params, ParamSource::tuned, e->n};
    if (auto it = known_.find(key); it != known_.end())
        if (const TunedEntry* e = nearest_bucket(it->second, n))
            return TunedParams{e->params, ParamSource::known_device, e->n};
    return std::nullopt;
}

namespace {

// The entry measured at n / 2 elements or more whose segment length is nearest `length` on a
// log scale, if within a factor of 2.
const TunedEntry* nearest_length(const std::vector<TunedEntry>& entries, std::uint64_t length, std::uint64_t n) {
    const double log_length = std::log2(double(std::max<std::uint64_t>(length, 1)));
    const TunedEntry* best = nullptr;
    double best_distance = 0;
    for (const TunedEntry& e : entries) {
        if (e.n < n / 2) continue;
        const double distance = std::fabs(log_length - std::log2(double(e.segment_length)));
        if (best == nullptr || distance < best_distance ||
            (distance == best_distance && e.segment_length > best->segment_length)) {
            best = &e;
            best_distance = distance;
        }
    }
    return best != nullptr && best_distance <= 1.0 ? best : nullptr;
}

}  // namespace

std::optional<TunedParams> TuningTable::lookup_segment_team(ElementType type, std::uint64_t average_length,
                                                            bool equal_lengths, std::uint64_t n) const {
    const SegmentKey key{type, equal_lengths};
    if (auto it = tuned_segments_.find(key); it != tuned_segments_.end())
        if (const TunedEntry* e = nearest_length(it->second, average_length, n))
            return TunedParams{e->params, ParamSource::tuned, e->segment_length};
    if (auto it = known_segments_.find(key); it != known_segments_.end())
        if (const TunedEntry* e = nearest_length(it->second, average_length, n))
            return TunedParams{e->params, ParamSource::known_device, e->segment_length};
    return std::nullopt;
}

void check_entry_fits(const TunedEntry& e, const DeviceInfo& device) {
    if (e.segment_length == 0) {
        make_plan(e.type, e.n, device, e.params);
        return;
    }
    PlanRequest request{Operation::sum, e.type, e.n, CallForm::segments};
    request.segments = std::max<std::uint64_t>(e.n / e.segment_length, 1);
    request.listed = !e.equal_lengths;
    make_plan(request, device, e.params);
}

}  // namespace clreduce
