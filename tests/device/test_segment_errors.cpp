// Segmented calls refuse bad input with a clear error: offsets, steps and extents that do not
// fit the values, device offsets that descend or pass the extent (reported by segment through
// every mapping that reads them), and mapping overrides that make no mapping.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "segment_checks.hpp"
#include "test_ops_support.hpp"

namespace clreduce::test {

TEST_CASE("segmented reductions: descriptions that cannot fit the buffer are refused before anything is allocated",
          "[segments][errors]") {
    Reducer& r = reducer();
    const std::vector<std::int32_t> host(100, 1);
    const cl::Buffer values = device_copy(r, host);
    const std::uint64_t huge = std::uint64_t(1) << 63;
    const auto past = Catch::Contains("past the end of the buffer");
    // Each would size its results (2^63, 2^40 of them) before the check: std::bad_alloc.
    CHECK_THROWS_WITH(r.sum<std::int32_t>(values, 0, Segments::batch(huge, 1)), past);
    CHECK_THROWS_WITH(r.max<std::int32_t>(values, 0, Segments::batch(std::uint64_t(1) << 40, 1 << 20)), past);
    CHECK_THROWS_WITH(r.statistics<std::int32_t>(values, 0, Segments::batch(huge, 1)), past);
    CHECK_THROWS_WITH(r.argmin<std::int32_t>(values, 0, Segments::batch(huge, 1)), past);
    CHECK_THROWS_WITH(r.transform_reduce<std::int32_t>(values, 0, Segments::batch(huge, 1), "x * 2", Combine::sum),
                      past);
    std::vector<std::int64_t> kept;
    CHECK_THROWS_WITH(r.sum<std::int32_t>(values, 0, Segments::batch(huge, 1), kept), past);
    CHECK(kept.empty());
    // Rows whose rows x step passes 2^64, and columns of the same matrix.
    const auto beyond_2_64 = Catch::Contains("pass 2^64");
    CHECK_THROWS_WITH(r.sum<std::int32_t>(values, 0, Segments::rows(huge, 4, std::uint64_t(1) << 40)), beyond_2_64);
    CHECK_THROWS_WITH(r.min<std::int32_t>(values, 0, Segments::rows(huge / 8, 4)), past);
    CHECK_THROWS_WITH(r.sum<std::int32_t>(values, 0, Segments::columns(huge, 4, std::uint64_t(1) << 40)), beyond_2_64);
    // Device offsets and ranges whose count passes their buffers.
    const cl::Buffer offsets = device_copy(r, std::vector<std::uint64_t>{0, 10, 20});
    CHECK_THROWS_WITH(r.sum<std::int32_t>(values, 0, Segments::offsets(offsets, huge, 100)),
                      Catch::Contains("CSR offsets") && Catch::Contains("pass the buffer's end"));
    CHECK_THROWS_WITH(r.mean<std::int32_t>(values, 0, Segments::ranges(offsets, offsets, huge, 100)),
                      Catch::Contains("segment begins") && Catch::Contains("pass the buffer's end"));
    // Empty segments address nothing, but their results must still fit a vector.
    CHECK_THROWS_WITH(r.sum<std::int32_t>(values, 0, Segments::batch(huge, 0)),
                      Catch::Contains("segments: more results"));
    // What fits still works.
    CHECK(r.sum<std::int32_t>(values, 0, Segments::batch(4, 25)) == std::vector<std::int64_t>(4, 25));
}

TEST_CASE("segmented reductions: bad input is refused with a clear error", "[segments][errors]") {
    Reducer& r = reducer();
    const std::vector<std::int32_t> host(100, 1);
    const cl::Buffer values = device_copy(r, host);
    CHECK_THROWS_WITH(Segments::offsets(std::vector<std::uint64_t>{0, 5, 3}),
                      Catch::Contains("must ascend") && Catch::Contains("segment 1"));
    CHECK_THROWS_AS(Segments::offsets(std::vector<std::uint64_t>{}), InvalidArgument);
    CHECK_THROWS_WITH(r.sum<std::int32_t>(values, 0, Segments::offsets(std::vector<std::uint64_t>{0, 50, 101})),
                      Catch::Contains("past the end of the buffer"));
    CHECK_THROWS_WITH(r.sum<std::int32_t>(values, 60, Segments::batch(5, 10)),
                      Catch::Contains("past the end of the buffer"));
    CHECK_THROWS_WITH(r.sum<std::int32_t>(values, 0, Segments::rows(3, 10, 8 * sizeof(std::int32_t))),
                      Catch::Contains("smaller than a row"));
    CHECK_THROWS_WITH(r.sum<std::int32_t>(values, 0, Segments::rows(3, 10, 41)), Catch::Contains("not a multiple"));
    // Device offsets out of order or past the extent: reported, nothing read outside.
    const cl::Buffer descending = device_copy(r, std::vector<std::uint64_t>{0, 10, 5, 20});
    CHECK_THROWS_WITH(r.sum<std::int32_t>(values, 0, Segments::offsets(descending, 3, 100)),
                      Catch::Contains("segment 1 is [10, 5)") && Catch::Contains("descend"));
    const cl::Buffer beyond = device_copy(r, std::vector<std::uint64_t>{0, 10, 500});
    CHECK_THROWS_WITH(r.max<std::int32_t>(values, 0, Segments::offsets(beyond, 2, 100)),
                      Catch::Contains("segment 1 is [10, 500)") && Catch::Contains("ends past"));
    // The same with medium teams: the first launch reports them, the second leaves them.
    LaunchParams medium;
    medium.work_group_size = 32;
    medium.segment_team = 2;
    medium.vector_width = 2;
    medium.experimental_segments.medium = 4;
    CHECK_THROWS_WITH(r.sum<std::int32_t>(values, 0, Segments::offsets(descending, 3, 100), medium),
                      Catch::Contains("segment 1 is [10, 5)") && Catch::Contains("descend"));
    CHECK_THROWS_WITH(r.max<std::int32_t>(values, 0, Segments::offsets(beyond, 2, 100), medium),
                      Catch::Contains("segment 1 is [10, 500)") && Catch::Contains("ends past"));
    // The reducer still works after the error, and a good call after it is not flagged.
    const cl::Buffer good = device_copy(r, std::vector<std::uint64_t>{0, 10, 100});
    CHECK(r.sum<std::int32_t>(values, 0, Segments::offsets(good, 2, 100)) == std::vector<std::int64_t>{10, 90});
    CHECK(r.sum<std::int32_t>(values, 0, Segments::offsets(good, 2, 100), medium) == std::vector<std::int64_t>{10, 90});
    CHECK_THROWS_WITH(r.sum<std::int32_t>(values, 0, Segments::offsets(good, 3, 100)),
                      Catch::Contains("pass the buffer's end"));
    CHECK_THROWS_WITH(r.sum<std::int32_t>(values, 0, Segments::offsets(good, 2, 101)),
                      Catch::Contains("past the end of the buffer"));
    // Mapping overrides that make no mapping.
    LaunchParams p;
    p.segment_team = 3;
    CHECK_THROWS_WITH(r.sum<std::int32_t>(values, 0, Segments::batch(10, 10), p), Catch::Contains("segment_team"));
    p.segment_team = 1;
    p.groups_per_segment = 2;
    CHECK_THROWS_WITH(r.sum<std::int32_t>(values, 0, Segments::batch(10, 10), p),
                      Catch::Contains("groups_per_segment > 1 needs a whole work-group"));
    // A sum over `segments` with `params`, refused with `text`.
    const auto refuses = [&](const Segments& segments, const LaunchParams& params, const std::string& text) {
        CHECK_THROWS_WITH(r.sum<std::int32_t>(values, 0, segments, params), Catch::Contains(text));
    };
    // `base` with one more override, refused on good offsets with `text`.
    const auto refused = [&](LaunchParams params, auto&& change, const std::string& text) {
        change(params);
        refuses(Segments::offsets(good, 2, 100), params, text);
    };
    for (std::uint32_t loads : {0u, 3u, 32u}) {
        LaunchParams bad_loads;
        bad_loads.segment_loads = loads;
        CHECK_THROWS_WITH(r.sum<std::int32_t>(values, 0, Segments::batch(10, 10), bad_loads),
                          Catch::Contains("segment_loads must be a power of two no larger than 16, got " +
                                          std::to_string(loads)));
        CHECK_THROWS_WITH(r.sum<std::int32_t>(values, 0, Segments::columns(10, 10), bad_loads),
                          Catch::Contains("segment_loads must be a power of two"));
    }
    // Medium teams (experimental): listed segments, teams below 32 lanes, shorter than the medium teams' share.
    for (const Segments& not_listed : {Segments::batch(10, 10), Segments::columns(10, 10)})
        refuses(not_listed, medium, "SegmentOptions::medium takes listed segments");
    refused(
        medium, [](LaunchParams& p) { p.segment_team = 32; },
        "SegmentOptions::medium needs teams of fewer than 32 lanes, one group a segment; this call's segment_team is "
        "32");
    // 32 lanes x 2-wide vectors x 32
    refused(
        medium, [](LaunchParams& p) { p.experimental_segments.medium = 2048; },
        "SegmentOptions::medium must be below 2048 elements");
    LaunchParams atomic;
    atomic.inter_group = InterGroup::atomic;
    CHECK_THROWS_AS(r.sum<std::int32_t>(values, 0, Segments::batch(10, 10), atomic), Unsupported);
    // A result buffer too small for an asynchronous call.
    const cl::Buffer small(r.context(), CL_MEM_READ_WRITE, 4 * sizeof(std::int64_t));
    LaunchParams wrap;
    wrap.overflow = IntegerOverflow::wrap;
    CHECK_THROWS_WITH(r.sum_async<std::int32_t>(values, 0, Segments::batch(5, 10), {small}, wrap),
                      Catch::Contains("do not fit"));
}

}  // namespace clreduce::test
