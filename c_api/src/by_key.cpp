// reduce_by_key: the runs of equal consecutive keys, each run's key and its values' result into
// the caller's arrays.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <clreduce/clreduce.h>
#include <clreduce/by_key.hpp>
#include <clreduce/error.hpp>
#include <clreduce/reducer.hpp>

#include "convert.hpp"
#include "guard.hpp"

using namespace clreduce::c_api;
using clreduce::InvalidArgument;

namespace {

// The element type of keys of `key_size` bytes. Keys compare as bits, so signed keys of that
// size have the same runs, and their bits are copied back unchanged.
clreduce::ElementType key_type(std::size_t key_size) {
    switch (key_size) {
        case 1: return clreduce::ElementType::uint8;
        case 2: return clreduce::ElementType::uint16;
        case 4: return clreduce::ElementType::uint32;
        case 8: return clreduce::ElementType::uint64;
    }
    throw InvalidArgument("key_size " + std::to_string(key_size) + ": keys are integers of 1, 2, 4 or 8 bytes");
}

// This thread's runs of one result type, kept from call to call: a repeated call allocates no
// host memory (the vectors keep the most runs the thread was asked for).
template <class R>
struct Runs {
    std::vector<unsigned char> keys;  // key_size bytes a run
    std::vector<R> results;
};
template <class R>
Runs<R>& kept_runs() {
    thread_local Runs<R> runs;
    return runs;
}

// The runs into the caller's arrays; *runs says how many there are, also where `capacity` is
// too small for them (then nothing is written and the call fails naming both numbers).
template <class R>
void into_arrays(const Runs<R>& out, void* run_keys, clreduce_value* results, std::uint64_t capacity,
                 std::uint64_t* runs) {
    *runs = out.results.size();
    if (capacity < *runs)
        throw InvalidArgument("room for " + std::to_string(capacity) + " runs (`capacity`) where there are " +
                              std::to_string(*runs));
    if (*runs == 0) return;
    require(run_keys, "run_keys");
    require(results, "results");
    std::memcpy(run_keys, out.keys.data(), out.keys.size());
    for (std::size_t k = 0; k < out.results.size(); ++k)
        results[k] = to_value(static_cast<R>(out.results[k]));  // R: std::vector<bool> gives proxies
}

// The typed call `call(op_constant, t, keys, out)` for the operation and value type, into the
// arrays.
template <class Call>
void by_key(clreduce_operation op, clreduce_type type, std::size_t key_size, void* run_keys, clreduce_value* results,
            std::uint64_t capacity, std::uint64_t* runs, Call&& call) {
    require(runs, "runs");
    *runs = 0;
    const clreduce::ElementType keys = key_type(key_size);
    dispatch(op, type, [&](auto op_constant, auto t) {
        using T = decltype(t);
        auto& out = kept_runs<clreduce::result_t<decltype(op_constant)::value, T>>();
        call(op_constant, t, keys, out);
        into_arrays(out, run_keys, results, capacity, runs);
    });
}

}  // namespace

extern "C" {

clreduce_status clreduce_reduce_by_key(const clreduce_reducer* reducer, clreduce_operation op, clreduce_type type,
                                       const void* keys, size_t key_size, const void* values, uint64_t count,
                                       const clreduce_options* options, void* run_keys, clreduce_value* results,
                                       uint64_t capacity, uint64_t* runs) {
    return guarded("clreduce_reduce_by_key", [&] {
        const clreduce::Reducer& r = reducer_of(reducer);
        const clreduce::LaunchParams params = to_params(options);
        by_key(op, type, key_size, run_keys, results, capacity, runs,
               [&](auto op_constant, auto t, auto key, auto& out) {
            using T = decltype(t);
            r.reduce_by_key<decltype(op_constant)::value, T>(keys, key, static_cast<const T*>(values), count, out.keys,
                                                             out.results, params);
        });
    });
}

clreduce_status clreduce_reduce_by_key_buffer(const clreduce_reducer* reducer, clreduce_operation op,
                                              clreduce_type type, cl_mem keys, uint64_t key_offset, size_t key_size,
                                              cl_mem values, uint64_t value_offset, uint64_t count,
                                              const clreduce_options* options, void* run_keys, clreduce_value* results,
                                              uint64_t capacity, uint64_t* runs) {
    return guarded("clreduce_reduce_by_key_buffer", [&] {
        const clreduce::Reducer& r = reducer_of(reducer);
        require(keys, "keys");
        require(values, "values");
        const clreduce::LaunchParams params = to_params(options);
        const cl::Buffer key_buffer(keys, true), value_buffer(values, true);
        by_key(op, type, key_size, run_keys, results, capacity, runs,
               [&](auto op_constant, auto t, auto key, auto& out) {
            r.reduce_by_key<decltype(op_constant)::value, decltype(t)>(key_buffer, key_offset, key, value_buffer,
                                                                       value_offset, count, out.keys, out.results,
                                                                       params);
        });
    });
}

}  // extern "C"
