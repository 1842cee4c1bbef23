#pragma once
// Host data may start at any byte address (a numpy view at a byte offset, a cv::Mat over user
// memory): the host reads its elements through memcpy, which is defined at any address and
// compiles to the plain (unaligned) load on x86-64 and AArch64, vectorised as the loop was.
#include <cstdint>
#include <cstring>

namespace clreduce {

// Element i of the T array that starts at `bytes`, wherever it lies.
template <class T>
inline T load_at(const unsigned char* bytes, std::uint64_t i) {
    T value;
    std::memcpy(&value, bytes + i * sizeof(T), sizeof(T));
    return value;
}

}  // namespace clreduce
