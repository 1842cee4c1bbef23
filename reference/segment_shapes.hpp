#pragma once
// The segment shapes clreduce-perf segments times, the same in clreduce-cub-segmented: CSR
// offsets from a shape's name and a seed.
//   "SxL"          S segments of L elements each (a batch, or packed matrix rows)
//   "uniform:N:M"  segment lengths uniform in [0, M] until N elements
//   "powerlaw:N"   lengths 16 / u^0.8 (u uniform in (0, 1]) capped at 2^24 until N elements:
//                  mostly short segments, a few huge ones
//   "rows:RxC"     the R rows of a packed R x C row-major matrix (the same offsets as RxC)
//   "columns:RxC"  its C columns: segment c is elements c, c + C, ... (offsets as if each
//                  column were contiguous: C segments of R)
// An unknown name throws std::invalid_argument naming it.
#include <cstdint>
#include <string>
#include <vector>

namespace clreduce::testing {

struct SegmentShape {
    std::string name;
    std::vector<std::uint64_t> offsets;  // segments + 1, offsets.front() == 0
    bool regular = false;                // SxL, rows, columns: every segment has length()
    bool rows = false, columns = false;  // a matrix's rows or columns (matrix_rows x matrix_cols)
    std::uint64_t matrix_rows = 0, matrix_cols = 0;
    std::uint64_t segments() const { return offsets.size() - 1; }
    std::uint64_t elements() const { return offsets.back(); }
    std::uint64_t length() const { return segments() == 0 ? 0 : offsets[1]; }
};

SegmentShape segment_shape(const std::string& name, std::uint64_t seed);

}  // namespace clreduce::testing
