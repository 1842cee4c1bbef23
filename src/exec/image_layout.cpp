#include "exec/image_layout.hpp"

#include <limits>
#include <string>

#include <clreduce/error.hpp>
#include <clreduce/image_mask.hpp>

namespace clreduce {

ImageLayout image_layout(const Image& image, std::size_t element_size, const std::uint64_t* buffer_bytes,
                         bool host_data_null) {
    if (image.channels < 1 || image.channels > 4)
        throw InvalidArgument("image channels must be 1 to 4, got " + std::to_string(image.channels));
    const std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
    if (image.cols > max / image.channels / element_size || (image.cols > 0 && image.rows > max / image.cols))
        throw InvalidArgument("image of " + std::to_string(image.rows) + " x " + std::to_string(image.cols) +
                              " pixels is too large");
    const std::uint64_t row_bytes = image.cols * image.channels * element_size;
    const std::uint64_t step = image.step == 0 ? row_bytes : image.step;
    if (step < row_bytes)
        throw InvalidArgument("image step " + std::to_string(step) + " bytes is smaller than a row (" +
                              std::to_string(row_bytes) + " bytes)");
    if (step % element_size != 0 || image.offset % element_size != 0)
        throw InvalidArgument("image step and offset must be multiples of the element size (" +
                              std::to_string(element_size) + " bytes)");
    if (image.rows > 1 && step > (max - row_bytes) / (image.rows - 1))
        throw InvalidArgument("image step x rows overflows 64 bits");
    const std::uint64_t span = image.rows == 0 || image.cols == 0 ? 0 : (image.rows - 1) * step + row_bytes;
    if (buffer_bytes != nullptr) {
        const std::uint64_t bytes = *buffer_bytes;
        if (image.offset > bytes || span > bytes - image.offset)
            throw InvalidArgument("image of " + std::to_string(span) + " bytes at offset " +
                                  std::to_string(image.offset) + " is past the end of the buffer (" +
                                  std::to_string(bytes) + " bytes)");
    } else {
        if (host_data_null && span > 0) throw InvalidArgument("host pointer is null");
        if (image.offset != 0) throw InvalidArgument("Image::offset must be 0 for host data");
    }
    return ImageLayout{step, span, image.rows * image.cols};
}

MaskLayout mask_layout(const Image& image, const std::uint64_t* buffer_bytes) {
    const ImageMask& mask = *image.mask;
    const std::uint64_t step = mask.step == 0 ? image.cols : mask.step;
    if (step < image.cols)
        throw InvalidArgument("mask step " + std::to_string(step) + " bytes is smaller than a row of the mask (" +
                              std::to_string(image.cols) + " bytes)");
    const std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
    if (image.rows > 1 && step > (max - image.cols) / (image.rows - 1))
        throw InvalidArgument("mask step x rows overflows 64 bits");
    const std::uint64_t span = image.rows == 0 || image.cols == 0 ? 0 : (image.rows - 1) * step + image.cols;
    if (buffer_bytes != nullptr) {
        if (mask.offset > *buffer_bytes || span > *buffer_bytes - mask.offset)
            throw InvalidArgument("mask of " + std::to_string(span) + " bytes at offset " +
                                  std::to_string(mask.offset) + " is past the end of its buffer (" +
                                  std::to_string(*buffer_bytes) + " bytes)");
    } else {
        if (mask.data == nullptr && span > 0) throw InvalidArgument("the mask has neither a buffer nor host data");
        if (mask.offset != 0) throw InvalidArgument("ImageMask::offset must be 0 for host data");
    }
    return MaskLayout{step, span};
}

}  // namespace clreduce
