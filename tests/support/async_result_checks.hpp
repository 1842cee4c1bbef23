#pragma once
// What the asynchronous tests compare: results field by field (a structure's padding is not
// part of it), the values they reduce, and one operation's asynchronous result against its
// synchronous call (check_async).
#include <cstdint>
#include <cstring>
#include <optional>
#include <random>
#include <type_traits>
#include <vector>

#include "test_ops_support.hpp"

namespace clreduce::test {

constexpr unsigned char kMarker = 0xAB;

template <class V>
inline bool same_field(const V& a, const V& b) {
    return same_bits(a, b);
}
template <class T>
bool same_result_fields(const MinMax<T>& a, const MinMax<T>& b) {
    return same_field(a.min, b.min) && same_field(a.max, b.max);
}
template <class T>
bool same_result_fields(const ArgResult<T>& a, const ArgResult<T>& b) {
    return same_field(a.value, b.value) && a.index == b.index;
}
template <class T>
bool same_result_fields(const ArgMinMax<T>& a, const ArgMinMax<T>& b) {
    return same_result_fields(a.min, b.min) && same_result_fields(a.max, b.max);
}
template <class T>
bool same_result_fields(const Statistics<T>& a, const Statistics<T>& b) {
    return a.count == b.count && same_field(a.min, b.min) && same_field(a.max, b.max) && same_field(a.sum, b.sum) &&
           same_field(a.mean, b.mean) && same_field(a.variance, b.variance);
}

// A zeroed status word (AsyncTarget::status), and its value once the calls are done.
inline cl::Buffer status_word(const Reducer& r) {
    cl_uint zero = 0;
    return cl::Buffer(r.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, &zero);
}
inline std::uint32_t read_status(const Reducer& r, const cl::Buffer& status) {
    cl_uint word = 0;
    check(r.queue().enqueueReadBuffer(status, CL_TRUE, 0, sizeof word, &word), "clEnqueueReadBuffer");
    return word;
}

template <class T>
bool same_result(const T& a, const T& b) {
    if constexpr (std::is_arithmetic_v<T> || std::is_same_v<T, half>)
        return same_bits(a, b);
    else
        return same_result_fields(a, b);
}

// Values for the 64-bit types over their whole range (so that means and norms take their
// exact 128- and 192-bit states far past 2^53), op_values' elsewhere.
template <class T>
std::vector<T> async_values(std::uint64_t n, std::uint64_t seed) {
    std::vector<T> v = op_values<T>(n, seed);
    std::mt19937_64 rng(seed + 1);
    if constexpr (std::is_integral_v<T> && sizeof(T) == 8) {
        for (auto& x : v)
            if (x != 0) x = static_cast<T>(rng());
    }
    return v;
}

// A result buffer of three R: its bytes into `around` (so that the ones beside the result can
// be checked), and the R at index `at`.
template <class R>
R read_result(const Reducer& r, const cl::Buffer& buffer, std::uint64_t at, std::vector<unsigned char>& around) {
    around.resize(3 * sizeof(R));
    check(r.queue().enqueueReadBuffer(buffer, CL_TRUE, 0, around.size(), around.data()), "clEnqueueReadBuffer");
    R value;
    std::memcpy(static_cast<void*>(&value), around.data() + at * sizeof(R), sizeof(R));
    return value;
}

// One operation over one range with `params`: synchronous and asynchronous results compared.
// Where the synchronous call throws Overflow, the asynchronous one sets the status word's bit
// and leaves the result unwritten; elsewhere its word stays 0.
template <Operation Op, class T>
void check_async(Reducer& r, const cl::Buffer& buffer, std::uint64_t offset, std::uint64_t n, LaunchParams params) {
    using R = result_t<Op, T>;
    INFO(operation_name(Op) << " of " << type_name(element_traits<T>::type) << ", n " << n << ", offset " << offset);
    cl::Buffer out(r.context(), CL_MEM_READ_WRITE, 3 * sizeof(R));
    check(r.queue().enqueueFillBuffer(out, cl_uchar(kMarker), 0, 3 * sizeof(R)), "clEnqueueFillBuffer");
    const cl::Buffer status = status_word(r);
    const AsyncTarget target{out, 1, {}, AsyncEvent::returned, status};
    cl::Event done;
    try {
        done = r.reduce_async<Op, T>(buffer, offset, n, target, params);
    } catch (const InvalidArgument&) {  // undefined for no element: so is the synchronous call
        CHECK(n == 0);
        CHECK_THROWS_AS((r.reduce<Op, T>(buffer, offset, n, params)), InvalidArgument);
        return;
    } catch (const Unsupported&) {  // the operation does not take T: neither form does
        CHECK_THROWS_AS((r.reduce<Op, T>(buffer, offset, n, params)), Unsupported);
        return;
    }
    std::optional<R> sync;
    try {
        sync = r.reduce<Op, T>(buffer, offset, n, params);
    } catch (const Overflow&) {
    }
    done.wait();
    std::vector<unsigned char> around;
    const R async = read_result<R>(r, out, 1, around);
    const std::uint32_t word = read_status(r, status);
    if (sync) {
        CHECK(word == 0);
        CHECK(same_result(*sync, async));
    } else {
        CHECK(word == kAsyncOverflow);
        for (std::size_t k = sizeof(R); k < 2 * sizeof(R); ++k) CHECK(around[k] == kMarker);
    }
    for (std::size_t k = 0; k < sizeof(R); ++k) {
        CHECK(around[k] == kMarker);
        CHECK(around[2 * sizeof(R) + k] == kMarker);
    }
}

}  // namespace clreduce::test
