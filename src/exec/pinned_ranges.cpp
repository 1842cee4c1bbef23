#include "exec/pinned_ranges.hpp"

#include <iterator>
#include <map>
#include <shared_mutex>

namespace clreduce {
namespace {

struct Range {
    std::uintptr_t end;
    cl_context context;
};

// Ranges by start address; they never overlap (each is a live mapping of its own).
std::shared_mutex mutex;
std::map<std::uintptr_t, Range>& ranges() {
    static std::map<std::uintptr_t, Range> instance;
    return instance;
}

}  // namespace

void add_pinned_range(cl_context context, const void* begin, std::uint64_t bytes) {
    const auto start = reinterpret_cast<std::uintptr_t>(begin);
    const std::unique_lock<std::shared_mutex> lock(mutex);
    ranges()[start] = Range{start + static_cast<std::uintptr_t>(bytes), context};
}

void remove_pinned_range(const void* begin) {
    const std::unique_lock<std::shared_mutex> lock(mutex);
    ranges().erase(reinterpret_cast<std::uintptr_t>(begin));
}

bool in_pinned_range(cl_context context, const void* data, std::uint64_t bytes) {
    const auto start = reinterpret_cast<std::uintptr_t>(data);
    const std::shared_lock<std::shared_mutex> lock(mutex);
    const auto& all = ranges();
    auto after = all.upper_bound(start);  // the first range starting past `data`
    if (after == all.begin()) return false;
    const Range& range = std::prev(after)->second;
    return range.context == context && bytes <= range.end - start && start < range.end;
}

}  // namespace clreduce
