// clreduce-perf compare's data and report: 8- and 16-bit data over the type's whole range with
// int8 sums checked exactly, the device bandwidth and read-only fraction of a row, and the
// host-data summary (clreduce-host beside the pinned write and the host copy).
#include <catch2/catch.hpp>

#include <algorithm>
#include <limits>
#include <sstream>

#include "measure/read_only_kernel.hpp"
#include "measure/result_check.hpp"
#include "reference/random_values.hpp"
#include "reference/with_element_type.hpp"
#include "report/compare_result.hpp"
#include "test_support.hpp"

using namespace clreduce;
using namespace clreduce::perf;

namespace {

template <class T>
void check_whole_range(std::uint64_t n) {
    const std::uint64_t seed = test::seed_for(n, sizeof(T));
    CAPTURE(seed);
    const std::vector<T> data = testing::random_values<T>(n, seed);
    const auto [lo, hi] = std::minmax_element(data.begin(), data.end());
    CHECK(*lo == std::numeric_limits<T>::min());
    CHECK(*hi == std::numeric_limits<T>::max());
    CHECK(testing::random_values_description<T>().find("whole range") != std::string::npos);
}

}  // namespace

TEST_CASE("8- and 16-bit random data spans the type's whole range", "[compare]") {
    check_whole_range<std::int8_t>(1 << 16);
    check_whole_range<std::uint8_t>(1 << 16);
    check_whole_range<std::int16_t>(1 << 21);
    check_whole_range<std::uint16_t>(1 << 21);
    // Wider types keep |x| < 2^20 (cv::sum stays exact).
    CHECK(testing::random_values_description<std::int32_t>() == "uniform integers in [-1048575, 1048575]");
}

TEST_CASE("int8 sums are int64 and checked exactly", "[compare]") {
    CHECK(testing::with_element_type(ElementType::int8, [](auto tag) {
        return std::is_same_v<decltype(tag), std::int8_t> && std::is_same_v<sum_type_t<decltype(tag)>, std::int64_t>;
    }));
    const std::uint64_t seed = test::seed_for(4095, 8);
    CAPTURE(seed);
    const std::vector<std::int8_t> data = testing::random_values<std::int8_t>(4095, seed);
    std::int64_t sum = 0;
    for (std::int8_t v : data) sum += v;
    const Reference ref = make_reference(data);
    REQUIRE(ref.integral);
    CHECK(ref.exact == static_cast<long double>(sum));
    Measurement m;
    m.values = {static_cast<long double>(sum), static_cast<long double>(sum)};
    CompareRow row;
    check_result(ref, m, row);
    CHECK(row.verdict == Verdict::correct);
    // Off by one, or read as unsigned bytes: wrong.
    std::int64_t as_unsigned = 0;
    for (std::int8_t v : data) as_unsigned += static_cast<std::uint8_t>(v);
    for (long double bad : {static_cast<long double>(sum + 1), static_cast<long double>(as_unsigned)}) {
        m.values = {static_cast<long double>(sum), bad};
        CompareRow wrong;
        check_result(ref, m, wrong);
        CHECK(wrong.verdict == Verdict::wrong);
    }
}

TEST_CASE("device GB/s and the fraction of the read-only kernel's", "[compare]") {
    CompareResult r;
    r.type = ElementType::float64;
    r.read_only = {{1024, 8192, 2.0, ""}, {2048, 16384, 0.0, "failed"}, {1, 0, 1.5, ""}};
    CompareRow row;
    row.n = 1024;
    row.competitor = "clreduce";
    row.device_us = 4.0;
    REQUIRE(r.read_only[0].gbps());
    CHECK(*r.read_only[0].gbps() == Approx(4.096));
    REQUIRE(r.device_gbps(row));
    CHECK(*r.device_gbps(row) == Approx(2.048));
    REQUIRE(r.read_only_fraction(row));
    CHECK(*r.read_only_fraction(row) == Approx(0.5));
    CompareRow no_device = row;
    no_device.device_us.reset();
    CHECK_FALSE(r.read_only_fraction(no_device));
    CompareRow failed_bound = row;
    failed_bound.n = 2048;
    CHECK_FALSE(r.read_only_fraction(failed_bound));  // the read-only kernel failed at 2048
    CompareRow nothing_read = row;
    nothing_read.n = 1;
    CHECK_FALSE(r.read_only_fraction(nothing_read));  // 8 bytes: no whole 16-byte vector
}

TEST_CASE("the read-only kernel reads whole 16-byte vectors", "[compare]") {
    CHECK(ReadOnlyKernel::bytes_read(4095) == 4080);
    CHECK(ReadOnlyKernel::bytes_read(4096) == 4096);
    CHECK(ReadOnlyKernel::bytes_read(15) == 0);
}

TEST_CASE("host data: wall GB/s, clreduce-host's share of the pinned write, the summary", "[compare]") {
    CompareResult r;
    r.type = ElementType::int32;
    r.sizes = {1 << 20, 1 << 22};
    const auto row = [](std::uint64_t n, std::string name, double wall_us, bool copy) {
        CompareRow x;
        x.n = n;
        x.competitor = std::move(name);
        x.wall_us = wall_us;
        x.copy = copy;
        return x;
    };
    r.rows = {row(1 << 20, "clreduce-host", 400.0, false), row(1 << 20, "pinned write", 100.0, true),
              row(1 << 20, "pageable write", 800.0, true), row(1 << 20, "host read", 200.0, false),
              row(1 << 20, "host copy", 160.0, true),      row(1 << 22, "clreduce-host", 1000.0, false)};
    REQUIRE(r.wall_gbps(r.rows[0]));
    CHECK(*r.wall_gbps(r.rows[0]) == Approx(4194304.0 / 400e3));
    REQUIRE(r.host_link_fraction(1 << 20));
    CHECK(*r.host_link_fraction(1 << 20) == Approx(0.25));
    CHECK_FALSE(r.host_link_fraction(1 << 22));  // no pinned write there
    // The host copy (160 us) is slower than the link (100 us): the bound is 160 / 400.
    REQUIRE(r.host_bound_fraction(1 << 20));
    CHECK(*r.host_bound_fraction(1 << 20) == Approx(0.4));
    CHECK_FALSE(r.host_bound_fraction(1 << 22));
    std::ostringstream out;
    print_compare_table(r, out);
    const std::string text = out.str();
    INFO(text);
    CHECK(text.find("clreduce-host/pinned") != std::string::npos);
    CHECK(text.find("0.250") != std::string::npos);
    CHECK(text.find("0.400") != std::string::npos);
    CHECK(text.find("host copy") != std::string::npos);
    CHECK(text.find("copy") != std::string::npos);  // the copy rows say what they are
}
