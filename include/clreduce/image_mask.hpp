#pragma once
// A mask for the Image forms of Reducer::reduce (results.hpp), like OpenCV's masks: one byte
// per pixel, `rows` x `cols` of the image; a pixel whose byte is 0 takes no part in any
// channel's result. The kernels skip such pixels in level 1 (nothing is copied or compacted),
// so argmin/argmax still give the pixel's own index in row-major order. With a mask, an
// operation's empty range is the mask selecting no pixel: sums give 0, min/max/mean/argmin/
// argmax/statistics throw InvalidArgument as for an empty image, and mean and statistics
// count only the selected pixels.
#include <cstdint>

#include <clreduce/opencl.hpp>

namespace clreduce {

struct ImageMask {
    // Buffer forms: the mask's bytes in `buffer` from `offset` on. Host-data forms: `data`
    // (pixel (0, 0)'s byte; read in place by the host path or a CPU device, else copied in with
    // the image).
    cl::Buffer buffer;
    std::uint64_t offset = 0;  // bytes; buffer masks only
    const std::uint8_t* data = nullptr;
    std::uint64_t step = 0;  // bytes from one row to the next; 0: packed rows (cols bytes)
};

}  // namespace clreduce
