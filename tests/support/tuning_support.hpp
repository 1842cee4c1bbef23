#pragma once
// A tuning database entry with the given launch values and made-up times, for the tuning tests.
#include <cstdint>

#include <clreduce/clreduce.hpp>

namespace clreduce::test {

inline TunedEntry entry(ElementType type, std::uint64_t n, std::uint32_t times, std::uint32_t wg, Stride stride,
                        std::uint32_t vec, InterGroup level3) {
    TunedEntry e;
    e.type = type;
    e.n = n;
    e.params.times = times;
    e.params.work_group_size = wg;
    e.params.stride = stride;
    e.params.vector_width = vec;
    e.params.inter_group = level3;
    e.kernel_us = 10.5;
    e.default_kernel_us = 12.25;
    return e;
}

}  // namespace clreduce::test
