// Host data streamed through pinned memory (HostStaging, exec/host_stream.hpp): every
// operation's partial from a host pointer, staged in small chunks, is the same bytes as the
// partial of the same values resident in a buffer, at sizes on and around chunk boundaries and
// from a pointer one element into an allocation; repeated calls allocate nothing; the settings
// are validated. A CPU device reads host data in place unless staging is forced, which these
// tests do. MultiReducer's host data below single_device_below() gives one device's bits.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "partial_outcome.hpp"
#include "test_ops_support.hpp"

namespace clreduce::test {
namespace {

using namespace clreduce::testing;

// Always streamed (CPU devices too), in chunks of `chunk_bytes`.
HostStaging always_staged(std::uint64_t chunk_bytes) {
    HostStaging s;
    s.mode = HostStaging::Mode::always;
    s.chunk_bytes = chunk_bytes;
    return s;
}

// Default parameters but the host path off: on a CPU device small host data would be reduced
// on the calling thread, not streamed.
LaunchParams no_host_path() {
    LaunchParams params;
    params.host_path_bytes = 0;
    return params;
}

template <class T>
void check_staged_equals_resident(const Reducer& staged, const Reducer& resident, std::uint64_t chunk_bytes,
                                  const LaunchParams& params, const std::string& label) {
    const std::uint64_t per_chunk = chunk_bytes / sizeof(T);
    const std::uint64_t seed = seed_for(sizeof(T), chunk_bytes, 17);
    // One more element than the largest n, so that a pointer one element in has them all.
    const std::vector<T> all = op_values<T>(9 * per_chunk + 12, seed);
    INFO(label << ", type " << type_name(element_traits<T>::type) << ", chunks of " << chunk_bytes
               << " bytes, data seed " << seed);
    for (const std::uint64_t n : {std::uint64_t(1), per_chunk - 1, per_chunk, per_chunk + 1, 2 * per_chunk,
                                  2 * per_chunk + 1, 9 * per_chunk + 11}) {
        for (const std::uint64_t shift : {0, 1}) {
            const T* data = all.data() + shift;
            const std::vector<T> values(data, data + n);
            const cl::Buffer buffer = device_copy(resident, values);
            for (const Operation op : every_operation()) {
                INFO(operation_name(op) << ", n " << n << ", pointer " << shift << " element(s) in");
                const std::string want = outcome<T>([&] { return resident.partial<T>(op, buffer, 0, n, params); });
                const std::string got = outcome<T>([&] { return staged.partial<T>(op, data, n, params); });
                CHECK(got == want);
            }
        }
    }
}

TEST_CASE("host data streamed through pinned memory in chunks gives the resident data's bits, every operation",
          "[host_staging]") {
    const Reducer& resident = reducer();
    Reducer staged(resident.context(), resident.queue());
    const LaunchParams params = no_host_path();
    staged.set_host_staging(always_staged(65536));
    check_staged_equals_resident<float>(staged, resident, 65536, params, "default params");
    {
        const std::uint64_t chunk_bytes = 4096;
        staged.set_host_staging(always_staged(chunk_bytes));
        check_staged_equals_resident<std::int32_t>(staged, resident, chunk_bytes, params, "default params");
        check_staged_equals_resident<std::uint8_t>(staged, resident, chunk_bytes, params, "default params");
        check_staged_equals_resident<float>(staged, resident, chunk_bytes, params, "default params");
        LaunchParams exact = params;
        exact.float_mode = FloatMode::correctly_rounded;
        check_staged_equals_resident<float>(staged, resident, chunk_bytes, exact, "correctly rounded");
        if (resident.device_info().has_fp64) {
            check_staged_equals_resident<double>(staged, resident, chunk_bytes, params, "default params");
            LaunchParams compensated = params;
            compensated.float_mode = FloatMode::compensated;
            check_staged_equals_resident<double>(staged, resident, chunk_bytes, compensated, "compensated");
        }
    }
}

TEST_CASE("host data streamed in chunks of 1 MiB, each copied by several host threads, gives the resident bits",
          "[host_staging]") {
    const Reducer& resident = reducer();
    Reducer staged(resident.context(), resident.queue());
    // Parts of 256 KiB and more go to the copy pool's threads. Four chunks through a ring of
    // 2, 3 (the default) and 4 pinned buffers.
    const std::uint64_t chunk_bytes = std::uint64_t(1) << 20;
    const unsigned buffers = GENERATE(2u, 3u, 4u);
    HostStaging settings = always_staged(chunk_bytes);
    settings.buffers = buffers;
    staged.set_host_staging(settings);
    const std::uint64_t seed = seed_for(41, 11);
    const std::uint64_t n = 3 * (chunk_bytes / sizeof(float)) + 5;
    INFO("data seed " << seed << ", n " << n << ", from one element into the allocation, " << buffers
                      << " pinned buffers");
    const std::vector<float> all = wide_values<float>(n + 1, seed, 40);
    const std::vector<float> values(all.begin() + 1, all.end());
    const cl::Buffer buffer = device_copy(resident, values);
    const LaunchParams params = no_host_path();
    LaunchParams exact = params;
    exact.float_mode = FloatMode::correctly_rounded;
    CHECK(same_bits(staged.sum(all.data() + 1, n, exact), resident.sum<float>(buffer, 0, n, exact)));
    CHECK(same_bits(staged.sum(all.data() + 1, n, exact), exact_sum_of_values(values.data(), n).to_double()));
    const auto got = staged.argmax(all.data() + 1, n, params);
    const auto want = resident.argmax<float>(buffer, 0, n, params);
    CHECK(got.index == want.index);
    CHECK(same_bits(got.value, want.value));
    CHECK(same_bits(staged.min(all.data() + 1, n, params), resident.min<float>(buffer, 0, n, params)));
}

TEST_CASE("host data streamed in chunks: values against the exact references, an empty range", "[host_staging]") {
    Reducer staged(reducer().context(), reducer().queue());
    staged.set_host_staging(always_staged(8192));
    const LaunchParams params = no_host_path();
    const std::uint64_t seed = seed_for(41, 3);
    INFO("data seed " << seed);
    const std::vector<std::int64_t> values = op_values<std::int64_t>(100003, seed);
    std::int64_t sum = 0;
    for (std::int64_t v : values) sum += v;
    CHECK(staged.sum(values, params) == sum);
    const auto amax = staged.argmax(values, params);
    CHECK(amax.index == std::uint64_t(std::max_element(values.begin(), values.end()) - values.begin()));
    CHECK(staged.sum(static_cast<const std::int64_t*>(nullptr), 0, params) == 0);
    CHECK_THROWS_AS(staged.min(static_cast<const std::int64_t*>(nullptr), 0, params), InvalidArgument);
}

TEST_CASE("host data streamed through pinned memory: repeated calls allocate nothing", "[host_staging]") {
    Reducer staged(reducer().context(), reducer().queue());
    staged.set_host_staging(always_staged(16384));
    const LaunchParams params = no_host_path();
    const std::vector<float> values = op_values<float>(200000, seed_for(41, 5));
    const double first = staged.sum(values, params);
    const Counters after_first = staged.counters();
    CHECK(after_first.buffers_allocated > 0);
    // A smaller call fits the buffers already there (its plan may build a program of its own).
    const double smaller = staged.sum(values.data() + 7, 50000, params);
    CHECK(staged.counters().buffers_allocated == after_first.buffers_allocated);
    const Counters warm = staged.counters();
    for (int k = 0; k < 5; ++k) {
        CHECK(same_bits(staged.sum(values, params), first));
        CHECK(same_bits(staged.sum(values.data() + 7, 50000, params), smaller));
    }
    const Counters later = staged.counters();
    CHECK(later.buffers_allocated == warm.buffers_allocated);
    CHECK(later.kernels_created == warm.kernels_created);
    CHECK(later.programs_built + later.programs_loaded == warm.programs_built + warm.programs_loaded);
}

TEST_CASE("host staging settings: read back, validated, never streams", "[host_staging]") {
    Reducer r(reducer().context(), reducer().queue());
    CHECK(r.host_staging().mode == HostStaging::Mode::automatic);
    CHECK(r.host_staging().chunk_bytes == std::uint64_t(16) << 20);
    CHECK(r.host_staging().buffers == 3);
    HostStaging bad;
    bad.chunk_bytes = 0;
    CHECK_THROWS_WITH(r.set_host_staging(bad), Catch::Contains("chunk_bytes"));
    HostStaging one_buffer;
    one_buffer.buffers = 1;
    CHECK_THROWS_WITH(r.set_host_staging(one_buffer), Catch::Contains("buffers must be at least 2, got 1"));
    CHECK(r.host_staging().buffers == 3);
    HostStaging never;
    never.mode = HostStaging::Mode::never;
    r.set_host_staging(never);
    CHECK(r.host_staging().mode == HostStaging::Mode::never);
    const LaunchParams params = no_host_path();
    const std::vector<std::int32_t> values = op_values<std::int32_t>(5000, seed_for(41, 7));
    CHECK(r.sum(values, params) == reducer().sum(values, params));
}

TEST_CASE("several devices: host data below single_device_below() is one device's, the same bits",
          "[multi][host_staging]") {
    MultiReducer m;
    CHECK(m.single_device_below() == MultiReducer::kSingleDeviceBelow);
    const std::uint64_t seed = seed_for(41, 9);
    INFO("data seed " << seed << ", " << m.size() << " device(s)");
    const std::vector<float> values = wide_values<float>(100003, seed, 60);
    const std::vector<std::int32_t> ints = op_values<std::int32_t>(100003, seed + 1);
    m.set_single_device_below(std::uint64_t(1) << 30);
    // Uneven weights: the largest one's device takes it.
    std::vector<double> weights(m.size(), 1.0);
    weights.back() = 3.0;
    m.set_weights(weights);
    const Reducer& one = m.reducer(m.size() - 1);
    LaunchParams exact;
    exact.float_mode = FloatMode::correctly_rounded;
    CHECK(same_bits(m.sum<float>(values), one.sum(values)));
    CHECK(same_bits(m.sum<float>(values, exact), one.sum(values, exact)));
    CHECK(m.sum<std::int32_t>(ints) == one.sum(ints));
    CHECK(m.argmin<float>(values).index == one.argmin(values).index);
    CHECK(m.argmax<std::int32_t>(ints).index == one.argmax(ints).index);
    // Only that device ran them: the others (a fresh MultiReducer's) have built or loaded nothing.
    for (std::size_t d = 0; d + 1 < m.size(); ++d) {
        INFO("device " << d);
        const Counters c = m.reducer(d).counters();
        CHECK(c.programs_built + c.programs_loaded + c.kernels_created == 0);
    }
    CHECK(one.counters().kernels_created > 0);
    // Split again from 0 on: the correctly rounded sum and the integers keep their bits.
    m.set_single_device_below(0);
    CHECK(same_bits(m.sum<float>(values, exact), one.sum(values, exact)));
    CHECK(m.sum<std::int32_t>(ints) == one.sum(ints));
    CHECK(m.argmin<float>(values).index == one.argmin(values).index);
}

}  // namespace
}  // namespace clreduce::test
