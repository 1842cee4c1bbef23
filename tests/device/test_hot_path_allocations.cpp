// A repeated call allocates nothing on the heap: after a first call has built its program and
// grown its buffers, the same call made again makes no operator new call on the calling thread.
// This file replaces the global operator new of the device test binary with one that counts
// the calls of each thread (and allocates with malloc, as the default one does). OpenCL objects
// made per call are counted by Counters ([reuse], [soak]); the driver's own allocations are not
// seen here. Sanitizer builds keep their own operator new (it checks new/delete pairs), so
// there this file is empty.
#include <catch2/catch.hpp>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define CLREDUCE_TEST_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CLREDUCE_TEST_SANITIZED 1
#endif
#ifndef CLREDUCE_TEST_SANITIZED

#include <cstdint>
#include <cstdlib>
#include <new>
#include <vector>

#include "reference/sum_reference.hpp"
#include "test_ops_support.hpp"
#include "test_support.hpp"

namespace {
thread_local std::uint64_t allocations = 0;  // operator new calls made by this thread

void* counted_allocation(std::size_t bytes) {
    ++allocations;
    if (void* p = std::malloc(bytes == 0 ? 1 : bytes)) return p;
    throw std::bad_alloc();
}
}  // namespace

void* operator new(std::size_t bytes) { return counted_allocation(bytes); }
void* operator new[](std::size_t bytes) { return counted_allocation(bytes); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace clreduce::test {
namespace {

// How many operator new calls `call` makes on this thread.
template <class F>
std::uint64_t allocations_of(F&& call) {
    const std::uint64_t before = allocations;
    call();
    return allocations - before;
}

}  // namespace

TEST_CASE("a repeated call allocates nothing on the heap", "[reuse][allocations]") {
    Reducer& shared = reducer();
    Reducer r(shared.context(), shared.queue());
    const auto values = op_values<std::int32_t>(300007, seed_for(0xa11, 1));
    const std::int64_t exact = testing::exact_sum(values.data(), values.size());
    const cl::Buffer buffer = device_copy(r, values);
    const cl::Buffer result(r.context(), CL_MEM_READ_WRITE, sizeof(std::int64_t));
    LaunchParams through_kernels;  // a CPU device's host path would not reach the kernels
    through_kernels.host_path_bytes = 0;
    LaunchParams second_pass;
    second_pass.inter_group = InterGroup::second_pass;
    LaunchParams last_group;
    last_group.inter_group = InterGroup::last_group;

    // The sanity check of the counter itself: a vector's first element is one allocation (its
    // address escapes, so that no compiler drops the pair of new and delete).
    static void* volatile escaped = nullptr;
    CHECK(allocations_of([] {
              std::vector<int> v(1);
              escaped = v.data();
          }) == 1);

    std::int64_t got = 0;
    const auto repeated = [&](const char* what, auto call) {
        call();  // builds the program, grows the slot's buffers
        INFO(what);
        CHECK(allocations_of(call) == 0);
        CHECK(got == exact);
    };
    repeated("sum of a buffer range", [&] { got = r.sum<std::int32_t>(buffer, 0, values.size()); });
    repeated("sum of a buffer range, second pass",
             [&] { got = r.sum<std::int32_t>(buffer, 0, values.size(), second_pass); });
    repeated("sum of a buffer range, last group",
             [&] { got = r.sum<std::int32_t>(buffer, 0, values.size(), last_group); });
    repeated("sum of host data through the kernels",
             [&] { got = r.sum(values.data(), values.size(), through_kernels); });
    repeated("sum of host data on the host path", [&] { got = r.sum(values.data(), values.size()); });
    repeated("argmax of a buffer range", [&] {
        const auto at = r.argmax<std::int32_t>(buffer, 0, values.size());
        got = at.value == testing::reference_max(values.data(), values.size()).value ? exact : 0;
    });
    repeated("asynchronous sum into a device buffer", [&] {
        cl::Event done = r.sum_async<std::int32_t>(buffer, 0, values.size(), {result});
        check(done.wait(), "clWaitForEvents");
        check(r.queue().enqueueReadBuffer(result, CL_TRUE, 0, sizeof got, &got), "clEnqueueReadBuffer");
    });
    // 547 rows of 548 pixels of one int32 channel (the first 299,756 values): the image form's
    // channels and the segmented rows into a vector the caller keeps are values, not new memory.
    Image image;
    image.rows = 547;
    image.cols = 548;
    const std::uint64_t pixels = image.rows * image.cols;
    const std::int64_t image_sum = testing::exact_sum(values.data(), pixels);
    repeated("image sum of a buffer", [&] { got = r.sum<std::int32_t>(buffer, image)[0] == image_sum ? exact : 0; });
    const Segments rows = Segments::rows(image.rows, image.cols);
    std::vector<std::int64_t> row_sums(image.rows);
    repeated("row sums into a vector the caller keeps", [&] {
        r.sum<std::int32_t>(buffer, 0, rows, row_sums);
        std::int64_t total = 0;
        for (std::int64_t v : row_sums) total += v;
        got = total == image_sum ? exact : 0;
    });
    HostStaging streamed;  // chunks of 64 KiB through three pinned buffers, CPU devices too
    streamed.mode = HostStaging::Mode::always;
    streamed.chunk_bytes = 64 << 10;
    r.set_host_staging(streamed);
    repeated("sum of host data streamed through pinned memory",
             [&] { got = r.sum(values.data(), values.size(), through_kernels); });
}

}  // namespace clreduce::test

#endif  // CLREDUCE_TEST_SANITIZED
