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
    for (const TunedEntry& e : tuned) tuned_[{e.type, e.family}].push_back(e);
    for (const TunedEntry& e : known) known_[{e.type, e.family}].push_back(e);
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

}  // namespace clreduce
