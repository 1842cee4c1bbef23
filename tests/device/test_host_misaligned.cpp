// Host data at any byte address: a numpy view at a byte offset or a cv::Mat over user memory
// hands the library a pointer that is not a multiple of its element size. Every form that takes
// host data (pointer, image, segments, the several-device split) must give, at every
// misalignment 1 ... sizeof(T) - 1, what the same values give from a buffer: on the calling
// thread's host path and through the kernels (a CPU device reads in place only from whole
// elements, else copies). Half is left out: no device of the suite's runs has cl_khr_fp16.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "partial_outcome.hpp"
#include "test_ops_support.hpp"

namespace clreduce::test {
namespace {

using namespace clreduce::testing;

// Bytes whose start is 64-byte aligned, so that start + m is misaligned by exactly m.
class Bytes {
public:
    explicit Bytes(std::size_t n) : storage_(n + 64) {}
    unsigned char* at(std::size_t m) {
        const auto base = reinterpret_cast<std::uintptr_t>(storage_.data());
        return storage_.data() + ((64 - base % 64) % 64) + m;
    }

private:
    std::vector<unsigned char> storage_;
};

// `values` copied to byte `m` of an aligned block: the pointer a user with such data holds.
template <class T>
const T* placed(Bytes& bytes, std::size_t m, const std::vector<T>& values) {
    std::memcpy(bytes.at(m), values.data(), values.size() * sizeof(T));
    return reinterpret_cast<const T*>(bytes.at(m));
}

LaunchParams host_path(bool on) {
    LaunchParams p;
    if (!on) p.host_path_bytes = 0;
    return p;
}

}  // namespace

TEMPLATE_TEST_CASE("host pointers at every misalignment give the buffer's result", "[host][misaligned]", std::int16_t,
                   std::uint16_t, std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float, double) {
    using T = TestType;
    Reducer& r = reducer();
    for (const std::uint64_t n : {std::uint64_t(1), std::uint64_t(37), std::uint64_t(100003)}) {
        const std::uint64_t seed = seed_for(sizeof(T), n, 57);
        const std::vector<T> values = op_values<T>(n, seed);
        const cl::Buffer buffer = device_copy(r, values);
        Bytes bytes(n * sizeof(T));
        for (std::size_t m = 0; m < sizeof(T); ++m) {
            const T* data = placed(bytes, m, values);
            for (const bool on_host : {true, false}) {
                const LaunchParams params = host_path(on_host);
                for (const Operation op : every_operation()) {
                    INFO(type_name(element_traits<T>::type)
                         << " n " << n << " seed " << seed << ", " << m << " byte(s) past alignment, host path "
                         << (on_host ? "allowed" : "off") << ", " << operation_name(op));
                    const std::string want = outcome<T>([&] { return r.partial<T>(op, buffer, 0, n, params); });
                    const std::string got = outcome<T>([&] { return r.partial<T>(op, data, n, params); });
                    CHECK(got == want);
                }
            }
        }
    }
}

TEST_CASE("the issue's case: 100,000 int64 ones one byte past alignment sum to 100,000", "[host][misaligned]") {
    Reducer& r = reducer();
    const std::vector<std::int64_t> ones(100000, 1);
    Bytes bytes(ones.size() * sizeof(std::int64_t));
    for (std::size_t m = 0; m < sizeof(std::int64_t); ++m) {
        INFO(m << " byte(s) past alignment");
        const std::int64_t* data = placed(bytes, m, ones);
        CHECK(r.sum(data, ones.size()) == 100000);
        CHECK(r.sum(data, ones.size(), host_path(false)) == 100000);
        CHECK(r.max(data, ones.size()) == 1);
    }
}

TEMPLATE_TEST_CASE("host images at every misalignment give the buffer image's result", "[host][misaligned][image]",
                   std::int16_t, std::int32_t, float, double) {
    using T = TestType;
    Reducer& r = reducer();
    const std::uint64_t rows = 37, cols = 29;
    for (std::uint32_t channels = 1; channels <= 4; ++channels) {
        // Rows padded by 3 elements, so that the image is pitched.
        const std::uint64_t step = (cols * channels + 3) * sizeof(T);
        const std::uint64_t seed = seed_for(sizeof(T), channels, 5757);
        const std::vector<T> values = op_values<T>(rows * step / sizeof(T), seed);
        const cl::Buffer buffer = device_copy(r, values);
        std::vector<std::uint8_t> mask_bytes(rows * cols);
        for (std::size_t k = 0; k < mask_bytes.size(); ++k) mask_bytes[k] = std::uint8_t(k % 3 != 0);
        const cl::Buffer mask_buffer = device_copy(r, mask_bytes);
        Bytes bytes(values.size() * sizeof(T));
        const Image image{rows, cols, channels, step, 0};
        for (std::size_t m = 1; m < sizeof(T); ++m) {
            INFO(type_name(element_traits<T>::type)
                 << ", " << channels << " channel(s), seed " << seed << ", " << m << " byte(s) past alignment");
            const T* data = placed(bytes, m, values);
            const auto host_sums = r.sum<T>(data, image);
            const auto buffer_sums = r.sum<T>(buffer, image);
            const auto host_min = r.min<T>(data, image);
            const auto buffer_min = r.min<T>(buffer, image);
            const auto host_count = r.count_nonzero<T>(data, image);
            const auto buffer_count = r.count_nonzero<T>(buffer, image);
            ImageMask host_mask;
            host_mask.data = mask_bytes.data();
            ImageMask device_mask;
            device_mask.buffer = mask_buffer;
            Image host_masked_image = image, buffer_masked_image = image;
            host_masked_image.mask = &host_mask;
            buffer_masked_image.mask = &device_mask;
            const auto host_masked = r.mean<T>(data, host_masked_image);
            const auto buffer_masked = r.mean<T>(buffer, buffer_masked_image);
            for (std::uint32_t c = 0; c < channels; ++c) {
                INFO("channel " << c);
                CHECK(same_bits(host_sums[c], buffer_sums[c]));
                CHECK(same_bits(host_min[c], buffer_min[c]));
                CHECK(host_count[c] == buffer_count[c]);
                CHECK(same_bits(host_masked[c], buffer_masked[c]));
            }
            CHECK(same_bits(r.norm<T>(data, image, Operation::norm_l2), r.norm<T>(buffer, image, Operation::norm_l2)));
        }
    }
}

TEMPLATE_TEST_CASE("host segments at every misalignment give the buffer's results", "[host][misaligned][segments]",
                   std::int16_t, std::int32_t, std::int64_t, float, double) {
    using T = TestType;
    Reducer& r = reducer();
    const std::uint64_t n = 6000;
    const std::uint64_t seed = seed_for(sizeof(T), n, 575757);
    const std::vector<T> values = op_values<T>(n, seed);
    const cl::Buffer buffer = device_copy(r, values);
    Bytes bytes(n * sizeof(T));
    const std::vector<Segments> shapes{Segments::batch(60, 100), Segments::rows(40, 150), Segments::columns(40, 150),
                                       Segments::offsets(std::vector<std::uint64_t>{0, 1, 4000, 4001, 6000})};
    for (std::size_t m = 1; m < sizeof(T); ++m) {
        const T* data = placed(bytes, m, values);
        for (std::size_t k = 0; k < shapes.size(); ++k) {
            INFO(type_name(element_traits<T>::type)
                 << " seed " << seed << ", shape " << k << ", " << m << " byte(s) past alignment");
            const auto host_sums = r.sum<T>(data, shapes[k]);
            const auto buffer_sums = r.sum<T>(buffer, 0, shapes[k]);
            REQUIRE(host_sums.size() == buffer_sums.size());
            for (std::size_t s = 0; s < host_sums.size(); ++s) CHECK(same_bits(host_sums[s], buffer_sums[s]));
            CHECK(r.max<T>(data, shapes[k]) == r.max<T>(buffer, 0, shapes[k]));
        }
    }
}

}  // namespace clreduce::test
