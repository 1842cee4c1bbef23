#pragma once
// What every test file shares: one reducer on the default device and the run's seed.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <clreduce/clreduce.hpp>

#include "device/described_device.hpp"

namespace clreduce::test {

// $CLREDUCE_TEST_SEED, else a fresh random seed; printed so a failure can be repeated.
inline std::uint64_t seed() {
    static const std::uint64_t value = [] {
        if (const char* s = std::getenv("CLREDUCE_TEST_SEED"); s != nullptr && *s != '\0')
            return static_cast<std::uint64_t>(std::stoull(s));
        return (static_cast<std::uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}();
    }();
    return value;
}

inline void print_seed() {
    std::cout << "clreduce tests: seed " << seed() << " (CLREDUCE_TEST_SEED=" << seed() << " repeats this run)\n";
}

// Whether two values are the same bits (a deterministic result, -0.0 against 0.0, NaNs).
template <class V>
bool same_bits(const V& a, const V& b) {
    return std::memcmp(&a, &b, sizeof(V)) == 0;
}

// Skips the rest of a test case where the device lacks what it tests. Catch2 2 has no SKIP: the
// line below makes CTest report the case as skipped, not passed (SKIP_REGULAR_EXPRESSION,
// tests/CMakeLists.txt), and the test binary counts the skipped cases in its last line.
inline int& skipped_cases() {
    static int count = 0;
    return count;
}
inline void skip_case(const std::string& why) {
    ++skipped_cases();
    std::cout << "CLREDUCE_TEST_SKIPPED: " << why << std::endl;
}

// Derives the seed of one data set from the run's seed and the case's own numbers.
inline std::uint64_t seed_for(std::uint64_t a, std::uint64_t b = 0, std::uint64_t c = 0) {
    std::uint64_t h = seed() ^ 0x9e3779b97f4a7c15ull;
    for (std::uint64_t v : {a, b, c}) h = (h ^ v) * 0x100000001b3ull + (h >> 29);
    return h;
}

// One reducer for the whole process, on the default device ($CLREDUCE_DEVICE to choose).
inline Reducer& reducer() {
    static Reducer instance;
    return instance;
}

// The level-3 strategies the device can run for the sum of an element type: second_pass
// always, last_group where the device has its fence, and where the device has 64-bit
// atomics atomic for integers (their accumulators are 64-bit), exact_atomic for floats.
template <class T>
std::vector<InterGroup> strategies(const DeviceInfo& device) {
    std::vector<InterGroup> out{InterGroup::second_pass};
    if (has_last_group_finish(device)) out.push_back(InterGroup::last_group);
    if (device.has_int64_atomics) out.push_back(std::is_integral_v<T> ? InterGroup::atomic : InterGroup::exact_atomic);
    return out;
}

// A fresh, empty cache folder for the reducers made while it lives, for tests that count
// programs built: in the run's shared folder an earlier test may have left their binaries.
class FreshCacheFolder {
public:
    FreshCacheFolder() {
        static int sequence = 0;
        path_ = std::filesystem::temp_directory_path() /
                ("clreduce-test-cache-" + std::to_string(seed()) + "-" + std::to_string(++sequence));
        std::filesystem::remove_all(path_);
        std::filesystem::create_directories(path_);
        set_cache_directory(path_);
    }
    ~FreshCacheFolder() {
        set_cache_directory(std::nullopt);
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    FreshCacheFolder(const FreshCacheFolder&) = delete;
    FreshCacheFolder& operator=(const FreshCacheFolder&) = delete;
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

// A reducer of its own on the test device that delivers its results as `delivery` says.
inline std::unique_ptr<Reducer> reducer_delivering(ResultDelivery delivery) {
    auto made = std::make_unique<Reducer>(reducer().queue().getInfo<CL_QUEUE_DEVICE>());
    made->set_result_delivery(delivery);
    return made;
}
// The same with an experimental delivery (experimental.hpp).
inline std::unique_ptr<Reducer> reducer_delivering(experimental::Delivery delivery) {
    auto made = std::make_unique<Reducer>(reducer().queue().getInfo<CL_QUEUE_DEVICE>());
    experimental::set_result_delivery(*made, delivery);
    return made;
}

// A device description for plan tests that need no device: H200-like (132 compute units,
// work-groups up to 1024, 48 KiB local memory, warp 32, fp64 and 64-bit atomics).
inline DeviceInfo fake_gpu() {
    DeviceInfo d = described_gpu("Fake Platform", "fake GPU", 132);
    d.driver_version = "1.2.3";
    d.is_nvidia = true;
    return d;
}

template <class T>
cl::Buffer device_copy(const Reducer& r, const std::vector<T>& host) {
    cl::Buffer buffer(r.context(), CL_MEM_READ_WRITE, std::max<std::size_t>(1, host.size()) * sizeof(T));
    if (!host.empty())
        check(r.queue().enqueueWriteBuffer(buffer, CL_TRUE, 0, host.size() * sizeof(T), host.data()),
              "clEnqueueWriteBuffer");
    return buffer;
}

}  // namespace clreduce::test
