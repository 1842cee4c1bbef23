#pragma once
#include <filesystem>
#include <optional>

namespace clreduce {

// Folder of clreduce's on-disk caches (the tuning database, compiled program binaries).
// In order: the folder set by set_cache_directory(); $CLREDUCE_CACHE_DIR;
// $XDG_CACHE_HOME/clreduce; $HOME/.cache/clreduce. Empty when caching on disk is off:
// set_cache_directory("") or CLREDUCE_CACHE_DIR=off, or no HOME at all.
std::optional<std::filesystem::path> cache_directory();

// Overrides the folder for this process; an empty path turns the disk caches off.
// std::nullopt goes back to the environment's choice. Reducers made afterwards use it.
void set_cache_directory(std::optional<std::filesystem::path> folder);

}  // namespace clreduce
