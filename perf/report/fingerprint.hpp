#pragma once
// FNV-1a hash of a data set's bytes: clreduce-cub-sum reports it so that compare can tell
// that it summed the same data (its generator is reference/random_values, linked in).
#include <cstdint>
#include <cstdio>
#include <string>

namespace clreduce::perf {

inline std::string data_fingerprint(const void* data, std::uint64_t bytes) {
    std::uint64_t h = 14695981039346656037ull;
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::uint64_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 1099511628211ull;
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
    return text;
}

}  // namespace clreduce::perf
