// Every operation's asynchronous form (Reducer::reduce_async): the result the device finishes
// (cl_kernels/result.cl) is the synchronous call's, bit for bit, field by field, for every
// operation and element type, at edge sizes and offsets, with both one-launch finishes; the
// bytes around it in the caller's buffer stay as they were. The forms the device cannot finish
// are refused with the reason; a checked integer result that does not fit its type sets the
// caller's status word (AsyncTarget::status) where the synchronous call throws Overflow, and
// is not written (check_async, async_result_checks.hpp). These per-type cases are tagged
// [async-every] alone: their hundreds of programs are too slow under the sanitizers, which run
// the asynchronous tags, and this file is left out of their builds; the NaN and huge-integer
// cases are test_async_special_values.cpp.
#include <random>
#include <vector>

#include "async_result_checks.hpp"
#include "test_ops_support.hpp"

namespace clreduce::test {
namespace {

template <class T>
void check_every_operation() {
    Reducer& r = reducer();
    const std::uint64_t total = 70000;
    const std::uint64_t seed = seed_for(sizeof(T), 59, std::is_signed_v<T>);
    INFO("data seed " << seed);
    const auto values = async_values<T>(total, seed);
    const cl::Buffer buffer = device_copy(r, values);
    // (The second pass for two types: each finish and type is a program per operation, and
    // the programs are what takes this test's time.)
    const bool both = std::is_same_v<T, float> || std::is_same_v<T, std::int32_t>;
    for (const InterGroup finish : {InterGroup::last_group, InterGroup::second_pass}) {
        if (finish == InterGroup::second_pass && !both) continue;
        LaunchParams params;
        params.inter_group = finish;
        params.work_group_size = 64;
        params.times = 4;
        for (const std::uint64_t n : {0ull, 1ull, 257ull, 69997ull}) {
            const std::uint64_t offset = n == 69997 ? 3 : 0;
#define CLREDUCE_CHECK_ASYNC(T_, NAME, R_) check_async<Operation::NAME, T_>(r, buffer, offset, n, params);
            CLREDUCE_OPERATIONS(CLREDUCE_CHECK_ASYNC, T)
#undef CLREDUCE_CHECK_ASYNC
        }
    }
}

TEST_CASE("every operation asynchronously gives the synchronous bits for int8", "[async-every]") {
    check_every_operation<std::int8_t>();
}
TEST_CASE("every operation asynchronously gives the synchronous bits for uint16 and int32", "[async-every]") {
    check_every_operation<std::uint16_t>();
    check_every_operation<std::int32_t>();
}
TEST_CASE("every operation asynchronously gives the synchronous bits for int64 and uint64", "[async-every]") {
    check_every_operation<std::int64_t>();
    check_every_operation<std::uint64_t>();
}
TEST_CASE("every operation asynchronously gives the synchronous bits for float and double", "[async-every]") {
    check_every_operation<float>();
    check_every_operation<double>();
}

}  // namespace
}  // namespace clreduce::test
