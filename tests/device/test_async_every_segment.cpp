// Every operation's segmented asynchronous form (Reducer::reduce_async with Segments): each
// segment's result, finished on the device, is the synchronous segmented call's, field by
// field, over every mapping (a work-item, a team and a group per segment; several groups per
// segment, whose combining launch counts the segments' own elements; long listed segments
// split into chunks), for regular, listed and column segments; the results start at the
// target's offset and the bytes around them keep their marker.
#include <cstring>
#include <random>
#include <vector>

#include "async_result_checks.hpp"
#include "test_ops_support.hpp"

namespace clreduce::test {
namespace {

// Segment lengths: mostly short (some empty), a few long, one far longer than the rest.
std::vector<std::uint64_t> listed_offsets(std::uint64_t seed, std::uint64_t total) {
    std::mt19937_64 rng(seed);
    std::vector<std::uint64_t> offsets{0};
    while (offsets.back() < total) {
        const std::uint64_t pick = rng() % 100;
        const std::uint64_t length = pick < 10 ? 0 : pick < 90 ? rng() % 40 : pick < 99 ? rng() % 3000 : 20000;
        offsets.push_back(std::min(total, offsets.back() + length));
    }
    return offsets;
}

template <Operation Op, class T>
void check_segments_async(Reducer& r, const cl::Buffer& buffer, const Segments& segments, LaunchParams params,
                          const char* what) {
    using R = result_t<Op, T>;
    INFO(operation_name(Op) << " of " << type_name(element_traits<T>::type) << ", " << what << ", " << segments.count()
                            << " segments");
    const std::uint64_t count = segments.count();
    const std::uint64_t first = 2;  // the results' offset in the target
    const std::size_t bytes = (count + 4) * sizeof(R);
    cl::Buffer out(r.context(), CL_MEM_READ_WRITE, bytes);
    check(r.queue().enqueueFillBuffer(out, cl_uchar(kMarker), 0, bytes), "clEnqueueFillBuffer");
    const cl::Buffer status = status_word(r);
    const AsyncTarget target{out, first, {}, AsyncEvent::returned, status};
    std::vector<R> sync;
    bool overflow = false;
    try {
        sync = r.reduce<Op, T>(buffer, 0, segments, params);
    } catch (const Overflow&) {  // a checked sum: some segments' results do not fit (below)
        overflow = true;
        LaunchParams wrap = params;
        wrap.overflow = IntegerOverflow::wrap;
        sync = r.reduce<Op, T>(buffer, 0, segments, wrap);
    } catch (const Unsupported&) {  // the operation does not take T
        CHECK_THROWS_AS((r.reduce_async<Op, T>(buffer, 0, segments, target, params)), Unsupported);
        return;
    } catch (const InvalidArgument&) {
        return;  // an empty segment of an operation undefined there (the async call writes its identity)
    }
    r.reduce_async<Op, T>(buffer, 0, segments, target, params).wait();
    std::vector<unsigned char> bits(bytes);
    check(r.queue().enqueueReadBuffer(out, CL_TRUE, 0, bytes, bits.data()), "clEnqueueReadBuffer");
    // Where the synchronous call overflows, the segments that do not fit keep the marker and
    // the others are the values (those that fit are the same modulo 2^64).
    std::size_t differ = 0, unwritten = 0;
    const std::vector<unsigned char> marker(sizeof(R), kMarker);
    for (std::uint64_t s = 0; s < count; ++s) {
        const unsigned char* at = bits.data() + (first + s) * sizeof(R);
        if (overflow && std::memcmp(at, marker.data(), sizeof(R)) == 0) {
            ++unwritten;
            continue;
        }
        R async;
        std::memcpy(static_cast<void*>(&async), at, sizeof(R));
        const R expected = sync[s];
        if (!same_result(expected, async) && differ++ < 3) FAIL_CHECK("segment " << s << " differs");
    }
    CHECK(differ == 0);
    CHECK(read_status(r, status) == (overflow ? kAsyncOverflow : 0u));
    CHECK((unwritten != 0) == overflow);
    for (std::size_t k = 0; k < first * sizeof(R); ++k) CHECK(bits[k] == kMarker);
    for (std::size_t k = (first + count) * sizeof(R); k < bytes; ++k) CHECK(bits[k] == kMarker);
}

// Cases [first, last) of the mappings below (each operation, type and mapping is a few programs,
// and programs are what takes this test's time: a test case takes a few, so that each stays
// short on a cold kernel cache).
template <class T>
void check_every_segmented_operation(std::size_t first, std::size_t last) {
    Reducer& r = reducer();
    const std::uint64_t total = 60000;
    const std::uint64_t seed = seed_for(sizeof(T), 591, std::is_signed_v<T>);
    INFO("data seed " << seed);
    const auto values = async_values<T>(total, seed);
    const cl::Buffer buffer = device_copy(r, values);
    const auto offsets = listed_offsets(seed, total);
    struct Case {
        Segments segments;
        LaunchParams params;
        const char* what;
    };
    LaunchParams item, team, groups;
    item.work_group_size = team.work_group_size = groups.work_group_size = 64;
    item.segment_team = 1;
    team.segment_team = 8;
    groups.segment_team = 64;
    groups.groups_per_segment = 3;
    const std::vector<Case> all = {
        {Segments::offsets(offsets), item, "listed, a work-item each (long ones split)"},
        {Segments::offsets({0, 25000, 25000, 60000}), groups, "listed, 3 groups each"},
        {Segments::columns(300, 200), groups, "columns, 3 groups each"},
        {Segments::offsets(offsets), team, "listed, teams of 8"},
        {Segments::batch(7, 8000), groups, "batch, 3 groups each"},
        {Segments::columns(300, 200), team, "columns"},
    };
    for (std::size_t k = first; k < std::min(last, all.size()); ++k) {
        const Case& c = all[k];
#define CLREDUCE_CHECK_ASYNC(T_, NAME, R_) \
    check_segments_async<Operation::NAME, T_>(r, buffer, c.segments, c.params, c.what);
        CLREDUCE_OPERATIONS(CLREDUCE_CHECK_ASYNC, T)
#undef CLREDUCE_CHECK_ASYNC
    }
}

TEST_CASE("every segmented operation asynchronously gives the synchronous bits for int32: work-items, groups",
          "[async-every][segments]") {
    check_every_segmented_operation<std::int32_t>(0, 2);
}
TEST_CASE("every segmented operation asynchronously gives the synchronous bits for int32: columns, teams",
          "[async-every][segments]") {
    check_every_segmented_operation<std::int32_t>(2, 4);
}
TEST_CASE("every segmented operation asynchronously gives the synchronous bits for float",
          "[async][async-every][segments]") {
    check_every_segmented_operation<float>(0, 3);
}
TEST_CASE("every segmented operation asynchronously gives the synchronous bits for int64", "[async-every][segments]") {
    check_every_segmented_operation<std::int64_t>(0, 2);
}

}  // namespace
}  // namespace clreduce::test
