#pragma once
// The geometry of a pitched multi-channel image (clreduce::Image), checked before anything is
// enqueued: every layout that could read outside the data, or overflow 64 bits, is refused.
#include <cstddef>
#include <cstdint>

#include <clreduce/results.hpp>

namespace clreduce {

struct ImageLayout {
    std::uint64_t step = 0;   // bytes from one row to the next
    std::uint64_t span = 0;   // bytes from the first element to past the last one
    std::uint64_t count = 0;  // pixels
};

// Throws InvalidArgument naming what is wrong. `buffer_bytes` is the buffer's size for buffer
// input, null for host data (then `host_data_null` says whether the pointer is null).
ImageLayout image_layout(const Image& image, std::size_t element_size, const std::uint64_t* buffer_bytes,
                         bool host_data_null);

// The geometry of an image's mask (Image::mask, image_mask.hpp): `rows` x `cols` bytes, rows
// `step` bytes apart. `buffer_bytes`: the mask buffer's size for a buffer mask, null for
// host data. Throws InvalidArgument naming what is wrong.
struct MaskLayout {
    std::uint64_t step = 0;  // bytes
    std::uint64_t span = 0;  // bytes from the first pixel's byte to past the last one
};
MaskLayout mask_layout(const Image& image, const std::uint64_t* buffer_bytes);

}  // namespace clreduce
