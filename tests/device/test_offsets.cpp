// "Deterministic" means the same bits for the same values: a float result depends on the
// values, their count, the device and the plan, not on where the range starts in its buffer
// (element offsets 0-63, hence every alignment) nor on the entry form (buffer, pointer, range).
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "test_ops_support.hpp"

namespace clreduce::test {
namespace {

template <class R>
std::uint64_t bits_of(R value) {
    std::uint64_t b = 0;
    std::memcpy(&b, &value, sizeof value);
    return b;
}

// One operation's bits at every element offset 0-63 of one buffer, and through the pointer
// and range forms.
template <class T, class Call>
void check_offsets(Reducer& r, const std::vector<T>& data, const LaunchParams& params, const char* what, Call call) {
    constexpr std::uint64_t kOffsets = 64;
    std::vector<T> padded(kOffsets + data.size() + kOffsets);
    const cl::Buffer buffer(r.context(), CL_MEM_READ_WRITE, padded.size() * sizeof(T));
    const std::uint64_t expected = bits_of(call(data.data(), nullptr, 0, params));
    for (std::uint64_t offset = 0; offset < kOffsets; ++offset) {
        std::fill(padded.begin(), padded.end(), T(7));
        std::copy(data.begin(), data.end(), padded.begin() + offset);
        check(r.queue().enqueueWriteBuffer(buffer, CL_TRUE, 0, padded.size() * sizeof(T), padded.data()),
              "clEnqueueWriteBuffer");
        INFO(what << " n " << data.size() << " offset " << offset);
        CHECK(bits_of(call(nullptr, &buffer, offset, params)) == expected);
    }
}

template <class T>
void check_type(Reducer& r) {
    if constexpr (std::is_same_v<T, double>) {
        if (!r.device_info().has_fp64) {
            WARN("no cl_khr_fp64 on this device: double not checked");
            return;
        }
    }
    if constexpr (std::is_same_v<T, half>) {
        if (!r.device_info().has_fp16) {
            WARN("no cl_khr_fp16 on this device: half not checked");
            return;
        }
    }
    for (std::uint64_t n : {17ull, 40009ull}) {
        const std::uint64_t seed = seed_for(sizeof(T), n, 5);
        INFO("data seed " << seed);
        // half: binades within its range (below 2^8 here), the others wider.
        const std::vector<T> data = wide_values<T>(n, seed, std::is_same_v<T, half> ? 16 : 40);
        for (FloatMode mode : {FloatMode::deterministic, FloatMode::compensated}) {
            for (std::uint32_t width : {0u, 2u, 16u}) {
                LaunchParams p;
                p.float_mode = mode;
                if (width != 0) p.vector_width = width;
                INFO("mode " << to_string(mode) << " vector width " << width);
                const std::uint64_t count = n;
                check_offsets(r, data, p, "sum", [&](const T* host, const cl::Buffer* b, std::uint64_t off, auto q) {
                    return host ? r.sum(host, count, q) : r.sum<T>(*b, off, count, q);
                });
                check_offsets(r, data, p, "mean", [&](const T* host, const cl::Buffer* b, std::uint64_t off, auto q) {
                    return host ? r.mean(host, count, q) : r.mean<T>(*b, off, count, q);
                });
                check_offsets(r, data, p, "norm_l2",
                              [&](const T* host, const cl::Buffer* b, std::uint64_t off, auto q) {
                    return host ? r.norm_l2(host, count, q) : r.norm_l2<T>(*b, off, count, q);
                });
                check_offsets(r, data, p, "transform",
                              [&](const T* host, const cl::Buffer* b, std::uint64_t off, auto q) {
                    return host ? r.transform_reduce(host, count, "x * 3 - 1", Combine::sum, q)
                                : r.transform_reduce<T>(*b, off, count, "x * 3 - 1", Combine::sum, q);
                });
                if (mode == FloatMode::deterministic && n <= 1000) {
                    check_offsets(r, data, p, "product",
                                  [&](const T* host, const cl::Buffer* b, std::uint64_t off, auto q) {
                        return host ? r.product(host, count, q) : r.product<T>(*b, off, count, q);
                    });
                }
                // The range form is the pointer form of the vector's data.
                CHECK(bits_of(r.sum(data, p)) == bits_of(r.sum(data.data(), count, p)));
            }
        }
    }
}

TEST_CASE("float results have the same bits at every element offset and through every entry form",
          "[determinism][offsets]") {
    Reducer& r = reducer();
    check_type<half>(r);
    check_type<float>(r);
    check_type<double>(r);
}

}  // namespace
}  // namespace clreduce::test
