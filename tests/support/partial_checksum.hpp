#pragma once
// The checksum that ends a Partial's bytes from format version 4 on (docs/usage.md): CRC-32C,
// computed here bit by bit, apart from the library's table, as the reference its records are
// checked against. Tests that change a field on purpose, to see from_bytes() refuse the field
// itself, write the checksum of the changed bytes again (reseal); without it the checksum
// refuses them first.
#include <cstddef>
#include <cstdint>
#include <vector>

#include <clreduce/partial.hpp>

namespace clreduce::test {

// CRC-32C of bytes[0, size): reflected polynomial 0x82f63b78, all ones in and out.
inline std::uint32_t reference_crc32c(const std::uint8_t* bytes, std::size_t size) {
    std::uint32_t c = 0xffffffffu;
    for (std::size_t k = 0; k < size; ++k) {
        c ^= bytes[k];
        for (int bit = 0; bit < 8; ++bit) c = (c & 1u) != 0 ? (c >> 1) ^ 0x82f63b78u : c >> 1;
    }
    return ~c;
}

// The 4 checksum bytes after a record's header and state.
constexpr std::size_t kPartialChecksumBytes = 4;
// Where a record's state starts (the header's size), and where its element count is.
inline std::size_t partial_state_at() { return Partial::encoded_size(0) - kPartialChecksumBytes; }
inline std::size_t partial_count_at() { return partial_state_at() - 12; }

// The checksum a version-4 record ends with.
inline std::uint32_t stored_checksum(const std::vector<std::uint8_t>& bytes) {
    std::uint32_t v = 0;
    for (std::size_t k = 0; k < kPartialChecksumBytes; ++k)
        v |= std::uint32_t(bytes[bytes.size() - kPartialChecksumBytes + k]) << (8 * k);
    return v;
}

// A version-4 record's checksum written again for its bytes as they are now.
inline void reseal(std::vector<std::uint8_t>& bytes) {
    const std::size_t at = bytes.size() - kPartialChecksumBytes;
    const std::uint32_t c = reference_crc32c(bytes.data(), at);
    for (std::size_t k = 0; k < kPartialChecksumBytes; ++k) bytes[at + k] = static_cast<std::uint8_t>(c >> (8 * k));
}
inline std::vector<std::uint8_t> resealed(std::vector<std::uint8_t> bytes) {
    reseal(bytes);
    return bytes;
}

}  // namespace clreduce::test
