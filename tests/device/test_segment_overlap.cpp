// Listed segments (begin/end arrays, device offsets) may overlap, nest and repeat, as CUB's
// DeviceSegmentedReduce allows: every mapping (one work-item, a team, a whole group, several
// groups per segment, the medium teams) gives each segment its exact value, synchronous and
// asynchronous, and the same bits run to run. Long segments' chunk tables are sized for
// disjoint segments; these descriptions ask for more than that room (segments.cl then reduces
// every long segment whole), which once wrote past the tables (a heap overwrite on a CPU
// device). The CI's AddressSanitizer run (scripts/sanitize.sh) runs these too.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include <clreduce/experimental.hpp>

#include "test_ops_support.hpp"

namespace clreduce::test {
namespace {

using namespace clreduce::testing;

struct Ranges {
    const char* name;
    std::vector<std::uint64_t> begins, ends;
};

// Descriptions over n elements: the 16 copies of [0, n); nested ranges around the
// middle; random overlapping ranges, some long, some empty, some repeated; disjoint ones as a
// control.
std::vector<Ranges> descriptions(std::uint64_t n, std::uint64_t seed) {
    std::vector<Ranges> out;
    out.push_back({"16 x [0, n)", std::vector<std::uint64_t>(16, 0), std::vector<std::uint64_t>(16, n)});
    Ranges nested{"nested", {}, {}};
    for (std::uint64_t k = 0; k < 40; ++k) {
        nested.begins.push_back(k * (n / 100));
        nested.ends.push_back(n - k * (n / 100));
    }
    out.push_back(nested);
    Ranges random{"random, overlapping", {}, {}};
    std::mt19937_64 rng(seed);
    for (std::uint64_t k = 0; k < 700; ++k) {
        std::uint64_t a = rng() % (n + 1), b = rng() % (n + 1);
        if (k % 5 == 0) b = std::min(n, a + rng() % 50);  // short ones among the long
        if (k % 17 == 0) b = a;                           // empty
        if (a > b) std::swap(a, b);
        random.begins.push_back(a);
        random.ends.push_back(b);
        if (k % 11 == 0) {  // repeated
            random.begins.push_back(a);
            random.ends.push_back(b);
        }
    }
    out.push_back(random);
    Ranges disjoint{"disjoint", {}, {}};
    for (std::uint64_t k = 0; k < 10; ++k) {
        disjoint.begins.push_back(k * (n / 10));
        disjoint.ends.push_back((k + 1) * (n / 10));
    }
    out.push_back(disjoint);
    return out;
}

// The mappings a listed segment can take on the device.
std::vector<std::pair<const char*, LaunchParams>> mappings(const Reducer& r) {
    std::vector<std::pair<const char*, LaunchParams>> out;
    out.push_back({"default", LaunchParams{}});
    const std::uint32_t wg = std::min<std::uint32_t>(64, r.device_info().max_work_group_size);
    for (const std::uint32_t team : {1u, 4u, wg}) {
        LaunchParams p;
        p.work_group_size = wg;
        p.segment_team = team;
        p.groups_per_segment = 1;
        out.push_back({"team, one group per segment", p});
    }
    LaunchParams parts;
    parts.work_group_size = wg;
    parts.segment_team = wg;
    parts.groups_per_segment = 3;
    out.push_back({"three groups per segment", parts});
    LaunchParams medium;
    medium.work_group_size = wg;
    medium.segment_team = 1;
    medium.groups_per_segment = 1;
    medium.experimental_segments = experimental::SegmentOptions{64};
    out.push_back({"medium teams", medium});
    return out;
}

cl::Buffer words(const Reducer& r, const std::vector<std::uint64_t>& v) { return device_copy(r, v); }

}  // namespace

TEST_CASE("overlapping, nested and repeated ranges give every segment its value", "[segments][overlap]") {
    Reducer& r = reducer();
    const std::uint64_t n = 100000;
    const std::uint64_t seed = seed_for(n, 2, 57);
    INFO("data seed " << seed);
    std::mt19937_64 rng(seed);
    std::vector<std::int32_t> values(n);
    for (auto& v : values) v = static_cast<std::int32_t>(rng() % 2001) - 1000;
    const cl::Buffer buffer = device_copy(r, values);
    for (const Ranges& d : descriptions(n, seed)) {
        const std::uint64_t count = d.begins.size();
        const cl::Buffer begins = words(r, d.begins), ends = words(r, d.ends);
        const Segments segments = Segments::ranges(begins, ends, count, n);
        std::vector<std::int64_t> want(count);
        std::vector<std::int32_t> want_max(count);
        for (std::uint64_t s = 0; s < count; ++s) {
            std::int64_t sum = 0;
            std::int32_t top = std::numeric_limits<std::int32_t>::min();
            for (std::uint64_t i = d.begins[s]; i < d.ends[s]; ++i) {
                sum += values[i];
                top = std::max(top, values[i]);
            }
            want[s] = sum;
            want_max[s] = top;
        }
        for (const auto& [mapping, params] : mappings(r)) {
            CallInfo info;
            INFO(d.name << " (" << count << " segments), " << mapping);
            const std::vector<std::int64_t> sums = r.sum<std::int32_t>(buffer, 0, segments, params, &info);
            INFO("plan " << info.plan.describe());
            REQUIRE(sums.size() == count);
            for (std::uint64_t s = 0; s < count; ++s) {
                INFO("segment " << s << " [" << d.begins[s] << ", " << d.ends[s] << ")");
                CHECK(sums[s] == want[s]);
            }
            // max: the empty segments have no value, so only the description without them.
            if (std::equal(d.begins.begin(), d.begins.end(), d.ends.begin(), std::not_equal_to<>())) {
                const std::vector<std::int32_t> tops = r.max<std::int32_t>(buffer, 0, segments, params);
                for (std::uint64_t s = 0; s < count; ++s) CHECK(tops[s] == want_max[s]);
            }
            // Asynchronous: the values into a device buffer, after two guard words.
            if (r.plan(ElementType::int32, Operation::sum, segments, params, CallForm::async).groups_per_segment == 1) {
                const cl::Buffer out(r.context(), CL_MEM_READ_WRITE, (count + 2) * sizeof(std::int64_t));
                check(r.queue().enqueueFillBuffer(out, std::int64_t(-7), 0, (count + 2) * sizeof(std::int64_t)),
                      "clEnqueueFillBuffer");
                LaunchParams wrap = params;
                wrap.overflow = IntegerOverflow::wrap;
                r.sum_async<std::int32_t>(buffer, 0, segments, {out, 2}, wrap).wait();
                std::vector<std::int64_t> got(count + 2);
                check(r.queue().enqueueReadBuffer(out, CL_TRUE, 0, got.size() * sizeof(std::int64_t), got.data()),
                      "clEnqueueReadBuffer");
                CHECK(got[0] == -7);
                CHECK(got[1] == -7);
                for (std::uint64_t s = 0; s < count; ++s) CHECK(got[s + 2] == want[s]);
            }
        }
    }
}

TEST_CASE("overlapping ranges of floats: the same bits run to run, within the sum's bound", "[segments][overlap]") {
    Reducer& r = reducer();
    const std::uint64_t n = 100000;
    const std::uint64_t seed = seed_for(n, 3, 57);
    INFO("data seed " << seed);
    const std::vector<float> values = wide_values<float>(n, seed, 20);
    const cl::Buffer buffer = device_copy(r, values);
    for (const Ranges& d : descriptions(n, seed)) {
        const std::uint64_t count = d.begins.size();
        const cl::Buffer begins = words(r, d.begins), ends = words(r, d.ends);
        const Segments segments = Segments::ranges(begins, ends, count, n);
        for (const auto& [mapping, params] : mappings(r)) {
            INFO(d.name << " (" << count << " segments), " << mapping);
            CallInfo info;
            const std::vector<double> first = r.sum<float>(buffer, 0, segments, params, &info);
            const std::vector<double> again = r.sum<float>(buffer, 0, segments, params);
            INFO("plan " << info.plan.describe());
            REQUIRE(first.size() == count);
            for (std::uint64_t s = 0; s < count; ++s) {
                INFO("segment " << s << " [" << d.begins[s] << ", " << d.ends[s] << ")");
                CHECK(same_bits(first[s], again[s]));
                check_approx(reference_sum(values.data() + d.begins[s], d.ends[s] - d.begins[s],
                                           rounding_unit<float>(info.plan.accumulator)),
                             first[s], "sum");
            }
        }
    }
}

}  // namespace clreduce::test
