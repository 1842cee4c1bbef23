#pragma once
// reduce_by_key's result (reducer.hpp): the runs of equal consecutive keys, each run's key and
// its values' result, in the keys' order.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <type_traits>
#include <vector>

#include <clreduce/element_type.hpp>

namespace clreduce {

// The key types reduce_by_key takes: integers of 8 to 64 bits (keys are compared as bits,
// which for integers is equality; bool and floating-point keys are not taken).
template <class Key>
inline constexpr bool is_run_key_v = std::is_integral_v<Key> && !std::is_same_v<Key, bool> && sizeof(Key) <= 8;

// One entry per run: keys[r] is run r's key, results[r] the result of its values.
template <class Key, class R>
struct KeyedResults {
    std::vector<Key> keys;
    std::vector<R> results;
    std::uint64_t runs() const { return keys.size(); }
};

// The bytes of a key of `key_type` (reduce_by_key's keys given by their type at run time): an
// integer type's size; InvalidArgument for a floating type.
std::uint32_t run_key_size(ElementType key_type);

namespace detail {

// reduce_by_key's rooms in the caller's vectors (reducer.hpp): a function that resizes them to
// the runs found and gives their memory.
template <class Key>
std::function<void*(std::uint64_t)> run_room(std::vector<Key>& keys) {
    return [&keys](std::uint64_t runs) -> void* {
        keys.resize(static_cast<std::size_t>(runs));
        return keys.data();
    };
}
// The room for runs' keys as bytes, `key_size` a run.
inline std::function<void*(std::uint64_t)> run_bytes_room(std::vector<unsigned char>& bytes, std::uint32_t key_size) {
    return [&bytes, key_size](std::uint64_t runs) -> void* {
        bytes.resize(static_cast<std::size_t>(runs * key_size));
        return bytes.data();
    };
}
// Results that are plain numbers (not bool, which std::vector packs, nor structures): their
// type and room, which the one launch writes straight into; else none.
template <class R>
std::optional<ElementType> plain_result_type() {
    if constexpr (std::is_arithmetic_v<R> && !std::is_same_v<R, bool>)
        return element_traits<R>::type;
    else
        return std::nullopt;
}
template <class R>
std::function<void*(std::uint64_t)> result_room(std::vector<R>& results) {
    if constexpr (std::is_arithmetic_v<R> && !std::is_same_v<R, bool>)
        return run_room(results);
    else
        return {};
}

}  // namespace detail

}  // namespace clreduce
