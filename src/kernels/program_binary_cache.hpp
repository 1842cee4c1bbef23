#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include <clreduce/opencl.hpp>

namespace clreduce {

// Compiled program binaries on disk, so that a second process does not compile again. A file
// holds the full key it was made for (device, driver, source text, build options) and a
// checksum of the binary, so a foreign, truncated or damaged file is recognised and ignored.
class ProgramBinaryCache {
public:
    // `folder` empty: nothing is read or written.
    ProgramBinaryCache(std::optional<std::filesystem::path> folder, const cl::Device& device, std::string_view source);

    bool enabled() const { return folder_.has_value(); }
    std::string key(const std::string& options) const;
    std::filesystem::path path(const std::string& options) const;

    // The binary stored for these options, or nothing (no file, unreadable, not for this key);
    // then `why_not` says which.
    std::optional<std::string> load(const std::string& options, std::string* why_not = nullptr) const;
    // False when the file system refused (`why_not` says what it said); the cache is then
    // simply not used.
    bool save(const std::string& options, const std::string& binary, std::string* why_not = nullptr) const;

private:
    std::optional<std::filesystem::path> folder_;
    std::string key_prefix_;  // everything but the options
};

// The file format, separate for the tests that forge files.
struct ProgramFile {
    std::string key;
    std::string binary;
};
std::string encode_program_file(const ProgramFile& file);
std::optional<ProgramFile> decode_program_file(std::string_view bytes);

// 64-bit FNV-1a: a hash that stays the same across builds and platforms (std::hash does not).
std::uint64_t fnv1a64(std::string_view bytes);

}  // namespace clreduce
