#pragma once
// Many reductions in one call: what the ranges ("segments") are. A Reducer's segmented
// overloads (reducer.hpp) take the values' buffer, the element the segments count from, and a
// Segments, and give one result per segment in segment order, in one launch (two for few,
// huge segments).
#include <cstdint>
#include <vector>

#include <clreduce/opencl.hpp>

namespace clreduce {

class Segments {
public:
    enum class Kind { batch, rows, columns, host_offsets, device_offsets, device_ranges };

    // `count` arrays of `length` elements back to back: segment s is [s * length, (s + 1) * length).
    static Segments batch(std::uint64_t count, std::uint64_t length);
    // One segment per row of a row-major matrix of `rows` rows of `cols` elements; row r starts
    // r * step bytes after row 0 (0: packed rows). The step must be a multiple of the element's
    // size and at least a row (else the call throws InvalidArgument).
    static Segments rows(std::uint64_t rows, std::uint64_t cols, std::uint64_t step_bytes = 0);
    // One segment per column of the same matrix (numpy's axis=0, cv::reduce's dim 0): segment c
    // is elements c, c + step, c + 2 * step, ... (`rows` of them); argmin/argmax give the row.
    static Segments columns(std::uint64_t rows, std::uint64_t cols, std::uint64_t step_bytes = 0);
    // CSR offsets in host memory: segment s is [offsets[s], offsets[s + 1]), so offsets.size() - 1
    // segments. Checked here: at least one offset, ascending (else InvalidArgument naming the
    // first pair that is not); the call checks the last against the values' buffer. Copied to
    // the device with each call.
    static Segments offsets(std::vector<std::uint64_t> offsets);
    // CSR offsets in a device buffer: `segments` + 1 uint64 values from element `first` of
    // `offsets` on. `extent`: how many values from the call's offset the segments may address
    // (checked against the values' buffer). The offsets themselves are checked on the device:
    // a segment that is not ascending or ends past `extent` is read as empty (nothing outside
    // the buffers is read) and a synchronous call throws InvalidArgument naming the first such
    // segment; an asynchronous call cannot report it (its result is the identity).
    static Segments offsets(const cl::Buffer& offsets, std::uint64_t segments, std::uint64_t extent,
                            std::uint64_t first = 0);
    // Separate begin and end arrays (uint64, like CUB's DeviceSegmentedReduce): segment s is
    // [begins[s], ends[s]); checked like device offsets.
    static Segments ranges(const cl::Buffer& begins, const cl::Buffer& ends, std::uint64_t segments,
                           std::uint64_t extent);

    Kind kind() const { return kind_; }
    std::uint64_t count() const { return count_; }            // segments
    std::uint64_t extent() const { return extent_; }          // elements (rows, columns: worked out by the call)
    std::uint64_t length() const { return length_; }          // batch, rows, columns: elements per segment
    std::uint64_t step_bytes() const { return step_bytes_; }  // rows, columns (0: packed)
    const std::vector<std::uint64_t>& host_offsets() const { return host_offsets_; }
    const cl::Buffer& begins() const { return begins_; }  // device offsets and ranges
    const cl::Buffer& ends() const { return ends_; }
    std::uint64_t first() const { return first_; }  // device offsets: element of begins() of segment 0

private:
    Segments() = default;
    Kind kind_ = Kind::batch;
    std::uint64_t count_ = 0;
    std::uint64_t extent_ = 0;
    std::uint64_t length_ = 0;
    std::uint64_t step_bytes_ = 0;
    std::uint64_t first_ = 0;
    std::vector<std::uint64_t> host_offsets_;
    cl::Buffer begins_;
    cl::Buffer ends_;
};

}  // namespace clreduce
