// The Segments factories: what each kind of segment list is, checked where the host can.
#include <clreduce/segments.hpp>

#include <limits>
#include <string>

#include <clreduce/error.hpp>

namespace clreduce {

Segments Segments::batch(std::uint64_t count, std::uint64_t length) {
    if (length != 0 && count > std::numeric_limits<std::uint64_t>::max() / length)
        throw InvalidArgument("a batch of " + std::to_string(count) + " arrays of " + std::to_string(length) +
                              " elements has more than 2^64 elements");
    Segments s;
    s.kind_ = Kind::batch;
    s.count_ = count;
    s.length_ = length;
    s.extent_ = count * length;
    return s;
}

Segments Segments::rows(std::uint64_t rows, std::uint64_t cols, std::uint64_t step_bytes) {
    Segments s;
    s.kind_ = Kind::rows;
    s.count_ = rows;
    s.length_ = cols;
    s.step_bytes_ = step_bytes;
    return s;  // the extent depends on the element's size: the call works it out
}

Segments Segments::columns(std::uint64_t rows, std::uint64_t cols, std::uint64_t step_bytes) {
    Segments s;
    s.kind_ = Kind::columns;
    s.count_ = cols;
    s.length_ = rows;
    s.step_bytes_ = step_bytes;
    return s;  // the extent depends on the element's size: the call works it out
}

Segments Segments::offsets(std::vector<std::uint64_t> offsets) {
    if (offsets.empty()) throw InvalidArgument("CSR offsets need at least one value (segments + 1 of them), got none");
    for (std::size_t i = 1; i < offsets.size(); ++i)
        if (offsets[i] < offsets[i - 1])
            throw InvalidArgument("CSR offsets must ascend: offsets[" + std::to_string(i - 1) +
                                  "] = " + std::to_string(offsets[i - 1]) + " > offsets[" + std::to_string(i) +
                                  "] = " + std::to_string(offsets[i]) + " (segment " + std::to_string(i - 1) + ")");
    Segments s;
    s.kind_ = Kind::host_offsets;
    s.count_ = offsets.size() - 1;
    s.extent_ = offsets.back();
    s.host_offsets_ = std::move(offsets);
    return s;
}

Segments Segments::offsets(const cl::Buffer& offsets, std::uint64_t segments, std::uint64_t extent,
                           std::uint64_t first) {
    if (offsets() == nullptr) throw InvalidArgument("the CSR offsets buffer is a null cl::Buffer");
    if (segments == std::numeric_limits<std::uint64_t>::max() ||
        first > std::numeric_limits<std::uint64_t>::max() - segments - 1)
        throw InvalidArgument("CSR offsets: " + std::to_string(segments) + " segments from element " +
                              std::to_string(first) + " pass 2^64");
    Segments s;
    s.kind_ = Kind::device_offsets;
    s.count_ = segments;
    s.extent_ = extent;
    s.first_ = first;
    s.begins_ = offsets;
    s.ends_ = offsets;
    return s;
}

Segments Segments::ranges(const cl::Buffer& begins, const cl::Buffer& ends, std::uint64_t segments,
                          std::uint64_t extent) {
    if (begins() == nullptr || ends() == nullptr) throw InvalidArgument("segment begins or ends: a null cl::Buffer");
    Segments s;
    s.kind_ = Kind::device_ranges;
    s.count_ = segments;
    s.extent_ = extent;
    s.begins_ = begins;
    s.ends_ = ends;
    return s;
}

}  // namespace clreduce
