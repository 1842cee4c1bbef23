#pragma once
#include <filesystem>
#include <optional>
#include <string>

namespace clreduce {

// Whole-file reads and writes for the disk caches. A write goes to a unique temporary file
// in the same folder and is renamed over the target, so readers see the old file or the
// new one, never a torn one, also with several processes writing at once. Both return
// false (never throw) when the file system says no: a cache that cannot be used is skipped;
// `why_not`, when given, then says what the file system said.
std::optional<std::string> read_file(const std::filesystem::path& path);
bool write_file_atomically(const std::filesystem::path& path, const std::string& bytes, std::string* why_not = nullptr);

}  // namespace clreduce
