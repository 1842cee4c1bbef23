// Faults: the N-th OpenCL call of an operation made to fail (src/api/fault_injection.hpp), for
// every N the operation reaches and three error codes. Each fault is reported as OpenCLError
// naming the code; afterwards the same reducer gives correct results, and eight threads sharing
// it finish (no execution slot leaked, nothing left locked).
#include <catch2/catch.hpp>

#include <functional>
#include <thread>
#include <vector>

#include "api/fault_injection.hpp"  // src/
#include "reference/op_reference.hpp"
#include "reference/sum_reference.hpp"
#include "test_ops_support.hpp"
#include "test_support.hpp"

namespace clreduce::test {
namespace {

// Sweeps N over every checked call of `operation`; `correct` runs it without faults and says
// whether its result is right. Returns how many calls the operation made (exact while every call
// is taken).
// `most`: the sweep stops there; past `every_call_until` it takes every 8th call (a tuning step
// makes hundreds of calls: its first ones set up, the rest are measurements all alike).
std::uint64_t sweep(const char* what, cl_int code, const std::function<void()>& operation,
                    const std::function<bool()>& correct, std::uint64_t most = 500,
                    std::uint64_t every_call_until = 500) {
    for (std::uint64_t nth = 1; nth <= most; nth += nth < every_call_until ? 1 : 8) {
        INFO(what << ": fault " << error_name(code) << " at checked call " << nth);
        inject_opencl_fault(nth, code);
        try {
            operation();
        } catch (const OpenCLError& e) {
            CHECK(e.code() == code);
            CHECK(std::string(e.what()).find(error_name(code)) != std::string::npos);
        } catch (const std::exception& e) {
            FAIL("not an OpenCLError: " << e.what());
        }
        const bool ran_out = opencl_fault_pending();  // fewer than nth calls: the sweep is done
        inject_opencl_fault(0, CL_SUCCESS);
        CHECK(correct());
        if (ran_out) return nth - 1;
    }
    return most;
}

}  // namespace

TEST_CASE("every OpenCL call of a sum, an asynchronous sum and a tuning step may fail cleanly", "[faults]") {
    Reducer& shared = reducer();
    Reducer r(shared.context(), shared.queue());
    const auto values = op_values<std::int32_t>(70001, seed_for(0xfa, 1));
    const std::int64_t exact = testing::exact_sum(values.data(), values.size());
    const cl::Buffer buffer = device_copy(r, values);
    const cl::Buffer result(r.context(), CL_MEM_READ_WRITE, sizeof(std::int64_t));
    LaunchParams launched;  // host data through the kernels (a CPU device's host path makes no OpenCL call)
    launched.host_path_bytes = 0;
    const std::function<bool()> sum_is_right = [&] {
        return r.sum(values, launched) == exact && r.sum<std::int32_t>(buffer, 0, values.size()) == exact;
    };
    for (cl_int code : {CL_OUT_OF_RESOURCES, CL_MEM_OBJECT_ALLOCATION_FAILURE, CL_INVALID_COMMAND_QUEUE}) {
        const std::uint64_t host_calls = sweep(
            "sum of host data", code, [&] { r.sum(values, launched); }, sum_is_right);
        CHECK(host_calls >= 5);
        CHECK(host_calls < 500);
        sweep(
            "sum of a buffer", code, [&] { r.sum<std::int32_t>(buffer, 0, values.size()); }, sum_is_right);
        sweep(
            "asynchronous sum", code,
            [&] {
            cl::Event done = r.sum_async<std::int32_t>(buffer, 0, values.size(), {result});
            check(done.wait(), "clWaitForEvents");
            },
            [&] {
            cl::Event done = r.sum_async<std::int32_t>(buffer, 0, values.size(), {result});
            done.wait();
            std::int64_t got = 0;
            check(r.queue().enqueueReadBuffer(result, CL_TRUE, 0, sizeof got, &got), "clEnqueueReadBuffer");
            return got == exact;
        });
        sweep(
            "argmax", code, [&] { r.argmax(values); },
            [&] { return r.argmax(values).value == testing::reference_max(values.data(), values.size()).value; });
    }
    // A tuning step: faults in its candidates are rejected candidates, the others reported.
    TuneOptions tiny;
    tiny.types = {ElementType::int32};
    tiny.min_n = tiny.max_n = 1 << 12;
    tiny.quick = true;
    tiny.repeats = 1;
    tiny.save = false;
    sweep(
        "tuning step", CL_OUT_OF_RESOURCES, [&] { r.tune(tiny); }, sum_is_right, 72, 16);

    // Nothing leaked or left locked: eight threads share the reducer and all finish, right.
    std::vector<std::thread> threads;
    std::atomic<int> wrong{0};
    for (int t = 0; t < 8; ++t)
        threads.emplace_back([&] {
            for (int k = 0; k < 10; ++k)
                if (r.sum(values, launched) != exact) ++wrong;
        });
    for (auto& t : threads) t.join();
    CHECK(wrong == 0);
}

}  // namespace clreduce::test
