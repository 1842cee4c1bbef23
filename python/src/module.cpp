// clreduce._clreduce: the native part of the Python package (python/clreduce/ is the
// numpy-shaped layer over it). Each concern binds itself: errors, the Reducer and its core
// call, Partial, MultiReducer, the operation list.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <clreduce/cache.hpp>

#include "binding.hpp"

NB_MODULE(_clreduce, m) {
    using namespace clreduce_python;
    using namespace nb::literals;
    m.doc() = "clreduce's native module: the core call bound once (see the clreduce package).";
    bind_errors(m);
    bind_partial(m);
    bind_reducer(m);
    bind_multi(m);
    bind_operations(m);
    // The disk caches' folder (compiled programs, the tuning file): the process-wide setting of
    // include/clreduce/cache.hpp, for reducers made afterwards.
    m.def(
        "cache_directory",
        []() -> std::optional<std::string> {
            const auto folder = clreduce::cache_directory();
            return folder ? std::optional<std::string>(folder->string()) : std::nullopt;
        },
        "The folder of the disk caches (compiled programs, tuning file), or None when they are off.");
    m.def(
        "set_cache_directory",
        [](std::optional<std::string> folder) {
        clreduce::set_cache_directory(folder ? std::optional<std::filesystem::path>(*folder) : std::nullopt);
        },
        "folder"_a.none(),
        "Sets the disk caches' folder for reducers made afterwards; '' turns them off, None goes back to "
        "$CLREDUCE_CACHE_DIR or ~/.cache/clreduce.");
}
