#include "tuning/tuning_table.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace clreduce {

namespace {

// The entry of `entries` that `usable` accepts whose key(e) is nearest `value` on a log scale
// (a tie to the larger key), with its distance in binades; null when none is usable.
template <class Key, class Usable>
std::pair<const TunedEntry*, double> nearest_on_log_scale(const std::vector<TunedEntry>& entries, std::uint64_t value,
                                                          Key key, Usable usable) {
    const double log_value = std::log2(double(std::max<std::uint64_t>(value, 1)));
    const TunedEntry* best = nullptr;
    double best_distance = 0;
    for (const TunedEntry& e : entries) {
        if (!usable(e)) continue;
        const double distance = std::fabs(log_value - std::log2(double(std::max<std::uint64_t>(key(e), 1))));
        if (best == nullptr || distance < best_distance || (distance == best_distance && key(e) > key(*best))) {
            best = &e;
            best_distance = distance;
        }
    }
    return {best, best_distance};
}

// The entry measured at n / 2 elements or more whose segment length is nearest `length` on a
// log scale, if within a factor of 2.
const TunedEntry* nearest_length(const std::vector<TunedEntry>& entries, std::uint64_t length, std::uint64_t n) {
    const auto [best, distance] = nearest_on_log_scale(
        entries, length, [](const TunedEntry& e) { return e.segment_length; },
        [&](const TunedEntry& e) { return e.n >= n / 2; });
    return best != nullptr && distance <= 1.0 ? best : nullptr;
}

}  // namespace

const TunedEntry* nearest_bucket(const std::vector<TunedEntry>& entries, std::uint64_t n) {
    return nearest_on_log_scale(
               entries, n, [](const TunedEntry& e) { return e.n; }, [](const TunedEntry&) { return true; })
        .first;
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
