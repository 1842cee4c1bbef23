#pragma once
// reduce_by_key's result (reducer.hpp): the runs of equal consecutive keys, each run's key and
// its values' result, in the keys' order.
#include <cstdint>
#include <type_traits>
#include <vector>

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

}  // namespace clreduce
